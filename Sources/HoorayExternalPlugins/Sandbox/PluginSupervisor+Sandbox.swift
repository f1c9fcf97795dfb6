import Foundation
import HoorayKit
import HoorayThreads
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// A supervisor's part of the sandbox: how its plugin was started, and its limits as they stand.
struct SupervisorSandbox: Sendable {
    /// `[plugins] allow_unsandboxed` of `hooray.toml`.
    var allowUnsandboxed = false
    /// Why the plugin runs without a sandbox, when it does.
    var unsandboxedWarning: String?
    /// The CPU time of the plugin's processes when each call under way began.
    var callsStarted: [RPCID: Double] = [:]
    /// The last measure of it, and when: a call that begins soon after another ended starts from
    /// it, so that a busy plugin's calls cost one look at `/proc` each, made after the answer.
    var lastMeasure: (at: ContinuousClock.Instant, cpuSeconds: Double)?
    /// Calls that timed out and that the plugin may still be working on: their CPU time counts until
    /// it answers, or stops.
    var lateCalls: Set<RPCID> = []
    /// Looks at the CPU time every second while a call is under way, so that a plugin past its
    /// `cpu_seconds` is stopped then, however long the call may take by the clock.
    var cpuWatch: Task<Void, Never>?
}

extension PluginSupervisor {
    /// The variables a plugin gets, and no others: `PATH`, `LANG` and `TZ` (the host's, when set),
    /// `HOME` (its data folder), `HOORAY_PLUGIN`, `HOORAY_PLUGIN_DATA` and `PYTHONUNBUFFERED=1`.
    static func cleanEnvironment(_ host: [String: String], plugin: String, data: String) -> [String: String] {
        var clean = [
            "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": data, "HOORAY_PLUGIN": plugin, "HOORAY_PLUGIN_DATA": data,
            "PYTHONUNBUFFERED": "1",
        ]
        for name in ["LANG", "TZ"] { clean[name] = host[name] }
        return clean
    }

    /// How to start the plugin now, or `nil` when it cannot be (the reason is then its last error).
    func launch(run: Int) -> PluginLaunch? {
        sandbox.lastMeasure = nil
        sandbox.callsStarted = [:]
        sandbox.lateCalls = []
        sandbox.cpuWatch?.cancel()
        sandbox.cpuWatch = nil
        switch PluginLaunch.decide(
            manifest: manifest, dataFolder: dataDirectory, environment: environment,
            allowUnsandboxed: sandbox.allowUnsandboxed)
        {
        case .sandboxed(let launch):
            sandbox.unsandboxedWarning = nil
            return launch
        case .unsandboxed(let launch, let warning):
            sandbox.unsandboxedWarning = warning
            logger.warning("\(warning)")
            return launch
        case .refused(let reason):
            sandbox.unsandboxedWarning = nil
            lastError = reason
            lastErrorRun = run
            logger.error("\(reason)")
            phase = .notStarted
            running.value = false
            releaseReadyWaiters()
            return nil
        }
    }

    /// Notes the CPU time of the plugin's processes as a call begins.
    func callBegins(_ id: RPCID, process: PluginProcess) {
        defer { watchCPU(process: process, run: generation) }
        if let last = sandbox.lastMeasure, ContinuousClock.now - last.at < .seconds(2) {
            sandbox.callsStarted[id] = last.cpuSeconds
            return
        }
        guard let tree = ProcessTree.measure(process) else { return }
        sandbox.lastMeasure = (ContinuousClock.now, tree.cpuSeconds)
        sandbox.callsStarted[id] = tree.cpuSeconds
    }

    /// A call timed out: its CPU time keeps counting until the plugin answers it late, or stops.
    func callTimedOut(_ id: RPCID) {
        if sandbox.callsStarted[id] != nil { sandbox.lateCalls.insert(id) }
    }

    /// The plugin answered a call that had timed out: what it used meanwhile is checked now.
    func lateAnswer(_ id: RPCID) {
        guard sandbox.lateCalls.remove(id) != nil else { return }
        switch phase {
        case .running(let process), .stopping(let process): callEnds(id, process: process, run: generation)
        default: sandbox.callsStarted[id] = nil
        }
    }

    /// Starts looking at the CPU time once a second while calls are under way, unless it is already.
    private func watchCPU(process: PluginProcess, run: Int) {
        guard sandbox.cpuWatch == nil, !sandbox.callsStarted.isEmpty else { return }
        sandbox.cpuWatch = Task { [weak self] in
            while !Task.isCancelled {
                try? await TaskTimer.sleep(for: .seconds(1))
                guard let self, await self.cpuWatchTick(process: process, run: run) else { return }
            }
        }
    }

    /// One look of the watch: `false` once there is no call left to watch.
    private func cpuWatchTick(process: PluginProcess, run: Int) -> Bool {
        guard !Task.isCancelled, run == generation, let oldest = sandbox.callsStarted.values.min() else {
            if run == generation { sandbox.cpuWatch = nil }
            return false
        }
        // Not kept as the last measure: a call under way would be charged to the next one.
        guard let tree = ProcessTree.measure(process) else { return true }
        return !exceedsCPULimit(used: tree.cpuSeconds - oldest, run: run)
    }

    /// Checks the CPU time the plugin's processes used during a call that ended or timed out, and
    /// stops a plugin that used more than its `cpu_seconds`.
    func callEnds(_ id: RPCID, process: PluginProcess, run: Int) {
        guard let before = sandbox.callsStarted.removeValue(forKey: id), run == generation,
            let tree = ProcessTree.measure(process)
        else { return }
        sandbox.lastMeasure = (ContinuousClock.now, tree.cpuSeconds)
        // The kernel does not hold root to the process limit, even in the sandbox (its user there is
        // root of the computer): a plugin of a hoorayd run as root is held to it here, at each call.
        if tree.processes > manifest.limits.processes + 1 {
            fail(Self.tooManyProcesses(manifest.limits.processes), run: run)
            return
        }
        _ = exceedsCPULimit(used: tree.cpuSeconds - before, run: run)
    }

    /// Stops a plugin whose call used more than its `cpu_seconds`, saying so; `true` when it did.
    private func exceedsCPULimit(used: Double, run: Int) -> Bool {
        let allowed = manifest.limits.cpuSecondsPerCall
        guard used > Double(allowed) else { return false }
        fail(
            "used \(String(format: "%.1f", used)) s of CPU in one call, more than its limit of \(allowed) s; "
                + "its author can ask for up to \(PluginLimits.ceiling.cpuSecondsPerCall) s with cpu_seconds under "
                + "[limits] in its plugin.toml", run: run)
        return true
    }

    /// A line on the plugin's standard error that says a process could not be started: when its
    /// processes are at their limit, it is stopped, saying so.
    func checkForkFailure(_ line: String, run: Int) {
        guard saysForkFailed(line) else { return }
        let process: PluginProcess
        switch phase {
        case .starting(let running), .running(let running): process = running
        default: return
        }
        let limit = manifest.limits.processes
        // The kernel counts bubblewrap's init process inside the sandbox with the plugin's, as the
        // tree does; processes that end meanwhile leave some slack.
        guard let tree = ProcessTree.measure(process), tree.processes >= limit - 2 else { return }
        fail(Self.tooManyProcesses(limit), run: run)
    }

    static func tooManyProcesses(_ limit: Int) -> String {
        "tried to start more than \(limit) processes, its limit (a fork bomb, or a program that starts too "
            + "many); its author can ask for up to \(PluginLimits.ceiling.processes) with processes under [limits] "
            + "in its plugin.toml"
    }

    /// What an exit says about the sandbox's limits: a plugin that ran out of memory is told so.
    func limitExplanation(status: Int32, signalled: Bool) -> String? {
        let memory = PluginLimits.size(manifest.limits.memoryBytes)
        let raise =
            "its author can ask for up to \(PluginLimits.size(PluginLimits.ceiling.memoryBytes)) with memory under "
            + "[limits] in its plugin.toml, such as memory = \"512M\""
        let words = recentErrorLines.suffix(5).joined(separator: "\n").lowercased()
        if ["memoryerror", "cannot allocate memory", "out of memory", "std::bad_alloc", "memory exhausted"]
            .contains(where: words.contains)
        {
            return "it ran out of its memory limit of \(memory); \(raise)"
        }
        if signalled, [SIGSEGV, SIGABRT, SIGBUS].contains(status) {
            return "perhaps it ran out of its memory limit of \(memory); if so, \(raise)"
        }
        return nil
    }
}
