import Foundation
import HoorayKit
import Logging

/// Keeps track of plugins' background work: logs what it throws, cancels it at shutdown, and lets
/// a CLI-hosted engine wait for it before the process exits.
final class BackgroundTracker: @unchecked Sendable {
    // @unchecked: `running` and `nextKey` are only touched while holding `lock`.
    private let lock = NSLock()
    private var running: [Int: Task<Void, Never>] = [:]
    private var nextKey = 0
    /// Told when a piece of work ends: it may have changed what a client shows.
    private let changes: ChangeBroadcast?

    init(changes: ChangeBroadcast? = nil) {
        self.changes = changes
    }

    func start(
        _ label: String, plugin: String, logger: Logger, _ work: @escaping @Sendable () async throws -> Void
    ) {
        lock.lock()
        let key = nextKey
        nextKey += 1
        // The task removes itself when done; it cannot run before the lock is released.
        running[key] = Task {
            do {
                try await work()
            } catch is CancellationError {
                logger.debug("\(plugin): \(label) was cancelled")
            } catch {
                logger.error("\(plugin): \(label) failed: \(error)")
            }
            self.finished(key)
            self.changes?.publish()
        }
        lock.unlock()
    }

    private func finished(_ key: Int) {
        lock.withLock { _ = running.removeValue(forKey: key) }
    }

    /// Waits until no background work is running, including work started by work.
    func waitUntilIdle() async {
        while true {
            let tasks = lock.withLock { Array(running.values) }
            guard !tasks.isEmpty else { return }
            for task in tasks { await task.value }
        }
    }

    /// Cancels all running work.
    func cancelAll() {
        let tasks = lock.withLock { Array(running.values) }
        for task in tasks { task.cancel() }
    }
}

struct EngineBackgroundWork: BackgroundWork {
    let tracker: BackgroundTracker
    let plugin: String
    let logger: Logger

    func start(_ label: String, _ work: @escaping @Sendable () async throws -> Void) {
        tracker.start(label, plugin: plugin, logger: logger, work)
    }
}
