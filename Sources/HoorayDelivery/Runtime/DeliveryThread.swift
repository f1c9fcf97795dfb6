import CLibNotify
import Foundation
import HoorayThreads

/// libnotify keeps its state (application name, D-Bus proxy, list of notifications) in globals, and
/// the proxy delivers its signals to the main context of the thread that created it. So only one
/// delivery thread may use libnotify at a time: each takes this lock for its whole life, and a
/// second `NotificationDelivery` simply starts working once the first has shut down.
private let libnotifyOwnership = NSLock()

/// The thread that owns libnotify: it runs a GLib main loop on a private main context and performs,
/// one after another, every job posted to it.
///
/// Everything libnotify does happens here: notifications are created, updated and shown by jobs,
/// and the signals that report button presses, closed notifications and a server coming or going
/// are dispatched by the same loop. libnotify is not thread-safe, so this confinement is what keeps
/// it correct. The price is that a blocking call (`notify_notification_show` to a hung server waits
/// up to 25 s) delays the signals behind it; callers never wait for it, because
/// ``perform(timeout:timedOut:stopped:_:whenLate:)`` gives up after its timeout.
final class DeliveryThread: @unchecked Sendable {
    // `context` and `loop` are GLib objects whose cross-thread entry points (attaching a source,
    // quitting the loop) are documented as thread-safe. `session` is only touched by jobs on the
    // thread. `accepting` and `exitWaiters` are guarded by `lock`. That is why this is Sendable.
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let session: LibNotifySession
    private let lock = NSLock()
    private var accepting = true
    private var hasExited = false
    private var exitWaiters: [ReplySlot<Bool>] = []

    /// Starts the thread; jobs posted before it runs wait in its main context.
    ///
    /// - Parameter session: The libnotify state the thread's jobs work on.
    init(session: LibNotifySession) {
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        self.session = session
        session.thread = self
        let thread = Thread { [self] in
            nameThisThread("hooray-delivery")
            run()
        }
        thread.name = "hooray-delivery"
        thread.start()
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// Runs `work` on the thread with the session, and waits for its result at most `timeout`.
    ///
    /// - Parameters:
    ///   - timeout: How long the caller waits.
    ///   - timedOut: The result when the work did not finish in time.
    ///   - stopped: The result when the thread is shutting down or gone.
    ///   - work: The work; it may block, the caller does not wait longer than `timeout` for it.
    ///   - whenLate: Called on the thread with the result of work that finished after the caller
    ///     gave up, to undo what the caller will not know about.
    /// - Returns: The work's result, `timedOut` or `stopped`.
    func perform<Value: Sendable>(
        timeout: Duration,
        timedOut: Value,
        stopped: Value,
        _ work: @escaping (LibNotifySession) -> Value,
        whenLate: @escaping (LibNotifySession, Value) -> Void = { _, _ in }
    ) async -> Value {
        var timer: Task<Void, Never>?
        let value = await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
            let slot = ReplySlot(continuation)
            let posted = post { [session] in
                // The caller gave up before the work began: doing it now would surprise them.
                guard !slot.isSettled else { return }
                let value = session.isStopped ? stopped : work(session)
                if !slot.settle(value) { whenLate(session, value) }
            }
            guard posted else {
                slot.settle(stopped)
                return
            }
            timer = Self.settle(slot, with: timedOut, after: timeout)
        }
        timer?.cancel()
        return value
    }

    /// Settles `slot` with `value` once `timeout` has passed, unless the returned task is cancelled
    /// first. A task, not a Dispatch timer: in hoorayd it sleeps on hoorayd's own executor.
    private static func settle<Value: Sendable>(
        _ slot: ReplySlot<Value>, with value: Value, after timeout: Duration
    ) -> Task<Void, Never> {
        Task {
            do {
                try await TaskTimer.sleep(for: timeout)
                slot.settle(value)
            } catch {}
        }
    }

    /// Queues a job to run on the thread after the jobs already queued.
    ///
    /// - Parameter job: The job.
    /// - Returns: Whether it was queued; `false` once ``stop()`` was called.
    @discardableResult
    func post(_ job: @escaping () -> Void) -> Bool {
        lock.withLock {
            guard accepting else { return false }
            attach(g_idle_source_new()) {
                job()
                return false
            }
            return true
        }
    }

    /// Runs `job` on the thread every `interval` until it returns `false` or the source is destroyed.
    ///
    /// Only call it on the thread.
    ///
    /// - Parameters:
    ///   - interval: The time between runs.
    ///   - job: The job; return `true` to run again.
    /// - Returns: The timer's GLib source, owned by the caller: pass it to ``cancel(_:)``.
    func repeatEvery(_ interval: Duration, _ job: @escaping () -> Bool) -> UnsafeMutablePointer<GSource> {
        let milliseconds = max(1, min(Int64(UInt32.max), interval.milliseconds))
        let source = g_timeout_source_new(guint(milliseconds))!
        g_source_ref(source)
        attach(source, job)
        return source
    }

    /// Stops and releases a timer made by ``repeatEvery(_:_:)``.
    ///
    /// - Parameter source: The timer.
    func cancel(_ source: UnsafeMutablePointer<GSource>) {
        g_source_destroy(source)
        g_source_unref(source)
    }

    /// Asks the thread to shut the session down and exit; later jobs are refused.
    ///
    /// Jobs queued before still run, and see a stopped session.
    func stop() {
        lock.withLock {
            guard accepting else { return }
            accepting = false
            attach(g_idle_source_new()) { [self] in
                session.stop()
                g_main_loop_quit(loop)
                return false
            }
        }
    }

    /// Waits until the thread has exited.
    ///
    /// - Parameter timeout: How long to wait; a job blocked on a hung server can hold the thread.
    /// - Returns: Whether it exited in time.
    @discardableResult
    func waitUntilExited(timeout: Duration) async -> Bool {
        var timer: Task<Void, Never>?
        let exited = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let slot = ReplySlot(continuation)
            let exited = lock.withLock {
                if !hasExited { exitWaiters.append(slot) }
                return hasExited
            }
            if exited {
                slot.settle(true)
                return
            }
            timer = Self.settle(slot, with: false, after: timeout)
        }
        timer?.cancel()
        return exited
    }

    private func run() {
        libnotifyOwnership.lock()
        // Pushed before the first libnotify or GDBus call: the proxy, the name watch and the
        // connection deliver their signals to the thread-default context of the thread that made them.
        g_main_context_push_thread_default(context)
        session.start()
        g_main_loop_run(loop)
        // Jobs queued before stop() still run; their session is stopped, so they only answer.
        while g_main_context_iteration(context, 0) != 0 {}
        g_main_context_pop_thread_default(context)
        libnotifyOwnership.unlock()

        let waiters = lock.withLock {
            hasExited = true
            defer { exitWaiters = [] }
            return exitWaiters
        }
        for waiter in waiters { waiter.settle(true) }
    }

    private func attach(_ source: UnsafeMutablePointer<GSource>?, _ job: @escaping () -> Bool) {
        guard let source else { return }
        let box = Unmanaged.passRetained(ThreadJob(job)).toOpaque()
        g_source_set_callback(source, runThreadJob, box, releaseThreadJob)
        g_source_attach(source, context)
        g_source_unref(source)
    }
}

/// A closure handed through GLib as the data of a source.
private final class ThreadJob {
    let body: () -> Bool
    init(_ body: @escaping () -> Bool) { self.body = body }
}

private let runThreadJob: GSourceFunc = { data in
    Unmanaged<ThreadJob>.fromOpaque(data!).takeUnretainedValue().body() ? 1 : 0
}

private let releaseThreadJob: GDestroyNotify = { data in
    Unmanaged<ThreadJob>.fromOpaque(data!).release()
}

/// A reply that is given once: by the work, or by a timeout, whichever comes first.
final class ReplySlot<Value: Sendable>: @unchecked Sendable {
    // Settled concurrently by the delivery thread and a timer; the lock lets exactly one win.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Never>?

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = continuation
    }

    /// Whether a reply was given.
    var isSettled: Bool { lock.withLock { continuation == nil } }

    /// Gives the reply unless one was given already.
    ///
    /// - Parameter value: The reply.
    /// - Returns: Whether this call gave it.
    @discardableResult
    func settle(_ value: Value) -> Bool {
        let continuation = lock.withLock {
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(returning: value)
        return continuation != nil
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
