import HoorayDelivery
import HoorayKit

/// Where the engine sends notices: the desktop's notification server, or a fake in tests.
public protocol NotificationSink: Sendable {
    /// Starts the sink; `onEvent` receives button presses and server appearances, on any thread.
    func start(onEvent: @escaping @Sendable (SinkEvent) -> Void)
    /// The notification server, or why there is none.
    func serverStatus() async -> ServerStatus
    /// Shows a notice, replacing the server's notification `replacing` when given.
    func show(_ notice: Notice, id: NoticeID, replacing: UInt32?) async -> DeliveryOutcome
    /// Stops the sink.
    func shutdown() async
}

/// Something that happened on the notification side.
public enum SinkEvent: Sendable, Equatable {
    /// The user pressed a button of a notice.
    case action(NoticeID, String)
    /// A notification server appeared on the bus.
    case serverAppeared
}

extension ServerStatus {
    /// Why no server is reachable, when none is.
    public var problem: String? {
        switch self {
        case .available: nil
        case .unavailable(let reason): reason
        case .timedOut: "the notification server did not answer in time"
        }
    }
}
