import Foundation
import HoorayClient
import HoorayEngine
import Logging
import ServiceLifecycle
import Synchronization

/// How `hoorayd` keeps status bars that follow it (`hooray bar --follow`) up to date: after every
/// change the engine publishes, and when the line changes by the clock alone, one snapshot is made
/// and handed to every follower.
///
/// Nothing is made while nobody follows, and nothing polls: between changes only a wall-clock
/// timer waits, set to the next instant the line changes by the clock (midnight, a reminder coming
/// within 15 minutes, quiet hours beginning or ending).
final class StatusBarFeed: Sendable {
    private struct State {
        var followers: [UUID: AsyncStream<ControlResponse>.Continuation] = [:]
        /// The answer made after the last change, while someone follows; `nil` when none is current.
        var latest: ControlResponse?
        var stopped = false
    }

    private let engine: Engine
    private let makeAlarm: @Sendable () throws -> WallClockAlarm?
    private let state = Mutex(State())
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    /// Creates a feed; it makes nothing until ``run(logger:)``.
    ///
    /// - Parameters:
    ///   - engine: The engine whose changes it follows.
    ///   - makeAlarm: The wall-clock timer for the changes by the clock alone; none for an engine
    ///     on a clock of its own, as in tests.
    init(engine: Engine, makeAlarm: @escaping @Sendable () throws -> WallClockAlarm? = { try WallClockAlarm() }) {
        self.engine = engine
        self.makeAlarm = makeAlarm
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// How many status bars follow now.
    var followerCount: Int { state.withLock { $0.followers.count } }

    /// A new follower's answers: the current snapshot at once (made now when there is none), then
    /// one after every change, until the follower stops iterating or the feed stops.
    func follow() -> AsyncStream<ControlResponse> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: ControlResponse.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.followers.removeValue(forKey: id) }
        }
        let (latest, stopped) = state.withLock { state in
            if !state.stopped { state.followers[id] = continuation }
            return (state.latest, state.stopped)
        }
        if stopped {
            continuation.finish()
        } else if let latest {
            continuation.yield(latest)
        } else {
            wake.yield()
        }
        return stream
    }

    /// Whether anyone follows; when nobody does, the last snapshot is forgotten, so that the next
    /// follower has one made for it rather than one from before changes nobody saw.
    private func someoneFollows() -> Bool {
        state.withLock { state in
            if state.followers.isEmpty { state.latest = nil }
            return !state.followers.isEmpty
        }
    }

    /// Makes a snapshot after every change, and at every instant the line changes by the clock,
    /// while someone follows; until the task is cancelled. Then every follower's stream ends.
    func run(logger: Logger) async {
        let alarm: WallClockAlarm?
        do {
            alarm = try makeAlarm()
        } catch {
            logger.warning("status bars will not turn over at midnight by themselves: \(error)")
            alarm = nil
        }
        let changes = engine.changes.subscribe()
        let wake = wake
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in changes { wake.yield() }
            }
            if let alarm {
                group.addTask {
                    for await _ in alarm.stream { wake.yield() }
                }
            }
            group.addTask { [self] in
                for await _ in wakes {
                    guard someoneFollows() else { continue }
                    let snapshot = await engine.barSnapshot()
                    alarm?.set(deadline: await engine.nextBarChange(after: snapshot))
                    let answer = ControlResponse(ok: true, bar: snapshot)
                    let followers = state.withLock { state in
                        state.latest = answer
                        return Array(state.followers.values)
                    }
                    for follower in followers { follower.yield(answer) }
                }
            }
            await group.waitForAll()
        }
        alarm?.shutdown()
        let followers = state.withLock { state in
            state.stopped = true
            state.latest = nil
            return Array(state.followers.values)
        }
        for follower in followers { follower.finish() }
    }
}

/// The status-bar feed as a service of `hoorayd`: it runs until the daemon shuts down.
struct StatusBarService: Service, CustomStringConvertible {
    var description: String { "StatusBarService" }

    let feed: StatusBarFeed
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await feed.run(logger: logger)
        }
    }
}
