import Foundation

/// A week as ISO 8601 numbers it, Monday to Sunday: `2026-W49`.
///
/// Week 1 of a year is the week with its first Thursday, so a week belongs to the year of its
/// Thursday: 2026-W53 runs from Monday 28 December 2026 to Sunday 3 January 2027, and a year has 52
/// or 53 weeks.
///
/// ```swift
/// let week = try ISOWeek.parse("2026-W49")
/// week.monday   // 2026-11-30
/// week.previous // 2026-W48
/// ```
public struct ISOWeek: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The year the week belongs to: its Thursday's.
    public let year: Int
    /// Its number, 1 to 52 or 53.
    public let week: Int

    /// The week, when the year has it.
    public init?(year: Int, week: Int) {
        guard (1...9999).contains(year), week >= 1, week <= Self.weeks(in: year) else { return nil }
        self.year = year
        self.week = week
    }

    /// The week a day belongs to.
    public init(containing day: LocalDate) {
        let thursday = day.adding(days: 4 - day.weekday.rawValue)
        let first = LocalDate(year: thursday.year, month: 1, day: 1)!
        year = thursday.year
        week = first.days(until: thursday) / 7 + 1
    }

    /// Its Monday.
    public var monday: LocalDate {
        let january4 = LocalDate(year: year, month: 1, day: 4)!
        return january4.adding(days: 1 - january4.weekday.rawValue + 7 * (week - 1))
    }

    /// Its Sunday.
    public var sunday: LocalDate { monday.adding(days: 6) }

    /// Its seven days, Monday first.
    public var days: [LocalDate] { (0..<7).map { monday.adding(days: $0) } }

    /// Whether `day` is one of its days.
    public func contains(_ day: LocalDate) -> Bool { monday <= day && day <= sunday }

    /// The week before.
    public var previous: ISOWeek { ISOWeek(containing: monday.adding(days: -7)) }

    /// How many weeks a year has: 53 when it starts on a Thursday, or is a leap year starting on a
    /// Wednesday; 52 otherwise.
    public static func weeks(in year: Int) -> Int {
        guard let december28 = LocalDate(year: year, month: 12, day: 28) else { return 52 }
        return ISOWeek(containing: december28).week
    }

    /// `2026-W49`.
    public var description: String {
        let digits = String(week)
        return "\(year)-W" + (digits.count == 1 ? "0" + digits : digits)
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: ISOWeek, rhs: ISOWeek) -> Bool {
        (lhs.year, lhs.week) < (rhs.year, rhs.week)
    }

    /// Reads `YYYY-Www` (`2026-W49`; `w` and a week without its leading zero are read too).
    ///
    /// - Throws: ``ISOWeekError`` saying what is wrong, such as a week past the year's last.
    public static func parse(_ text: String) throws(ISOWeekError) -> ISOWeek {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, let year = Int(parts[0]), parts[1].count >= 2,
            parts[1].first == "W" || parts[1].first == "w", parts[1].count <= 3, let number = Int(parts[1].dropFirst()),
            parts[1].dropFirst().allSatisfy(\.isNumber)
        else {
            throw ISOWeekError("\"\(text)\" is not a week; write it as YYYY-Www, such as 2026-W49")
        }
        guard let week = ISOWeek(year: year, week: number) else {
            throw ISOWeekError("\(year) has no week \(number); its weeks are W01 to W\(weeks(in: year))")
        }
        return week
    }
}

/// Why a week could not be read, in words to follow its option's name.
public struct ISOWeekError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, and the fix.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
