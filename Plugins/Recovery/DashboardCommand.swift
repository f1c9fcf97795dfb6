import Foundation
import HoorayCommandLine
import HoorayKit

extension RecoveryPlugin {
    /// `hooray recovery [--weeks N] [--json]`: the score, this week's reality, patterns, the
    /// recovery-time trend and the streaks (``RecoveryDashboard``).
    func dashboardCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        let weeks = try Self.checkedWeeks(command.value("weeks"))
        let dashboard = RecoveryDashboard(
            rejections: try await context.records(of: Rejection.self).all(),
            checkIns: try await context.records(of: CheckIn.self).all(),
            challenges: try await context.records(of: ChallengeEntry.self).all(), now: context.now,
            timeZone: command.environment.timeZone, weeks: weeks)
        return CommandReply(text: dashboard.text(color: command.environment.color), json: dashboard.json)
    }

    /// The weeks of the trend: `--weeks`, 1 to 52, or 8 when not given.
    ///
    /// - Throws: ``PluginCommandError`` (usage) naming the value and the range.
    static func checkedWeeks(_ text: String?) throws -> Int {
        guard let text else { return RecoveryTrend.defaultWeeks }
        let range = RecoveryTrend.minimumWeeks...RecoveryTrend.maximumWeeks
        guard let weeks = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw PluginCommandError.invalidValue(
                "--weeks",
                "--weeks \"\(text)\" is not a number of weeks; give \(range.lowerBound) to \(range.upperBound), such as --weeks 12"
            )
        }
        guard range.contains(weeks) else {
            throw PluginCommandError.invalidValue(
                "--weeks",
                "--weeks \(weeks) is outside the range; give \(range.lowerBound) to \(range.upperBound) weeks (a year at most), such as --weeks 12"
            )
        }
        return weeks
    }
}
