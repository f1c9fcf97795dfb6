/// A wall-clock time of day, such as 15:00, without a date or a time zone.
///
/// Reminders keep a time of day together with an IANA time zone, so "every day at 08:30"
/// stays at 08:30 local time across daylight-saving changes.
public struct TimeOfDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The hour, 0 through 23.
    public let hour: Int
    /// The minute, 0 through 59.
    public let minute: Int

    /// Creates a time of day.
    ///
    /// - Parameters:
    ///   - hour: The hour, 0 through 23.
    ///   - minute: The minute, 0 through 59.
    /// - Returns: `nil` when the hour or the minute is out of range.
    public init?(hour: Int, minute: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// Seconds since midnight of a day with no clock change.
    public var secondsSinceMidnight: Int { hour * 3600 + minute * 60 }

    /// The time as `HH:MM`, for example `08:30`.
    public var description: String {
        let h = hour < 10 ? "0\(hour)" : "\(hour)"
        let m = minute < 10 ? "0\(minute)" : "\(minute)"
        return "\(h):\(m)"
    }

    /// Orders times from midnight on.
    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        lhs.secondsSinceMidnight < rhs.secondsSinceMidnight
    }

    /// Decodes a time of day from `H:MM` or `HH:MM` text in 24-hour form, such as `"15:00"`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the text when it is not a time of day.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = TimeOfDay(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not a time of day; write it as HH:MM, e.g. \"15:00\"")
        }
        self = value
    }

    /// Encodes the time as its `HH:MM` text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A day of the week.
public enum Weekday: Int, Sendable, Hashable, Comparable, Codable, CaseIterable, CustomStringConvertible {
    /// Monday, the first day of the week (ISO 8601).
    case monday = 1
    /// Tuesday.
    case tuesday
    /// Wednesday.
    case wednesday
    /// Thursday.
    case thursday
    /// Friday.
    case friday
    /// Saturday.
    case saturday
    /// Sunday, the last day of the week.
    case sunday

    /// The three-letter lowercase English abbreviation used in configuration, e.g. `mon`.
    public var abbreviation: String {
        switch self {
        case .monday: "mon"
        case .tuesday: "tue"
        case .wednesday: "wed"
        case .thursday: "thu"
        case .friday: "fri"
        case .saturday: "sat"
        case .sunday: "sun"
        }
    }

    /// The ``abbreviation``, such as `mon`.
    public var description: String { abbreviation }

    /// Orders days from Monday to Sunday.
    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Weekday {
    /// Describes a set of weekdays compactly: `mon-fri`, `sat, sun`, `every day`.
    public static func describe(_ days: Set<Weekday>) -> String {
        let sorted = days.sorted()
        if sorted.count == 7 { return "every day" }
        if sorted == [.monday, .tuesday, .wednesday, .thursday, .friday] { return "mon-fri" }
        if sorted == [.saturday, .sunday] { return "sat, sun" }
        return sorted.map(\.abbreviation).joined(separator: ", ")
    }
}
