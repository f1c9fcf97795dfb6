import HoorayKit

/// Where the engine sends notices: the desktop's notification server, or a fake in tests.
public protocol NotificationSink: Sendable {
    /// Starts the sink; `onEvent` receives button presses and server appearances, on any thread.
    func start(onEvent: @escaping @Sendable (SinkEvent) -> Void)
    /// The notification server, or why there is none.
    func serverStatus() async -> ServerStatus
    /// Shows a notice, replacing the server's notification `replacing` when given.
    func show(_ notice: Notice, id: NoticeID, replacing: UInt32?) async -> ShowOutcome
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

/// The notification server, or why there is none.
public enum ServerStatus: Sendable, Equatable {
    /// A server is reachable.
    case available(ServerDescription)
    /// None is reachable, and why.
    case unavailable(String)
}

/// What happened to one attempt to show a notice.
public enum ShowOutcome: Sendable, Equatable {
    /// The server accepted it with this id.
    case delivered(serverID: UInt32)
    /// No server or no bus; the reason.
    case unavailable(String)
    /// The server did not answer in time.
    case timedOut
}
