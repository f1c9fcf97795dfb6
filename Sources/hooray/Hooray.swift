import ArgumentParser
import BuiltInPlugins
import BuiltInTerminal
import Foundation
import HoorayCLIHost
import HoorayClient
import HoorayCommands
import HoorayEngine
import HoorayExternalPlugins
import HoorayKit
import HoorayStorage
import HoorayTerminal

@main
struct Hooray: AsyncParsableCommand {
    static func main() async {
        if CommandLineCheck.isRequested { CommandLineCheck.run() }
        let global = GlobalArguments.current
        if let problem = global.problem {
            warn("hooray: \(problem)")
            Foundation.exit(ExitStatus.usage.rawValue)
        }
        let arguments = global.remaining
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
        // A file named with --config was asked for by name: running without it would not be what the
        // user asked (`hooray config path` still lists it, as missing).
        if let file = global.config, !touchesNoFile, arguments.prefix(2) != ["config", "path"],
            !FileManager.default.fileExists(atPath: file)
        {
            warn(
                "hooray: the configuration file given with --config, \(file), does not exist; nothing was done. "
                    + "Check the path, or leave out --config to use \(UserPaths.configFile) and the others "
                    + "`hooray config path` lists.")
            Foundation.exit(ExitStatus.configuration.rawValue)
        }
        if arguments.first.map(PluginCommandLine.isHostWord) != true,
            arguments.prefix(while: { $0 != "--" }).contains("--version")
        {
            // The plugins' commands take --version as hooray's own do (the manual lists it under each).
            print(HoorayVersion.current)
            Foundation.exit(0)
        }
        if let code = await PluginCommandLine.handle(arguments) {
            Foundation.exit(code)
        }
        await runHostCommand(arguments)
    }

    /// Runs one of `hooray`'s own commands, as swift-argument-parser's `main` does, with the
    /// global `--json` given to the commands that print JSON and refused by the others.
    static func runHostCommand(_ arguments: [String]) async -> Never {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            ParserErrorReport.exit(error, arguments: arguments)
        }
        do {
            if GlobalArguments.current.json, !(command is Hooray) {
                guard var printsJSON = command as? any OffersJSON & ParsableCommand else {
                    let name = (["hooray"] + arguments.prefix { !$0.hasPrefix("-") }).joined(separator: " ")
                    warn("\(name) has no JSON output; leave out --json.")
                    warn("See `\(name) --help` for what it prints.")
                    Foundation.exit(ExitStatus.usage.rawValue)
                }
                printsJSON.json = true
                // `--json` is taken out of the arguments before they are parsed, so the command's own
                // checks (such as --json beside --pdf) run again now that it is set, and a refusal is
                // said as the parser's are.
                do {
                    try printsJSON.validate()
                } catch {
                    ParserErrorReport.exit(error, arguments: arguments)
                }
                command = printsJSON
            }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit()
        } catch let error as StorageError {
            // A problem with the database says what is wrong and the fix; it is not a usage error.
            warn("hooray: \(error)")
            Foundation.exit(ExitStatus.failed.rawValue)
        } catch {
            exit(withError: error)
        }
    }

    @OptionGroup var global: GlobalOptions

    /// `hooray`'s own commands, then the built-in plugins' commands that run on the terminal
    /// (`BuiltInTerminal`); the plugins' other commands follow them.
    static let hostCommands: [any ParsableCommand.Type] =
        [
            Next.self, Inbox.self, Missed.self, Act.self, Pause.self, Status.self, Bar.self, Menu.self, Plugins.self,
            PluginAuthoring.self,
            ConfigCommand.self,
            Reload.self,
            DeleteMyData.self, ExportCommand.self, ImportCommand.self, IdentityCommand.self, AIGroup.self,
            SyncGroup.self,
            Doctor.self,
        ] + BuiltInTerminal.commands

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "hooray",
            abstract: "Gentle desktop reminders and celebrations.",
            discussion: """
                hooray talks to hoorayd, the scheduler that shows your reminders as desktop notifications.
                Most commands also work while hoorayd is not running, and say so.

                A fresh install is calm: a one-time welcome and nothing else. A plugin's daily notices \
                start with your first use of that plugin, which says what it scheduled and how to turn it \
                off, or when you switch them on in its [plugins.NAME] section (docs/calm-delivery.md).

                Configuration: \(UserPaths.configFile) (`hooray config path` lists every file read).
                Data: \(UserPaths.dataDirectory)/.
                Documentation: README.md and docs/ (a page per topic) in Hooray's source; the Debian \
                package installs them in /usr/share/doc/hooray/.

                Every command takes --config FILE (read this configuration file after all others), \
                --json (print JSON, where the command offers it) and --no-color, before or after its name.

                Exit status:
                \(ExitStatus.table)
                """,
            version: HoorayVersion.current,
            subcommands: commandTree.visibleChildren(of: 0).compactMap { node in
                commandTree.index(of: node.path).map { pluginNodeTypes[$0] }
            } + hostCommands
        )
    }
}
