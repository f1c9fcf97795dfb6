import Foundation
import HoorayKit
import HoorayScheduling
import HoorayStorage
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// One line of a conformance report: a step of `hooray plugin test` and how it went.
public struct ConformanceStep: Sendable, Hashable, Encodable {
    /// How a step went.
    public enum Outcome: Sendable, Hashable {
        /// The plugin did what the protocol asks.
        case passed
        /// It did not; the detail says what it did and what it should do.
        case failed
        /// There was nothing to check, such as buttons of a plugin that shows none.
        case skipped
        /// The plugin stopped at an earlier step.
        case notRun
    }

    /// What was checked, such as `handshake` or `command start --json`.
    public var name: String
    /// How it went.
    public var outcome: Outcome
    /// What happened, in a sentence; a failure names what the plugin did and what it should do, and
    /// may end with lines of the plugin's standard error, one a line.
    public var detail: String

    /// Creates a step.
    ///
    /// - Parameters:
    ///   - name: What was checked.
    ///   - outcome: How it went.
    ///   - detail: What happened.
    public init(name: String, outcome: Outcome, detail: String) {
        self.name = name
        self.outcome = outcome
        self.detail = detail
    }

    enum CodingKeys: String, CodingKey {
        case name, passed, detail
    }

    /// Writes `{name, passed, detail}`: `passed` is `null` for a step skipped or not run.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        switch outcome {
        case .passed: try container.encode(true, forKey: .passed)
        case .failed: try container.encode(false, forKey: .passed)
        case .skipped, .notRun: try container.encodeNil(forKey: .passed)
        }
        try container.encode(detail, forKey: .detail)
    }
}

/// What `hooray plugin test` found: one step a line, and the counts.
public struct ConformanceReport: Sendable, Hashable, Encodable {
    /// The steps, in the order they ran.
    public var steps: [ConformanceStep]

    /// Creates a report.
    public init(steps: [ConformanceStep]) {
        self.steps = steps
    }

    /// How many steps passed.
    public var passed: Int { steps.filter { $0.outcome == .passed }.count }
    /// How many steps failed.
    public var failed: Int { steps.filter { $0.outcome == .failed }.count }

    /// The step of a name, if the report has one.
    public func step(_ name: String) -> ConformanceStep? {
        steps.first { $0.name == name }
    }

    enum CodingKeys: String, CodingKey {
        case steps, passed, failed
    }

    /// Writes `{steps, passed, failed}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(steps, forKey: .steps)
        try container.encode(passed, forKey: .passed)
        try container.encode(failed, forKey: .failed)
    }
}

/// Checks that a plugin in another language speaks the plugin protocol, as `hooray plugin test PATH`
/// does: it runs the plugin through the real host — a ``PluginSupervisor`` and an ``Engine`` over a
/// database in a temporary folder — through the handshake, each declared command, a due reminder, a
/// button, bad input and shutdown.
///
/// Nothing of the user's is touched: the data folder, the database and the plugin's own data folder
/// are temporary, and the plugin's folder is only read. The plugin gets the clean environment the
/// host gives every plugin. A plugin that crashes or breaks the framing ends the run; the steps left
/// are reported as not run.
public struct ConformanceKit: Sendable {
    /// The time limits the kit holds the plugin to: the protocol's, unless a test shortens them.
    public struct Options: Sendable, Hashable {
        /// How long `initialize` may take.
        public var initializeTimeout: Double = 10
        /// How long any other request may take.
        public var callTimeout: Double = 5
        /// How long `shutdown` may take to be answered.
        public var shutdownTimeout: Double = 2
        /// How long the plugin may take to exit once its standard input is closed.
        public var exitTimeout: Double = 5

        /// The protocol's limits.
        public init() {}
    }

    /// The plugin's folder.
    public let folder: String
    /// The time limits.
    public var options: Options
    /// Hooray's version, told to the plugin in `initialize`.
    public let hostVersion: String
    /// The environment the plugin's clean one is made from.
    public let environment: [String: String]
    /// The built-in plugins, whose names and command words a plugin may not take.
    public let builtIns: [any HoorayPlugin]

    /// Creates a kit for one plugin folder.
    ///
    /// - Parameters:
    ///   - folder: The plugin's folder, holding its `plugin.toml`.
    ///   - options: The time limits.
    ///   - hostVersion: Hooray's version.
    ///   - environment: The environment the plugin's clean one is made from.
    ///   - builtIns: The built-in plugins, whose names and command words a plugin may not take.
    public init(
        folder: String, options: Options = Options(), hostVersion: String, environment: [String: String],
        builtIns: [any HoorayPlugin] = []
    ) {
        self.builtIns = builtIns
        self.folder = folder
        self.options = options
        self.hostVersion = hostVersion
        self.environment = environment
    }

    /// Runs every step and reports how each went.
    public func run() async -> ConformanceReport {
        let refusal: String
        do {
            let manifest = try PluginManifest.read(folder: folder)
            guard let clash = PluginDiscovery.clash(of: manifest, builtIns: builtIns) else {
                return await run(manifest)
            }
            refusal = clash
        } catch {
            refusal = error.description
        }
        let steps =
            [ConformanceStep(name: "plugin.toml", outcome: .failed, detail: refusal)]
            + [
                "handshake", "commands", "due reminder", "action round trip", "bad input", "shutdown",
                "calls to the host",
            ].map {
                ConformanceStep(name: $0, outcome: .notRun, detail: "not run: hoorayd would not start this plugin")
            }
        return ConformanceReport(steps: steps)
    }

    func run(_ manifest: PluginManifest) async -> ConformanceReport {
        let commands = manifest.commands.count == 1 ? "1 command" : "\(manifest.commands.count) commands"
        let read = ConformanceStep(
            name: "plugin.toml", outcome: .passed,
            detail:
                "\(manifest.name) \(manifest.version), plugin API \(PluginReport.range(manifest.apiVersions)), \(commands)"
        )
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hooray-plugin-test-\(UUID().uuidString.lowercased())"
        ).path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let database: HoorayDatabase
        do {
            try FileManager.default.createDirectory(
                atPath: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            database = try HoorayDatabase(path: scratch + "/hooray.sqlite")
        } catch {
            let failed = ConformanceStep(
                name: "handshake", outcome: .failed,
                detail: "hooray could not make a temporary folder to run the plugin in (\(error)); check \(scratch)")
            return ConformanceReport(steps: [read, failed])
        }
        let run = ConformanceRun(
            manifest: manifest, options: options, database: database,
            plugin: ExternalPlugin(
                manifest: manifest, hostVersion: hostVersion, environment: environment, dataDirectory: scratch))
        let steps = await run.perform()
        return ConformanceReport(steps: [read] + steps)
    }
}

/// One run of the kit against one plugin.
final class ConformanceRun {
    enum Check {
        case handshake
        case command(CommandSpec, json: Bool)
        case dueReminder
        case action
        case unknownMethod
        case wrongParams
        case unsentAnswer
        case unknownNotification
        case shutdown
        case hostCalls

        var name: String {
            switch self {
            case .handshake: "handshake"
            case .command(let spec, let json): "command \(spec.name)" + (json ? " --json" : "")
            case .dueReminder: "due reminder"
            case .action: "action round trip"
            case .unknownMethod: "bad input: an unknown method"
            case .wrongParams: "bad input: wrong params"
            case .unsentAnswer: "bad input: an answer to no request"
            case .unknownNotification: "bad input: an unknown notification"
            case .shutdown: "shutdown"
            case .hostCalls: "calls to the host"
            }
        }
    }

    /// A step's result before the kit looks at whether the plugin is still running.
    enum Verdict {
        case passed(String)
        case failed(String)
        case skipped(String)
        /// The plugin stopped while the step ran: when (`during the handshake`), and what it should
        /// have done instead, if anything.
        case stopped(String, fix: String? = nil)

        var isStopped: Bool {
            if case .stopped = self { return true }
            return false
        }
    }

    let manifest: PluginManifest
    let options: ConformanceKit.Options
    let database: HoorayDatabase
    let plugin: ExternalPlugin
    let engine: Engine
    var supervisor: PluginSupervisor { plugin.supervisor }
    /// Commands that were answered, to ask again to learn whether the plugin still answers; one
    /// that only reads is asked first.
    var answeredCommands: [(invocation: CommandInvocation, writes: Bool)] = []
    /// The first command that scheduled a reminder, to run again when a later command cancelled
    /// them all before one could come due.
    var schedulingCommand: CommandInvocation?
    /// Whether the plugin answers a request for an unknown method; `nil` until asked.
    var answersUnknownMethods: Bool?

    /// The method the kit calls that no plugin has.
    static let unknownMethod = "hooray.test.noSuchMethod"

    init(manifest: PluginManifest, options: ConformanceKit.Options, database: HoorayDatabase, plugin: ExternalPlugin) {
        self.manifest = manifest
        self.options = options
        self.database = database
        self.plugin = plugin
        engine = Engine(
            database: database, sink: OfflineSink(), settings: Self.settings(options),
            makeLogger: { label in Logger(label: label, factory: { _ in SwiftLogNoOpLogHandler() }) })
    }

    static func settings(_ options: ConformanceKit.Options) -> EngineSettings {
        // The supervisor's own limits speak first; the engine's are a backstop.
        EngineSettings(
            pluginTimeLimit: options.callTimeout + 2, activationTimeLimit: options.initializeTimeout + 5)
    }

    func perform() async -> [ConformanceStep] {
        let plan: [Check] =
            [.handshake]
            + manifest.commands.flatMap { spec in
                spec.offersJSON
                    ? [Check.command(spec, json: false), .command(spec, json: true)] : [.command(spec, json: false)]
            }
            + [
                .dueReminder, .action, .unknownMethod, .wrongParams, .unsentAnswer, .unknownNotification, .shutdown,
                .hostCalls,
            ]
        var steps: [ConformanceStep] = []
        for (index, check) in plan.enumerated() {
            var verdict = await perform(check)
            let stopped = await supervisor.hasStopped
            if stopped, case .passed = verdict {
                verdict = .stopped("after it answered")
            } else if stopped, case .failed(let detail) = verdict {
                verdict = .failed(detail + "\n" + (await stoppedDetail(when: "After that", fix: nil)))
            }
            switch verdict {
            case .passed(let detail): steps.append(ConformanceStep(name: check.name, outcome: .passed, detail: detail))
            case .failed(let detail): steps.append(ConformanceStep(name: check.name, outcome: .failed, detail: detail))
            case .skipped(let detail):
                steps.append(ConformanceStep(name: check.name, outcome: .skipped, detail: detail))
            case .stopped(let when, let fix):
                steps.append(
                    ConformanceStep(
                        name: check.name, outcome: .failed, detail: await stoppedDetail(when: when, fix: fix)))
            }
            if stopped || verdict.isStopped {
                for later in plan[(index + 1)...] {
                    steps.append(
                        ConformanceStep(
                            name: later.name, outcome: .notRun, detail: "not run: the plugin stopped at \(check.name)"))
                }
                break
            }
        }
        await supervisor.deactivate()
        return steps
    }

    func perform(_ check: Check) async -> Verdict {
        switch check {
        case .handshake: return await handshake()
        case .command(let spec, let json): return await command(spec, json: json)
        case .dueReminder: return await dueReminder()
        case .action: return await action()
        case .unknownMethod: return await unknownMethod()
        case .wrongParams: return await wrongParams()
        case .unsentAnswer:
            await supervisor.send(.result(id: .string("hooray-test-never-sent"), .object([:])))
            return await stillAnswers(
                after: "an answer to a request the host never sent",
                passed: "ignored the answer to a request the host never sent; it still answers")
        case .unknownNotification:
            await supervisor.notify("hooray.test.unknownNotification", [:])
            return await stillAnswers(
                after: "a notification it does not know",
                passed: "ignored a notification it does not know; it still answers")
        case .shutdown:
            await waitForCallsToSettle()
            return await shutdown()
        case .hostCalls: return await hostCalls()
        }
    }

    // MARK: Steps

    func handshake() async -> Verdict {
        await supervisor.prepareForConformance(options)
        let started = ContinuousClock.now
        await engine.apply(
            settings: Self.settings(options),
            plugins: [PluginSetup(plugin: plugin, enabled: true, configuration: ExternalPluginConfiguration())])
        let ready = await supervisor.waitUntilReady(timeout: options.initializeTimeout + 2)
        let took = started.duration(to: .now)
        guard ready else { return .stopped("during the handshake") }
        let version = await supervisor.status().apiVersion.map(String.init) ?? "?"
        return .passed("answered initialize in \(Self.seconds(took)) with plugin API \(version)")
    }

    func command(_ spec: CommandSpec, json: Bool) async -> Verdict {
        let invocation = Self.placeholderInvocation(spec, json: json)
        let given = Self.describe(invocation)
        let rulesBefore = await dueRules().count
        let answer: JSONValue
        let took: Duration
        do {
            let started = ContinuousClock.now
            answer = try await supervisor.call("command", try await supervisor.commandParams(invocation))
            took = started.duration(to: .now)
        } catch is CallTimedOut {
            return .failed(
                "did not answer within \(Self.seconds(options.callTimeout))\(given); answer every `command` request in time, with a non-zero exit_code and a text saying why when it cannot do it"
            )
        } catch let error as RPCError {
            return .failed(
                "answered with error \(error.code) “\(Self.short(error.message))”\(given); answer a command with {\"text\": …, \"exit_code\": …} — a non-zero exit_code and a text saying why when it fails"
            )
        } catch {
            return .stopped("while it ran the command\(given)")
        }
        guard case .object(let reply) = answer else {
            return .failed(
                "answered \(Self.short(answer.text()))\(given), which is not an object; answer {\"text\": \"…\", \"exit_code\": 0}"
            )
        }
        guard case .string(let text)? = reply["text"] else {
            return .failed("the answer has no `text` string\(given); answer {\"text\": \"…\", \"exit_code\": 0}")
        }
        guard case .number(let code)? = reply["exit_code"], code.rounded() == code, (0...255).contains(code) else {
            let said = reply["exit_code"].map { " (it says \(Self.short($0.text())))" } ?? ""
            return .failed(
                "the answer has no `exit_code` from 0 to 255\(said)\(given); answer {\"text\": \"…\", \"exit_code\": 0}, or a non-zero exit_code when the command fails"
            )
        }
        let exitCode = Int(code)
        if exitCode != 0 {
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                return .failed(
                    "ended with exit_code \(exitCode) and an empty text\(given); when a command fails, its text says why"
                )
            }
            await answered(invocation, writes: spec.writes, rulesBefore: rulesBefore)
            return .passed(
                "exit \(exitCode) in \(Self.seconds(took))\(given), saying “\(Self.short(text))” (a failure the placeholder values may well call for)"
            )
        }
        if json, reply["json"] == nil || reply["json"] == .null {
            return .failed(
                "the answer has no `json`, though plugin.toml says json = true; answer {\"text\": \"\", \"json\": …, \"exit_code\": 0}"
            )
        }
        await answered(invocation, writes: spec.writes, rulesBefore: rulesBefore)
        return .passed("exit 0 in \(Self.seconds(took))\(given)")
    }

    /// Notes a command that was answered, and whether it scheduled a reminder.
    func answered(_ invocation: CommandInvocation, writes: Bool, rulesBefore: Int) async {
        answeredCommands.append((invocation, writes))
        if schedulingCommand == nil, await dueRules().count > rulesBefore { schedulingCommand = invocation }
    }

    /// The plugin's reminders that will come due, soonest first.
    func dueRules() async -> [StoredRule] {
        ((try? await database.rules(plugin: manifest.name)) ?? [])
            .filter { Snooze.snoozedID(of: $0.reminder.id) == nil && $0.nextDue != nil }
            .sorted { ($0.nextDue ?? .distantFuture) < ($1.nextDue ?? .distantFuture) }
    }

    func dueReminder() async -> Verdict {
        var rules = await dueRules()
        var again = ""
        if rules.isEmpty, let invocation = schedulingCommand {
            // A later command (such as a `stop`) cancelled what an earlier one scheduled.
            do {
                _ = try await supervisor.call("command", try await supervisor.commandParams(invocation))
            } catch is CallTimedOut, is RPCError {
                // Whether it schedules again is all that matters here.
            } catch {
                return .stopped("when `command \(invocation.command)` ran again to schedule a reminder")
            }
            rules = await dueRules()
            again = " (scheduled by running `\(invocation.command)` again)"
        }
        let what: String
        if let soonest = rules.first, let due = soonest.nextDue {
            // As the scheduler does when the instant comes: the notice is queued, the plugin is told.
            await engine.fire(RuleKey(plugin: manifest.name, reminder: soonest.reminder.id), now: due)
            what = "its reminder “\(Self.short(soonest.reminder.id))”\(again) came due"
        } else {
            let now = Date()
            await supervisor.reminderDue(
                DueReminder(
                    reminder: Reminder(
                        id: "hooray-test-reminder", schedule: .once(at: now),
                        notice: Notice(title: "A reminder from hooray plugin test")),
                    dueAt: now))
            what = "it scheduled no reminder, so a made-up one came due"
        }
        return await stillAnswers(after: "reminderDue", passed: "\(what); it still answers")
    }

    func action() async -> Verdict {
        guard let (stored, button) = await noticeWithButton() else {
            return .skipped(
                "skipped: the plugin posted no notice with a button of its own, and none of its reminders has one")
        }
        let started = ContinuousClock.now
        let outcome = await engine.press(action: button.id, on: stored.id)
        let took = started.duration(to: .now)
        let pressed = "pressed “\(Self.short(button.label))” on “\(Self.short(stored.notice.title))”"
        switch outcome {
        case .handled:
            return .passed("\(pressed); answered in \(Self.seconds(took))")
        case .declined(let reason):
            return .passed(
                "\(pressed); it answered in \(Self.seconds(took)) that it does nothing now: “\(Self.short(reason))”")
        case .failed(let message):
            if await supervisor.hasStopped { return .stopped("when \(pressed)") }
            let hint =
                message.contains("did not answer")
                ? "; answer actionInvoked within \(Self.seconds(options.callTimeout)) with {} (or {\"message\": \"…\"} when the button does nothing now)"
                : "; answer actionInvoked with {} (or {\"message\": \"…\"} when the button does nothing now)"
            return .failed("\(pressed): \(message)\(hint)")
        case .refused(let message), .answerRefused(let message):
            return .failed("\(pressed): the host refused it: \(message)")
        case .snoozed, .alreadySnoozed:
            return .failed("\(pressed): the host snoozed the notice instead of asking the plugin")
        }
    }

    /// The first notice of the plugin with a button of its own (not the host's snooze): one it
    /// posted, or else one of its reminders', which is made to come due to show it.
    func noticeWithButton() async -> (StoredNotice, NoticeAction)? {
        func own(_ notice: Notice) -> NoticeAction? {
            notice.actions.first { Snooze.delay(ofAction: $0.id) == nil }
        }
        func posted() async -> (StoredNotice, NoticeAction)? {
            let notices = ((try? await database.inbox(includeDelivered: true, limit: 500)) ?? [])
                .filter { $0.plugin == manifest.name }.sorted { $0.id.rawValue < $1.id.rawValue }
            for stored in notices {
                if let button = own(stored.notice) { return (stored, button) }
            }
            return nil
        }
        if let found = await posted() { return found }
        let rules = (try? await database.rules(plugin: manifest.name)) ?? []
        guard let rule = rules.first(where: { own($0.reminder.notice) != nil && $0.nextDue != nil }),
            let due = rule.nextDue
        else { return nil }
        await engine.fire(RuleKey(plugin: manifest.name, reminder: rule.reminder.id), now: due)
        return await posted()
    }

    func unknownMethod() async -> Verdict {
        do {
            let answer = try await supervisor.call(Self.unknownMethod, [:], timeout: options.callTimeout)
            answersUnknownMethods = true
            return .failed(
                "answered a request for an unknown method with the result \(Self.short(answer.text())); answer it with error -32601 (no such method)"
            )
        } catch is CallTimedOut {
            answersUnknownMethods = false
            return .failed(
                "did not answer a request for an unknown method within \(Self.seconds(options.callTimeout)); answer every request, with error -32601 when it does not know the method"
            )
        } catch let error as RPCError {
            answersUnknownMethods = true
            guard error.code == -32601 else {
                return .failed(
                    "answered a request for an unknown method with error \(error.code); the code for an unknown method is -32601"
                )
            }
            return .passed("answered a request for an unknown method with error -32601")
        } catch {
            return .stopped("on a request for an unknown method", fix: "answer it with error -32601 instead")
        }
    }

    func wrongParams() async -> Verdict {
        let name = manifest.commands.first?.name ?? "hooray-test"
        var params = (try? await supervisor.commandParams(CommandInvocation(command: name))) ?? [:]
        params["values"] = .string("not an object")
        do {
            let answer = try await supervisor.call("command", params, timeout: options.callTimeout)
            if case .number(let code)? = answer["exit_code"], code != 0 {
                return .passed(
                    "answered a `command` whose `values` is not an object with exit_code \(Self.short(answer["exit_code"]?.text() ?? ""))"
                )
            }
            return .failed(
                "answered a `command` whose `values` is not an object as a success; answer it with error -32602 (wrong params) or a non-zero exit_code"
            )
        } catch is CallTimedOut {
            return .failed(
                "did not answer a `command` whose `values` is not an object within \(Self.seconds(options.callTimeout)); answer it with error -32602 (wrong params)"
            )
        } catch let error as RPCError {
            return .passed("answered a `command` whose `values` is not an object with error \(error.code)")
        } catch {
            return .stopped(
                "on a `command` whose `values` is not an object",
                fix: "answer it with error -32602 (wrong params) instead")
        }
    }

    func shutdown() async -> Verdict {
        guard let observed = await supervisor.observeShutdown(options) else {
            return .stopped("before shutdown")
        }
        var problems: [String] = []
        var said: String
        switch observed.answer {
        case .answered(let took):
            said = "answered shutdown in \(Self.seconds(took))"
        case .timedOut:
            said = "did not answer shutdown within \(Self.seconds(options.shutdownTimeout))"
            problems.append("answer shutdown with {}")
        case .error(let error):
            said = "answered shutdown with error \(error.code) “\(Self.short(error.message))”"
            problems.append("answer shutdown with {}")
        case .stopped:
            said = "exited before it answered shutdown"
            problems.append("answer shutdown with {} before it exits")
        }
        if let exited = observed.exitedAfter {
            let status = observed.status.map { $0 == 0 ? "" : " with status \($0)" } ?? ""
            if case .stopped = observed.answer {
                said += status
            } else {
                said += "; exited\(status) \(Self.seconds(exited)) after its standard input closed"
            }
        } else {
            said +=
                "; it had not exited \(Self.seconds(options.exitTimeout)) after its standard input closed, so it was killed"
            problems.append("exit when its standard input closes")
        }
        guard problems.isEmpty else {
            let lines = await stderrLines()
            return .failed(said + "; " + problems.joined(separator: ", and ") + lines)
        }
        return .passed(said)
    }

    /// Lets the plugin finish what it started before it is stopped — such as scheduling its
    /// reminders, which on a busy machine takes a while: waits until it has made no call for a
    /// second, at most 30 s.
    func waitForCallsToSettle() async {
        var last = await supervisor.callsServed
        var quiet = 0
        for _ in 0..<150 {
            try? await Task.sleep(for: .milliseconds(200))
            let now = await supervisor.callsServed
            quiet = now == last ? quiet + 1 : 0
            last = now
            if quiet >= 5 { return }
        }
    }

    /// Whether the host refused any of the plugin's calls as its own fault, over the whole run.
    func hostCalls() async -> Verdict {
        let refused = await supervisor.refusedCalls
        guard refused.count > 0, let first = refused.first else {
            return .passed("the host refused none of its calls")
        }
        let how = refused.count == 1 ? "1 of its calls was" : "\(refused.count) of its calls were"
        return .failed(
            "\(how) refused as its own fault; the first: it \(first); make only calls the protocol allows, within its limits and permissions"
        )
    }

    // MARK: Helpers

    /// Whether the plugin still answers: a command that was answered before is asked again, or a
    /// request for an unknown method is sent; a plugin that answers neither must still be running.
    func stillAnswers(after what: String, passed: String) async -> Verdict {
        if let invocation = (answeredCommands.first { !$0.writes } ?? answeredCommands.first)?.invocation {
            do {
                _ = try await supervisor.call("command", try await supervisor.commandParams(invocation))
                return .passed(passed)
            } catch is CallTimedOut {
                return .failed(
                    "did not answer `command \(invocation.command)` within \(Self.seconds(options.callTimeout)) after \(what), though it answered it before; handle \(what) without blocking"
                )
            } catch is RPCError {
                return .passed(passed)
            } catch {
                return .stopped("after \(what)")
            }
        }
        if answersUnknownMethods != false {
            do {
                _ = try await supervisor.call(Self.unknownMethod, [:], timeout: options.callTimeout)
                return .passed(passed)
            } catch is RPCError {
                return .passed(passed)
            } catch is CallTimedOut {
                answersUnknownMethods = false
                return .failed(
                    "did not answer a request sent after \(what) (for an unknown method) within \(Self.seconds(options.callTimeout)); handle \(what) without blocking, and answer every request (-32601 for an unknown method)"
                )
            } catch {
                return .stopped("after \(what)")
            }
        }
        // It answers nothing the kit can send: it must at least still run.
        try? await Task.sleep(for: .milliseconds(200))
        if await supervisor.hasStopped { return .stopped("after \(what)") }
        return .passed(passed.replacingOccurrences(of: "it still answers", with: "it still runs"))
    }

    /// Why the plugin stopped, as the supervisor saw it, and the last lines of its standard error.
    func stoppedDetail(when: String, fix: String?) async -> String {
        // Its last lines on standard error may still be on their way.
        try? await Task.sleep(for: .milliseconds(50))
        var reason = await supervisor.status().lastError ?? "stopped"
        // The report shows the end of its standard error below, whole.
        if let words = reason.range(of: "; its last words: ") { reason = String(reason[..<words.lowerBound]) }
        var detail = "\(when), the plugin \(reason)"
        if reason.hasPrefix("did not answer initialize") {
            detail += "; answer initialize first, with {\"api_version\": 1}"
        }
        if let fix { detail += "; \(fix)" }
        return detail + (await stderrLines())
    }

    /// The last lines of the plugin's standard error, each on a line of its own after the detail.
    func stderrLines() async -> String {
        let lines = await supervisor.recentErrorLines.suffix(5)
        guard !lines.isEmpty else { return "" }
        return "\nits standard error ended with:\n" + lines.joined(separator: "\n")
    }

    /// The command with placeholder values: the first choice of a required option, `test` otherwise.
    static func placeholderInvocation(_ spec: CommandSpec, json: Bool) -> CommandInvocation {
        var values: [String: [String]] = [:]
        for argument in spec.arguments where !argument.isOptional {
            values[argument.name] = ["test"]
        }
        for option in spec.options where option.isRequired {
            values[option.name] = [option.choices.first ?? "test"]
        }
        return CommandInvocation(command: spec.name, values: values, json: json)
    }

    /// ` (with task=test)`, or nothing for a command given no values.
    static func describe(_ invocation: CommandInvocation) -> String {
        guard !invocation.values.isEmpty else { return "" }
        let given = invocation.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.joined(separator: ","))" }
        return " (with \(given.joined(separator: " ")))"
    }

    static func seconds(_ duration: Duration) -> String {
        seconds(duration.timeInterval)
    }

    static func seconds(_ value: Double) -> String {
        value >= 1 && value.rounded() == value ? "\(Int(value)) s" : String(format: "%.2f s", value)
    }

    /// Text from the plugin, cut short for a line of the report.
    static func short(_ text: String) -> String {
        let line = text.replacingOccurrences(of: "\n", with: " ")
        return line.count > 80 ? String(line.prefix(79)) + "…" : line
    }
}

/// What the kit saw when it stopped the plugin.
struct ObservedShutdown {
    enum Answer {
        case answered(seconds: Double)
        case timedOut
        case error(RPCError)
        case stopped
    }

    var answer: Answer
    /// Seconds from closing its standard input until it exited; `nil` when it had to be killed.
    var exitedAfter: Double?
    /// Its exit status, when it exited by itself.
    var status: Int32?
}

extension PluginSupervisor {
    /// Holds the plugin to the kit's limits, and lets its first exit end the run instead of a restart.
    func prepareForConformance(_ options: ConformanceKit.Options) {
        limits.initializeTimeout = options.initializeTimeout
        limits.callTimeout = options.callTimeout
        limits.termAfter = options.shutdownTimeout
        limits.killAfter = options.shutdownTimeout + options.exitTimeout
        limits.crashLimit = 1
    }

    /// Whether the program exited or was stopped for breaking the protocol (the kit allows no restart).
    var hasStopped: Bool {
        switch phase {
        case .gaveUp, .notStarted: return true
        default: return false
        }
    }

    /// Stops the plugin as ``stop()`` does — `shutdown`, then its standard input closed — but waits
    /// for it to exit by itself for ``ConformanceKit/Options/exitTimeout`` before killing it, and says
    /// what it did.
    ///
    /// - Returns: What it did; `nil` when it is not running.
    func observeShutdown(_ options: ConformanceKit.Options) async -> ObservedShutdown? {
        guard case .running(let process) = phase else { return nil }
        deliberateStop = true
        phase = .stopping(process)
        running.value = false
        let started = ContinuousClock.now
        var observed = ObservedShutdown(answer: .stopped)
        do {
            _ = try await call("shutdown", [:], timeout: options.shutdownTimeout, during: .stopping)
            observed.answer = .answered(seconds: started.duration(to: .now).timeInterval)
        } catch is CallTimedOut {
            observed.answer = .timedOut
        } catch let error as RPCError {
            observed.answer = .error(error)
        } catch {
            observed.answer = .stopped
        }
        process.closeInput()
        let closed = ContinuousClock.now
        let killer = Task {
            try await Task.sleep(for: .seconds(options.exitTimeout))
            process.signal(SIGKILL)
        }
        if case .stopping = phase {
            await withCheckedContinuation { exitWaiters.append($0) }
        }
        killer.cancel()
        let ending = process.ending
        if let ending, !(ending.signalled && ending.status == SIGKILL) {
            observed.exitedAfter = closed.duration(to: .now).timeInterval
            observed.status = ending.status
        }
        return observed
    }
}
