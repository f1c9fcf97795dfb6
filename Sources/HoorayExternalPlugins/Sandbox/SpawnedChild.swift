import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// glibc's, declared in <spawn.h> under _GNU_SOURCE, which Swift's Glibc module leaves out.
@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func hooray_addchdir(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>
) -> Int32

@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func hooray_addclosefrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

/// A program started with `posix_spawn` from the ``Spawner`` thread and waited for on a thread of
/// its own.
///
/// Not Foundation's `Process`: on Linux it learns that a program ended when a socket the program
/// inherited closes, then waits for it in a blocking `waitpid` on its one manager thread. bubblewrap
/// closes what it inherits as it starts, so that thread would wait there for the whole life of one
/// plugin, and no other program's end would be seen meanwhile.
final class SpawnedChild: @unchecked Sendable {
    // @unchecked: `ending` is guarded by `lock`; `pid` is set once.
    let pid: pid_t
    private let lock = NSLock()
    private var ending: (status: Int32, signalled: Bool)?

    /// How it ended: its exit status, or the signal that ended it; `nil` while it runs.
    var exit: (status: Int32, signalled: Bool)? { lock.withLock { ending } }

    /// Whether it still runs (has not been waited for).
    var isRunning: Bool { exit == nil }

    private init(pid: pid_t) {
        self.pid = pid
    }

    /// Starts a program with `standardInput`, `standardOutput` and `standardError` as its 0, 1 and
    /// 2, no other descriptor, signals at their defaults, in a process group of its own.
    ///
    /// - Parameter ended: Called once, on the waiting thread, when it has ended.
    /// - Throws: `POSIXError` when it cannot be started (not there, not executable).
    static func spawn(
        _ executable: String, arguments: [String], environment: [String: String], folder: String,
        standardInput: Int32, standardOutput: Int32, standardError: Int32,
        ended: @escaping @Sendable (SpawnedChild) -> Void
    ) throws -> SpawnedChild {
        guard access(executable, X_OK) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ENOENT) }
        let pid = try Spawner.run { () throws -> pid_t in
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
            posix_spawn_file_actions_adddup2(&actions, standardError, 2)
            _ = hooray_addclosefrom(&actions, 3)
            _ = hooray_addchdir(&actions, folder)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t()
            sigemptyset(&none)
            var all = sigset_t()
            sigfillset(&all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setpgroup(&attributes, 0)
            posix_spawnattr_setflags(
                &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer {
                for pointer in argv + envp { free(pointer) }
            }
            var pid: pid_t = 0
            let failed = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            guard failed == 0 else { throw POSIXError(POSIXErrorCode(rawValue: failed) ?? .EIO) }
            return pid
        }
        let child = SpawnedChild(pid: pid)
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let signalled = status & 0x7f != 0 && status & 0x7f != 0x7f
            child.lock.withLock { child.ending = signalled ? (status & 0x7f, true) : ((status >> 8) & 0xff, false) }
            ended(child)
        }
        return child
    }
}
