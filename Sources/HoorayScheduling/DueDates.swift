import HoorayCalendar
import HoorayKit

/// Calendar arithmetic on the days a repeating schedule is due, each in O(1) (at most a week of steps),
/// so that planning never walks day by day across months or years.
extension Schedule {
    /// The last date a repeating schedule could be due on; beyond it a rule counts as never due again.
    ///
    /// Year 9999 keeps every day count far from overflowing `Int` and every instant exact in a `Date`.
    static let lastPlannableDay = LocalDate(year: 9999, month: 12, day: 31)!.daysSinceEpoch

    /// The first date on or after `date` that the schedule is due on, or `nil` if there is none.
    func firstDueDate(onOrAfter date: LocalDate) -> LocalDate? {
        firstDueDay(onOrAfter: date.daysSinceEpoch).map(LocalDate.init(daysSinceEpoch:))
    }

    /// ``firstDueDate(onOrAfter:)`` in days since 1970-01-01, which planning counts in without
    /// converting to and from calendar dates at every step.
    func firstDueDay(onOrAfter day: Int) -> Int? {
        let found: Int?
        switch self {
        case .daily:
            found = day
        case .weekly(let days, _, _):
            var mask = 0
            for weekday in days { mask |= 1 << weekday.rawValue }
            found = (0..<7).lazy.map { day + $0 }.first { mask & (1 << Self.weekdayNumber(ofDay: $0)) != 0 }
        case .everyNDays(let interval, let anchor, _, _):
            guard interval > 0 else { return nil }
            let anchorDay = anchor.daysSinceEpoch
            if day <= anchorDay {
                found = anchorDay
            } else {
                let elapsed = day - anchorDay
                let steps = elapsed / interval + (elapsed % interval == 0 ? 0 : 1)
                let (days, overflow) = steps.multipliedReportingOverflow(by: interval)
                guard !overflow, days <= Self.lastPlannableDay - anchorDay else { return nil }
                found = anchorDay + days
            }
        case .once:
            found = nil
        }
        guard let found, found <= Self.lastPlannableDay else { return nil }
        return found
    }

    /// The `Weekday` raw value (1 for Monday through 7 for Sunday) of a day since 1970-01-01, a Thursday.
    static func weekdayNumber(ofDay day: Int) -> Int {
        ((day % 7) + 7 + 3) % 7 + 1
    }

    /// The last date on or before `date` that the schedule is due on, or `nil` if there is none.
    func lastDueDate(onOrBefore date: LocalDate) -> LocalDate? {
        switch self {
        case .daily:
            return date
        case .weekly(let days, _, _):
            return (0..<7).lazy.map { date.adding(days: -$0) }.first { days.contains($0.weekday) }
        case .everyNDays(let interval, let anchor, _, _):
            guard interval > 0, date >= anchor else { return nil }
            let elapsed = anchor.days(until: date)
            return anchor.adding(days: elapsed - elapsed % interval)
        case .once:
            return nil
        }
    }

    /// How many dates from `first` through `last` (both included) the schedule is due on.
    func dueDateCount(from first: LocalDate, through last: LocalDate) -> Int {
        guard first <= last else { return 0 }
        switch self {
        case .daily:
            return first.days(until: last) + 1
        case .weekly(let days, _, _):
            let span = first.days(until: last) + 1
            let wholeWeeks = span / 7
            let rest = (0..<(span % 7)).count { days.contains(first.adding(days: wholeWeeks * 7 + $0).weekday) }
            return wholeWeeks * days.count + rest
        case .everyNDays(let interval, _, _, _):
            guard let start = firstDueDate(onOrAfter: first), let end = lastDueDate(onOrBefore: last),
                start <= end
            else { return 0 }
            return start.days(until: end) / interval + 1
        case .once:
            return 0
        }
    }
}
