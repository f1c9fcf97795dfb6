/// A JSON value as the test notification server writes it, for hints whose type varies.
public enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A string.
    case string(String)
    /// A whole number, such as the `urgency` byte.
    case integer(Int)
    /// A number with a fraction.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// A list.
    case array([JSONValue])
    /// An object; byte arrays arrive as `{"bytes_base64": "..."}`.
    case object([String: JSONValue])
    /// `null`.
    case null

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The whole number, when this is one.
    public var integerValue: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    public var description: String {
        switch self {
        case .string(let value): value.debugDescription
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .bool(let value): String(value)
        case .array(let value): "[" + value.map(\.description).joined(separator: ", ") + "]"
        case .object(let value):
            "{" + value.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .null: "null"
        }
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
