import ArgumentParser
import Foundation
import HoorayCLIHost
import HoorayClient
import HoorayCommands
import HoorayConfig
import HoorayDelivery
import HoorayEngine
import HoorayKit
import HoorayStorage
import HoorayTerminal
import HoorayText

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
        // Reading the inbox creates no data folder: without a database there is nothing in it.
        let database = try session.existingDatabase()
        let notices = try await database?.inbox(includeDelivered: all, limit: limit) ?? []
        if json {
            print(try Output.json(notices.map(InboxItem.init)))
            return
        }
        if notices.isEmpty {
            print(all ? "No notices yet." : "Your inbox is empty: every notice has been shown.")
            return
        }
        // Why notices wait is said once per reason, not under every notice.
        let reasons = Output.inboxReasons(notices) + Output.heldReasons(notices)
        for line in reasons { print(line) }
        if !reasons.isEmpty { print() }
        for stored in notices {
            print(Output.inboxEntry(stored))
        }
        // Older notices past the limit are not gone; say so, and how to see them.
        let total = try await database?.inboxCount(includeDelivered: all) ?? 0
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

/// A notice as `hooray inbox --json` prints it: the `notice` type of docs/json.md.
struct InboxItem: Encodable {
    /// A button: its `prompt` written as `null` when it asks no question, as every absent value is.
    struct Button: Encodable {
        let id: String
        let label: String
        let prompt: String?

        init(_ action: NoticeAction) {
            id = action.id
            label = action.label
            prompt = action.prompt
        }

        enum CodingKeys: String, CodingKey { case id, label, prompt }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(label, forKey: .label)
            try container.encode(prompt, forKey: .prompt)
        }
    }

    let id: Int64
    let plugin: String
    let title: String
    let body: String
    let state: String
    let createdAt: Date
    let deliveredAt: Date?
    let lastError: String?
    let actions: [Button]
    let heldUntil: Date?
    let heldBecause: String?
    let digest: Int64?

    init(_ stored: StoredNotice) {
        heldUntil = stored.heldUntil
        heldBecause = stored.heldBecause
        digest = stored.digestID?.rawValue
        id = stored.id.rawValue
        plugin = stored.plugin
        title = stored.notice.title
        body = stored.notice.body
        state = stored.state.rawValue
        createdAt = stored.createdAt
        deliveredAt = stored.deliveredAt
        lastError = stored.lastError
        actions = stored.notice.actions.map(Button.init)
    }

    enum CodingKeys: String, CodingKey {
        case id, plugin, title, body, state, createdAt, deliveredAt, lastError, actions, heldUntil, heldBecause, digest
    }

    /// Every key is written, `null` when absent, so every notice has the same keys.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(plugin, forKey: .plugin)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(state, forKey: .state)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(deliveredAt, forKey: .deliveredAt)
        try container.encode(lastError, forKey: .lastError)
        try container.encode(actions, forKey: .actions)
        try container.encode(heldUntil, forKey: .heldUntil)
        try container.encode(heldBecause, forKey: .heldBecause)
        try container.encode(digest, forKey: .digest)
    }
}

struct Act: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Press a button of a notice, as if clicked on the notification.",
        discussion: """
            `hooray inbox --all` lists notices with their ids and buttons. A button that asks a \
            question (`hooray inbox` says so) asks it here when standard input is a terminal: type \
            one line, or press Enter to give no answer, and the button does what it does without \
            one (as a click on the notification does); Ctrl-D on the empty line presses nothing (exit 1). Without a \
            terminal nothing is asked; --answer gives the answer. An answer is plain text of at \
            most 1000 characters, without control characters (exit 64 otherwise). An answer needs \
            a hoorayd of this hooray's version: after an upgrade, restart it (exit 69 otherwise).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The notice's id, from `hooray inbox`.")
    var notice: Int64

    @Argument(help: "The button's key, e.g. done or snooze.")
    var action: String

    @Option(
        help: ArgumentHelp(
            "The answer to the button's question, instead of asking it (for a script, or without a terminal).",
            valueName: "text"))
    var answer: String?

    /// The message when hoorayd is not there to press the button.
    static let notRunning =
        "hooray act: hoorayd is not running, and buttons are pressed in it; start it first (`make run` or `systemctl --user start hooray`)."

    /// The message when the question is left with Ctrl-D (the end of input).
    static let nothingPressed = "Nothing pressed."

    func run() async throws {
        let session = try CLISession(configFile: GlobalArguments.current.config)
        var given = answer
        if let given { try Self.check(given) }
        let question = given == nil && isatty(STDIN_FILENO) == 1 ? try await question(session) : nil
        if given != nil || question != nil {
            // Asked before hoorayd is reached, which gives a request 5 s to arrive; a daemon that is
            // not there is said first, so that no answer is typed for nothing. A hoorayd from before
            // an upgrade might not know answers, and would press the button without one.
            try Self.checkDaemon(session)
        }
        if let question {
            PluginCommandLine.prompt(TerminalText.safe(question) + " ")
            // Enter, or a blank line, gives no answer; Ctrl-D on the empty line (the end of input) presses nothing,
            // as it cancels every other question.
            guard let line = readLine() else {
                PluginCommandLine.prompt("\n")
                warn(Self.nothingPressed)
                throw ExitCode(ExitStatus.failed.rawValue)
            }
            if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                try Self.check(line)
                given = line
            }
        }
        let connection: ControlConnection?
        do {
            connection = try ControlConnection(socketPath: session.paths.controlSocket)
        } catch {
            guard error.isBusy else { throw error }
            warn("hooray act: \(error.message)")
            throw ExitCode(ExitStatus.busy.rawValue)
        }
        guard let connection else {
            warn(Self.notRunning)
            throw ExitCode(ExitStatus.unavailable.rawValue)
        }
        // Kept in the spool under its id, so that hoorayd presses the button once, even after a
        // freeze (docs/protocol.md, "One writer").
        let spool = RequestSpool(paths: session.paths)
        let requestID = UUID().uuidString.lowercased()
        let request = ControlRequest.act(notice: notice, action: action, answer: given, requestID: requestID)
        do {
            try spool.keep(try ControlCoding.encode(request), id: requestID)
        } catch {
            warn("hooray act: \(error), so the button was not pressed.")
            throw ExitCode(ExitStatus.unavailable.rawValue)
        }
        var answer: ControlConnection.Answer
        do {
            try connection.send(request)
            answer = try connection.receive(within: PluginCommandRunner.answerWait)
            if answer == .notYet, !connection.peerIsStopped {
                answer = try connection.receive(
                    within: PluginCommandRunner.longestWait - PluginCommandRunner.answerWait)
            }
        } catch {
            // A hoorayd of another protocol refused it unread: the press is taken back, never left
            // for a later start.
            if (error as? ControlError)?.requestWasRefused == true { _ = try? spool.take(requestID) }
            throw error
        }
        guard case .answered(let response) = answer else {
            if answer == .closed {
                warn(
                    spool.holds(requestID)
                        ? "hooray act: hoorayd closed the connection without answering; the press is kept, and hoorayd handles it once it gets to it."
                        : "hooray act: hoorayd stopped without answering; the button may or may not have been pressed.")
                throw ExitCode(spool.holds(requestID) ? ExitStatus.busy.rawValue : ExitStatus.failed.rawValue)
            }
            warn(
                spool.holds(requestID)
                    ? "hooray act: hoorayd did not answer; the press is kept, and hoorayd handles it once when it goes on."
                    : "hooray act: hoorayd took the press but has not answered; it handles it once. Check with `hooray inbox` before pressing again."
            )
            throw ExitCode(ExitStatus.busy.rawValue)
        }
        // Answered, the request is done with (one a busy hoorayd turned away was never taken).
        _ = try? spool.take(requestID)
        if response.ok, let until = response.snoozedUntil {
            let when = Output.when(until)
            print("Snoozed until \(when.hasPrefix("today ") ? String(when.dropFirst(6)) : when).")
        } else if response.ok {
            print((response.message ?? "Pressed.").capitalizedFirst + ".")
        } else if let until = response.snoozedUntil {
            warn(
                "hooray act: notice \(notice) is already snoozed until \(Output.when(until)); nothing changed. It comes back then."
            )
            throw ExitCode(ExitStatus.failed.rawValue)
        } else if response.invalidValue != nil {
            // An answer for a button that asks no question: a usage matter, and nothing was pressed.
            warn("hooray act: \(response.message ?? "the button takes no answer")")
            throw ExitCode(ExitStatus.usage.rawValue)
        } else {
            warn("hooray act: \(response.message ?? "the button did nothing")")
            // Turned away unread by a busy hoorayd: trying again later may work.
            throw ExitCode(response.busy == true ? ExitStatus.busy.rawValue : ExitStatus.failed.rawValue)
        }
    }

    /// Refuses, as hoorayd would, an answer that ``ButtonAnswer`` finds wrong: exit 64, nothing sent.
    static func check(_ answer: String) throws {
        guard let problem = ButtonAnswer.problem(answer) else { return }
        warn("hooray act: nothing was pressed: \(problem).")
        throw ExitCode(ExitStatus.usage.rawValue)
    }

    /// Makes sure a hoorayd of this version is there to take an answer: exit 69 when none runs, or
    /// one that does not say it takes answers or is of another version, which may drop the answer and
    /// press the button without it.
    static func checkDaemon(_ session: CLISession) throws {
        switch session.daemonStatus() {
        case (false, _):
            warn(notRunning)
            throw ExitCode(ExitStatus.unavailable.rawValue)
        case (true, let status?) where status.takesAnswers != true:
            warn(
                "hooray act: the running hoorayd is from before buttons could ask a question, and would press the button without your answer, so nothing was pressed; after an upgrade, restart hoorayd (`systemctl --user restart hooray`), and try again."
            )
            throw ExitCode(ExitStatus.unavailable.rawValue)
        case (true, let status?) where status.version != HoorayVersion.current:
            warn(
                "hooray act: the running hoorayd is version \(TerminalText.safe(status.version)), but this hooray is \(HoorayVersion.current) (hoorayd is probably from before an upgrade, and may not take the answer), so nothing was pressed; after an upgrade, restart hoorayd (`systemctl --user restart hooray`) so both match, and try again."
            )
            throw ExitCode(ExitStatus.unavailable.rawValue)
        default:
            // A hoorayd too busy to say its version is asked anyway: the press itself waits for it.
            break
        }
    }

    /// The question of the button to press (``NoticeAction/prompt``), read from the database; `nil`
    /// when it asks none, or the notice or button is not found (hoorayd then says what is wrong).
    ///
    /// - Throws: Exit 1, with nothing pressed, when the database cannot be read: a question the
    ///   button asks must not be skipped.
    func question(_ session: CLISession) async throws -> String? {
        let stored: StoredNotice?
        do {
            stored = try await session.existingDatabase()?.notice(NoticeID(rawValue: notice))
        } catch {
            warn(
                "hooray act: could not read notice \(notice) to see whether its button asks a question (\(TerminalText.safe("\(error)"))), so nothing was pressed; try again, and if it keeps failing, `hooray doctor` checks the database."
            )
            throw ExitCode(ExitStatus.failed.rawValue)
        }
        return stored?.notice.actions.first { $0.id == action }?.prompt
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
        let answer: ControlResponse?
        do {
            answer = try session.send(.reload)
        } catch {
            // The request waits in hoorayd's socket: it reloads once it gets to it.
            warn(
                "hooray reload: hoorayd did not answer (it is stopped or very busy): \(error). It reloads once it gets to the request."
            )
            throw ExitCode(ExitStatus.busy.rawValue)
        }
        guard let response = answer else {
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
        let response: ControlResponse?
        do {
            response = try session.send(.status)
        } catch {
            warn(
                "hooray status: hoorayd is there but did not answer (it is stopped or very busy): \(error). Try again shortly."
            )
            if let line = Self.spoolLine(session, until: "it goes on") { warn(line) }
            throw ExitCode(ExitStatus.busy.rawValue)
        }
        if let response, response.status == nil {
            // A daemon is there but would not say how it is, such as when it is busy: try again later.
            warn(
                "hooray status: hoorayd is running but answered: \(response.message ?? "no status"); try again shortly."
            )
            throw ExitCode(ExitStatus.busy.rawValue)
        }
        if let status = response?.status {
            if json {
                print(try Output.json(StatusItem(status)))
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
            print(Self.doNotDisturbLine(status.doNotDisturb ?? .off))
            if let until = status.pausedUntil {
                print(
                    "Paused: notifications of reminders wait until \(Output.when(until)) (`hooray pause off` ends it).")
            }
            print("Plugins: \(status.plugins.joined(separator: ", "))")
            print("Waiting notices: \(status.waitingNotices)")
            print("Next reminder: \(status.nextDue.map { Output.when($0) } ?? "none")")
            if !status.configFiles.isEmpty { print("Configuration: \(status.configFiles.joined(separator: ", "))") }
            if let identity = status.identity { print("Anonymous id: \(identity)") }
            return
        }
        // No daemon: report what we can see ourselves, saying once what of the configuration is broken.
        for line in (try? session.loadConfigurationLeniently(plugins: installedPlugins))?.ignored ?? [] {
            warn(TerminalText.safe(line, multiline: true))
        }
        let identity = await session.identityVault(plugins: installedPlugins).promptWhereabouts()
        let (server, doNotDisturb) = await session.probeDesktop()
        if json {
            print(
                try Output.json(
                    StatusItem(
                        offline: server.info, serverProblem: server.problem, doNotDisturb: doNotDisturb,
                        identity: identity)))
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
        if server.info != nil { print(Self.doNotDisturbLine(doNotDisturb)) }
        print("Anonymous id: \(identity)")
        if let line = Self.spoolLine(session, until: "it starts") { print(line) }
        throw ExitCode(ExitStatus.unavailable.rawValue)
    }

    /// "Kept for hoorayd: 2 commands typed while it did not answer; it runs each once when it starts."
    /// `nil` when the spool is empty.
    static func spoolLine(_ session: CLISession, until when: String) -> String? {
        let count = RequestSpool(paths: session.paths).waiting().count
        guard count > 0 else { return nil }
        return "Kept for hoorayd: \(count) command\(count == 1 ? "" : "s") typed while it did not answer; it runs "
            + "\(count == 1 ? "it" : "each") once when \(when)."
    }

    /// "Do not disturb: on (dunst) — notices wait in `hooray inbox` until it ends." or "Do not disturb: off".
    static func doNotDisturbLine(_ state: DoNotDisturb) -> String {
        let source = state.source.map { " (\(TerminalText.safe($0)))" } ?? ""
        return state.isOn
            ? "Do not disturb: on\(source) — notices that are not urgent wait in `hooray inbox` until it ends."
            : "Do not disturb: off\(source)"
    }
}

/// `hooray status --json`: the `status` type of docs/json.md, with the same keys whether hoorayd
/// runs or not (`null` for what only a running daemon knows), in camelCase like every `--json`.
struct StatusItem: Encodable {
    let running: Bool
    let pid: Int32?
    let version: String?
    let startedAt: Date?
    let server: Server?
    let serverProblem: String?
    let plugins: [String]?
    let waitingNotices: Int?
    let nextDue: Date?
    let configFiles: [String]?
    /// Where the anonymous identity is kept, in words.
    let identity: String?
    /// The notification server's do-not-disturb state.
    let doNotDisturb: DoNotDisturbItem?
    /// Until when notifications of reminders are paused (`hooray pause`).
    var pausedUntil: Date?

    /// The `doNotDisturb` member: whether it is on, and which server says so.
    struct DoNotDisturbItem: Encodable {
        let on: Bool
        let source: String?

        init(_ state: DoNotDisturb) {
            (on, source) = (state.isOn, state.source)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(on, forKey: .on)
            try container.encode(source, forKey: .source)
        }

        enum CodingKeys: String, CodingKey { case on, source }
    }

    /// The notification server, as the `server` member.
    struct Server: Encodable {
        let name: String
        let vendor: String
        let version: String
        let specVersion: String
        let capabilities: [String]

        init(_ info: ServerInfo) {
            (name, vendor, version) = (info.name, info.vendor, info.version)
            (specVersion, capabilities) = (info.specVersion, info.capabilities)
        }
    }

    /// What a running daemon says.
    init(_ status: DaemonStatus) {
        running = true
        pid = status.pid
        version = status.version
        startedAt = status.startedAt
        server = status.server.map(Server.init)
        serverProblem = status.serverProblem
        plugins = status.plugins
        waitingNotices = status.waitingNotices
        nextDue = status.nextDue
        configFiles = status.configFiles
        identity = status.identity
        doNotDisturb = status.doNotDisturb.map(DoNotDisturbItem.init)
        pausedUntil = status.pausedUntil
    }

    /// What `hooray` sees itself when no daemon runs.
    init(offline server: ServerInfo?, serverProblem: String?, doNotDisturb: DoNotDisturb, identity: String) {
        self.doNotDisturb = server == nil ? nil : DoNotDisturbItem(doNotDisturb)
        running = false
        (pid, version, startedAt, plugins, waitingNotices, nextDue, configFiles) = (nil, nil, nil, nil, nil, nil, nil)
        self.server = server.map(Server.init)
        self.serverProblem = serverProblem
        self.identity = identity
    }

    enum CodingKeys: String, CodingKey {
        case running, pid, version, startedAt, server, serverProblem, plugins, waitingNotices, nextDue, configFiles
        case identity, doNotDisturb, pausedUntil
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(running, forKey: .running)
        try container.encode(pid, forKey: .pid)
        try container.encode(version, forKey: .version)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode(server, forKey: .server)
        try container.encode(serverProblem, forKey: .serverProblem)
        try container.encode(plugins, forKey: .plugins)
        try container.encode(waitingNotices, forKey: .waitingNotices)
        try container.encode(nextDue, forKey: .nextDue)
        try container.encode(configFiles, forKey: .configFiles)
        try container.encode(identity, forKey: .identity)
        try container.encode(doNotDisturb, forKey: .doNotDisturb)
        try container.encode(pausedUntil, forKey: .pausedUntil)
    }
}
