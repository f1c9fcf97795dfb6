import Foundation
import HoorayCalendar
import HoorayKit

/// A reminder the user added with `hooray remind`, kept in the plugin's record book so that it
/// survives reloads and restarts and travels with an export of the user's data.
///
/// Its id is short — `r1`, `r2`, … — and never reused. Its schedule is kept as the user gave it
/// (a time of day and which days, or the one instant of a one-off), so that `hooray remind edit`
/// can change one part and keep the rest.
struct CommandLineReminder: PluginRecord, Sendable, Equatable {
    static let recordKind = "reminder"

    /// `r1`, `r2`, …
    var id: String
    /// The notification's title.
    var title: String
    /// The notification's body; may be empty.
    var body: String
    /// The time of day; `nil` for a one-off given with `--in`.
    var at: TimeOfDay?
    /// The chosen weekdays, in week order, for a reminder on some days of the week.
    var days: [Weekday]?
    /// Every so many days, for a reminder with `--every`.
    var every: Int?
    /// The first day of an `--every` reminder.
    var anchor: LocalDate?
    /// The day of a one-off given with `--on`.
    var on: LocalDate?
    /// The instant of a one-off (`--in` or `--on`), worked out once when it was given so that
    /// replanning never moves it.
    var once: Date?
    /// The IANA time zone of its times of day: the one given with `--zone`, else the zone it was
    /// added in (the user's, `TZ` included), so that a reload in a daemon with another zone does not
    /// move it; `nil` (reminders added before zones were kept) follows the computer's zone.
    var zone: String?
    /// When it was added.
    var createdAt: Date
    /// When a one-off came due (shown, or passed by without being planned in time); it is then done
    /// and no longer listed.
    var shownAt: Date?

    var recordID: String { id }
    var recordDate: RecordDate { .instant(createdAt) }

    /// Whether it comes once rather than on a rhythm.
    var isOneOff: Bool { once != nil }

    /// Whether it is a one-off that is over: it came due, or its instant passed and it will not come
    /// (`nextDue` is `nil`), such as one brought back by `hooray import` after its time.
    ///
    /// - Parameters:
    ///   - nextDue: Its next due instant, as scheduled; `nil` when it is not scheduled to come.
    ///   - now: The current time.
    func isDone(nextDue: Date?, now: Date) -> Bool {
        guard let once else { return false }
        return shownAt != nil || (once <= now && nextDue == nil)
    }

    /// The time zone its times of day are in.
    func timeZone(default fallback: TimeZone) -> TimeZone {
        zone.flatMap(TimeZone.init(identifier:)) ?? fallback
    }

    /// Its schedule; times of day without a zone of their own are in `fallback`.
    func schedule(defaultZone fallback: TimeZone) -> Schedule {
        if let once { return .once(at: once) }
        let zone = timeZone(default: fallback)
        let time = at ?? RemindOptions.defaultTime
        if let days { return .weekly(on: Set(days), at: time, zone: zone) }
        if let every {
            return .everyNDays(
                interval: every, anchor: anchor ?? LocalDate(year: 2026, month: 1, day: 1)!, at: time, zone: zone)
        }
        return .daily(at: time, zone: zone)
    }

    /// The reminder the engine schedules: the same notice and button as a reminder in hooray.toml.
    func reminder(defaultZone: TimeZone) -> Reminder {
        Reminder(
            id: id, schedule: schedule(defaultZone: defaultZone),
            notice: Notice(title: title, body: body, actions: [RemindersPlugin.snooze], category: "reminder"))
    }
}
