import Foundation
import HoorayCalendar
import HoorayKit

/// Everything `hooray recovery` shows (seed 002 §2, the "Smart Insights Dashboard"): the resilience
/// score and its parts, this week's reality beside last week's, the patterns, the recovery-time
/// trend and the streaks. A pure value of the history, `now` and the user's time zone.
struct RecoveryDashboard: Sendable, Hashable {
    /// The user's day the dashboard is about.
    var today: LocalDate
    /// The user's time zone, where days start.
    var timeZone: TimeZone
    /// The resilience score and its four parts.
    var score: ResilienceScore
    /// This week beside last week.
    var reality: WeeklyReality
    /// The patterns found.
    var patterns: [RecoveryPattern]
    /// The recovery-time trend.
    var trend: RecoveryTrend
    /// The challenge and check-in streaks.
    var streaks: RecoveryStreaks
    /// Whether nothing at all is logged yet: no rejection, check-in or challenge.
    var isFirstRun: Bool
    /// Today's check-in, once there is one.
    var todayCheckIn: CheckIn?

    /// Works the dashboard out.
    ///
    /// - Parameters:
    ///   - rejections: Every rejection logged.
    ///   - checkIns: Every check-in.
    ///   - challenges: Every challenge done or skipped.
    ///   - now: The current instant.
    ///   - timeZone: The user's time zone.
    ///   - weeks: How many weeks the trend shows.
    init(
        rejections: [Rejection], checkIns: [CheckIn], challenges: [ChallengeEntry], now: Date, timeZone: TimeZone,
        weeks: Int = RecoveryTrend.defaultWeeks
    ) {
        let today = LocalDate(instant: now, in: timeZone)
        self.today = today
        self.timeZone = timeZone
        score = ResilienceScore(
            rejections: rejections, checkIns: checkIns, challenges: challenges, now: now, timeZone: timeZone)
        reality = WeeklyReality(rejections: rejections, today: today, timeZone: timeZone)
        patterns = PatternAnalyzer.patterns(in: rejections, today: today, timeZone: timeZone)
        trend = RecoveryTrend(rejections: rejections, today: today, timeZone: timeZone, weeks: weeks)
        streaks = RecoveryStreaks(checkIns: checkIns, challenges: challenges, today: today)
        isFirstRun = rejections.isEmpty && checkIns.isEmpty && challenges.isEmpty
        todayCheckIn = checkIns.first { $0.day == today }
    }

    /// The dashboard as `--json` prints it: one object, keys in camelCase, every key always present
    /// (`null` for a figure there is none of). Points and hours are rounded to two decimals, as the
    /// text shows them.
    var json: JSONValue {
        .object([
            "today": .string(today.description),
            "timeZone": .string(timeZone.identifier),
            "score": .object([
                "total": .number(Double(score.total)),
                "message": .string(score.message),
                "level": .string(score.level.rawValue),
                "recoverySpeed": Self.number(score.recoverySpeed),
                "challenges": Self.number(score.challenges),
                "checkIns": Self.number(score.checkIns),
                "steadyLogging": Self.number(score.steadyLogging),
            ]),
            "thisWeek": Self.json(reality.thisWeek),
            "lastWeek": Self.json(reality.lastWeek),
            "patterns": .array(patterns.map(\.json)),
            "trend": .object([
                "sparkline": .string(trend.sparkline),
                "weeks": .array(
                    trend.weeks.map { week in
                        .object([
                            "from": .string(week.week.from.description),
                            "through": .string(week.week.through.description),
                            "recovered": .number(Double(week.recovered)),
                            "averageRecoveryHours": Self.number(week.averageRecoveryHours),
                        ])
                    }),
            ]),
            "streaks": .object([
                "challenge": .number(Double(streaks.challenge)),
                "checkIn": .number(Double(streaks.checkIn)),
            ]),
            "todayCheckIn": todayCheckIn.flatMap { try? JSONValue(encoding: CheckInView($0)) } ?? .null,
        ])
    }

    /// A week of "This week's reality" as `--json` prints it.
    static func json(_ week: WeekReality) -> JSONValue {
        .object([
            "from": .string(week.week.from.description),
            "through": .string(week.week.through.description),
            "counts": .object(
                Dictionary(
                    uniqueKeysWithValues: RejectionType.allCases.map {
                        ($0.rawValue, JSONValue.number(Double(week.counts[$0, default: 0])))
                    })),
            "total": .number(Double(week.total)),
            "averageImpact": number(week.averageImpact),
            "recovered": .number(Double(week.recovered)),
            "averageRecoveryHours": number(week.averageRecoverySeconds.map { $0 / 3600 }),
        ])
    }

    /// A number rounded to two decimals, or `null`: `4`, not `3.9999999999999996`.
    static func number(_ value: Double?) -> JSONValue {
        value.map { .number(($0 * 100).rounded() / 100) } ?? .null
    }
}
