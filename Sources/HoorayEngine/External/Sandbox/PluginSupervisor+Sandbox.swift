import Foundation
import HoorayKit
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
        if let last = sandbox.lastMeasure, ContinuousClock.now - last.at < .seconds(2) {
            sandbox.callsStarted[id] = last.cpuSeconds
            return
        }
        guard let tree = ProcessTree.measure(process) else { return }
        sandbox.lastMeasure = (ContinuousClock.now, tree.cpuSeconds)
        sandbox.callsStarted[id] = tree.cpuSeconds
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
        let used = tree.cpuSeconds - before
        let allowed = manifest.limits.cpuSecondsPerCall
        guard used > Double(allowed) else { return }
        fail(
            "used \(String(format: "%.1f", used)) s of CPU in one call, more than its limit of \(allowed) s; "
                + "its author can ask for up to \(PluginLimits.ceiling.cpuSecondsPerCall) s with cpu_seconds under "
                + "[limits] in its plugin.toml", run: run)
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
