import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit

/// The habits plugin's part of the weekly review: the due days done this week beside last week,
/// the streaks still running at the week's end and the habits paused in it, counted as
/// `hooray habit show` and `hooray habit list` count them.
extension HabitsPlugin {
    func reviewCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        let week = try WeekReview.week(of: command)
        let today = LocalDate(instant: context.now, in: command.environment.timeZone)
        let habits = try await context.records(of: Habit.self).all()
        struct Figures {
            var done = 0
            var due = 0
            var running = 0
            var paused = 0
        }
        func figures(of week: ISOWeek) -> Figures {
            var figures = Figures()
            let last = WeekReview.lastDay(of: week, today: today)
            guard last >= week.monday else { return figures }
            let days = week.days.filter { $0 <= last }
            for habit in habits {
                let due = days.filter { habit.isDue(on: $0) }
                figures.due += due.count
                figures.done += due.filter { habit.isDone(on: $0) }.count
                if Self.streak(of: habit, endOf: last, today: today) > 0 { figures.running += 1 }
                if days.contains(where: { habit.isPaused(on: $0) }) { figures.paused += 1 }
            }
            return figures
        }
        let this = figures(of: week)
        let before = figures(of: week.previous)
        let line: String
        if habits.isEmpty {
            line = "No habits yet. When you're ready: hooray habit add \"Read 10 pages\"."
        } else if this.due == 0 {
            line = "No habit was due this week: a week of rest is part of it too."
        } else if this.done == this.due {
            line = "Every habit day done: \(this.done) of \(this.due). That's steady work."
        } else {
            line = "\(this.done) of \(this.due) habit days done. Each one is a vote for who you're becoming."
        }
        return try WeekReview.reply([
            WeekReview(
                area: "Habits",
                figures: [
                    .init(
                        key: "done", label: "Habit days done", thisWeek: Double(this.done),
                        lastWeek: Double(before.done), outOf: Double(this.due), lastOutOf: Double(before.due)),
                    .init(
                        key: "streaks", label: "Streaks running at the week's end", thisWeek: Double(this.running),
                        lastWeek: Double(before.running)),
                    .init(
                        key: "paused", label: "Habits paused", thisWeek: Double(this.paused),
                        lastWeek: Double(before.paused)),
                ], line: line, isEmpty: habits.isEmpty)
        ])
    }

    /// The streak at the end of `last`: while the week runs, as `hooray habit list` shows it today;
    /// for a week that is over, as it stood when its Sunday ended — a due Sunday not done ends it.
    static func streak(of habit: Habit, endOf last: LocalDate, today: LocalDate) -> Int {
        guard last < today else { return habit.streak(today: today).days }
        var then = habit
        then.completions = DaySet(habit.completions.filter { $0 <= last })
        return then.streak(today: last.adding(days: 1)).days
    }
}
