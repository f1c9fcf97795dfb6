import Foundation
import HoorayKit
import HoorayThreads

/// The real wall clock.
public struct SystemClock: HoorayClock {
    /// Creates the clock.
    public init() {}

    public var now: Date { Date() }

    public func sleep(until deadline: Date) async throws {
        // Re-check the wall clock after each sleep: a suspend or a clock change may have moved it.
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return }
            try await TaskTimer.sleep(for: .seconds(min(remaining, 60)))
        }
    }
}

/// Runs a plugin's call with a time limit, so that a hung plugin cannot stall the daemon.
///
/// The call keeps running in the background if it ignores cancellation, but the caller moves on.
func withTimeLimit<T: Sendable>(
    _ seconds: Double, _ operation: @Sendable @escaping () async throws -> T
) async throws -> T {
    let box = OnceBox<T>()
    return try await withCheckedThrowingContinuation { continuation in
        box.set(continuation)
        let work = Task {
            do { box.resume(.success(try await operation())) } catch { box.resume(.failure(error)) }
        }
        let timer = Task {
            try? await TaskTimer.sleep(for: .seconds(seconds))
            if box.resume(.failure(TimeLimitExceeded(seconds: seconds))) { work.cancel() }
        }
        // A call that finished in time stops its timer, so an idle daemon has none left running.
        Task {
            _ = await work.value
            timer.cancel()
        }
    }
}

/// A plugin call took longer than allowed.
public struct TimeLimitExceeded: Error, Sendable, CustomStringConvertible {
    /// The limit.
    public let seconds: Double
    public var description: String { "did not finish within \(Int(seconds)) s" }
}

final class OnceBox<T: Sendable>: @unchecked Sendable {
    // @unchecked: every access to `continuation` and `done` holds `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?
    private var done = false

    func set(_ continuation: CheckedContinuation<T, any Error>) {
        lock.lock()
        self.continuation = continuation
        lock.unlock()
    }

    @discardableResult
    func resume(_ result: Result<T, any Error>) -> Bool {
        lock.lock()
        guard !done, let continuation else {
            lock.unlock()
            return false
        }
        done = true
        self.continuation = nil
        lock.unlock()
        continuation.resume(with: result)
        return true
    }
}
