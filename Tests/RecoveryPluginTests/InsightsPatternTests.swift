import Foundation
import HoorayKit
import Testing

@testable import RecoveryPlugin

/// Each pattern at its edge, and the sparkline's scale.
@Suite struct InsightsPatternTests {
    /// Sunday 2027-03-14; the 30 days begin on Saturday Feb 13.
    static let today = Insights.day("2027-03-14")

    func patterns(_ rejections: [Rejection]) -> [RecoveryPattern] {
        PatternAnalyzer.patterns(in: rejections, today: Self.today, timeZone: Insights.berlin)
    }

    /// `count` dating rejections on Tuesday Mar 9, the first `ghosted` of them "ghosted".
    func dating(_ count: Int, ghosted: Int, on day: String = "2027-03-09") -> [Rejection] {
        (0..<count).map { index in
            Insights.rejection(
                "\(day) 1\(index % 10):00", .dating, note: index < ghosted ? "Got ghosted" : "Said no kindly",
                okayAfter: nil)
        }
    }

    // MARK: Ghosting

    @Test func threeGhostingNotesOfFiveDatingRejectionsAreAPattern() {
        #expect(PatternAnalyzer.ghosting(dating(5, ghosted: 3)) == .ghosting(ghosted: 3, dating: 5))
    }

    @Test func threeGhostingNotesThatAreOnlyHalfOfTheDatingOnesAreNot() {
        #expect(PatternAnalyzer.ghosting(dating(6, ghosted: 3)) == nil)
    }

    @Test func twoGhostingNotesAreNotEnoughEvenWhenAllAre() {
        #expect(PatternAnalyzer.ghosting(dating(2, ghosted: 2)) == nil)
    }

    @Test func ghostInAnyCaseCountsAndOtherKindsDoNot() {
        let rejections = [
            Insights.rejection("2027-03-09 10:00", .dating, note: "GHOSTED", okayAfter: nil),
            Insights.rejection("2027-03-09 11:00", .dating, note: "ghosting again", okayAfter: nil),
            Insights.rejection("2027-03-09 12:00", .job, note: "The recruiter ghosted me", okayAfter: nil),
            Insights.rejection("2027-03-09 13:00", .dating, note: nil, okayAfter: nil),
        ]
        #expect(PatternAnalyzer.ghosting(rejections) == nil, "2 dating notes: the job one does not count")
        let more = rejections + [Insights.rejection("2027-03-09 14:00", .dating, note: "Ghost", okayAfter: nil)]
        #expect(PatternAnalyzer.ghosting(more) == .ghosting(ghosted: 3, dating: 4))
    }

    @Test func ghostingOlderThanThirtyDaysIsLeftOut() {
        // Two on Feb 12 (31 days back, outside) and two on Feb 13 (30 days back, inside).
        let rejections = dating(2, ghosted: 2, on: "2027-02-12") + dating(2, ghosted: 2, on: "2027-02-13")
        #expect(patterns(rejections).isEmpty)
        #expect(patterns(rejections + dating(1, ghosted: 1)) == [.ghosting(ghosted: 3, dating: 3)])
    }

    @Test func theGhostingPatternSpeaksInTheSeedsWords() {
        let pattern = RecoveryPattern.ghosting(ghosted: 4, dating: 5)
        #expect(pattern.title == "Ghosting Pattern Detected")
        #expect(pattern.description == "You've been ghosted 4 times this month")
        #expect(pattern.insight == "This is about their communication style, not your worth")
        #expect(pattern.actionable == "Try apps that require more investment upfront")
    }

    // MARK: Weekday

    /// Rejections on these days, one each, at noon.
    func on(_ days: [String]) -> [Rejection] {
        days.map { Insights.rejection("\($0) 12:00", .job, okayAfter: nil) }
    }

    @Test func twoMondaysOfFiveRejectionsAreFortyPercentAndAPattern() {
        // Mar 1 and Mar 8 are Mondays; 2 of 5 = 40%.
        let rejections = on(["2027-03-01", "2027-03-08", "2027-03-02", "2027-03-03", "2027-03-04"])
        #expect(PatternAnalyzer.weekday(rejections, timeZone: Insights.berlin) == .weekday(.monday, count: 2, total: 5))
    }

    @Test func fourRejectionsAreTooFewEvenWithHalfOnMondays() {
        let rejections = on(["2027-03-01", "2027-03-08", "2027-03-02", "2027-03-03"])
        #expect(PatternAnalyzer.weekday(rejections, timeZone: Insights.berlin) == nil)
    }

    @Test func twoOfSixIsBelowFortyPercent() {
        let rejections = on(["2027-03-01", "2027-03-08", "2027-03-02", "2027-03-03", "2027-03-04", "2027-03-05"])
        #expect(PatternAnalyzer.weekday(rejections, timeZone: Insights.berlin) == nil)
    }

    @Test func ofTwoWeekdaysAsBusyTheEarlierIsNamed() {
        // Tuesdays Mar 2, 9 and Fridays Mar 5, 12, and a Wednesday: both 40%.
        let rejections = on(["2027-03-12", "2027-03-05", "2027-03-02", "2027-03-09", "2027-03-03"])
        #expect(
            PatternAnalyzer.weekday(rejections, timeZone: Insights.berlin) == .weekday(.tuesday, count: 2, total: 5))
    }

    @Test func theWeekdayPatternIsKind() {
        let pattern = RecoveryPattern.weekday(.friday, count: 2, total: 5)
        #expect(pattern.title == "Fridays Are Heavy")
        #expect(pattern.description == "2 of your 5 rejections this month came on a Friday (40%)")
        for line in [pattern.title, pattern.description, pattern.insight, pattern.actionable] {
            for word in ["missed", "failed", "broke", "lazy", "should"] {
                #expect(!line.lowercased().contains(word))
            }
        }
    }

    // MARK: Recovering faster

    /// Rejections logged a day apart, oldest first, each okay after the given hours.
    func recovered(_ hours: [Double]) -> [Rejection] {
        hours.enumerated().map { index, hours in
            Insights.rejection(
                "2027-03-\(String(format: "%02d", index + 1)) 09:00", .job, okayAfter: hours)
        }
    }

    @Test func exactlyTwentyFivePercentFasterIsAPattern() {
        // Medians: 8 h, then 6 h = 8 × 0.75.
        let rejections = recovered([8, 8, 8, 1, 20, 6, 6, 6, 1, 20])
        #expect(
            PatternAnalyzer.recoveringFaster(rejections)
                == .recoveringFaster(recentMedian: 6 * 3600, earlierMedian: 8 * 3600))
    }

    @Test func aMinuteSlowerThanTwentyFivePercentIsNot() {
        let sixHoursAndAMinute: Double = 6 + 1.0 / 60
        let rejections = recovered([8, 8, 8, 1, 20, sixHoursAndAMinute, sixHoursAndAMinute, sixHoursAndAMinute, 1, 20])
        #expect(PatternAnalyzer.recoveringFaster(rejections) == nil)
    }

    @Test func theLatestTenRecoveriesCountByWhenTheyWereLogged() {
        // Slow ones long ago do not count: only the last ten, and they are not faster.
        let rejections = recovered([70, 70, 70, 70, 70, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8])
        #expect(PatternAnalyzer.recoveringFaster(rejections) == nil)
        // Listed out of order, they are still taken by when they were logged.
        let faster = recovered([8, 8, 8, 8, 8, 2, 2, 2, 2, 2])
        #expect(
            PatternAnalyzer.recoveringFaster(faster.reversed())
                == .recoveringFaster(recentMedian: 2 * 3600, earlierMedian: 8 * 3600))
    }

    @Test func nineRecoveriesAreTooFewAndOnesNotOkayAreLeftOut() {
        let nine = recovered([8, 8, 8, 8, 2, 2, 2, 2, 2])
        #expect(PatternAnalyzer.recoveringFaster(nine) == nil)
        let notOkay = Insights.rejection("2027-03-12 09:00", .job, okayAfter: nil)
        #expect(PatternAnalyzer.recoveringFaster(nine + [notOkay]) == nil)
    }

    @Test func theRecoveringFasterPatternNamesBothMedians() {
        let pattern = RecoveryPattern.recoveringFaster(recentMedian: 5400, earlierMedian: 2 * 86400)
        #expect(pattern.title == "Recovering Faster")
        #expect(pattern.description == "Your last 5 recoveries took 1 h 30 min (median), down from 2 d before")
    }

    // MARK: Sparkline

    @Test func theLowestIsTheShortestBarAndTheHighestTheTallest() {
        #expect(RecoveryTrend.sparkline([0, 7]) == "▁█")
        #expect(RecoveryTrend.sparkline([10, 3, 17]) == "▅▁█")  // 10 is (10 − 3) × 7 / 14 = 3.5 → ▅ (half up)
    }

    @Test func aLinearScaleRoundedToTheNearestBar() {
        // 0…7 map onto the eight bars one to one.
        #expect(RecoveryTrend.sparkline([0, 1, 2, 3, 4, 5, 6, 7]) == "▁▂▃▄▅▆▇█")
        // Out of 0…14: 1 → 0.5 → ▂ (half up), 0.9 → 0.45 → ▁, 13 → 6.5 → █.
        #expect(RecoveryTrend.sparkline([0, 1, 0.9, 13, 14]) == "▁▂▁██")
    }

    @Test func equalValuesAreMiddleBars() {
        #expect(RecoveryTrend.sparkline([5, 5, 5]) == "▄▄▄")
        #expect(RecoveryTrend.sparkline([nil, 12, nil]) == "·▄·")
    }

    @Test func weeksWithoutAFigureAreDots() {
        #expect(RecoveryTrend.sparkline([nil, nil]) == "··")
        #expect(RecoveryTrend.sparkline([2, nil, 4]) == "▁·█")
    }

    @Test func trendFiguresAreHoursWithAtMostOneDecimal() {
        #expect(RecoveryDashboard.hours(45) == "45 h")
        #expect(RecoveryDashboard.hours(22.5) == "22.5 h")
        #expect(RecoveryDashboard.hours(0.25) == "0.3 h")
        #expect(RecoveryDashboard.hours(0.01) == "under 0.1 h")
        #expect(RecoveryDashboard.hours(nil) == "—")
    }
}
