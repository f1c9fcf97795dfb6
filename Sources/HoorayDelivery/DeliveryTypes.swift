import HoorayClient
import HoorayKit

// `ServerInfo` and `DoNotDisturb` are wire types (HoorayClient's, in `status`): named here too.
/// What the notification server said about itself (HoorayClient's ``HoorayClient/ServerInfo``).
public typealias ServerInfo = HoorayClient.ServerInfo
/// Whether the notification server is in do-not-disturb mode (HoorayClient's ``HoorayClient/DoNotDisturb``).
public typealias DoNotDisturb = HoorayClient.DoNotDisturb

/// Whether the notification server can be reached, and what it is.
public enum ServerStatus: Sendable, Hashable, CustomStringConvertible {
    /// A server answered.
    case available(ServerInfo)
    /// There is no session bus or no server on it; the reason is written for a person.
    case unavailable(reason: String)
    /// A server owns the name but did not answer within the configured timeout.
    case timedOut

    /// The server's description when it answered.
    public var info: ServerInfo? {
        if case .available(let info) = self { return info }
        return nil
    }

    public var description: String {
        switch self {
        case .available(let info): "notification server: \(info)"
        case .unavailable(let reason): "no notification server: \(reason)"
        case .timedOut: "the notification server did not answer in time"
        }
    }
}

/// The result of showing a notice.
public enum DeliveryOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The server shows it under this id; keep the id to update or close it later.
    case delivered(serverID: UInt32)
    /// It was not shown: no session bus, no server, or the server refused it. The reason is written
    /// for a person. Nothing is on screen; try again later, for example on ``DeliveryEvent/serverAppeared``.
    case unavailable(reason: String)
    /// The server did not answer within the configured timeout. Treat the notice as not shown: if
    /// the server answers later after all, the notification is closed again, so a retry cannot show
    /// it twice.
    case timedOut

    /// The server's id when it was delivered.
    public var serverID: UInt32? {
        if case .delivered(let id) = self { return id }
        return nil
    }

    public var description: String {
        switch self {
        case .delivered(let id): "delivered as notification \(id)"
        case .unavailable(let reason): "not delivered: \(reason)"
        case .timedOut: "not delivered: the notification server did not answer in time"
        }
    }
}

/// The result of closing a notification.
public enum CloseOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The server was asked to close it; servers accept ids they no longer show.
    case closed
    /// There is no session bus or no server, so nothing of ours is on screen; the reason is for a person.
    case unavailable(reason: String)
    /// The server did not answer within the configured timeout.
    case timedOut

    public var description: String {
        switch self {
        case .closed: "closed"
        case .unavailable(let reason): "not closed: \(reason)"
        case .timedOut: "not closed: the notification server did not answer in time"
        }
    }
}

/// Why the server closed a notification, from the `NotificationClosed` signal.
public enum CloseReason: Sendable, Hashable {
    /// It timed out.
    case expired
    /// The user dismissed it, or clicked one of its buttons.
    case dismissed
    /// A `CloseNotification` call closed it.
    case closedByCall
    /// The server gave no reason, or one the specification does not define.
    case undefined(Int32)

    /// Maps the specification's reason code.
    ///
    /// - Parameter code: 1 expired, 2 dismissed, 3 closed by a call; anything else is undefined.
    public init(code: Int32) {
        switch code {
        case 1: self = .expired
        case 2: self = .dismissed
        case 3: self = .closedByCall
        default: self = .undefined(code)
        }
    }
}

/// Something that happened on the desktop side, reported on ``NotificationDelivery/events``.
public enum DeliveryEvent: Sendable, Hashable {
    /// The user pressed a button of a notice shown by this process.
    ///
    /// - Parameters:
    ///   - notice: The engine's id of the notice.
    ///   - actionID: The button's ``NoticeAction/id``, or `default` when the notification itself was clicked.
    case actionInvoked(notice: NoticeID, actionID: String)
    /// The user typed a reply into a notice shown by this process (the server's inline reply): the
    /// button with a question it answers (``NoticeAction/prompt``), and the text.
    case replied(notice: NoticeID, actionID: String, text: String)
    /// A notice shown by this process left the screen.
    ///
    /// Servers send it after a button press too (reason ``CloseReason/dismissed``).
    case closed(notice: NoticeID, serverID: UInt32, reason: CloseReason)
    /// A notification server now owns the name on the session bus: the moment to retry notices that
    /// were not delivered. Also sent once at start when a server is already running, and after the
    /// session bus came back.
    case serverAppeared
    /// The notification server left the bus, or the bus itself went away. Notices it showed are gone
    /// from the screen; updating one shows it anew.
    case serverVanished
    /// The server went into do-not-disturb mode or came out of it, as its change signal says; also
    /// sent when a server appears in it. Servers without such a signal (mako) are only asked, at
    /// delivery time, through ``NotificationDelivery/doNotDisturb()``.
    case doNotDisturbChanged(DoNotDisturb)
}
