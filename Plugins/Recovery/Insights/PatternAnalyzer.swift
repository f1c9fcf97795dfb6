import Foundation
import HoorayCalendar
import HoorayKit

/// A pattern the dashboard noticed in the user's rejections (seed 002 §2, `PatternAnalyzer`): what it
/// is, an insight, and something to try — said kindly.
enum RecoveryPattern: Sendable, Hashable {
    /// In the last 30 days, `ghosted` of the `dating` rejections have a note that mentions "ghost".
    case ghosting(ghosted: Int, dating: Int)
    /// In the last 30 days, `count` of the `total` rejections happened on `weekday`.
    case weekday(Weekday, count: Int, total: Int)
    /// The median recovery time of the latest five recoveries, against the five before, in seconds.
    case recoveringFaster(recentMedian: TimeInterval, earlierMedian: TimeInterval)

    /// Its name in `--json`.
    var kind: String {
        switch self {
        case .ghosting: "ghosting"
        case .weekday: "weekday"
        case .recoveringFaster: "recoveringFaster"
        }
    }

    /// A symbol for the text view.
    var emoji: String {
        switch self {
        case .ghosting: "👻"
        case .weekday: "📅"
        case .recoveringFaster: "⚡"
        }
    }

    /// Its title, such as "Ghosting Pattern Detected".
    var title: String {
        switch self {
        case .ghosting: "Ghosting Pattern Detected"
        case .weekday(let weekday, _, _): "\(Self.plural(weekday)) Are Heavy"
        case .recoveringFaster: "Recovering Faster"
        }
    }

    /// What it is, with its figures.
    var description: String {
        switch self {
        case .ghosting(let ghosted, _):
            "You've been ghosted \(ghosted) times this month"
        case .weekday(let weekday, let count, let total):
            "\(count) of your \(total) rejections this month came on a \(Self.name(weekday)) (\(Self.percent(count, of: total))%)"
        case .recoveringFaster(let recent, let earlier):
            "Your last 5 recoveries took \(RecoveryFormat.duration(recent)) (median), down from \(RecoveryFormat.duration(earlier)) before"
        }
    }

    /// What it means, and what it does not.
    var insight: String {
        switch self {
        case .ghosting:
            "This is about their communication style, not your worth"
        case .weekday:
            "That's about timing, not about you: some days simply bring more answers"
        case .recoveringFaster:
            "You're bouncing back quicker than you used to. That's resilience, growing"
        }
    }

    /// Something to try.
    var actionable: String {
        switch self {
        case .ghosting:
            "Try apps that require more investment upfront"
        case .weekday(let weekday, _, _):
            "Plan something kind for yourself on \(Self.plural(weekday)), before the day begins"
        case .recoveringFaster:
            "Notice what helped this time, and keep it close"
        }
    }

    /// The figures behind it, for `--json`.
    var figures: JSONValue {
        switch self {
        case .ghosting(let ghosted, let dating):
            .object(["ghosted": .number(Double(ghosted)), "dating": .number(Double(dating))])
        case .weekday(let weekday, let count, let total):
            .object([
                "weekday": .string(Self.name(weekday).lowercased()), "count": .number(Double(count)),
                "total": .number(Double(total)), "percent": .number(Double(Self.percent(count, of: total))),
            ])
        case .recoveringFaster(let recent, let earlier):
            .object([
                "recentMedianHours": RecoveryDashboard.number(recent / 3600),
                "earlierMedianHours": RecoveryDashboard.number(earlier / 3600),
            ])
        }
    }

    /// The pattern as `--json` prints it.
    var json: JSONValue {
        .object([
            "kind": .string(kind), "title": .string(title), "description": .string(description),
            "insight": .string(insight), "actionable": .string(actionable), "figures": figures,
        ])
    }

    /// `count` out of `total` in whole percent, rounded half up.
    static func percent(_ count: Int, of total: Int) -> Int {
        total == 0 ? 0 : (count * 200 + total) / (total * 2)
    }

    /// `Monday`.
    static func name(_ weekday: Weekday) -> String {
        switch weekday {
        case .monday: "Monday"
        case .tuesday: "Tuesday"
        case .wednesday: "Wednesday"
        case .thursday: "Thursday"
        case .friday: "Friday"
        case .saturday: "Saturday"
        case .sunday: "Sunday"
        }
    }

    /// `Mondays`.
    static func plural(_ weekday: Weekday) -> String { name(weekday) + "s" }
}

/// Finds the dashboard's patterns (seed 002 §2, `PatternAnalyzer`).
///
/// - Ghosting: in the last 30 days, at least 3 dating rejections whose note mentions "ghost" (in any
///   case), and they are more than half of the dating ones.
/// - A heavy weekday: in the last 30 days, at least 5 rejections, and one weekday holds at least 40%
///   of them (the busiest; the earliest in the week when two are as busy).
/// - Recovering faster: the median recovery time of the last 5 recoveries (by when they were logged)
///   is at least 25% below the median of the 5 before.
///
/// The last 30 days are those of the resilience score: today and the 29 before, counted by the day
/// a rejection happened in the user's time zone.
enum PatternAnalyzer {
    /// The fewest ghosting notes that make a pattern.
    static let minimumGhosted = 3
    /// The fewest rejections a weekday pattern is looked for among.
    static let minimumForWeekday = 5
    /// The share of them one weekday must hold, in percent.
    static let weekdayShare = 40
    /// How many recoveries each median is of.
    static let recoveriesCompared = 5
    /// How much lower the recent median must be, in percent.
    static let fasterBy = 25

    /// Every pattern found, in the order ghosting, weekday, recovering faster.
    static func patterns(in rejections: [Rejection], today: LocalDate, timeZone: TimeZone) -> [RecoveryPattern] {
        let first = today.adding(days: -(ResilienceScore.windowDays - 1))
        let recent = rejections.filter {
            let day = $0.day(in: timeZone)
            return first <= day && day <= today
        }
        return [ghosting(recent), weekday(recent, timeZone: timeZone), recoveringFaster(rejections)]
            .compactMap { $0 }
    }

    /// The ghosting pattern among `rejections` (those of the last 30 days), if it shows.
    static func ghosting(_ rejections: [Rejection]) -> RecoveryPattern? {
        let dating = rejections.filter { $0.type == .dating }
        let ghosted = dating.filter { $0.note?.range(of: "ghost", options: .caseInsensitive) != nil }.count
        guard ghosted >= minimumGhosted, ghosted * 2 > dating.count else { return nil }
        return .ghosting(ghosted: ghosted, dating: dating.count)
    }

    /// The heavy weekday among `rejections` (those of the last 30 days), if one shows.
    static func weekday(_ rejections: [Rejection], timeZone: TimeZone) -> RecoveryPattern? {
        let total = rejections.count
        guard total >= minimumForWeekday else { return nil }
        var counts: [Weekday: Int] = [:]
        for rejection in rejections { counts[rejection.day(in: timeZone).weekday, default: 0] += 1 }
        // The busiest weekday; of two as busy, the earlier in the week.
        let busiest = Weekday.allCases.reduce(Weekday.monday) {
            counts[$1, default: 0] > counts[$0, default: 0] ? $1 : $0
        }
        let count = counts[busiest, default: 0]
        guard count * 100 >= weekdayShare * total else { return nil }
        return .weekday(busiest, count: count, total: total)
    }

    /// Whether recovery is getting faster, over every rejection marked okay.
    static func recoveringFaster(_ rejections: [Rejection]) -> RecoveryPattern? {
        let times = rejections.filter(\.isRecovered).sorted { $0.happenedAt < $1.happenedAt }.compactMap(
            \.recoverySeconds)
        guard times.count >= 2 * recoveriesCompared else { return nil }
        let recent = median(times.suffix(recoveriesCompared))
        let earlier = median(times.dropLast(recoveriesCompared).suffix(recoveriesCompared))
        // recent ≤ earlier × (100 − 25)%, without a division that could round the edge away.
        guard earlier > 0, recent * 100 <= earlier * Double(100 - fasterBy) else { return nil }
        return .recoveringFaster(recentMedian: recent, earlierMedian: earlier)
    }

    /// The median; the mean of the middle two for an even count.
    static func median<Values: Collection<Double>>(_ values: Values) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
