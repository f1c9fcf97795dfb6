import Foundation
import HoorayCalendar

/// When a reminder is due.
///
/// Every repeating schedule keeps its IANA time zone, so its wall-clock time stays put when
/// daylight-saving time starts or ends. The engine turns a schedule into the next due instant
/// with these rules:
///
/// - A time that does not exist on a day (skipped by a spring-forward change) moves forward by
///   the length of the gap: 02:30 becomes 03:30.
/// - A time that occurs twice on a day (repeated by a fall-back change) is due once, at its first
///   occurrence.
/// - "Every N days" counts calendar days at the same wall-clock time, from the anchor date.
public enum Schedule: Sendable, Hashable, Codable {
    /// Every day at a time.
    case daily(at: TimeOfDay, zone: TimeZone)
    /// On the chosen days of the week at a time.
    case weekly(on: Set<Weekday>, at: TimeOfDay, zone: TimeZone)
    /// Every `interval` calendar days counted from `anchor` (which is itself due), at a time.
    case everyNDays(interval: Int, anchor: LocalDate, at: TimeOfDay, zone: TimeZone)
    /// Once, at an exact instant, such as 24 hours after an event.
    case once(at: Date)

    /// The time zone the schedule's wall-clock time is read in; `nil` for ``once(at:)``.
    public var zone: TimeZone? {
        switch self {
        case .daily(_, let zone), .weekly(_, _, let zone), .everyNDays(_, _, _, let zone): zone
        case .once: nil
        }
    }

    /// The wall-clock time of a repeating schedule; `nil` for ``once(at:)``.
    package var timeOfDay: TimeOfDay? {
        switch self {
        case .daily(let time, _), .weekly(_, let time, _), .everyNDays(_, _, let time, _): time
        case .once: nil
        }
    }

    /// Whether the schedule is due on a calendar date (in its own time zone).
    ///
    /// A ``once(at:)`` schedule answers `false`; ask for its instant instead.
    public func isDue(on date: LocalDate) -> Bool {
        switch self {
        case .daily: true
        case .weekly(let days, _, _): days.contains(date.weekday)
        case .everyNDays(let interval, let anchor, _, _):
            interval > 0 && date >= anchor && anchor.days(until: date) % interval == 0
        case .once: false
        }
    }

    /// A short human description, such as `every day at 08:30` or `mon, wed, fri at 15:00`; a
    /// ``once(at:)`` schedule in the current time zone, as ``summary(in:now:)`` words it.
    public var summary: String { summary(in: .current, now: Date()) }

    /// A short human description in a time zone, such as `every day at 08:30`, or for a
    /// ``once(at:)`` schedule its local day and time: `once, today 08:36`, `once, tomorrow 08:36`,
    /// `once, Tue 1 Dec 08:36`.
    ///
    /// - Parameters:
    ///   - timeZone: The zone a one-off's instant is shown in: the user's.
    ///   - now: The current instant, for "today" and "tomorrow".
    public func summary(in timeZone: TimeZone, now: Date) -> String {
        switch self {
        case .daily(let time, _): "every day at \(time)"
        case .weekly(let days, let time, _): "\(Weekday.describe(days)) at \(time)"
        case .everyNDays(let interval, let anchor, let time, _):
            interval == 1
                ? "every day at \(time)"
                : "every \(interval) days from \(anchor.written(today: LocalDate(instant: now, in: timeZone))) at \(time)"
        case .once(let date): "once, " + Self.localDayAndTime(date, in: timeZone, now: now)
        }
    }

    /// An instant as a person reads it in a time zone: `today 08:36`, `tomorrow 08:36`,
    /// `yesterday 08:36`, `Tue 1 Dec 08:36`, or with the year when it is another year's.
    ///
    /// - Parameters:
    ///   - date: The instant.
    ///   - timeZone: The zone it is read in: the user's.
    ///   - now: The current instant, for "today" and "tomorrow".
    public static func localDayAndTime(_ date: Date, in timeZone: TimeZone, now: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "HH:mm"
        let time = formatter.string(from: date)
        let days = calendar.dateComponents(
            [.day], from: calendar.startOfDay(for: now), to: calendar.startOfDay(for: date)
        ).day
        switch days {
        case 0: return "today \(time)"
        case 1: return "tomorrow \(time)"
        case -1: return "yesterday \(time)"
        default:
            let sameYear = calendar.component(.year, from: date) == calendar.component(.year, from: now)
            formatter.dateFormat = sameYear ? "EEE d MMM HH:mm" : "EEE d MMM yyyy HH:mm"
            return formatter.string(from: date)
        }
    }
}
