import Foundation
import HoorayCalendar
import HoorayKit
import Testing

@testable import HabitsPlugin

/// A day written `YYYY-MM-DD`.
func day(_ text: String) -> LocalDate { LocalDate(parsing: text)! }

/// Every day from `first` through `last`, both included.
func days(_ first: String, through last: String) -> [LocalDate] {
    let from = day(first)
    return (0...from.days(until: day(last))).map { from.adding(days: $0) }
}

/// A habit for tests; history is given as days.
func makeHabit(
    _ name: String = "Read 10 pages", schedule: HabitSchedule = .daily, start: String, done: [LocalDate] = [],
    resets: [String] = [], pauses: [HabitPause] = [], celebrated: [CelebratedMilestone] = [],
    id: UUID = UUID(), why: String? = nil, remindAt: TimeOfDay? = nil
) -> Habit {
    Habit(
        id: id, name: name, why: why, schedule: schedule, start: day(start), remindAt: remindAt,
        createdAt: Date(timeIntervalSince1970: 1_790_000_000), completions: DaySet(done),
        resets: resets.map { HabitReset(day: day($0)) }, pauses: pauses, celebrated: celebrated)
}

/// A pause from `from` through `through` (open-ended when `nil`).
func pause(_ from: String, _ through: String? = nil) -> HabitPause {
    HabitPause(from: day(from), through: through.map(day))
}

/// A day of November 2026, written as its two digits.
func nov(_ date: String) -> LocalDate { day("2026-11-\(date)") }
