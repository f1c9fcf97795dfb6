import Foundation

/// A calendar date in the proleptic Gregorian calendar, without a time or a time zone.
///
/// `LocalDate` does its own day arithmetic so that "every 3 days" counts calendar days,
/// whatever the length of each day in a given time zone.
public struct LocalDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The year, for example 2026.
    public let year: Int
    /// The month, 1 through 12.
    public let month: Int
    /// The day of the month, 1 through 31.
    public let day: Int

    /// Creates a date.
    ///
    /// - Returns: `nil` when the month or the day does not exist, such as February 30.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LocalDate.daysInMonth(year: year, month: month) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Creates the date that is `daysSinceEpoch` days after 1970-01-01.
    public init(daysSinceEpoch: Int) {
        // Howard Hinnant's civil_from_days.
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    /// Days since 1970-01-01 (negative before it).
    public var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The day of the week of this date.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        let index = ((daysSinceEpoch % 7) + 7 + 3) % 7  // 0 = Monday
        return Weekday(rawValue: index + 1)!
    }

    /// The calendar day an instant falls on in a time zone.
    ///
    /// - Parameters:
    ///   - instant: The instant.
    ///   - timeZone: The time zone whose calendar counts.
    public init(instant: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        self = LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)!
    }

    /// The date `days` days later (or earlier, when negative).
    public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// Whole calendar days from this date to `other`.
    public func days(until other: LocalDate) -> Int { other.daysSinceEpoch - daysSinceEpoch }

    /// The date as `YYYY-MM-DD`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// The date as people read it in Hooray's text (not JSON, which keeps ``description``):
    /// `Fri 27 Nov`, or `Fri 27 Nov 2025` when it is not `today`'s year — the style
    /// HoorayKit's `Schedule.localDayAndTime(_:in:now:)` gives an instant, without the time.
    ///
    /// - Parameter today: The user's today, for the year.
    public func written(today: LocalDate) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = weekday.abbreviation.prefix(1).uppercased() + weekday.abbreviation.dropFirst()
        let base = "\(weekday) \(day) \(months[month - 1])"
        return year == today.year ? base : "\(base) \(year)"
    }

    /// An index from 0 to `count - 1` that is the same for this date in every run: for picking the
    /// day's item of a list, such as a daily challenge or quote, so that it stays put all day.
    ///
    /// It is FNV-1a of the `YYYY-MM-DD` text. Swift's `hashValue` would not do: it is seeded anew in
    /// each process, so `hooray` and `hoorayd` would pick differently.
    ///
    /// - Parameter count: How many items there are to pick from; at least 1.
    /// - Returns: The day's index.
    public func stableIndex(among count: Int) -> Int {
        precondition(count > 0, "stableIndex(among:) needs at least one item to pick from")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in description.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int(hash % UInt64(count))
    }

    /// Orders dates from earlier to later.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Decodes a date from its `YYYY-MM-DD` text, such as `"2026-03-08"`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the text when it is not such a date.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = LocalDate(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\"\(text)\" is not a date; write it as YYYY-MM-DD, e.g. \"2026-03-08\"")
        }
        self = value
    }

    /// Encodes the date as its `YYYY-MM-DD` text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
