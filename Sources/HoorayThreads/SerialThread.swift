import Foundation

/// Runs blocks one after another on a thread of its own: a serial queue without Dispatch.
///
/// The thread waits on a condition with no timeout while it has nothing to do, and ends once the
/// last reference to the queue is gone and the blocks already queued have run (or after
/// ``finish()``). A `DispatchQueue`'s `async` would run on Dispatch's worker pool, whose
/// monitor then wakes the process once a second for as long as it lives.
public final class SerialThread: Sendable {
    private let state = State()

    /// Starts the thread.
    ///
    /// - Parameter name: The thread's name for `ps` and `top` (at most 15 bytes).
    public init(name: String) {
        let state = state
        let thread = Thread {
            nameThisThread(name)
            while let block = state.next() { block() }
        }
        thread.start()
    }

    deinit {
        state.finish()
    }

    /// Queues `block` to run on the thread after the blocks queued before it; after ``finish()``
    /// it is dropped.
    public func async(_ block: @escaping @Sendable () -> Void) {
        state.append(block)
    }

    /// Lets the thread end once the blocks already queued have run.
    public func finish() {
        state.finish()
    }

    private final class State: @unchecked Sendable {
        // @unchecked: `blocks` and `finished` are guarded by `condition`.
        private let condition = NSCondition()
        private var blocks: [@Sendable () -> Void] = []
        private var finished = false

        func append(_ block: @escaping @Sendable () -> Void) {
            condition.withLock {
                guard !finished else { return }
                blocks.append(block)
                condition.signal()
            }
        }

        func finish() {
            condition.withLock {
                finished = true
                condition.signal()
            }
        }

        /// The next block, waiting for one; `nil` once finished and drained.
        func next() -> (@Sendable () -> Void)? {
            condition.withLock {
                while blocks.isEmpty && !finished { condition.wait() }
                return blocks.isEmpty ? nil : blocks.removeFirst()
            }
        }
    }
}
