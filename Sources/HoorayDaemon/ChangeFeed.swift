import HoorayClient
import HoorayEngine

/// The answers to a `changes` request (docs/protocol.md): one at once, then one after each change
/// the engine publishes, each with the count of changes so far, so that no two lines are the same
/// (the control server writes only the latest line, and only when it differs from the one before).
enum ChangeFeed {
    static func follow(_ changes: ChangeBroadcast) -> AsyncStream<ControlResponse> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let subscription = changes.subscribe()
            let task = Task {
                var count = 0
                continuation.yield(ControlResponse(ok: true, change: count))
                for await _ in subscription {
                    count += 1
                    continuation.yield(ControlResponse(ok: true, change: count))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
