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
    /// Whether the server is in do-not-disturb mode now, asked at delivery time.
    func doNotDisturb() async -> DoNotDisturb
}

extension NotificationSink {
    /// A sink that knows no do-not-disturb state is never in it.
    public func doNotDisturb() async -> DoNotDisturb { .off }
}

/// Something that happened on the notification side.
public enum SinkEvent: Sendable, Equatable {
    /// The user pressed a button of a notice.
    case action(NoticeID, String)
    /// A notification server appeared on the bus.
    case serverAppeared
    /// The server's do-not-disturb state changed (sent where the server has a change signal).
    case doNotDisturbChanged(DoNotDisturb)
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

/// A sink for CLI-side engines that never delivers (the daemon does that).
package struct OfflineSink: NotificationSink {
    package init() {}
    package func start(onEvent: @escaping @Sendable (SinkEvent) -> Void) {}
    package func serverStatus() async -> ServerStatus { .unavailable(reason: "not checked by the CLI") }
    package func show(_ notice: Notice, id: NoticeID, replacing: UInt32?) async -> DeliveryOutcome {
        .unavailable(reason: "the CLI does not deliver notices")
    }
    package func shutdown() async {}
}
