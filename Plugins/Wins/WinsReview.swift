import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit

/// The wins plugin's part of the weekly review: the moments logged this week beside last week, and
/// the three the user starred (or, when fewer are starred, the most recent).
extension WinsPlugin {
    func reviewCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        let week = try WeekReview.week(of: command)
        let zone = command.environment.timeZone
        let today = LocalDate(instant: context.now, in: zone)
        let moments = context.records(of: Moment.self)
        func logged(in week: ISOWeek) async throws -> [Moment] {
            let last = WeekReview.lastDay(of: week, today: today)
            guard last >= week.monday else { return [] }
            return try await moments.records(from: week.monday, through: last, in: zone)
        }
        let this = try await logged(in: week).sorted { $0.happenedAt > $1.happenedAt }
        let before = try await logged(in: week.previous)
        let starred = this.filter(\.isFavorite)
        // A win logged without words counts, and keeps its privacy: its placeholder is not a highlight.
        let shown = Array((starred + this.filter { !$0.isFavorite }).filter { !$0.isPlaceholder }.prefix(3))
        let line: String
        switch this.count {
        case 0: line = "No wins logged this week. Even a quiet week holds small things worth counting."
        case 1: line = "One win this week. It counts."
        default:
            line =
                this.count > before.count && !before.isEmpty
                ? "\(this.count) wins this week, more than the week before. Look at you go."
                : "\(this.count) wins this week: small steps, and every one counts."
        }
        return try WeekReview.reply([
            WeekReview(
                area: "Wins",
                figures: [
                    .init(
                        key: "logged", label: "Wins logged", thisWeek: Double(this.count),
                        lastWeek: Double(before.count)),
                    .init(key: "starred", label: "Wins starred", thisWeek: Double(starred.count)),
                ],
                highlights: shown.map(\.text), highlightsLabel: starred.isEmpty ? "Most recent" : "Starred and recent",
                line: line, isEmpty: this.isEmpty && before.isEmpty)
        ])
    }
}
