import Foundation
import HoorayKit

extension HabitsPlugin {
    /// Today's habits for `hooray bar`: `✅ 1/2` (done of due today), and the best current streak.
    /// Without habits the plugin puts nothing on the bar.
    public func barItems(context: PluginContext, configuration: HabitsConfiguration) async throws -> [BarItem] {
        let habits = try await context.records(of: Habit.self).all()
        return Self.barItems(habits, today: context.today)
    }

    /// The items for `habits` on `today`: nothing without habits.
    static func barItems(_ habits: [Habit], today: LocalDate) -> [BarItem] {
        guard !habits.isEmpty else { return [] }
        // Due today, or done today even on a day it was not due: a bonus day counts as done.
        let counted = habits.filter { $0.isDue(on: today) || $0.isDone(on: today) }
        let done = counted.filter { $0.isDone(on: today) }.count
        var best: BarStreak?
        for habit in habits {
            let days = habit.streak(today: today).days
            guard days > 0 else { continue }
            // The longest; of equal ones, the first by name, so the line does not flicker.
            if let current = best, current.days > days || (current.days == days && current.name <= habit.name) {
                continue
            }
            best = BarStreak(days: days, name: habit.name)
        }
        let tooltip =
            counted.isEmpty
            ? "No habits due today"
            : done == counted.count
                ? "Habits: all \(counted.count) done today"
                : "Habits: \(done) of \(counted.count) done today"
        return [
            BarItem(
                text: counted.isEmpty ? "" : "✅ \(done)/\(counted.count)", tooltip: tooltip,
                streak: best,
                progress: counted.isEmpty ? nil : BarProgress(done: done, due: counted.count))
        ]
    }
}
