import Foundation
import HoorayCalendar
import HoorayKit

extension Rejection {
    /// The user's day it happened on: the day the dashboard counts it under, as `hooray recovery list`
    /// files it (`--ago` moves it back).
    func day(in timeZone: TimeZone) -> LocalDate {
        LocalDate(instant: happenedAt, in: timeZone)
    }
}

/// Seven days in a row, such as the week that ends today.
struct DashboardWeek: Sendable, Hashable {
    /// Its first day.
    var from: LocalDate
    /// Its last day.
    var through: LocalDate { from.adding(days: 6) }

    /// The week whose last day is `last`.
    init(endingOn last: LocalDate) {
        from = last.adding(days: -6)
    }

    /// Whether `day` is one of its seven days.
    func contains(_ day: LocalDate) -> Bool { from <= day && day <= through }
}

/// One week of "This week's reality": what happened, how much it hurt, how long it took to feel okay.
struct WeekReality: Sendable, Hashable {
    /// The week.
    var week: DashboardWeek
    /// How many rejections of each type happened that week; every type is present.
    var counts: [RejectionType: Int]
    /// How many rejections happened that week.
    var total: Int
    /// Their average impact, 1–10; `nil` when there were none.
    var averageImpact: Double?
    /// How many of them are marked okay.
    var recovered: Int
    /// The average recovery time (happened → okay) of those marked okay, in seconds; `nil` when none is.
    var averageRecoverySeconds: Double?

    /// Sums up the rejections that happened in `week`, days counted in `timeZone`.
    init(week: DashboardWeek, rejections: [Rejection], timeZone: TimeZone) {
        self.week = week
        let held = rejections.filter { week.contains($0.day(in: timeZone)) }
        var counts = Dictionary(uniqueKeysWithValues: RejectionType.allCases.map { ($0, 0) })
        for rejection in held { counts[rejection.type, default: 0] += 1 }
        self.counts = counts
        total = held.count
        averageImpact = Self.average(held.map { Double($0.impact) })
        let recoveries = held.compactMap(\.recoverySeconds)
        recovered = recoveries.count
        averageRecoverySeconds = Self.average(recoveries)
    }

    /// The mean, or `nil` for no values.
    static func average(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }
}

/// "This week's reality": the seven days that end today beside the seven days before.
struct WeeklyReality: Sendable, Hashable {
    /// The seven days that end today.
    var thisWeek: WeekReality
    /// The seven days before those.
    var lastWeek: WeekReality

    /// Sums up both weeks.
    init(rejections: [Rejection], today: LocalDate, timeZone: TimeZone) {
        thisWeek = WeekReality(week: DashboardWeek(endingOn: today), rejections: rejections, timeZone: timeZone)
        lastWeek = WeekReality(
            week: DashboardWeek(endingOn: today.adding(days: -7)), rejections: rejections, timeZone: timeZone)
    }
}
