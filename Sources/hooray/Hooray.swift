import ArgumentParser
import BuiltInPlugins
import Foundation
import HoorayEngine
import HoorayKit

@main
struct Hooray: AsyncParsableCommand {
    static func main() async {
        let arguments = ProcessArguments.current()
        // Without an absolute home folder or a private runtime folder no command can be sure where
        // its files are: say so, create nothing, and talk to no socket. Help, the version and the
        // completion scripts touch no file, so they still answer.
        let touchesNoFile =
            arguments.first == "help"
            || arguments.contains {
                ["--help", "-h", "--version"].contains($0) || $0.hasPrefix("--generate-completion-script")
            }
        do {
            if !touchesNoFile { try CLISession.checkEnvironment() }
        } catch {
            warn("hooray: \(error)")
            Foundation.exit(ExitStatus.configuration.rawValue)
        }
        if let code = await PluginCommandLine.handle(arguments) {
            Foundation.exit(code)
        }
        await main(arguments)
    }

    /// `hooray`'s own commands; the plugins' follow them.
    static let hostCommands: [any ParsableCommand.Type] = [
        Next.self, Inbox.self, Act.self, Status.self, Plugins.self, ConfigCommand.self, Reload.self,
        DeleteMyData.self, IdentityCommand.self, AIGroup.self,
    ]

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "hooray",
            abstract: "Gentle desktop reminders and celebrations.",
            discussion: """
                hooray talks to hoorayd, the scheduler that shows your reminders as desktop notifications.
                Most commands also work while hoorayd is not running, and say so.

                Configuration: ~/.config/hooray/hooray.toml (see `hooray config check`).
                Data: ~/.local/share/hooray/.
                """,
            version: HoorayVersion.current,
            subcommands: commandTree.visibleChildren(of: 0).compactMap { node in
                commandTree.index(of: node.path).map { pluginNodeTypes[$0] }
            } + hostCommands
        )
    }
}

/// The built-in plugins, registered explicitly.
let builtInPlugins = BuiltInPlugins.all

struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Read this configuration file after all others.", valueName: "file"))
    var config: String?
}

/// Prints a line to standard error.
func warn(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Fails the command with a message and exit code 1.
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
