import Foundation
import Synchronization

/// Tells any number of listeners that something they show may have changed: a command ran, a notice
/// was posted or shown, a reminder was planned, the day turned.
///
/// Each listener gets its own stream that keeps only the latest signal, so a slow listener never
/// holds the engine up and never falls behind by more than one update.
public final class ChangeBroadcast: Sendable {
    private let listeners = Mutex<[UUID: AsyncStream<Void>.Continuation]>([:])
    private let published = Atomic<Int>(0)

    /// Creates a broadcast with no listeners.
    public init() {}

    /// A stream that yields once after every change, until the listener stops iterating.
    public func subscribe() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        listeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.listeners.withLock { _ = $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Signals every listener.
    public func publish() {
        published.add(1, ordering: .relaxed)
        for continuation in listeners.withLock({ Array($0.values) }) {
            continuation.yield()
        }
    }

    /// How many changes were signalled so far.
    package var publishedCount: Int { published.load(ordering: .relaxed) }

    /// How many listen now.
    public var count: Int { listeners.withLock { $0.count } }
}
