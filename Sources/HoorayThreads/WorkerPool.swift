import CHoorayThreads

/// A pool of worker threads that sleep until there is work: the engine of ``DaemonExecutor``,
/// offered on its own so that its behaviour can be checked without taking over a process's
/// executor.
///
/// Idle workers wait on a condition variable with no timeout; work submitted for later waits in a
/// heap, served by one timer thread that waits until the nearest deadline (CLOCK_MONOTONIC). When
/// every worker has been busy for a while with work waiting and nothing finishing (work that
/// blocks until other work has run), the pool adds a worker, up to its maximum; those extra
/// workers end once the queue is empty. A pool lives as long as the process.
public final class WorkerPool: @unchecked Sendable {
    // @unchecked: the C pool guards its own state with a mutex.
    private let pool: OpaquePointer

    /// Starts a pool.
    ///
    /// - Parameters:
    ///   - threads: Worker threads kept while idle (at least 1).
    ///   - maximumThreads: The most worker threads while work is stalled.
    ///   - name: The threads' name prefix for system tools (at most 11 bytes).
    public init(threads: UInt32, maximumThreads: UInt32, name: String) {
        pool = hooray_pool_create(threads, maximumThreads, name)
    }

    init(wrapping pool: OpaquePointer) {
        self.pool = pool
    }

    /// Runs `work` on a worker thread, after the work already submitted.
    public func submit(_ work: @escaping @Sendable () -> Void) {
        hooray_pool_submit(pool, Self.run, Unmanaged.passRetained(Work(work)).toOpaque())
    }

    /// Runs `work` on a worker thread once `delay` has passed; work due at the same instant runs in
    /// the order it was submitted.
    public func submit(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        submit(atMonotonic: Self.monotonicNow + Self.nanoseconds(delay), work)
    }

    /// Runs `work` once CLOCK_MONOTONIC reaches `deadline` nanoseconds (``monotonicNow``).
    public func submit(atMonotonic deadline: UInt64, _ work: @escaping @Sendable () -> Void) {
        _ = hooray_pool_submit_at(pool, deadline, Self.run, Unmanaged.passRetained(Work(work)).toOpaque())
    }

    /// Suspends the current task until `duration` has passed on this pool's timer.
    ///
    /// The wake-up is a deadline in the timer thread's heap, so it costs no thread and no
    /// Dispatch timer; the task then goes on wherever its executor runs it.
    ///
    /// - Parameter duration: How long to sleep; zero or less returns at once.
    /// - Throws: `CancellationError` when the task is cancelled before the time is up; its
    ///   deadline then leaves the heap, so a cancelled sleep costs no later wake-up.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        let sleeper = Sleeper()
        let deadline = Self.monotonicNow + Self.nanoseconds(duration)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleeper.arm(continuation) else { return }
                // The pool holds a reference to the sleeper until the deadline or a cancellation.
                let token = hooray_pool_submit_at(
                    pool, deadline,
                    { context in
                        Unmanaged<Sleeper>.fromOpaque(context!).takeRetainedValue().finish(nil)
                    }, Unmanaged.passRetained(sleeper).toOpaque())
                if !sleeper.waits(on: token) { cancel(token) }
            }
        } onCancel: {
            if let token = sleeper.finish(CancellationError()) { cancel(token) }
        }
    }

    /// Takes a sleeper's deadline out of the heap, so that the timer thread does not wake for it.
    private func cancel(_ token: UInt64) {
        if let context = hooray_pool_cancel(pool, token) {
            Unmanaged<Sleeper>.fromOpaque(context).release()
        }
    }

    /// How many worker threads the pool has now.
    public var threadCount: Int { Int(hooray_pool_threads(pool)) }

    /// How much delayed work (sleeps included) waits for its deadline.
    public var delayedCount: Int { Int(hooray_pool_delayed(pool)) }

    /// CLOCK_MONOTONIC in nanoseconds, the clock of ``submit(atMonotonic:_:)``.
    public static var monotonicNow: UInt64 { hooray_monotonic_now() }

    /// Whole nanoseconds of `duration`: 0 for a negative one, and at most about a century, so that
    /// a deadline never overflows.
    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        let clamped = UInt64(min(max(0, seconds), 3_000_000_000))
        return clamped * 1_000_000_000 + UInt64(max(0, attoseconds / 1_000_000_000))
    }

    private static let run: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
        Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
    }

    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
