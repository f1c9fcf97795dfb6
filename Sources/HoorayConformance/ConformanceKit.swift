import Foundation
import HoorayClient
import HoorayCommandLine
import HoorayDelivery
import HoorayEngine
import HoorayExternalPlugins
import HoorayKit
import HoorayScheduling
import HoorayStorage
import HoorayThreads
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
            database: database, channels: DeliveryChannels([OfflineChannel()]), settings: Self.settings(options),
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
        try? await TaskTimer.sleep(for: .milliseconds(200))
        if await supervisor.hasStopped { return .stopped("after \(what)") }
        return .passed(passed.replacingOccurrences(of: "it still answers", with: "it still runs"))
    }

    /// Why the plugin stopped, as the supervisor saw it, and the last lines of its standard error.
    func stoppedDetail(when: String, fix: String?) async -> String {
        // Its last lines on standard error may still be on their way.
        try? await TaskTimer.sleep(for: .milliseconds(50))
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
            try await TaskTimer.sleep(for: .seconds(options.exitTimeout))
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
