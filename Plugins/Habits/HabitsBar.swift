import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit

extension HabitsPlugin {
    /// Today's habits for `hooray bar`: `✅ 1/2` (done of due today), and the best current streak.
    /// Without habits the plugin puts nothing on the bar.
    public func barItems(context: PluginContext, configuration: HabitsConfiguration) async throws -> [BarItem] {
        // Counted as they are read, a page at a time.
        var tally = BarTally(today: context.today)
        try await context.records(of: Habit.self).forEach { tally.add($0) }
        return tally.items
    }

    /// The items for `habits` on `today`: nothing without habits.
    static func barItems(_ habits: [Habit], today: LocalDate) -> [BarItem] {
        var tally = BarTally(today: today)
        for habit in habits { tally.add(habit) }
        return tally.items
    }
}

/// What the bar shows of the habits, counted one habit at a time.
struct BarTally {
    let today: LocalDate
    var habits = 0
    /// Due today, or done today even on a day it was not due: a bonus day counts as done.
    var counted = 0
    var done = 0
    var best: BarStreak?

    init(today: LocalDate) {
        self.today = today
    }

    mutating func add(_ habit: Habit) {
        habits += 1
        if habit.isDue(on: today) || habit.isDone(on: today) {
            counted += 1
            if habit.isDone(on: today) { done += 1 }
        }
        let days = habit.streak(today: today).days
        guard days > 0 else { return }
        // The longest; of equal ones, the first by name, so the line does not flicker.
        if let current = best, current.days > days || (current.days == days && current.name <= habit.name) {
            return
        }
        best = BarStreak(days: days, name: habit.name)
    }

    /// Nothing without habits.
    var items: [BarItem] {
        guard habits > 0 else { return [] }
        let tooltip =
            counted == 0
            ? "No habits due today"
            : done == counted
                ? "Habits: all \(counted) done today"
                : "Habits: \(done) of \(counted) done today"
        return [
            BarItem(
                text: counted == 0 ? "" : "✅ \(done)/\(counted)", tooltip: tooltip,
                streak: best,
                progress: counted == 0 ? nil : BarProgress(done: done, due: counted))
        ]
    }
}
