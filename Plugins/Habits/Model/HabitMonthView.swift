import Foundation
import HoorayCalendar
import HoorayKit

/// A habit's month as `hooray habit show NAME --json` prints it beside the list's keys: what each
/// day of the month is, the rhythm in a form a client can edit, and the milestones (docs/json.md,
/// `habitMonth`). The desktop app draws its calendar and its badges from it.
///
/// Pure: today is a parameter, so the same habit always gives the same days.
struct HabitMonthView: Encodable, Sendable {
    /// What one day of the month is for the habit: the calendar's symbols of `hooray habit show`.
    enum DayMark: String, Encodable, Sendable {
        /// Done that day.
        case done
        /// Its streak was started again that day.
        case reset
        /// Inside a pause, in the past or planned.
        case paused
        /// A due day in the past that was not done.
        case missed
        /// Today, due and not done yet.
        case open
        /// A day the rhythm does not ask for, or before the habit's first day.
        case notDue
        /// A day after today on which the habit will be due.
        case comingUp

        init(_ habit: Habit, on day: LocalDate, today: LocalDate) {
            switch habit.state(on: day, today: today) {
            case .done: self = .done
            case .reset: self = .reset
            case .paused: self = .paused
            case .open: self = day == today ? .open : .missed
            case .notDue: self = .notDue
            case .future:
                if habit.isPaused(on: day) && day >= habit.start {
                    self = .paused
                } else if day >= habit.start && habit.isDue(on: day) {
                    self = .comingUp
                } else {
                    self = .notDue
                }
            }
        }
    }

    /// One day of the month.
    struct Day: Encodable, Sendable, Equatable {
        /// `YYYY-MM-DD`.
        let date: String
        let state: DayMark
    }

    /// The day hoorayd counts as today, `YYYY-MM-DD`: a client with another clock marks this one.
    let asOf: String
    /// The habit's first day, `YYYY-MM-DD`.
    let start: String
    /// The weekdays it is due on (`mon` … `sun`, Monday first); all seven for every day, `null` for
    /// a rhythm of every few days.
    let on: [String]?
    /// The days between due days for a rhythm of every few days, such as 3; `null` otherwise.
    let every: Int?
    /// The streak lengths that earn a badge, lowest first.
    let milestones: [Int]
    /// The month shown, `YYYY-MM`.
    let month: String
    /// Each day of the month, the first first.
    let days: [Day]

    /// The month of `habit` that starts on `first`, as it is on `today`.
    init(_ habit: Habit, month first: LocalDate, today: LocalDate, milestones: [Int]) {
        asOf = today.description
        start = habit.start.description
        switch habit.schedule {
        case .daily:
            (on, every) = (Weekday.allCases.map(\.abbreviation), nil)
        case .weekdays(let weekdays):
            (on, every) = (Weekday.allCases.filter(weekdays.contains).map(\.abbreviation), nil)
        case .everyNDays(let interval):
            (on, every) = interval == 1 ? (Weekday.allCases.map(\.abbreviation), nil) : (nil, interval)
        }
        self.milestones = Array(Set(milestones.filter { $0 > 0 })).sorted()
        month = String(first.description.prefix(7))
        var days: [Day] = []
        var day = first
        while day.month == first.month {
            days.append(Day(date: day.description, state: DayMark(habit, on: day, today: today)))
            day = day.adding(days: 1)
        }
        self.days = days
    }

    // Every key is there, `null` when it has no value (docs/json.md).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(asOf, forKey: .asOf)
        try container.encode(start, forKey: .start)
        try container.encode(on, forKey: .on)
        try container.encode(every, forKey: .every)
        try container.encode(milestones, forKey: .milestones)
        try container.encode(month, forKey: .month)
        try container.encode(days, forKey: .days)
    }

    enum CodingKeys: String, CodingKey { case asOf, start, on, every, milestones, month, days }

    /// The list's keys of the habit and this view's, as one JSON object.
    static func json(_ habit: Habit, month first: LocalDate, today: LocalDate, milestones: [Int]) throws -> JSONValue {
        let listed = try JSONValue(encoding: HabitListView.Entry(habit, today: today, milestones: milestones))
        let month = try JSONValue(
            encoding: HabitMonthView(habit, month: first, today: today, milestones: milestones))
        guard case .object(var keys) = listed, case .object(let more) = month else { return listed }
        keys.merge(more) { old, _ in old }
        return .object(keys)
    }
}
