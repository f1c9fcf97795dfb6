import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit

/// The swaps plugin's part of the weekly review: the swaps and the days with one, this week beside
/// last week, and the streak at the week's end, counted as `hooray swap history` counts them.
extension SwapsPlugin {
    func reviewCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        let week = try WeekReview.week(of: command)
        let today = LocalDate(instant: context.now, in: command.environment.timeZone)
        let swaps = try await context.records(of: Swap.self).all()
        func history(of week: ISOWeek) -> SwapHistory? {
            let last = WeekReview.lastDay(of: week, today: today)
            guard last >= week.monday else { return nil }
            var history = SwapHistory(swaps: swaps, through: last, days: week.monday.days(until: last) + 1)
            if last < today {
                // A week that is over: the streak as it stood when its Sunday ended, a Sunday without one ending it.
                let then = swaps.filter { $0.day <= last }
                history.currentStreak = SwapHistory(swaps: then, through: last.adding(days: 1), days: 1).currentStreak
            }
            return history
        }
        let this = history(of: week)
        let before = history(of: week.previous)
        let count = this?.swapsShown ?? 0
        let streak = this?.currentStreak ?? 0
        let line =
            count == 0
            ? "No swaps this week, and that's okay: tonight is a fine night for one."
            : streak >= 7
                ? "\(count) swap\(count == 1 ? "" : "s") and a \(streak)-day streak: a habit is taking root. 🌿"
                : "\(count) healthier choice\(count == 1 ? "" : "s") this week. One small swap at a time."
        return try WeekReview.reply([
            WeekReview(
                area: "Swaps",
                figures: [
                    .init(
                        key: "swaps", label: "Swaps", thisWeek: Double(count),
                        lastWeek: Double(before?.swapsShown ?? 0)),
                    .init(
                        key: "days", label: "Days with a swap", thisWeek: Double(this?.counts.count ?? 0),
                        lastWeek: Double(before?.counts.count ?? 0)),
                    .init(
                        key: "streak", label: "Swap streak at the week's end", thisWeek: Double(streak),
                        lastWeek: Double(before?.currentStreak ?? 0)),
                ], line: line, isEmpty: count == 0 && (before?.swapsShown ?? 0) == 0)
        ])
    }
}
