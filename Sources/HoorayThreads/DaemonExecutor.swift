import CHoorayThreads
import Foundation

/// hoorayd's executor for Swift concurrency: a few threads of its own that sleep until there is
/// work, in place of libdispatch's worker pool.
///
/// On Linux, Swift concurrency's default executor is libdispatch, whose first worker thread starts
/// a workqueue monitor that wakes the process once a second for as long as it lives. hoorayd waits
/// for hours between reminders, so it installs this executor first thing in `main`, before any
/// task exists, through the concurrency runtime's hooks for the global executor (the way
/// SwiftNIO's `NIOSingletons` installs its event loops): jobs go to a queue served by a few worker
/// threads that wait on a condition variable with no timeout; delayed jobs wait in a heap served
/// by one timed wait on the nearest deadline. The main actor's jobs still go to Dispatch's main
/// queue, which the main thread drains itself (``runMainThread()``) instead of `dispatch_main()`.
/// `hooray` and the test processes keep the default executor.
///
/// `Task.sleep` does not reach these hooks in Swift 6.3 (it asks Dispatch's executor for a timer
/// directly), so hoorayd's own code sleeps with ``TaskTimer/sleep(for:)``.
public enum DaemonExecutor {
    /// Worker threads kept while idle; more are added while every one of them is blocked with
    /// work waiting, up to ``maximumThreads``.
    ///
    /// Four, not one per core: hoorayd's tasks run GRDB's synchronous API, which holds a worker
    /// while SQLite waits for another process's lock, and on this 2-core machine the end-to-end
    /// suites (nine hoorayd at once) missed their 15 s waits now and then with two. Idle workers
    /// cost no wake-ups.
    public static let threads: UInt32 = 4
    /// The most worker threads, for code that blocks its thread until other work has run.
    public static let maximumThreads: UInt32 = 64

    /// Makes this process's executor the global executor of Swift concurrency.
    ///
    /// Call it first thing in a synchronous `main`, before any task is created, and then
    /// ``runMainThread()``.
    ///
    /// - Returns: Whether it was installed; `false` when another executor holds the hooks.
    @discardableResult
    public static func install() -> Bool {
        hooray_executor_install(threads, maximumThreads)
    }

    /// Whether ``install()`` succeeded in this process.
    public static var isInstalled: Bool { hooray_executor_pool() != nil }

    /// Runs the main actor's jobs on the calling thread, the process's main thread, until the
    /// process exits.
    public static func runMainThread() -> Never {
        hooray_executor_run_main()
    }
}

/// Sleeping in a task without Dispatch's timers where hoorayd's executor is installed.
///
/// The executor's timers count CLOCK_MONOTONIC, which stops while the machine is suspended: a sleep
/// across a suspend ends that much later. It times retries and time limits only; reminders wait on
/// the wall-clock alarm, which a resume wakes.
public enum TaskTimer {
    /// hoorayd's pool, once ``DaemonExecutor/install()`` succeeded.
    private static let pool: WorkerPool? = hooray_executor_pool().map(WorkerPool.init(wrapping:))

    /// Suspends the current task for `duration`, like `Task.sleep(for:)`.
    ///
    /// With ``DaemonExecutor`` installed, this is ``WorkerPool/sleep(for:)`` on its pool (a
    /// deadline in its timer thread's heap); otherwise `Task.sleep(for:)`.
    ///
    /// - Parameter duration: How long to sleep; zero or less returns at once.
    /// - Throws: `CancellationError` when the task is cancelled before the time is up.
    public static func sleep(for duration: Duration) async throws {
        if let pool {
            try await pool.sleep(for: duration)
        } else {
            try await Task.sleep(for: duration)
        }
    }
}

/// One sleep's continuation, resumed once: by its deadline or by cancellation, whichever is first.
final class Sleeper: @unchecked Sendable {
    // @unchecked: every field is guarded by `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, any Error>?
    private var outcome: (any Error)??
    private var token: UInt64?

    /// Keeps the continuation to resume; `false` when the sleep was cancelled already (the
    /// continuation is then resumed with that error here).
    func arm(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let early: (any Error)?? = lock.withLock {
            if outcome == nil { self.continuation = continuation }
            return outcome
        }
        guard let early else { return true }
        resume(continuation, early)
        return false
    }

    /// Remembers the pool's token of the deadline; `false` when the sleep ended meanwhile, so that
    /// the caller takes the deadline out again.
    func waits(on token: UInt64) -> Bool {
        lock.withLock {
            self.token = token
            return outcome == nil
        }
    }

    /// Ends the sleep, unless it ended already.
    ///
    /// - Parameter error: `nil` at the deadline, the error of a cancellation.
    /// - Returns: The deadline's token to take out of the pool, when a cancellation ended it.
    @discardableResult
    func finish(_ error: (any Error)?) -> UInt64? {
        let (waiting, token): (CheckedContinuation<Void, any Error>?, UInt64?) = lock.withLock {
            guard outcome == nil else { return (nil, nil) }
            outcome = .some(error)
            defer { continuation = nil }
            return (continuation, error == nil ? nil : self.token)
        }
        if let waiting { resume(waiting, error) }
        return token
    }

    private func resume(_ continuation: CheckedContinuation<Void, any Error>, _ error: (any Error)?) {
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }
}
