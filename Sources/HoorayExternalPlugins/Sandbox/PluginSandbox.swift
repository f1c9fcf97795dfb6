import Foundation
import HoorayThreads

#if canImport(Glibc)
    import Glibc
#endif

/// Whether plugins in other languages can run sandboxed on this computer, found once per process
/// by running `hooray-sandbox` and bubblewrap around `true`.
public enum SandboxAvailability: Sendable, Hashable {
    /// bubblewrap and `hooray-sandbox` work: plugins run sandboxed.
    case available
    /// They do not: why, and the fix, each a sentence fragment for a person.
    case unavailable(reason: String, fix: String)
}

/// How a plugin's program is started: inside bubblewrap through `hooray-sandbox` (``SandboxPolicy``),
/// or, where no sandbox can be had and `[plugins] allow_unsandboxed = true` says so, without one.
public enum PluginSandbox {
    /// bubblewrap: `/usr/bin/bwrap`, or `HOORAY_BWRAP` when set — a knob for tests and packagers,
    /// such as `HOORAY_BWRAP=/nonexistent` to see how Hooray behaves on a computer without it.
    public static var bubblewrap: String {
        ProcessInfo.processInfo.environment["HOORAY_BWRAP"] ?? "/usr/bin/bwrap"
    }

    /// The folder `hooray-sandbox` is installed in by the Debian package.
    public static let systemHelperFolder = "/usr/lib/hooray"

    /// The folders searched for `hooray-sandbox`: beside the running program, `../lib/hooray` and
    /// `../../lib/hooray` of it (`make install PREFIX=…` puts it there), then ``systemHelperFolder``.
    static var helperFolders: [String] {
        var folders: [String] = []
        if let program = realpath("/proc/self/exe", nil) {
            let folder = (String(cString: program) as NSString).deletingLastPathComponent
            free(program)
            folders += [
                folder, (folder as NSString).appendingPathComponent("../lib/hooray"),
                (folder as NSString).appendingPathComponent("../../lib/hooray"),
            ].map { ($0 as NSString).standardizingPath }
        }
        return folders + [systemHelperFolder]
    }

    /// The `hooray-sandbox` program, or `nil` when none is installed.
    public static var helper: String? {
        helperFolders.map { $0 + "/hooray-sandbox" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether plugins can run sandboxed here: probed once, by running the sandbox around `true`.
    public static var availability: SandboxAvailability {
        probe.lock.withLock {
            if let known = probe.result { return known }
            let result = probeNow()
            probe.result = result
            return result
        }
    }

    private final class Probe: @unchecked Sendable {
        // @unchecked: `result` is guarded by `lock`.
        let lock = NSLock()
        var result: SandboxAvailability?
    }

    private static let probe = Probe()

    /// The fix for a computer without bubblewrap.
    static let installFix = "install bubblewrap (`sudo apt install bubblewrap`)"

    static func probeNow() -> SandboxAvailability {
        let bwrap = bubblewrap
        guard FileManager.default.isExecutableFile(atPath: bwrap) else {
            return .unavailable(reason: "bubblewrap is not installed (there is no \(bwrap))", fix: installFix)
        }
        guard let helper else {
            return .unavailable(
                reason: "hooray-sandbox is missing (looked in \(helperFolders.joined(separator: ", ")))",
                fix: "reinstall Hooray (`sudo apt install --reinstall hooray`, or `make install`)")
        }
        let policy = SandboxPolicy(
            pluginFolder: "/usr", dataFolder: "/tmp", helper: helper, network: false, limits: .standard,
            exec: ["/bin/true"], environment: ["PATH": "/usr/bin:/bin"])
        let errors = Pipe()
        let finished = DispatchSemaphore(value: 0)
        let nothing = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(nothing) }
        let child: SpawnedChild
        do {
            child = try SpawnedChild.spawn(
                helper, arguments: ["outer", "\(getpid())", bwrap] + policy.arguments(), environment: [:],
                folder: "/", standardInput: nothing, standardOutput: nothing,
                standardError: errors.fileHandleForWriting.fileDescriptor
            ) { _ in finished.signal() }
        } catch {
            return .unavailable(
                reason: "hooray-sandbox could not be started (\(error.localizedDescription))",
                fix: "reinstall Hooray (`sudo apt install --reinstall hooray`, or `make install`)")
        }
        try? errors.fileHandleForWriting.close()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        finished.wait()
        if let ending = child.exit, ending.status == 0, !ending.signalled { return .available }
        return explain(said.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Why bubblewrap could not make a sandbox, from what it said and the kernel's settings.
    static func explain(_ said: String) -> SandboxAvailability {
        let shown = said.split(separator: "\n").first.map(String.init) ?? "it failed without a word"
        func setting(_ path: String) -> String? {
            (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if setting("/proc/sys/kernel/unprivileged_userns_clone") == "0" {
            return .unavailable(
                reason: "user namespaces are turned off for ordinary users (bubblewrap said: \(shown))",
                fix: "turn them on: `sudo sysctl kernel.unprivileged_userns_clone=1` "
                    + "(and kernel.unprivileged_userns_clone = 1 in /etc/sysctl.d/ to keep it)")
        }
        if setting("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1" {
            return .unavailable(
                reason: "AppArmor keeps ordinary programs from making user namespaces (bubblewrap said: \(shown))",
                fix: "`sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0`, or give bwrap an AppArmor profile "
                    + "that allows userns (Ubuntu 24.04 and later)")
        }
        if setting("/proc/sys/user/max_user_namespaces") == "0" {
            return .unavailable(
                reason: "user namespaces are turned off (user.max_user_namespaces is 0; bubblewrap said: \(shown))",
                fix: "`sudo sysctl user.max_user_namespaces=15000`")
        }
        return .unavailable(
            reason: "bubblewrap could not make a sandbox (it said: \(shown))",
            fix: "check that `bwrap --unshare-all --ro-bind / / true` works for your user; " + installFix)
    }

    /// How `hooray plugins` and the log say that a plugin cannot start, with the fix.
    static func refusal(reason: String, fix: String) -> String {
        "was not started: it must run in a sandbox, and \(reason); to fix it, \(fix). "
            + "Or, knowing it can then read all your files, set allow_unsandboxed = true under [plugins] in hooray.toml"
    }
}

/// Starts programs from one thread that lives as long as the process: a child's parent-death
/// signal (PR_SET_PDEATHSIG) fires when the *thread* that started it ends, and the threads of
/// Swift's executors come and go.
enum Spawner {
    private static let thread = SerialThread(name: "hooray-spawn")

    /// Runs `body` on the spawning thread and waits for it.
    static func run<T>(_ body: @escaping () throws -> T) throws -> T {
        let box = Box(body)
        let done = DispatchSemaphore(value: 0)
        thread.async {
            box.run()
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    private final class Box<T>: @unchecked Sendable {
        // @unchecked: `result` is written on the spawning thread before the semaphore is signalled,
        // and read after the caller's wait.
        let body: () throws -> T
        var result: Result<T, any Error>?
        init(_ body: @escaping () throws -> T) { self.body = body }
        func run() { result = Result { try body() } }
    }
}
