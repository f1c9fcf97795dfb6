import Foundation
import HoorayCalendar
import HoorayKit
import HoorayText

/// Says how long ago something happened, the way the Moments list shows it: "5 min ago".
///
/// The phrase is a pure function of the two instants and the time zone, so the same input
/// always reads the same.
public enum RelativeTime {
    /// The phrase for `instant`, seen from `now`.
    ///
    /// The rules, in order:
    /// - less than a minute ago, or in the future (a clock that ran ahead): `just now`;
    /// - less than an hour ago: whole minutes, `5 min ago`;
    /// - less than 12 hours ago: whole hours, `2 h ago`;
    /// - otherwise the local weekday, date and 24-hour time in `timeZone`, `Tue 21 Nov, 18:40`,
    ///   with the year added when it is not the year of `now`: `Fri 21 Nov 2025, 18:40`.
    ///
    /// Names are English whatever the user's locale, like the rest of Hooray's text.
    ///
    /// - Parameters:
    ///   - instant: When the thing happened.
    ///   - now: The current time.
    ///   - timeZone: The time zone whose local date and time are shown for older instants.
    /// - Returns: The phrase, such as `just now`, `5 min ago` or `Tue 21 Nov, 18:40`.
    public static func phrase(from instant: Date, to now: Date, timeZone: TimeZone) -> String {
        let elapsed = now.timeIntervalSince(instant)
        if elapsed < 60 { return "just now" }
        if elapsed < 3600 { return "\(Int(elapsed / 60)) min ago" }
        if elapsed < 12 * 3600 { return "\(Int(elapsed / 3600)) h ago" }
        let (day, hour, minute) = LocalCalendar.dayAndTime(of: instant, in: timeZone)
        let today = LocalCalendar.day(of: now, in: timeZone)
        return "\(day.written(today: today)), \(LocalCalendar.twoDigits(hour)):\(LocalCalendar.twoDigits(minute))"
    }
}

/// Calendar days for the views, in a given time zone; a day is written with
/// `LocalDate.written(today:)`, as everywhere in Hooray's text.
enum LocalCalendar {
    private static func calendar(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The local calendar day of `instant` in `timeZone`.
    static func day(of instant: Date, in timeZone: TimeZone) -> LocalDate { dayAndTime(of: instant, in: timeZone).0 }

    /// The local calendar day, hour and minute of `instant` in `timeZone`.
    static func dayAndTime(of instant: Date, in timeZone: TimeZone) -> (LocalDate, hour: Int, minute: Int) {
        let parts = calendar(timeZone).dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        // The Gregorian calendar always yields a valid date; the fallback only satisfies the type.
        let day =
            LocalDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
            ?? LocalDate(daysSinceEpoch: 0)
        return (day, parts.hour ?? 0, parts.minute ?? 0)
    }

    /// `07`.
    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// Text helpers shared by the views.
enum ViewText {
    /// The text on one line, safe for a terminal: line breaks a user typed become spaces, so a row
    /// stays a row, and control characters and bidi overrides are neutralised (`TerminalText`).
    static func singleLine(_ text: String) -> String {
        TerminalText.safe(text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }

    /// Pretty JSON with sorted keys and unescaped slashes, as `--json` prints it.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // The views encode only strings, integers, booleans and arrays of them, which cannot fail.
        let data = try! encoder.encode(value)
        return String(decoding: data, as: UTF8.self)
    }
}
