import HoorayKit

/// The hints the test notification server records are JSON values, whose type varies
/// (HoorayKit's ``JSONValue``); byte arrays arrive as `{"bytes_base64": "..."}`.
extension JSONValue {
    /// The boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The whole number, when this is one, such as the `urgency` byte.
    public var integerValue: Int? {
        if case .number(let value) = self, value.rounded() == value, abs(value) < 1e15 { return Int(value) }
        return nil
    }
}

/// A button as the server received it: a key and a label.
public struct RecordedAction: Sendable, Hashable, CustomStringConvertible {
    /// The action key, reported back in `ActionInvoked`.
    public var key: String
    /// The label shown on the button.
    public var label: String

    /// Creates a button description, for comparing with what was recorded.
    ///
    /// - Parameters:
    ///   - key: The action key.
    ///   - label: The button label.
    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }

    public var description: String { "\(key)=\(label)" }
}

/// One `Notify` call as the test notification server recorded it: what a user would have seen.
public struct RecordedNotification: Sendable, Hashable, Codable {
    /// The id the server returned.
    public var id: UInt32
    /// The id the client asked to replace; 0 for a new notification.
    public var replacesID: UInt32
    /// The application name, such as `Hooray`.
    public var appName: String
    /// The application icon name or path.
    public var appIcon: String
    /// The title.
    public var summary: String
    /// The body, exactly as sent, markup escapes included.
    public var body: String
    /// The flat action list as sent: key, label, key, label, ...
    public var actionList: [String]
    /// The hints, such as `desktop-entry`, `urgency` and `category`.
    public var hints: [String: JSONValue]
    /// The expiry timeout in milliseconds: -1 for the server's default, 0 for never.
    public var expireTimeout: Int32
    /// The server's monotonic clock when the call arrived, in seconds.
    public var monotonic: Double
    /// The server's wall clock when the call arrived, in seconds since 1970.
    public var realtime: Double

    enum CodingKeys: String, CodingKey {
        case id
        case replacesID = "replaces_id"
        case appName = "app_name"
        case appIcon = "app_icon"
        case summary
        case body
        case actionList = "actions"
        case hints
        case expireTimeout = "expire_timeout"
        case monotonic
        case realtime
    }

    /// The buttons, paired up from ``actionList``.
    public var actions: [RecordedAction] {
        stride(from: 0, to: actionList.count - 1, by: 2).map {
            RecordedAction(key: actionList[$0], label: actionList[$0 + 1])
        }
    }

    /// The `desktop-entry` hint.
    public var desktopEntry: String? { hints["desktop-entry"]?.stringValue }

    /// The `urgency` hint: 0 low, 1 normal, 2 critical.
    public var urgency: Int? { hints["urgency"]?.integerValue }

    /// The `category` hint.
    public var category: String? { hints["category"]?.stringValue }

    /// The `suppress-sound` hint: `true` asks the server to play no sound.
    public var suppressSound: Bool? { hints["suppress-sound"]?.boolValue }

    /// The `sound-name` hint: a sound of the freedesktop.org sound theme, such as `complete`.
    public var soundName: String? { hints["sound-name"]?.stringValue }
}
