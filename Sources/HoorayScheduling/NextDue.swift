import Foundation
import HoorayCalendar
import HoorayKit

/// The pure calendar math that turns a ``Schedule`` into due instants.
///
/// Everything here is a function of its arguments alone (the schedule, its time zone and a given
/// instant): nothing reads the clock, so the engine and tests decide what "now" is.
///
/// Repeating schedules follow the daylight-saving rules described on ``Schedule``: a wall-clock time
/// skipped by a spring-forward change moves forward by the length of the gap, a time repeated by a
/// fall-back change is due once, at its first occurrence, and "every N days" counts calendar days.
public enum NextDue {
    /// The first instant strictly after `instant` at which a schedule is due.
    ///
    /// A repeated wall-clock time is due only at its first occurrence, so when `instant` lies between
    /// the two occurrences of 01:30 on a fall-back day, the answer is 01:30 on the next due day.
    /// An "every N days" schedule is due on its anchor date and every `interval` calendar days after
    /// it, never before the anchor.
    ///
    /// - Parameters:
    ///   - instant: The instant to look after, usually now or the occurrence just shown.
    ///   - schedule: The schedule.
    /// - Returns: The next due instant, or `nil` when the schedule will never be due again: a one-off
    ///   whose instant is not after `instant`, a weekly schedule with no days, or an interval that is
    ///   not positive.
    public static func next(after instant: Date, for schedule: Schedule) -> Date? {
        if case .once(let at) = schedule { return at > instant ? at : nil }
        return nextOccurrence(after: instant, of: schedule)?.instant
    }

    /// The instants a schedule is due in a window, in order.
    ///
    /// - Parameters:
    ///   - schedule: The schedule.
    ///   - after: The start of the window, excluded.
    ///   - through: The end of the window, included.
    ///   - limit: The most instants to return.
    /// - Returns: At most `limit` due instants `t` with `after < t <= through`, earliest first.
    public static func occurrences(of schedule: Schedule, after: Date, through: Date, limit: Int) -> [Date] {
        var found: [Date] = []
        var cursor = after
        while found.count < limit, let due = next(after: cursor, for: schedule), due <= through {
            found.append(due)
            cursor = due
        }
        return found
    }

    /// One occurrence of a repeating schedule: the date it belongs to and its instant.
    struct Occurrence: Equatable {
        var date: LocalDate
        var instant: Date
    }

    /// The wall-clock time of a repeating schedule; `nil` for a one-off. (`Schedule.timeOfDay` says
    /// the same, but it is HoorayKit's `package` API, which the benchmarks' copy of this module,
    /// compiled in another package, cannot see.)
    static func wallTime(of schedule: Schedule) -> TimeOfDay? {
        switch schedule {
        case .daily(let time, _), .weekly(_, let time, _), .everyNDays(_, _, let time, _): time
        case .once: nil
        }
    }

    /// The first occurrence of a repeating schedule strictly after `instant`; `nil` for a one-off.
    static func nextOccurrence(after instant: Date, of schedule: Schedule) -> Occurrence? {
        guard let zone = schedule.zone, let time = wallTime(of: schedule) else { return nil }
        let seconds = time.secondsSinceMidnight
        // Starting a day early catches a time that a gap across midnight pushed onto today.
        let today = floorDivide(wallClockSeconds(of: instant, in: zone), secondsPerDay)
        var candidate = schedule.firstDueDay(onOrAfter: today - 1)
        while let day = candidate {
            let due = self.instant(ofWallClockSeconds: day * secondsPerDay + seconds, in: zone)
            if due > instant { return Occurrence(date: LocalDate(daysSinceEpoch: day), instant: due) }
            candidate = schedule.firstDueDay(onOrAfter: day + 1)
        }
        return nil
    }

    /// The last occurrence of a repeating schedule at or before `instant`; `nil` for a one-off.
    static func lastOccurrence(atOrBefore instant: Date, of schedule: Schedule) -> Occurrence? {
        guard let zone = schedule.zone, let time = wallTime(of: schedule) else { return nil }
        var candidate = schedule.lastDueDate(onOrBefore: localDate(of: instant, in: zone).adding(days: 1))
        while let date = candidate {
            let due = self.instant(of: date, at: time, in: zone)
            if due <= instant { return Occurrence(date: date, instant: due) }
            candidate = schedule.lastDueDate(onOrBefore: date.adding(days: -1))
        }
        return nil
    }
}
