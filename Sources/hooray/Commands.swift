import ArgumentParser
import Foundation
import HoorayConfig
import HoorayDelivery
import HoorayEngine
import HoorayKit
import HoorayStorage

struct Next: AsyncParsableCommand, OffersJSON {
    static let configuration = CommandConfiguration(
        abstract: "Show the upcoming reminders, in local time.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .shortAndLong, help: "Show at most this many.")
    var limit: Int = 20

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func validate() throws {
        guard limit > 0 else {
            throw ValidationError("--limit must be at least 1; got \(limit). For example --limit 5")
        }
    }

    func run() async throws {
        let session = try CLISession(configFile: global.configFile)
        let running = session.daemonIsRunning
        if !running {
            // Bring the stored reminders in line with the configuration, as hoorayd would at start.
            try await session.syncRulesFromConfiguration(plugins: builtInPlugins)
        }
        let rules = try await session.database().rules().filter { $0.nextDue != nil }.prefix(limit)
        if json {
            let items = rules.map {
                NextItem(
                    plugin: $0.plugin, id: $0.reminder.id, title: $0.reminder.notice.title,
                    due: $0.nextDue!, schedule: $0.reminder.schedule.summary,
                    zone: $0.reminder.schedule.zone?.identifier)
            }
            print(try Output.json(items))
        } else if rules.isEmpty {
            print("No reminders are scheduled.")
            print("Add one to ~/.config/hooray/hooray.toml, for example:\n")
            print(Output.reminderExample)
        } else {
            var table = Output.Table(headers: ["WHEN", "REMINDER", "SCHEDULE", "PLUGIN"])
            for rule in rules {
                var schedule = rule.reminder.schedule.summary
                if let zone = rule.reminder.schedule.zone, zone.identifier != TimeZone.current.identifier {
                    schedule += " (\(zone.identifier))"
                }
                table.add([Output.when(rule.nextDue!), rule.reminder.notice.title, schedule, rule.plugin])
            }
            print(table.render())
        }
        if !running && !json {
            warn(
                "\nhoorayd is not running, so these will not be shown until it starts (`make run` or `systemctl --user start hooray`)."
            )
        }
    }
}

struct NextItem: Encodable {
    let plugin: String
    let id: String
    let title: String
    let due: Date
    let schedule: String
    let zone: String?
}

struct Inbox: AsyncParsableCommand, OffersJSON {
    static let configuration = CommandConfiguration(
        abstract: "Show notices that have not reached the screen yet.",
        discussion: """
            Notices wait here when no notification server is running, and are shown as soon as one \
            appears. With --all, recently shown notices are listed too. Buttons of a notice can be \
            pressed with `hooray act ID ACTION`.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Include notices that were already shown.")
    var all = false

    @Option(name: .shortAndLong, help: "Show at most this many.")
    var limit: Int = 50

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        guard limit > 0 else {
            throw ValidationError("--limit must be at least 1; got \(limit). For example --limit 10")
        }
    }

    func run() async throws {
        let session = try CLISession(configFile: GlobalArguments.current.config)
        let database = try session.database()
        let notices = try await database.inbox(includeDelivered: all, limit: limit)
        if json {
            print(try Output.json(notices.map(InboxItem.init)))
            return
        }
        if notices.isEmpty {
            print(all ? "No notices yet." : "Your inbox is empty: every notice has been shown.")
            return
        }
        for stored in notices {
            print(Output.inboxEntry(stored))
        }
        // Older notices past the limit are not gone; say so, and how to see them.
        let total = try await database.inboxCount(includeDelivered: all)
        if total > notices.count {
            print(
                "… and \(total - notices.count) older; `hooray inbox\(all ? " --all" : "") --limit \(total)` lists them all."
            )
        }
        if !session.daemonIsRunning {
            warn("\nhoorayd is not running; waiting notices are shown once it starts.")
        }
    }
}

struct InboxItem: Encodable {
    let id: Int64
    let plugin: String
    let title: String
    let body: String
    let state: String
    let createdAt: Date
    let deliveredAt: Date?
    let lastError: String?
    let actions: [NoticeAction]

    init(_ stored: StoredNotice) {
        id = stored.id.rawValue
        plugin = stored.plugin
        title = stored.notice.title
        body = stored.notice.body
        state = stored.state.rawValue
        createdAt = stored.createdAt
        deliveredAt = stored.deliveredAt
        lastError = stored.lastError
        actions = stored.notice.actions
    }
}

struct Act: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Press a button of a notice, as if clicked on the notification.",
        discussion: "`hooray inbox --all` lists notices with their ids and buttons.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The notice's id, from `hooray inbox`.")
    var notice: Int64

    @Argument(help: "The button's key, e.g. done or snooze.")
    var action: String

    func run() async throws {
        let session = try CLISession(configFile: GlobalArguments.current.config)
        guard let response = try session.send(.act(notice: notice, action: action)) else {
            throw CommandFailure(
                message: "hoorayd is not running; start it first (`make run` or `systemctl --user start hooray`).")
        }
        guard response.ok else { throw CommandFailure(message: response.message ?? "the action failed") }
        print("Done.")
    }
}

struct Reload: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make hoorayd re-read its configuration (like `systemctl --user reload hooray`).",
        discussion: """
            Exits 78 when the configuration has errors (hoorayd carries on with the last good one) \
            and 69 when hoorayd is not running.
            """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let session = try CLISession(configFile: GlobalArguments.current.config)
        guard let response = try session.send(.reload) else {
            warn("hooray reload: hoorayd is not running; the configuration is read when it starts.")
            throw ExitCode(ExitStatus.unavailable.rawValue)
        }
        guard response.ok else {
            // hoorayd refuses a reload only for a configuration with errors, and keeps the last good one.
            warn("hooray reload: \(response.message ?? "hoorayd refused the new configuration")")
            throw ExitCode(ExitStatus.configuration.rawValue)
        }
        print("hoorayd reloaded its configuration.")
    }
}

struct Status: AsyncParsableCommand, OffersJSON {
    static let configuration = CommandConfiguration(
        abstract: "Is hoorayd running, and which notification server does it deliver to?",
        discussion:
            "Exits 0 when hoorayd is running, 69 when it is not (with --json too), 75 when it is too busy to answer.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let session = try CLISession(configFile: GlobalArguments.current.config)
        let response = try session.send(.status)
        if let response, response.status == nil {
            // A daemon is there but would not say how it is, such as when it is busy: try again later.
            warn(
                "hooray status: hoorayd is running but answered: \(response.message ?? "no status"); try again in a moment."
            )
            throw ExitCode(ExitStatus.busy.rawValue)
        }
        if let status = response?.status {
            if json {
                // The CLI's JSON names members in camelCase, as every other `--json` does; the wire's
                // snake_case stays on the control socket.
                print(Output.camelCased(try JSONValue(encoding: status)).text(pretty: true))
                return
            }
            print(
                "hoorayd is running (pid \(status.pid), version \(status.version), since \(Output.when(status.startedAt)))."
            )
            if let server = status.server {
                print(
                    "Notification server: \(server.name) \(server.version) by \(server.vendor) (spec \(server.specVersion))"
                )
                print("Capabilities: \(server.capabilities.joined(separator: ", "))")
            } else {
                print(
                    "Notification server: none (\(status.serverProblem ?? "unknown")); notices wait in `hooray inbox`.")
            }
            print("Plugins: \(status.plugins.joined(separator: ", "))")
            print("Waiting notices: \(status.waitingNotices)")
            print("Next reminder: \(status.nextDue.map { Output.when($0) } ?? "none")")
            if !status.configFiles.isEmpty { print("Configuration: \(status.configFiles.joined(separator: ", "))") }
            if let identity = status.identity { print("Anonymous id: \(identity)") }
            return
        }
        // No daemon: report what we can see ourselves.
        let identity = session.identityVault(plugins: builtInPlugins).whereabouts()
        let server = await session.probeServer()
        if json {
            print(
                try Output.json(
                    OfflineStatus(
                        running: false, server: server.info, serverProblem: server.problem, identity: identity)))
            throw ExitCode(ExitStatus.unavailable.rawValue)
        }
        print("hoorayd is not running. Start it with `make run` or `systemctl --user start hooray`.")
        switch server {
        case .available(let description):
            print(
                "Notification server: \(description.name) \(description.version) by \(description.vendor) (spec \(description.specVersion))"
            )
            print("Capabilities: \(description.capabilities.joined(separator: ", "))")
        case .unavailable, .timedOut:
            print("Notification server: none (\(server.problem ?? "unknown")); notices would wait in `hooray inbox`.")
        }
        print("Anonymous id: \(identity)")
        throw ExitCode(ExitStatus.unavailable.rawValue)
    }
}

struct OfflineStatus: Encodable {
    let running: Bool
    let server: ServerInfo?
    let serverProblem: String?
    /// Where the anonymous identity is kept, in words.
    let identity: String
}

struct Plugins: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the plugins and whether they are enabled.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let session = try CLISession(configFile: global.configFile)
        let enabled = (try? session.loadConfiguration(plugins: builtInPlugins))?.enabledPlugins
        var table = Output.Table(headers: ["PLUGIN", "STATE", "WHAT IT DOES"])
        for plugin in builtInPlugins {
            let state: String
            if let enabled { state = enabled.contains(plugin.name) ? "enabled" : "disabled" } else { state = "?" }
            table.add([plugin.name, state, plugin.summary])
        }
        print(table.render())
        if enabled == nil {
            warn("\nThe configuration has errors; `hooray config check` shows them.")
        }
    }
}

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Work with the configuration.", subcommands: [Check.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the configuration files for errors.",
            discussion: """
                Without FILE, checks every file hoorayd would read: /etc/hooray/hooray.toml, \
                /etc/hooray/conf.d/*.toml, ~/.config/hooray/hooray.toml and ~/.config/hooray/conf.d/*.toml \
                (and the file of --config). Given a folder, checks each .toml file in it. \
                Problems are printed as file:line:column: message. Exits 78 when there is an error.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(
            help: "Check only this file, or the .toml files in this folder.", completion: .file(extensions: ["toml"]))
        var file: String?

        @Flag(help: "Treat warnings (such as unknown keys) as errors.")
        var strict = false

        func run() async throws {
            let environment = ProcessInfo.processInfo.environment
            var report = ConfigCheckReport(files: [], diagnostics: ConfigDiagnostics())
            for path in try files() {
                let checked = ConfigurationLoader.check(
                    file: path, configFile: global.configFile, environment: environment, plugins: builtInPlugins)
                report.files += checked.files
                report.diagnostics.append(contentsOf: checked.diagnostics)
            }
            let failed = report.hasErrors || (strict && !report.diagnostics.warnings.isEmpty)
            for diagnostic in report.diagnostics { warn(diagnostic.description) }
            if failed {
                warn(report.summary)
                throw ExitCode(ExitStatus.configuration.rawValue)
            }
            print("Configuration OK: \(report.summary)")
        }

        /// What to check: every layer (`nil`), the file given, or the .toml files of the folder given.
        func files() throws -> [String?] {
            guard let file else { return [nil] }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), isFolder.boolValue else {
                return [file]
            }
            let folder = (file as NSString).standardizingPath
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasSuffix(".toml") && !$0.hasPrefix(".") }.sorted()
            guard !names.isEmpty else {
                warn(
                    "hooray config check: \(file) is a folder, and it has no .toml files to check; "
                        + "give a configuration file, such as `hooray config check \(folder)/hooray.toml`.")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            warn("\(file) is a folder: checking the \(names.count) .toml file\(names.count == 1 ? "" : "s") in it.")
            return names.map { (folder as NSString).appendingPathComponent($0) }
        }
    }
}
