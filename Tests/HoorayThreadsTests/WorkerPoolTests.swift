import Dispatch
import Foundation
import HoorayThreads
import Testing

/// The pool behind hoorayd's executor: what hoorayd's tasks need of it. (hoorayd itself runs on
/// it in every end-to-end test; these check it alone, without taking over this process's executor.)
@Suite struct WorkerPoolTests {
    /// Records what ran, and signals once the expected number of entries is in.
    final class Log<Entry: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [Entry] = []
        private let expected: Int
        private let done = DispatchSemaphore(value: 0)

        init(expecting expected: Int) { self.expected = expected }

        func append(_ entry: Entry) {
            let complete = lock.withLock {
                entries.append(entry)
                return entries.count == expected
            }
            if complete { done.signal() }
        }

        /// Waits for every entry; the 30 s are a safety net against a hang, not a measurement.
        func wait() -> [Entry]? {
            done.wait(timeout: .now() + 30) == .success ? lock.withLock { entries } : nil
        }
    }

    @Test func everySubmittedJobRuns() {
        let pool = WorkerPool(threads: 2, maximumThreads: 4, name: "test")
        let log = Log<Int>(expecting: 1000)
        for number in 0..<1000 { pool.submit { log.append(number) } }
        let ran = log.wait()
        #expect(ran.map { Set($0) } == Set(0..<1000))
    }

    @Test func delayedJobsRunInDeadlineOrderAndNeverEarly() {
        let pool = WorkerPool(threads: 1, maximumThreads: 1, name: "test")
        let start = WorkerPool.monotonicNow
        let log = Log<(label: String, deadline: UInt64, ranAt: UInt64)>(expecting: 5)
        // Submitted out of order; "b1" and "b2" share a deadline and keep their submission order.
        let plan: [(String, UInt64)] = [("c", 90), ("a", 30), ("b1", 60), ("b2", 60), ("now", 0)]
        for (label, milliseconds) in plan {
            let deadline = start + milliseconds * 1_000_000
            pool.submit(atMonotonic: deadline) { log.append((label, deadline, WorkerPool.monotonicNow)) }
        }
        let ran = log.wait() ?? []
        #expect(ran.map(\.label) == ["now", "a", "b1", "b2", "c"])
        for entry in ran {
            #expect(entry.ranAt >= entry.deadline, "\(entry.label) ran before its deadline")
        }
    }

    @Test func aLaterEarlierDeadlineIsNotHeldUpByAnEarlierLaterOne() {
        // The timer thread is waiting for a deadline far away when a nearer one arrives.
        let pool = WorkerPool(threads: 1, maximumThreads: 1, name: "test")
        let log = Log<String>(expecting: 1)
        pool.submit(after: .seconds(3600)) { log.append("late") }
        pool.submit(after: .milliseconds(20)) { log.append("soon") }
        #expect(log.wait() == ["soon"])
    }

    @Test func jobsBlockedUntilOtherJobsRunDoNotStallThePool() {
        // Two workers, eight jobs that each wait for a job queued after them: the pool must add
        // workers for the ninth to run.
        let pool = WorkerPool(threads: 2, maximumThreads: 16, name: "test")
        let gate = DispatchSemaphore(value: 0)
        let log = Log<Int>(expecting: 8)
        for number in 0..<8 {
            pool.submit {
                gate.wait()
                log.append(number)
            }
        }
        pool.submit { for _ in 0..<8 { gate.signal() } }
        #expect(log.wait().map { Set($0) } == Set(0..<8))
    }

    @Test func manyConcurrentJobsFromManyThreadsAllComplete() {
        let pool = WorkerPool(threads: 2, maximumThreads: 8, name: "test")
        let log = Log<Int>(expecting: 4 * 2500)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for number in 0..<2500 {
                if number % 3 == 0 {
                    pool.submit(after: .milliseconds(number % 7)) { log.append(thread * 2500 + number) }
                } else {
                    pool.submit { log.append(thread * 2500 + number) }
                }
            }
        }
        #expect(log.wait().map { Set($0) } == Set(0..<(4 * 2500)))
    }

    @Test func taskTimerSleepsAndStopsWhenCancelled() async throws {
        // This process keeps the default executor, so this is Task.sleep underneath; hoorayd's
        // own sleeps run on its executor in the end-to-end tests.
        #expect(!DaemonExecutor.isInstalled)
        try await TaskTimer.sleep(for: .milliseconds(5))
        let sleeper = Task { try await TaskTimer.sleep(for: .seconds(3600)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
}

@Suite struct WorkerPoolSleepTests {
    @Test func aTaskSleepsOnThePoolsTimerForAtLeastTheDuration() async throws {
        let pool = WorkerPool(threads: 1, maximumThreads: 1, name: "test")
        let before = WorkerPool.monotonicNow
        try await pool.sleep(for: .milliseconds(30))
        #expect(WorkerPool.monotonicNow - before >= 30_000_000)
    }

    @Test func cancellingASleepingTaskEndsItsSleepWithCancellationError() async {
        let pool = WorkerPool(threads: 1, maximumThreads: 1, name: "test")
        let sleeper = Task { try await pool.sleep(for: .seconds(3600)) }
        // Cancelled once it sleeps: its deadline is in the heap.
        while pool.delayedCount == 0 { await Task.yield() }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        // Its deadline left the heap: the timer thread will not wake for it in an hour.
        #expect(pool.delayedCount == 0)
        // Cancelled before it started sleeping, too.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await pool.sleep(for: .seconds(3600))
        }
        await #expect(throws: CancellationError.self) { try await early.value }
    }
}

@Suite struct SerialThreadTests {
    @Test func blocksRunOneAfterAnotherInTheOrderQueued() {
        let thread = SerialThread(name: "test-serial")
        let log = WorkerPoolTests.Log<Int>(expecting: 500)
        for number in 0..<500 { thread.async { log.append(number) } }
        #expect(log.wait() == Array(0..<500))
    }

    @Test func blocksQueuedBeforeTheQueueIsDroppedStillRun() {
        let log = WorkerPoolTests.Log<Int>(expecting: 3)
        do {
            let thread = SerialThread(name: "test-serial")
            for number in 0..<3 { thread.async { log.append(number) } }
        }
        #expect(log.wait() == [0, 1, 2])
    }
}
