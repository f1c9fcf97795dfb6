import Foundation
import HoorayKit
import HoorayText
import HoorayThreads
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// How an external plugin is doing, as `hooray plugins` shows it.
public struct ExternalPluginStatus: Sendable, Hashable, Codable {
    /// `starting`, `running`, `restarting` (waiting to start again after an exit), `stopped` or `given up`.
    public var state: String
    /// The process id while it runs.
    public var pid: Int32?
    /// How many times it was started again after it exited or was stopped for breaking the protocol.
    public var restarts: Int
    /// The last thing that went wrong, in a sentence.
    public var lastError: String?
    /// The plugin API version settled by `initialize`.
    public var apiVersion: Int?

    /// Creates a status.
    public init(state: String, pid: Int32? = nil, restarts: Int = 0, lastError: String? = nil, apiVersion: Int? = nil) {
        self.state = state
        self.pid = pid
        self.restarts = restarts
        self.lastError = lastError
        self.apiVersion = apiVersion
    }

    enum CodingKeys: String, CodingKey {
        case state, pid, restarts
        case lastError = "last_error"
        case apiVersion = "api_version"
    }
}

/// Time limits and quotas of one external plugin.
public struct ExternalPluginLimits: Sendable, Hashable {
    /// How long `initialize` may take.
    public var initializeTimeout: Double = 10
    /// How long every other call may take.
    public var callTimeout: Double = 5
    /// How long a command or a button waits for a plugin that is starting: with ``callTimeout``
    /// (at most 10 s), within the 15 s `hooray` waits for hoorayd's answer.
    public var readyForCall: Double = 4
    /// How many notices a minute it may post.
    public var noticesPerMinute = 10
    /// How many reminders it may keep.
    public var maximumReminders = 1000
    /// How many storage keys it may keep.
    public var maximumKeys = 10000
    /// How large one stored value may be.
    public var maximumValueBytes = 64 * 1024
    /// After `shutdown`, how long before `SIGTERM`, and before `SIGKILL`.
    public var termAfter: Double = 2
    /// How long after `shutdown` before `SIGKILL`.
    public var killAfter: Double = 5
    /// Exits within ``crashWindow`` after which the host gives up.
    public var crashLimit = 5
    /// The window of ``crashLimit``, in seconds.
    public var crashWindow: Double = 180

    /// The defaults of the plugin protocol.
    public init() {}
}

/// Runs one external plugin's program: starts it, speaks JSON-RPC with it, serves its calls in its
/// own namespace, restarts it with backoff when it exits, and gives up after too many exits.
///
/// Nothing here waits on the plugin without a time limit, and nothing the plugin sends can stop
/// the host: it is the plugin that is stopped.
public actor PluginSupervisor {
    let manifest: PluginManifest
    let hostVersion: String
    package let environment: [String: String]
    let dataDirectory: String
    package var limits = ExternalPluginLimits()
    /// The plugin's logger: its context's (quiet in `hooray`, hoorayd's log in the daemon).
    var logger: Logger { context?.logger ?? Logger(label: manifest.name, factory: { _ in SwiftLogNoOpLogHandler() }) }

    var context: PluginContext?
    var config: JSONValue = .object([:])
    /// Called when the program starts running: the engine plans the plugin's reminders again.
    var runningChanged: (@Sendable () async -> Void)?

    package enum Phase {
        case idle
        case starting(PluginProcess)
        case running(PluginProcess)
        case stopping(PluginProcess)
        case waiting
        case gaveUp
        /// No sandbox can be had, and running without one is not allowed.
        case notStarted
    }

    package var phase = Phase.idle
    var generation = 0
    var nextID: Int64 = 1
    var pending: [RPCID: CheckedContinuation<JSONValue, any Error>] = [:]
    var readyWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    var nextWaiter = 0
    /// Calls served in the current second (see ``pace()``).
    var callWindow = (start: ContinuousClock.now, calls: 0)
    /// Until when the plugin's calls wait their turn (``pace()``): it is not quiet meanwhile.
    package var callsPausedUntil: ContinuousClock.Instant?
    /// Whether the plugin should run: `false` once it was turned off, removed, or the host stops.
    var wanted = true
    /// The configuration `initialize` carried, to tell the plugin of a change made while it started.
    var initializedConfig: JSONValue?
    /// Lines logged for the plugin's `log` calls and refusals in the current 10 seconds.
    var logWindow = (start: ContinuousClock.now, lines: 0, dropped: 0)
    package var exitWaiters: [CheckedContinuation<Void, Never>] = []
    var crashes: [ContinuousClock.Instant] = []
    var restarts = 0
    var lastError: String?
    var apiVersion: Int?
    package var deliberateStop = false
    var incoming: AsyncStream<RPCMessage>.Continuation?
    var incomingCount = 0
    /// Calls of the plugin taken up and not yet answered.
    var callsBeingServed = 0
    var noticeTimes: [ContinuousClock.Instant] = []
    var noisyNoticeShown: ContinuousClock.Instant?
    var reminderIDs: Set<String>?
    var gaveUpNoticePosted = false
    /// The last lines of its standard error that were passed on to the log.
    package var recentErrorLines: [String] = []
    /// How many of its calls were refused as its own fault (``noteRefusal(of:_:)``), and the first.
    package var refusedCalls: (count: Int, first: String?) = (0, nil)
    /// How many of the plugin's calls have been taken up, over every run.
    package var callsServed = 0
    /// How it was started, and its CPU time per call (`PluginSupervisor+Sandbox.swift`).
    var sandbox = SupervisorSandbox()

    /// Creates the supervisor of a plugin; nothing starts until ``activate(context:configuration:)``.
    ///
    /// - Parameters:
    ///   - manifest: The plugin.
    ///   - hostVersion: Hooray's version, for `initialize`.
    ///   - environment: The host's environment, from which the plugin's clean one is made.
    ///   - dataDirectory: Hooray's data folder; the plugin's is `plugin-data/NAME` inside it.
    public init(manifest: PluginManifest, hostVersion: String, environment: [String: String], dataDirectory: String) {
        self.manifest = manifest
        self.hostVersion = hostVersion
        self.dataDirectory = dataDirectory + "/plugin-data/" + manifest.name
        self.environment = Self.cleanEnvironment(environment, plugin: manifest.name, data: self.dataDirectory)
    }

    // MARK: The engine's side

    /// Brings the plugin in line with its configuration: starts it when it is not running, or tells
    /// it that its configuration changed. Returns at once; the plugin starts in the background.
    func activate(context: PluginContext, configuration: ExternalPluginConfiguration) {
        self.context = context
        if let timeout = configuration.callTimeout { limits.callTimeout = timeout }
        if let perMinute = configuration.noticesPerMinute { limits.noticesPerMinute = perMinute }
        sandbox.allowUnsandboxed = configuration.allowUnsandboxed
        let changed = config != configuration.section
        config = configuration.section
        wanted = true
        switch phase {
        case .idle, .notStarted:
            start()
        case .running where changed:
            notify("configChanged", ["config": config])
        default:
            break
        }
    }

    /// Tells the supervisor what to call when the program starts running: the engine that holds the
    /// plugin's reminders while it is not running plans them again.
    package func whenRunningChanges(_ handler: @escaping @Sendable () async -> Void) {
        runningChanged = handler
    }

    /// Whether the program runs and has answered `initialize`, readable without waiting for the
    /// supervisor: the engine asks it before each reminder of the plugin comes due.
    public nonisolated let running = RunningFlag()

    /// Whether the plugin's reminders may come due now: it is running.
    var isRunning: Bool {
        if case .running = phase { return true }
        return false
    }

    /// How the plugin is doing.
    public func status() -> ExternalPluginStatus {
        let state: String
        var pid: Int32?
        switch phase {
        case .idle: state = "stopped"
        case .starting(let process):
            state = "starting"
            pid = process.pid
        case .running(let process):
            state = "running"
            pid = process.pid
        case .stopping(let process):
            state = "stopping"
            pid = process.pid
        case .waiting: state = "restarting"
        case .gaveUp: state = "given up"
        case .notStarted: state = "not started"
        }
        let problems = [sandbox.unsandboxedWarning, lastError].compactMap { $0 }
        return ExternalPluginStatus(
            state: state, pid: pid, restarts: restarts,
            lastError: problems.isEmpty ? nil : problems.joined(separator: "; "), apiVersion: apiVersion)
    }

    /// Stops the plugin for good (it was turned off or removed, or the host stops).
    public func deactivate() async {
        wanted = false
        // Whatever started meanwhile (a restart that was under way) is stopped too.
        while hasProcess { await stop() }
        await stop()
    }

    /// Stops the plugin if it runs, forgets its exits, and starts it again.
    public func restart() async {
        wanted = true
        await stop()
        crashes = []
        gaveUpNoticePosted = false
        lastError = nil
        // Two restarts at once start one program: the second finds the first's running.
        guard wanted, !hasProcess else { return }
        phase = .idle
        start()
    }

    /// Whether a program of the plugin runs, or is being started or stopped.
    var hasProcess: Bool {
        switch phase {
        case .starting, .running, .stopping: true
        case .idle, .waiting, .gaveUp, .notStarted: false
        }
    }

    /// Waits until the plugin has answered `initialize`, or until it cannot.
    ///
    /// - Returns: Whether it runs.
    package func waitUntilReady(timeout: Double) async -> Bool {
        switch phase {
        case .running: return true
        case .gaveUp, .idle, .stopping, .notStarted: return false
        case .starting, .waiting: break
        }
        nextWaiter += 1
        let key = nextWaiter
        let timer = Task { [weak self] in
            try? await TaskTimer.sleep(for: .seconds(timeout))
            await self?.releaseReadyWaiter(key)
        }
        await withCheckedContinuation { readyWaiters[key] = $0 }
        timer.cancel()
        return isRunning
    }

    func releaseReadyWaiter(_ key: Int) {
        readyWaiters.removeValue(forKey: key)?.resume()
    }

    func releaseReadyWaiters() {
        let waiters = readyWaiters
        readyWaiters = [:]
        for waiter in waiters.values { waiter.resume() }
    }

    // MARK: Starting and stopping

    func start() {
        generation += 1
        let run = generation
        deliberateStop = false
        apiVersion = nil
        reminderIDs = nil
        initializedConfig = config
        do {
            try FileManager.default.createDirectory(
                atPath: dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard let launch = launch(run: run) else { return }
            let process = try PluginProcess(launch: launch)
            phase = .starting(process)
            logger.info("started (pid \(process.pid))")
            let (requests, continuation) = AsyncStream.makeStream(of: RPCMessage.self, bufferingPolicy: .unbounded)
            incoming = continuation
            incomingCount = 0
            Task { [weak self] in
                for await event in process.events {
                    guard let self else { return }
                    await self.handle(event, run: run)
                    if case .frame = event { process.handled() }
                }
            }
            Task { [weak self] in
                for await message in requests {
                    guard let self else { return }
                    await self.serve(message, run: run)
                }
            }
            Task { await self.initialize(run: run) }
        } catch {
            lastError = "could not be started: \(PluginProcess.whyNotStarted(error, program: manifest.exec[0]))"
            lastErrorRun = run
            crashed(run: run)
        }
    }

    func initialize(run: Int) async {
        let params: [String: JSONValue] = [
            "api_version": .object([
                "min": .number(Double(PluginManifest.hostAPIVersions.lowerBound)),
                "max": .number(Double(PluginManifest.hostAPIVersions.upperBound)),
            ]),
            "host_version": .string(hostVersion), "plugin": .string(manifest.name), "config": config,
            "data_directory": .string(dataDirectory),
            "time_zone": .string((context?.timeZone ?? .current).identifier),
            "now": WireInstant.json(context?.now ?? Date()),
        ]
        do {
            let answer = try await call("initialize", params, timeout: limits.initializeTimeout)
            guard run == generation, case .starting(let process) = phase else { return }
            guard case .number(let number)? = answer["api_version"], let version = Int(exactly: number),
                PluginManifest.hostAPIVersions.contains(version)
            else {
                let said = answer["api_version"].map { $0.text() } ?? "nothing"
                fail(
                    "answered initialize with api_version \(said), and this Hooray speaks plugin API \(PluginManifest.hostAPIVersions.lowerBound); install a version of the plugin made for it",
                    run: run)
                return
            }
            apiVersion = version
            phase = .running(process)
            logger.info("running (plugin API \(version))")
            releaseReadyWaiters()
            running.value = true
            if let sent = initializedConfig, sent != config {
                // The configuration changed while it started.
                notify("configChanged", ["config": config])
            }
            await runningChanged?()
        } catch {
            // A program that exited before it answered has its exit as the reason, said already.
            guard run == generation, !(error is PluginStopped), !deliberateStop else { return }
            fail(
                error is CallTimedOut
                    ? "did not answer initialize within \(Int(limits.initializeTimeout)) s"
                    : "refused initialize: \(error)", run: run)
        }
    }

    /// Stops the plugin for breaking the protocol or a time limit; it counts as an exit.
    func fail(_ reason: String, run: Int) {
        // Only a process that still runs can be stopped for a reason; one that exited has its own.
        guard run == generation else { return }
        switch phase {
        case .starting(let process), .running(let process):
            lastError = reason
            lastErrorRun = run
            logger.error("\(reason); stopping it")
            process.signal(SIGKILL)
        default:
            break
        }
    }

    /// Stops the running process: `shutdown`, standard input closed, `SIGTERM`, then `SIGKILL`.
    func stop() async {
        let process: PluginProcess
        switch phase {
        case .starting(let running), .running(let running), .stopping(let running): process = running
        case .waiting, .gaveUp, .idle, .notStarted:
            generation += 1
            phase = .idle
            return
        }
        // Calls the plugin made before it is stopped — a notice posted just before a command's
        // answer — are served first, for at most 2 s: a stop loses nothing it already sent.
        var waited = 0
        while incomingCount + callsBeingServed > 0, waited < 200, isRunning {
            try? await TaskTimer.sleep(for: .milliseconds(10))
            waited += 1
        }
        deliberateStop = true
        let wasRunning = isRunning
        phase = .stopping(process)
        running.value = false
        let run = generation
        let term = Task {
            try await TaskTimer.sleep(for: .seconds(limits.termAfter))
            process.signal(SIGTERM)
            try await TaskTimer.sleep(for: .seconds(limits.killAfter - limits.termAfter))
            process.signal(SIGKILL)
        }
        if wasRunning {
            _ = try? await call("shutdown", [:], timeout: limits.termAfter, during: .stopping)
        }
        process.closeInput()
        if run == generation, case .stopping = phase {
            await withCheckedContinuation { exitWaiters.append($0) }
        }
        term.cancel()
    }

    // MARK: Events

    func handle(_ event: PluginProcessEvent, run: Int) async {
        guard run == generation else { return }
        switch event {
        case .frame(let body):
            let message: RPCMessage
            do {
                message = try RPCMessage(body: body)
            } catch {
                if error.code == -32700 {
                    fail(error.message, run: run)
                } else {
                    logger.warning("\(error.message)")
                    send(.error(id: nil, error))
                }
                return
            }
            switch message {
            case .result(let id, let value):
                answer(id, with: .success(value))
            case .error(let id?, let error):
                answer(id, with: .failure(error))
            case .error(nil, let error):
                logger.warning("sent an error about a message it could not read: \(error.message)")
            case .request, .notification:
                incomingCount += 1
                if incomingCount > 1000 {
                    fail("sent more than 1000 calls without waiting for the answers", run: run)
                    return
                }
                incoming?.yield(message)
            }
        case .violation(let reason):
            lastError = reason
            lastErrorRun = run
            logger.error("\(reason); stopping it")
        case .logLine(let line):
            recentErrorLines = Array((recentErrorLines + [line]).suffix(10))
            logger.info("\(TerminalText.safe(line))")
            checkForkFailure(line, run: run)
        case .forkRefused(let line):
            checkForkFailure(line, run: run)
        case .exited(let status, let signalled):
            exited(status: status, signalled: signalled, run: run)
        }
    }

    func answer(_ id: RPCID, with result: Result<JSONValue, RPCError>) {
        guard let waiter = pending.removeValue(forKey: id) else {
            logger.notice("answered request \(id), which had timed out or was never sent; the answer is dropped")
            lateAnswer(id)
            return
        }
        switch result {
        case .success(let value): waiter.resume(returning: value)
        case .failure(let error): waiter.resume(throwing: error)
        }
    }

    func exited(status: Int32, signalled: Bool, run: Int) {
        incoming?.finish()
        incoming = nil
        let waiters = pending
        pending = [:]
        for (_, waiter) in waiters { waiter.resume(throwing: PluginStopped(plugin: manifest.name)) }
        let exitWaiting = exitWaiters
        exitWaiters = []
        for waiter in exitWaiting { waiter.resume() }
        var how = signalled ? "was ended by signal \(status)" : "exited with status \(status)"
        if !signalled, status == 126 || status == 127 {
            how =
                "could not run its program (status \(status): a missing interpreter in its #! line, or a missing command)"
            if let why = PluginProcess.missingInterpreter(program: manifest.exec[0], sandboxed: true) {
                how = "could not be started: \(why)"
            }
        }
        if let words = recentErrorLines.last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            how += "; its last words: “\(TerminalText.safe(String(words.prefix(200))))”"
        }
        if let limit = limitExplanation(status: status, signalled: signalled) { how += "; \(limit)" }
        if deliberateStop {
            logger.info("stopped (\(how))")
            phase = .idle
            releaseReadyWaiters()
            return
        }
        // The reason this run was stopped for stays; otherwise the exit itself is the news.
        if lastErrorRun != run {
            lastError = how
            lastErrorRun = run
        }
        logger.error("\(how)")
        crashed(run: run)
    }

    /// The run ``lastError`` is about.
    var lastErrorRun = 0

    func crashed(run: Int) {
        running.value = false
        releaseReadyWaiters()
        let now = ContinuousClock.now
        crashes = crashes.filter { now - $0 < .seconds(limits.crashWindow) } + [now]
        if crashes.count >= limits.crashLimit {
            phase = .gaveUp
            releaseReadyWaiters()
            logger.error(
                "gave up after \(crashes.count) exits in \(Int(limits.crashWindow / 60)) minutes; `hooray plugins restart \(manifest.name)` starts it again"
            )
            postGaveUpNotice()
            return
        }
        phase = .waiting
        let delay = min(60, pow(2, Double(crashes.count - 1)))
        Task { [weak self] in
            try? await TaskTimer.sleep(for: .seconds(delay))
            await self?.restartAfterBackoff(run: run)
        }
    }

    func restartAfterBackoff(run: Int) {
        guard run == generation, wanted, case .waiting = phase else { return }
        restarts += 1
        start()
    }

    func postGaveUpNotice() {
        guard !gaveUpNoticePosted, let context else { return }
        gaveUpNoticePosted = true
        let reason = lastError.map { " The last problem: it \($0)." } ?? ""
        let notice = Notice(
            title: "The \(manifest.name) plugin has stopped",
            body:
                "It stopped \(limits.crashLimit) times in \(Int(limits.crashWindow / 60)) minutes, so Hooray let it rest.\(reason) Its reminders are kept. `hooray plugins restart \(manifest.name)` starts it again."
        )
        Task { _ = try? await context.notices.post(notice) }
    }
}

/// A flag read and written from any thread.
public final class RunningFlag: @unchecked Sendable {
    // @unchecked: `flag` is guarded by `lock`.
    private let lock = NSLock()
    private var flag = false

    /// The value.
    public var value: Bool {
        get { lock.withLock { flag } }
        set { lock.withLock { flag = newValue } }
    }
}

/// A call to a plugin was not answered in time.
package struct CallTimedOut: Error, CustomStringConvertible {
    package var description: String { "the plugin did not answer in time" }
    package init() {}
}

/// A plugin stopped before it answered.
struct PluginStopped: Error, CustomStringConvertible {
    let plugin: String
    var description: String { "the \(plugin) plugin stopped" }
}
