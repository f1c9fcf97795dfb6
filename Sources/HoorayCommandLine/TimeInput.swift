import Foundation
import HoorayCalendar
import HoorayKit

/// Reads the days, past times and lengths a person types on the command line — `now`, `today`,
/// `yesterday`, `2026-11-21`, `2h ago`, `1h30m`, `3d` — and refuses anything else in one style.
///
/// Each method reads what one kind of option takes. A refusal is a `PluginCommandError.invalidValue(_:_:)`
/// (so `hooray` exits 64) that names the option, quotes what was typed, says what is wrong and lists the forms that work:
///
/// ```text
/// --date "tomorow" is not a day; write YYYY-MM-DD (such as 2026-11-22), today, yesterday or 3d ago
/// --ago "in 10m" is in the future; write how long ago it happened, such as 5m, 2h, 3d or 1h30m
/// ```
///
/// Days are counted in ``timeZone`` from ``now``; nothing here reads the system clock, so the same
/// input always reads the same in tests.
public struct TimeInput: Sendable {
    /// The current time.
    public var now: Date
    /// The user's time zone, whose calendar days `today` and `yesterday` are.
    public var timeZone: TimeZone

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - now: The current time.
    ///   - timeZone: The user's time zone.
    public init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
    }

    /// Today in ``timeZone``.
    public var today: LocalDate { LocalDate(instant: now, in: timeZone) }

    /// What a text says, before it is checked against what an option takes.
    public enum Expression: Sendable, Hashable {
        /// `now`, `just now`.
        case now
        /// A calendar day: `today`, `yesterday`, `YYYY-MM-DD`.
        case day(LocalDate)
        /// A time in the past: `2h ago`, `1h30m ago`; the seconds back from now.
        case ago(seconds: Int)
        /// A length of time: `1h30m`, `90 min`, `3d`, `2w`, or a bare number of seconds.
        case length(seconds: Int)
        /// A time in the future: `in 10m`, `-10m`; the seconds ahead of now.
        case ahead(seconds: Int)
    }

    /// Reads a text into an expression, or `nil` when it is none of the forms.
    ///
    /// Spaces around the text and the case of letters are ignored.
    public func parse(_ text: String) -> Expression? {
        let words = text.trimmingWhitespace().lowercased()
        switch words {
        case "now", "just now", "right now": return .now
        case "today": return .day(today)
        case "yesterday": return .day(today.adding(days: -1))
        default: break
        }
        if let day = LocalDate(parsing: words) { return .day(day) }
        if words.hasSuffix(" ago") {
            return Self.seconds(in: String(words.dropLast(4))).map { .ago(seconds: $0) }
        }
        if words.hasPrefix("in ") {
            return Self.seconds(in: String(words.dropFirst(3))).map { .ahead(seconds: $0) }
        }
        if words.hasPrefix("-") {
            return Self.seconds(in: String(words.dropFirst())).map { .ahead(seconds: $0) }
        }
        return Self.seconds(in: words).map { .length(seconds: $0) }
    }

    // MARK: Days

    /// Which days a day option takes.
    public enum DayLimit: Sendable, Hashable {
        /// Any day.
        case any
        /// Today or a day before it, such as the day something was done.
        case todayOrEarlier
        /// Today or a day after it, such as the end of a pause.
        case todayOrLater
    }

    /// Reads a day: `YYYY-MM-DD`, `today`, `yesterday`, `now`, or a time ago such as `3d ago`
    /// (the day it falls on).
    ///
    /// - Parameters:
    ///   - text: What the user typed.
    ///   - option: The option, such as `--date`, to name in a refusal.
    ///   - limit: Which days the option takes; any by default.
    /// - Returns: The day.
    /// - Throws: `PluginCommandError` when the text is not a day, or one the option does not take.
    public func day(_ text: String, option: String, limit: DayLimit = .any) throws -> LocalDate {
        let accepted = "write YYYY-MM-DD (such as \(today)), today, yesterday or 3d ago"
        let day: LocalDate
        switch parse(text) {
        case .now: day = today
        case .day(let parsed): day = parsed
        case .ago(let seconds) where seconds <= Self.furthestBack:
            day = LocalDate(instant: now.addingTimeInterval(-Double(seconds)), in: timeZone)
        case .ahead(let seconds) where seconds <= Self.furthestBack:
            day = LocalDate(instant: now.addingTimeInterval(Double(seconds)), in: timeZone)
        case .ago, .ahead:
            throw Self.refusal(option, text, "is too far from today", accepted)
        case .length, nil:
            throw Self.refusal(option, text, "is not a day", accepted)
        }
        switch limit {
        case .todayOrEarlier where day > today:
            throw Self.refusal(option, text, "is in the future", "give today or an earlier day")
        case .todayOrLater where day < today:
            throw Self.refusal(option, text, "is in the past", "give today or a later day")
        default:
            return day
        }
    }

    // MARK: Times ago

    /// Reads how long ago something happened: `now`, `5m`, `2h`, `3d`, `1h30m`, `90 min`, `2h ago`.
    ///
    /// - Parameters:
    ///   - text: What the user typed.
    ///   - option: The option, such as `--ago`, to name in a refusal.
    ///   - maximum: The longest time back the option takes, in seconds; `nil` for no limit.
    /// - Returns: The seconds back from now, 0 for now.
    /// - Throws: `PluginCommandError` when the text is not a time ago, is in the future, or is
    ///   further back than `maximum`.
    public func secondsAgo(_ text: String, option: String, maximum: Int? = nil) throws -> Int {
        let accepted = "write how long ago it happened, such as 5m, 2h, 3d or 1h30m (units: s, m, h, d)"
        let seconds: Int
        switch parse(text) {
        case .now: seconds = 0
        case .ago(let value), .length(let value): seconds = value
        case .ahead: throw Self.refusal(option, text, "is in the future", accepted)
        case .day, nil: throw Self.refusal(option, text, "is not a time", accepted)
        }
        if let maximum, seconds > maximum {
            let limit = Self.describe(seconds: maximum)
            throw Self.refusal(option, text, "is more than \(limit) ago", "give a time within the last \(limit)")
        }
        return seconds
    }

    // MARK: Lengths

    /// Reads a length of time: `30s`, `5m`, `2h`, `1h30m`, `90 min`, `3d`, `2w`.
    ///
    /// - Parameters:
    ///   - text: What the user typed.
    ///   - option: The option, such as `--every`, to name in a refusal.
    ///   - minimum: The shortest length the option takes, in seconds; 1 by default.
    /// - Returns: The length in seconds.
    /// - Throws: `PluginCommandError` when the text is not a length, or is shorter than `minimum`.
    public func seconds(_ text: String, option: String, minimum: Int = 1) throws -> Int {
        let accepted = "write a length such as 30m, 2h, 1h30m or 3d (units: s, m, h, d, w)"
        guard case .length(let seconds) = parse(text) else {
            throw Self.refusal(option, text, "is not a length", accepted)
        }
        guard seconds >= minimum else {
            throw Self.refusal(option, text, "is too short", "give at least \(Self.describe(seconds: minimum))")
        }
        return seconds
    }

    /// Reads a whole number of days: `3d`, `3 days`, `1 day`, `2w`, `2 weeks`.
    ///
    /// - Parameters:
    ///   - text: What the user typed.
    ///   - option: The option, such as `--for`, to name in a refusal.
    ///   - maximum: The most days the option takes; `nil` for no limit.
    /// - Returns: The number of days, at least 1.
    /// - Throws: `PluginCommandError` when the text is not a number of days, or more than `maximum`.
    public func days(_ text: String, option: String, maximum: Int? = nil) throws -> Int {
        guard let interval = DayInterval(parsing: text) else {
            throw Self.refusal(option, text, "is not a number of days", "write days or weeks, such as 5d or 2w")
        }
        if let maximum, interval.days > maximum {
            throw Self.refusal(option, text, "is longer than \(maximum) days", "give at most \(maximum)d")
        }
        return interval.days
    }

    // MARK: Refusals

    /// A refusal in the style of every reader here: `OPTION "TEXT" PROBLEM; FIX`.
    ///
    /// Use it for checks of your own on a value read here, so that every refusal reads alike:
    ///
    /// ```swift
    /// throw TimeInput.refusal("--until", text, "is before the start", "give \(start) or a later day")
    /// ```
    ///
    /// - Parameters:
    ///   - option: The option, such as `--date`.
    ///   - text: What the user typed, quoted as it is.
    ///   - problem: What is wrong, such as `is in the future`.
    ///   - fix: What to type instead, such as `give today or an earlier day`.
    /// - Returns: The error to throw.
    public static func refusal(_ option: String, _ text: String, _ problem: String, _ fix: String)
        -> PluginCommandError
    {
        PluginCommandError.invalidValue(option, "\(option) \"\(text)\" \(problem); \(fix)")
    }

    /// How many days back a listing's `--days` may reach, today included: 1 to 3650, ten years.
    ///
    /// One range for every command that looks back over days (`hooray missed`, `hooray journey`), so
    /// that the same number is taken or refused alike everywhere.
    public static let daysBack = 1...3650

    /// Reads a number of days back, such as the `30` of `--days 30`: a whole number in ``daysBack``.
    ///
    /// - Parameters:
    ///   - text: What was typed.
    ///   - option: The option, as the message names it.
    /// - Returns: The number of days.
    /// - Throws: `PluginCommandError` (an invalid value) saying the range and giving an example.
    public static func daysBack(_ text: String, option: String = "--days") throws -> Int {
        guard let days = Int(text.trimmingWhitespace()), daysBack.contains(days) else {
            throw PluginCommandError.invalidValue(option, daysBackProblem(text, option: option))
        }
        return days
    }

    /// What ``daysBack(_:option:)`` says of a number of days it refuses, for a host command that
    /// reads the number itself: `--days must be from 1 to 3650; got 0. For example --days 30`.
    ///
    /// - Parameters:
    ///   - text: What was typed.
    ///   - option: The option.
    /// - Returns: The message.
    public static func daysBackProblem(_ text: String, option: String = "--days") -> String {
        "\(option) must be a number of days from \(daysBack.lowerBound) to \(daysBack.upperBound); got \(text). "
            + "For example \(option) 30"
    }

    /// How far from today a time ago may point and still be read as a day: 100 years.
    static let furthestBack = 100 * 366 * 86400

    /// Seconds of `30s`, `5m`, `1h30m`, `90 min`, `3d` (`ConfigDuration`) or `2w` (`DayInterval`).
    static func seconds(in text: String) -> Int? {
        if let duration = ConfigDuration(parsing: text) { return duration.seconds }
        guard let interval = DayInterval(parsing: text) else { return nil }
        let (seconds, overflow) = interval.days.multipliedReportingOverflow(by: 86400)
        return overflow ? nil : seconds
    }

    /// `1 minute`, `2 hours`, `366 days`.
    static func describe(seconds: Int) -> String {
        let (count, unit): (Int, String) =
            switch seconds {
            case let s where s % 86400 == 0: (s / 86400, "day")
            case let s where s % 3600 == 0: (s / 3600, "hour")
            case let s where s % 60 == 0: (s / 60, "minute")
            default: (seconds, "second")
            }
        return count == 1 ? "1 \(unit)" : "\(count) \(unit)s"
    }
}

extension PluginContext {
    /// Reads the days, times and lengths the user types, such as `yesterday`, `2h ago` or `5d`,
    /// against the current time in the user's time zone.
    public var timeInput: TimeInput { TimeInput(now: now, timeZone: timeZone) }
}
