import ArgumentParser
import Foundation
import HoorayCLIHost
import HoorayClient
import HoorayEngine
import HoorayExternalPlugins
import HoorayKit
import HoorayTerminal
import HoorayText

/// The plugins as `hooray plugins` lists them: from the running hoorayd, or else from the
/// configuration and the plugin folders.
enum PluginReports {
    /// The reports, and whether hoorayd gave them.
    ///
    /// - Parameter quiet: Whether to leave unsaid the broken parts of the configuration left out.
    static func current(_ session: CLISession, quiet: Bool = false) async throws -> (
        reports: [PluginReport], live: Bool
    ) {
        if let response = try? session.send(.plugins), response.ok, let reports = response.plugins {
            return (reports, true)
        }
        let (loaded, ignored) = try session.loadConfigurationLeniently(plugins: installedPlugins)
        // A plugin whose section is left out shows its default state; the line says so.
        for line in ignored where !quiet { warn(TerminalText.safe(line, multiline: true)) }
        return (await PluginReport.reports(catalog: pluginCatalog, enabled: loaded.enabledPlugins, engine: nil), false)
    }

    /// The report of `name`, or a refusal in the words of every other usage error: the near match,
    /// the usage line, exit 64.
    static func named(_ name: String, in reports: [PluginReport], command: String) throws -> PluginReport {
        if let report = reports.first(where: { $0.name == name }) { return report }
        var message = "hooray plugins \(command): there is no plugin \"\(TerminalText.safe(name))\""
        if let near = NameSuggestion.closest(to: name, among: reports.map(\.name)) {
            message += "; did you mean `hooray plugins \(command) \(near)`?"
        } else {
            message += "; `hooray plugins` lists them"
        }
        warn(message)
        warn("Usage: hooray plugins \(command) <name>")
        warn("See `hooray help plugins \(command)`.")
        throw ExitCode(ExitStatus.usage.rawValue)
    }
}

struct PluginsShow: AsyncParsableCommand, OffersJSON {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one plugin in full: its program, state, permissions, and what it can and cannot reach.",
        discussion: """
            For a plugin in another language: its name, version and description, its folder, program and \
            data folder, its state and last error, its permissions in plain words, what its sandbox lets \
            it reach and what it keeps from it, and why it is held when it waits for `hooray plugins \
            allow NAME` (docs/plugins.md).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The plugin, as `hooray plugins` lists it.")
    var name: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let session = try CLISession(configFile: global.configFile)
        let report = try PluginReports.named(
            name, in: try await PluginReports.current(session).reports, command: "show")
        // Without a sandbox here, a plugin runs only when `allow_unsandboxed` says so, and then it
        // reaches all the user can.
        let unsandboxed =
            PluginSandbox.availability != .available
            && (try? session.loadConfigurationLeniently(plugins: installedPlugins).0.loaded.allowsUnsandboxedPlugins)
                == true
        let detail = PluginDetail(report, sandboxed: !unsandboxed)
        if json {
            print(try Output.json(Output.camelCased(JSONValue(encoding: detail))))
            return
        }
        print(detail.text)
    }
}

/// `hooray plugins show NAME --json`: the `pluginDetail` type of docs/json.md.
struct PluginDetail: Encodable {
    /// The plugin and how it is doing.
    let item: PluginReport
    /// The program and its arguments.
    let program: [String]?
    let dataFolder: String?
    let canReach: [String]?
    let cannotReach: [String]?
    let limits: [String]?

    init(_ report: PluginReport, sandboxed: Bool) {
        item = report
        let manifest = pluginCatalog.external.first { $0.name == report.name }?.manifest
        program = report.kind == "external" ? manifest?.exec : nil
        let data = manifest.map { pluginCatalog.dataFolder(of: $0.name) }
        dataFolder = data
        let reach = manifest.map { $0.reach(dataFolder: data ?? "", sandboxed: sandboxed) }
        canReach = reach?.can
        cannotReach = reach?.cannot
        limits = sandboxed ? manifest?.limitWords : nil
    }

    enum CodingKeys: String, CodingKey {
        case program, dataFolder, canReach, cannotReach, limits
    }

    func encode(to encoder: any Encoder) throws {
        try item.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(program, forKey: .program)
        try container.encode(dataFolder, forKey: .dataFolder)
        try container.encode(canReach, forKey: .canReach)
        try container.encode(cannotReach, forKey: .cannotReach)
        try container.encode(limits, forKey: .limits)
    }

    /// The text `hooray plugins show NAME` prints.
    var text: String {
        var lines: [String] = []
        let title = [item.name, item.version].compactMap { $0 }.joined(separator: " ")
        lines.append(item.summary.isEmpty ? title : "\(title) — \(item.summary)")
        func field(_ label: String, _ value: String?) {
            guard let value else { return }
            lines.append(TerminalText.padding(label + ":", toWidth: 13) + value)
        }
        guard item.kind == "external" else {
            field("State", item.state)
            lines.append("")
            lines.append(
                "A built-in plugin, part of hoorayd: it runs inside hoorayd, with what hoorayd can reach, "
                    + "and needs no permissions.")
            return lines.map { TerminalText.safe($0) }.joined(separator: "\n")
        }
        field("State", item.state + (item.pid.map { " (pid \($0))" } ?? ""))
        field("Folder", item.folder)
        field("Program", program.map { $0.joined(separator: " ") })
        field("Data folder", dataFolder)
        field("Plugin API", item.apiVersion)
        field("Restarts", item.restarts.map(String.init))
        if item.state == "held" {
            field("Held", item.lastError.map { $0.hasPrefix("held: ") ? String($0.dropFirst(6)) : $0 })
        } else {
            field(item.state == "refused" ? "Refused" : "Last error", item.lastError)
        }
        if let permissions = item.permissions {
            lines.append("")
            let waiting = Set(item.notAllowed ?? [])
            if permissions.isEmpty {
                lines.append("It asks for no permissions: it may only answer its commands.")
            } else {
                lines.append("It asks to:")
                for words in permissions {
                    lines.append("  - " + words + (waiting.contains(words) ? " (not allowed yet)" : ""))
                }
            }
        }
        for (heading, entries) in [("It can reach:", canReach), ("It cannot reach:", cannotReach), ("Limits:", limits)]
        {
            guard let entries, !entries.isEmpty else { continue }
            lines.append("")
            lines.append(heading)
            lines += entries.map { "  - " + $0 }
        }
        return lines.map { TerminalText.safe($0) }.joined(separator: "\n")
    }
}

struct PluginsAllow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "allow",
        abstract: "Allow a held plugin the new permissions its plugin.toml asks for, and start it.",
        discussion: """
            A plugin in another language whose plugin.toml asks for a permission you have not allowed \
            (after an update, say) is held: hoorayd does not start it, and `hooray plugins` says what it \
            asks for. This shows what it will allow, records it, and has hoorayd start the plugin; while \
            hoorayd is stopped, it takes effect when hoorayd starts. Exits 0 once allowed (and running), \
            1 when it could not be, 64 for a name that is no plugin.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The plugin, as `hooray plugins` lists it.")
    var name: String

    func run() async throws {
        let session = try CLISession(configFile: global.configFile)
        let (reports, live) = try await PluginReports.current(session)
        let report = try PluginReports.named(name, in: reports, command: "allow")
        guard report.kind == "external" else {
            warn("hooray plugins allow: \(name) is a built-in plugin, part of hoorayd; it needs no permissions.")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        guard report.state != "refused" else {
            warn(
                "hooray plugins allow: the \(name) plugin is not loaded: "
                    + TerminalText.safe(report.lastError ?? "its folder is refused") + "; fix it, then `hooray reload`")
            throw ExitCode(1)
        }
        let waiting = report.notAllowed ?? []
        guard !waiting.isEmpty else {
            let permissions = report.permissions ?? []
            print(
                permissions.isEmpty
                    ? "\(name) asks for no permissions; there is nothing to allow."
                    : "\(name) asks for nothing new; it may already "
                        + TerminalText.safe(permissions.joined(separator: "; ")) + ".")
            return
        }
        print("Allowing \(name) to:")
        for words in waiting { print("  - " + TerminalText.safe(words)) }
        if live {
            let response: ControlResponse?
            do {
                response = try session.send(.allow(plugin: name))
            } catch {
                warn("hooray plugins allow: hoorayd did not answer (\(error)); try again shortly.")
                throw ExitCode(ExitStatus.busy.rawValue)
            }
            if let response {
                let message = TerminalText.safe((response.message ?? "allowed").capitalizedFirst + ".")
                guard response.ok else {
                    warn("hooray plugins allow: \(message)")
                    throw ExitCode(1)
                }
                print(message)
                return
            }
        }
        do {
            try pluginCatalog.allow(name)
        } catch {
            warn("hooray plugins allow: \(error); nothing was allowed.")
            throw ExitCode(1)
        }
        print(
            report.state == "disabled"
                ? "Allowed; the \(name) plugin is turned off, and `[plugins.\(name)] enabled = true` turns it on."
                : "Allowed. hoorayd is not running: \(name) starts when it does (`systemctl --user start hooray`).")
    }
}
