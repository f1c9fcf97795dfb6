import ArgumentParser
import Foundation
import HoorayCLIHost
import HoorayClient
import HoorayConfig
import HoorayDelivery
import HoorayEngine
import HoorayExternalPlugins
import HoorayKit
import HoorayStorage
import HoorayTerminal
import HoorayText

struct Plugins: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the plugins and how they are doing; show, allow or restart a plugin in another language.",
        subcommands: [PluginsList.self, PluginsShow.self, PluginsAllow.self, PluginsRestart.self],
        defaultSubcommand: PluginsList.self)
}

struct PluginsList: AsyncParsableCommand, OffersJSON {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "list",
            abstract: "List the plugins: built-in ones and those in other languages, their state and last error.",
            discussion: """
                Plugins in other languages are folders in \(UserPaths.pluginFolders.map { $0 + "/" }.joined(separator: " and ")) \
                (docs/plugins.md). While hoorayd runs, each shows its state (running, starting, restarting, \
                given up), its process id, how often it was restarted and the last thing that went wrong; a \
                folder that is not loaded shows as refused, with the reason. Each plugin in another language's \
                permissions are listed in plain words; one that asks for a permission you have not allowed \
                shows as held until `hooray plugins allow NAME`.
                """)
    }

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let session = try CLISession(configFile: global.configFile)
        let all = try await PluginReports.current(session).reports
        if json {
            // The protocol's reports, as docs/json.md names their members (`last_error` → `lastError`).
            print(try Output.json(Output.camelCased(JSONValue(encoding: all))))
            return
        }
        var table = Output.Table(headers: ["PLUGIN", "STATE", "VERSION", "API", "PID", "RESTARTS", "WHAT IT DOES"])
        for report in all {
            table.add([
                report.name, report.state, report.version ?? "—", report.apiVersion ?? "—",
                report.pid.map(String.init) ?? "—", report.restarts.map(String.init) ?? "—",
                TerminalText.safe(report.summary),
            ])
        }
        print(table.render())
        let permitted = all.filter { $0.permissions != nil }
        if !permitted.isEmpty {
            print()
            print("What each plugin in another language may do:")
            for report in permitted {
                let words = report.permissions ?? []
                print(
                    TerminalText.safe(
                        "  \(report.name): "
                            + (words.isEmpty ? "answer its commands, no more" : words.joined(separator: "; "))))
            }
        }
        print()
        print(
            "Plugins in other languages are looked for in "
                + UserPaths.pluginFolders.map { TerminalText.safe($0) }.joined(separator: " and ")
                + " (docs/plugins.md).")
        let troubled = all.filter { $0.lastError != nil }
        if !troubled.isEmpty {
            print()
            for report in troubled {
                print(TerminalText.safe("\(report.name): \(report.lastError ?? "")"))
            }
        }
    }
}

struct PluginsRestart: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restart",
        abstract: "Stop a plugin in another language and start it again, forgetting its earlier exits.",
        discussion: "Exits 0 once it answers again, 1 when it does not, 69 when hoorayd is not running.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The plugin, as `hooray plugins` lists it.")
    var name: String

    func run() async throws {
        let session = try CLISession(configFile: global.configFile)
        let response: ControlResponse?
        do {
            // The session waits long enough for hoorayd to stop the plugin and for its `initialize`.
            response = try session.send(.restart(plugin: name))
        } catch {
            warn("hooray plugins restart: hoorayd did not answer (\(error)); try again shortly.")
            throw ExitCode(ExitStatus.busy.rawValue)
        }
        guard let response else {
            warn(
                "hooray plugins restart: hoorayd is not running, so no plugin runs; start it with `systemctl --user start hooray` (plugins start with it)."
            )
            throw ExitCode(ExitStatus.unavailable.rawValue)
        }
        guard response.ok else {
            warn("hooray plugins restart: \(TerminalText.safe(response.message ?? "it did not restart"))")
            throw ExitCode(1)
        }
        print(TerminalText.safe((response.message ?? "restarted \(name)").capitalizedFirst + "."))
    }
}
