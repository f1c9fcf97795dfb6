import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit

/// The recovery plugin's part of the weekly review: the rejections logged and recovered, counted as
/// `hooray recovery` counts "this week's reality"; the resilience score at the week's end and its
/// trend; the challenges done.
extension RecoveryPlugin {
    func reviewCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        let week = try WeekReview.week(of: command)
        let zone = command.environment.timeZone
        let today = LocalDate(instant: context.now, in: zone)
        let rejections = try await context.records(of: Rejection.self).all()
        let checkIns = try await context.records(of: CheckIn.self).all()
        let challenges = try await context.records(of: ChallengeEntry.self).all()
        struct Figures {
            var logged = 0
            var recovered = 0
            var score: Int?
            var challengesDone = 0
        }
        func figures(of week: ISOWeek) -> Figures {
            let last = WeekReview.lastDay(of: week, today: today)
            guard last >= week.monday else { return Figures() }
            // As it stood at the end of the week's last day, or now while the week runs: a rejection
            // marked okay only later was not recovered then.
            let end = last == today ? context.now : Self.endOfDay(last, in: zone)
            let seen = rejections.map { rejection in
                var then = rejection
                if let at = then.recoveredAt, at > end { then.recoveredAt = nil }
                return then
            }
            let reality = WeekReality(week: DashboardWeek(endingOn: week.sunday), rejections: seen, timeZone: zone)
            let score = ResilienceScore(
                rejections: seen, checkIns: checkIns, challenges: challenges, now: end, timeZone: zone)
            let done = challenges.filter { $0.outcome == .done && week.contains($0.day) && $0.day <= last }
            // A score only once something was logged by then, as `hooray recovery` shows none before.
            let anything =
                rejections.contains { $0.day(in: zone) <= last } || checkIns.contains { $0.day <= last }
                || challenges.contains { $0.day <= last }
            return Figures(
                logged: reality.total, recovered: reality.recovered, score: anything ? score.total : nil,
                challengesDone: done.count)
        }
        let this = figures(of: week)
        let before = figures(of: week.previous)
        let line: String
        if this.logged == 0 {
            line = "No rejections logged this week. Putting yourself out there can wait, or already happened quietly."
        } else if this.recovered == this.logged {
            line = "You bounced back from every rejection this week. That's resilience, built one step at a time."
        } else {
            line =
                "\(this.logged) rejection\(this.logged == 1 ? "" : "s") this week, \(this.recovered) felt okay again. "
                + "Healing has its own pace."
        }
        let challengeLine =
            this.challengesDone == 0
            ? "No challenge done this week; today's is there whenever you like: hooray challenge."
            : "\(this.challengesDone) challenge\(this.challengesDone == 1 ? "" : "s") done: courage, practised."
        return try WeekReview.reply([
            WeekReview(
                area: "Rejection recovery",
                figures: [
                    .init(
                        key: "logged", label: "Rejections logged", thisWeek: Double(this.logged),
                        lastWeek: Double(before.logged)),
                    .init(
                        key: "recovered", label: "Felt okay again", thisWeek: Double(this.recovered),
                        lastWeek: Double(before.recovered)),
                ]
                    + (this.score.map {
                        [
                            .init(
                                key: "score", label: "Resilience score at the week's end", thisWeek: Double($0),
                                lastWeek: before.score.map(Double.init))
                        ]
                    } ?? []),
                line: line, isEmpty: this.logged == 0 && before.logged == 0 && this.score == nil),
            WeekReview(
                area: "Challenges",
                figures: [
                    .init(
                        key: "done", label: "Challenges done", thisWeek: Double(this.challengesDone),
                        lastWeek: Double(before.challengesDone))
                ], line: challengeLine, isEmpty: this.challengesDone == 0 && before.challengesDone == 0),
        ])
    }

    /// The last second of a day in a time zone.
    static func endOfDay(_ day: LocalDate, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day)) ?? Date()
        let next = calendar.date(byAdding: .day, value: 1, to: start) ?? start
        return next.addingTimeInterval(-1)
    }
}
