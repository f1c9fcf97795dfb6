import CLibSecret
import Foundation

/// Runs one keyring operation on a thread of its own and waits for it no longer than a timeout.
///
/// libsecret's calls are synchronous and wait as long as D-Bus lets them (25 s by default), which
/// a daemon cannot afford when a Secret Service owns its name but never answers. So each operation
/// gets a new thread (libsecret's sync calls iterate a private main context on the calling thread,
/// so any thread will do), and a `GCancellable`. The caller waits on a semaphore; at the deadline it
/// cancels the operation and returns at once, and the thread finishes on its own: the pending D-Bus
/// call ends with `G_IO_ERROR_CANCELLED`, the thread frees what it made and its result is dropped.
enum KeyringCall {
    /// Runs `body` on a new thread.
    ///
    /// - Parameters:
    ///   - timeout: How long the caller waits.
    ///   - body: The operation; it must pass the cancellable to every GIO and libsecret call.
    /// - Returns: What `body` returned, or ``KeyringFailure/timedOut(_:)`` when it was cancelled.
    static func run<Value: Sendable>(
        timeout: Duration,
        _ body: @escaping @Sendable (Cancellable) -> Result<Value, KeyringFailure>
    ) -> Result<Value, KeyringFailure> {
        let cancellable = Cancellable()
        let outcome = Outcome<Result<Value, KeyringFailure>>()
        let thread = Thread {
            outcome.deliver(body(cancellable))
        }
        thread.name = "hooray-keyring"
        thread.start()
        if let result = outcome.wait(timeout: timeout) { return result }
        cancellable.cancel()
        return .failure(.timedOut(timeout))
    }
}

/// A `GCancellable` shared by the waiting caller and the worker thread; GIO makes it thread-safe.
final class Cancellable: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GCancellable>

    init() { pointer = g_cancellable_new() }

    deinit { g_object_unref(pointer) }

    func cancel() { g_cancellable_cancel(pointer) }
}

/// A value handed from the worker thread to the waiting caller.
private final class Outcome<Value: Sendable>: @unchecked Sendable {
    // `value` is written once by the worker and read by the caller, both under `condition`.
    private let condition = NSCondition()
    private var value: Value?

    func deliver(_ value: Value) {
        condition.withLock {
            self.value = value
            condition.broadcast()
        }
    }

    /// The value, or `nil` when none came before the deadline.
    func wait(timeout: Duration) -> Value? {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: max(0, seconds))
        return condition.withLock {
            while value == nil {
                if !condition.wait(until: deadline) { break }
            }
            return value
        }
    }
}
