import ArgumentParser
import HoorayTerminal

/// `hooray plugin`: tools for people who write plugins in other languages.
struct PluginAuthoring: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "plugin",
            abstract: "Write a plugin in any language: start one, and check that it speaks the protocol.",
            discussion: """
                A plugin is a folder with a plugin.toml and a program that speaks JSON-RPC over its standard \
                input and output (docs/protocol.md). Put the folder in \(UserPaths.pluginFolders.first ?? "$XDG_DATA_HOME/hooray/plugins")/ and run \
                `hooray reload`.
                """,
            subcommands: [PluginNew.self, PluginTest.self])
    }
}
