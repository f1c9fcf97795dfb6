import Foundation
import HoorayCalendar
import HoorayKit

/// The recovery-time trend: for each of the last N weeks, how long it took on average to feel okay,
/// drawn as a sparkline.
///
/// A week is seven days; the last one ends today, in the user's time zone. A week's figure is the
/// average recovery time (happened → okay), in hours, of the rejections that happened that week and
/// are marked okay; a week with none has no figure and is drawn as `·`.
struct RecoveryTrend: Sendable, Hashable {
    /// One week of the trend.
    struct Week: Sendable, Hashable {
        /// The week.
        var week: DashboardWeek
        /// How many of its rejections are marked okay.
        var recovered: Int
        /// Their average recovery time in hours; `nil` when none is.
        var averageRecoveryHours: Double?
    }

    /// The fewest weeks `--weeks` takes.
    static let minimumWeeks = 1
    /// The most weeks `--weeks` takes: a year.
    static let maximumWeeks = 52
    /// The weeks `hooray recovery` shows without `--weeks`.
    static let defaultWeeks = 8

    /// The weeks, oldest first; the last ends today.
    var weeks: [Week]

    /// The trend of `count` weeks ending today.
    init(rejections: [Rejection], today: LocalDate, timeZone: TimeZone, weeks count: Int) {
        weeks = (0..<count).reversed().map { back in
            let week = DashboardWeek(endingOn: today.adding(days: -7 * back))
            let reality = WeekReality(week: week, rejections: rejections, timeZone: timeZone)
            return Week(
                week: week, recovered: reality.recovered,
                averageRecoveryHours: reality.averageRecoverySeconds.map { $0 / 3600 })
        }
    }

    /// The sparkline of the weeks, one character each.
    var sparkline: String { Self.sparkline(weeks.map(\.averageRecoveryHours)) }

    /// The eight bars, lowest first.
    static let bars: [Character] = Array("▁▂▃▄▅▆▇█")
    /// What a week without a figure is drawn as.
    static let noFigure: Character = "·"

    /// Draws values as bars: the lowest as ▁, the highest as █, the others in between on a linear
    /// scale rounded to the nearest bar (half up); all equal as ▄; `nil` as `·`.
    static func sparkline(_ values: [Double?]) -> String {
        let known = values.compactMap { $0 }
        guard let low = known.min(), let high = known.max() else {
            return String(values.map { _ in noFigure })
        }
        return String(
            values.map { value -> Character in
                guard let value else { return noFigure }
                guard high > low else { return bars[3] }
                let step = (value - low) * Double(bars.count - 1) / (high - low)
                return bars[Int((step + 0.5).rounded(.down))]
            })
    }
}
