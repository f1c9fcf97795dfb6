import Foundation
import HoorayKit
import Testing

@testable import RecoveryPlugin

/// The dashboard's numbers against a history worked out by hand: 40 rejections over 8 weeks, a few
/// check-ins and challenges, in Berlin (UTC+1 all along: no clock change from January to 14 March 2027).
///
/// Now is Sunday 2027-03-14 21:00. The weeks are the seven days that end on a Sunday:
///
/// | week | days | rejections | hours to okay | average |
/// |---|---|---|---|---|
/// | W7 | Jan 18–24 | #1–#5 | 45 36 54 45 – | 180 / 4 = 45 |
/// | W6 | Jan 25–31 | #6–#10 | 36 27 45 36 36 | 180 / 5 = 36 |
/// | W5 | Feb 1–7 | #11–#15 | – – – – – | none (·) |
/// | W4 | Feb 8–14 | #16–#20 | 27 30 30 27 36 | 150 / 5 = 30 |
/// | W3 | Feb 15–21 | #21–#25 | 18 20 27 27 – | 92 / 4 = 23 |
/// | W2 | Feb 22–28 | #26–#30 | 12 18 15 15 15 | 75 / 5 = 15 |
/// | W1 | Mar 1–7 | #31–#35 | 9 12 15 12 12 | 60 / 5 = 12 |
/// | W0 | Mar 8–14 | #36–#40 | 3 6 4 3 – | 16 / 4 = 4 |
///
/// The last 30 days are Feb 13 – Mar 14: #19–#40, 22 rejections.
@Suite struct DashboardFixtureTests {
    static let now = Insights.time("2027-03-14 21:00")

    static let rejections: [Rejection] = {
        typealias I = Insights
        return [
            // W7, Jan 18–24 (all before the 30 days).
            I.rejection("2027-01-18 09:00", .dating, impact: 6, note: "He ghosted me after two dates", okayAfter: 45),
            I.rejection("2027-01-19 14:00", .job, impact: 5, note: "Form rejection from Acme", okayAfter: 36),
            I.rejection("2027-01-20 19:00", .social, impact: 4, okayAfter: 54),
            I.rejection("2027-01-22 10:00", .job, impact: 7, note: "No after the final round", okayAfter: 45),
            I.rejection("2027-01-23 20:00", .other, impact: 3, okayAfter: nil),
            // W6, Jan 25–31.
            I.rejection("2027-01-25 11:00", .job, impact: 6, okayAfter: 36),
            I.rejection("2027-01-26 18:00", .dating, impact: 5, note: "Unmatched after a nice chat", okayAfter: 27),
            I.rejection("2027-01-28 09:30", .academic, impact: 7, note: "Scholarship declined", okayAfter: 45),
            I.rejection("2027-01-30 15:00", .social, impact: 3, okayAfter: 36),
            I.rejection("2027-01-31 12:00", .other, impact: 4, okayAfter: 36),
            // W5, Feb 1–7: nothing marked okay.
            I.rejection("2027-02-01 10:00", .job, impact: 5, okayAfter: nil),
            I.rejection("2027-02-03 13:00", .job, impact: 6, okayAfter: nil),
            I.rejection("2027-02-04 20:00", .dating, impact: 4, okayAfter: nil),
            I.rejection("2027-02-05 09:00", .social, impact: 2, okayAfter: nil),
            I.rejection("2027-02-07 17:00", .other, impact: 5, okayAfter: nil),
            // W4, Feb 8–14; the 30 days begin on Saturday Feb 13.
            I.rejection("2027-02-08 09:00", .job, impact: 6, okayAfter: 27),
            I.rejection("2027-02-10 19:00", .dating, impact: 5, note: "Ghosted again", okayAfter: 30),
            I.rejection("2027-02-11 12:00", .academic, impact: 4, okayAfter: 30),
            I.rejection("2027-02-13 10:00", .social, impact: 5, okayAfter: 27),  // #19
            I.rejection("2027-02-14 21:00", .dating, impact: 7, note: "ghosted on Valentine's Day", okayAfter: 36),
            // W3, Feb 15–21.
            I.rejection("2027-02-15 09:00", .job, impact: 6, okayAfter: 18),  // #21, Monday
            I.rejection(
                "2027-02-15 18:00", .dating, impact: 6, note: "Ghosted after a great first date", okayAfter: 20),
            I.rejection("2027-02-17 12:00", .social, impact: 3, okayAfter: 27),
            I.rejection("2027-02-19 16:00", .job, impact: 5, okayAfter: 27),
            I.rejection("2027-02-20 11:00", .other, impact: 4, okayAfter: nil),  // #25: not okay after 72 h
            // W2, Feb 22–28.
            I.rejection("2027-02-22 09:00", .job, impact: 5, okayAfter: 12),  // #26, Monday
            I.rejection("2027-02-22 20:00", .dating, impact: 8, note: "GHOSTED mid-conversation", okayAfter: 18),
            I.rejection("2027-02-23 13:00", .academic, impact: 6, okayAfter: 15),
            I.rejection("2027-02-25 10:00", .job, impact: 4, okayAfter: 15),
            I.rejection("2027-02-27 15:00", .social, impact: 3, okayAfter: 15),  // #30
            // W1, Mar 1–7. #31 is Monday 00:30 in Berlin, still Sunday Feb 28 in UTC.
            I.rejection("2027-03-01 00:30", .dating, impact: 7, note: "Ghosted. Again.", okayAfter: 9),
            I.rejection(
                "2027-03-01 10:00", .job, impact: 6, note: "Recruiter ghosted me after the interview", okayAfter: 12),
            I.rejection("2027-03-03 19:00", .dating, impact: 5, note: "Date cancelled, no reason given", okayAfter: 15),
            I.rejection("2027-03-05 14:00", .job, impact: 7, okayAfter: 12),
            // #35 happened on Sunday night and was logged on Monday (`--ago 11h`): it is last week's.
            I.rejection("2027-03-07 22:00", .social, impact: 4, okayAfter: 12, logged: "2027-03-08 09:00"),
            // W0, Mar 8–14.
            I.rejection("2027-03-08 09:30", .job, impact: 5, okayAfter: 3),  // #36, Monday
            I.rejection("2027-03-08 20:00", .dating, impact: 6, note: "Ghosted after a week of texting", okayAfter: 6),
            I.rejection("2027-03-08 12:00", .academic, impact: 4, okayAfter: 4),
            I.rejection("2027-03-12 18:00", .job, impact: 8, okayAfter: 3),
            I.rejection("2027-03-14 10:00", .social, impact: 7, okayAfter: nil),  // #40: 11 h ago, still under way
        ]
    }()

    static let checkIns = [
        "2027-01-20", "2027-02-16", "2027-02-17", "2027-02-24", "2027-03-09", "2027-03-10", "2027-03-11",
        "2027-03-12", "2027-03-13",
    ].map(Insights.checkIn)

    static let challenges =
        ["2027-02-01", "2027-02-20", "2027-03-03", "2027-03-05", "2027-03-12", "2027-03-13", "2027-03-14"].map {
            Insights.challenge($0)
        } + [Insights.challenge("2027-03-08", .skipped), Insights.challenge("2027-03-11", .skipped)]

    static func dashboard(weeks: Int = 8, timeZone: TimeZone = Insights.berlin) -> RecoveryDashboard {
        RecoveryDashboard(
            rejections: rejections, checkIns: checkIns, challenges: challenges, now: now, timeZone: timeZone,
            weeks: weeks)
    }

    @Test func theFixtureHoldsFortyRejectionsOverEightWeeks() {
        #expect(Self.rejections.count == 40)
        let days = Self.rejections.map { $0.day(in: Insights.berlin) }
        #expect(days.min() == Insights.day("2027-01-18"))
        #expect(days.max() == Insights.day("2027-03-14"))
    }

    @Test func theScoreAndEachPart() {
        let score = Self.dashboard().score
        // Recovery speed: of #19–#40, 20 are okay with 63 + 92 + 75 + 60 + 16 = 306 hours in all, #25 is not
        // okay after 72 h (scores 0) and #40 is 11 h old (left out): 21 count.
        // Σ(1 − h/72) = 20 − 306/72 = 15.75; 40 × 15.75 / 21 = 30.
        #expect(abs(score.recoverySpeed - 30) < 1e-9)
        // Challenges: done on Feb 20, Mar 3, 5, 12, 13, 14 (Feb 1 is before the 30 days; skips count
        // nothing): 6 × 2.5 = 15.
        #expect(score.challenges == 15)
        // Check-ins: Feb 16, 17, 24, Mar 9–13 (Jan 20 is before the 30 days): 8.
        #expect(score.checkIns == 8)
        // Steady logging: something in each of Mar 8–14, Mar 1–7, Feb 22–28, Feb 15–21: 4 × 3.75 = 15.
        #expect(score.steadyLogging == 15)
        // 30 + 15 + 8 + 15 = 68.
        #expect(score.total == 68)
        #expect(score.message == "Building solid resilience 💪")
        #expect(score.level == .intermediate)
    }

    @Test func thisWeeksRealityBesideLastWeeks() {
        let reality = Self.dashboard().reality
        // This week, Mar 8–14: #36 job 5, #37 dating 6, #38 academic 4, #39 job 8, #40 social 7.
        #expect(reality.thisWeek.week.from == Insights.day("2027-03-08"))
        #expect(reality.thisWeek.week.through == Insights.day("2027-03-14"))
        #expect(reality.thisWeek.counts == [.dating: 1, .job: 2, .social: 1, .academic: 1, .other: 0])
        #expect(reality.thisWeek.total == 5)
        #expect(reality.thisWeek.averageImpact == 6.0)  // (5 + 6 + 4 + 8 + 7) / 5 = 30 / 5
        #expect(reality.thisWeek.recovered == 4)
        #expect(abs(reality.thisWeek.averageRecoverySeconds! - 4 * 3600) < 1e-6)  // (3 + 6 + 4 + 3) / 4 h
        // Last week, Mar 1–7: #31 dating 7 (00:30 Monday in Berlin), #32 job 6, #33 dating 5, #34 job 7,
        // #35 social 4 (happened Sunday, logged Monday).
        #expect(reality.lastWeek.week.from == Insights.day("2027-03-01"))
        #expect(reality.lastWeek.counts == [.dating: 2, .job: 2, .social: 1, .academic: 0, .other: 0])
        #expect(reality.lastWeek.total == 5)
        #expect(abs(reality.lastWeek.averageImpact! - 5.8) < 1e-9)  // 29 / 5
        #expect(abs(reality.lastWeek.averageRecoverySeconds! - 12 * 3600) < 1e-6)  // (9 + 12 + 15 + 12 + 12) / 5 h
    }

    @Test func theThreePatternsShow() {
        let patterns = Self.dashboard().patterns
        let expected: [RecoveryPattern] = [
            // Dating in the 30 days: #20, #22, #27, #31, #33, #37; all but #33 mention "ghost" (#27 in
            // capitals); #32 does too, but is a job. 5 ≥ 3 and 5 > 6 / 2.
            .ghosting(ghosted: 5, dating: 6),
            // Mondays: #21, #22, #26, #27, #31, #32, #36, #37, #38 = 9 of 22; 9 × 100 = 900 ≥ 40 × 22 = 880.
            .weekday(.monday, count: 9, total: 22),
            // Okay, by when logged: … #30 15, #31 9, #32 12, #33 15, #34 12 | #35 12, #36 3, #38 4, #37 6, #39 3.
            // Medians: 12 h before, 4 h since; 4 ≤ 12 × 0.75 = 9.
            .recoveringFaster(recentMedian: 4 * 3600, earlierMedian: 12 * 3600),
        ]
        #expect(patterns == expected)
        #expect(patterns[0].description == "You've been ghosted 5 times this month")
        #expect(patterns[1].title == "Mondays Are Heavy")
        #expect(patterns[1].description == "9 of your 22 rejections this month came on a Monday (41%)")  // 40.9%
        #expect(patterns[2].description == "Your last 5 recoveries took 4 h (median), down from 12 h before")
    }

    @Test func inUTCTheMondayAfterMidnightIsASundayAndNoWeekdayStandsOut() {
        // #31 falls on Sunday Feb 28 in UTC: Mondays are 8 of 22, 36%.
        let patterns = Self.dashboard(timeZone: TimeZone(identifier: "UTC")!).patterns
        #expect(patterns.map(\.kind) == ["ghosting", "recoveringFaster"])
    }

    @Test func theTrendSparkline() {
        let trend = Self.dashboard().trend
        #expect(
            trend.weeks.map(\.week.from)
                == [
                    "2027-01-18", "2027-01-25", "2027-02-01", "2027-02-08", "2027-02-15", "2027-02-22", "2027-03-01",
                    "2027-03-08",
                ].map(Insights.day))
        #expect(trend.weeks.map(\.averageRecoveryHours) == [45, 36, nil, 30, 23, 15, 12, 4])
        // Lowest 4 → ▁, highest 45 → █; a bar is (h − 4) / 41 × 7, rounded:
        // 36 → 5.46 → ▆, 30 → 4.44 → ▅, 23 → 3.24 → ▄, 15 → 1.88 → ▃, 12 → 1.37 → ▂; W5 has none: ·.
        #expect(trend.sparkline == "█▆·▅▄▃▂▁")
    }

    @Test func threeWeeksOfTrendScaleAgain() {
        let trend = Self.dashboard(weeks: 3).trend
        #expect(trend.weeks.first?.week.from == Insights.day("2027-02-22"))
        // 15, 12, 4: lowest 4 → ▁, highest 15 → █, 12 → 8 / 11 × 7 = 5.09 → ▆.
        #expect(trend.sparkline == "█▆▁")
    }

    @Test func theStreaks() {
        let streaks = Self.dashboard().streaks
        #expect(streaks.challenge == 3)  // Mar 12, 13, 14 (Mar 11 skipped)
        #expect(streaks.checkIn == 5)  // Mar 9–13; no check-in today yet does not end it
    }
}
