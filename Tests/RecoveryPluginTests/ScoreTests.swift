import Foundation
import HoorayKit
import Testing

@testable import RecoveryPlugin

/// The resilience score's four parts, each up to its cap, and the sum rounded half up.
@Suite struct ScoreTests {
    /// Sunday 2027-03-14 21:00 in Berlin; the 30 days are Feb 13 – Mar 14.
    static let now = Insights.time("2027-03-14 21:00")

    func score(
        _ rejections: [Rejection] = [], checkIns: [CheckIn] = [], challenges: [ChallengeEntry] = []
    ) -> ResilienceScore {
        ResilienceScore(
            rejections: rejections, checkIns: checkIns, challenges: challenges, now: Self.now,
            timeZone: Insights.berlin)
    }

    /// The days from `first` on, `count` of them.
    func days(from first: String, count: Int) -> [String] {
        (0..<count).map { Insights.day(first).adding(days: $0).description }
    }

    // MARK: Recovery speed, up to 40

    @Test func recoveryWithinTheHourIsAlmostTheWholeForty() {
        let quick = score([Insights.rejection("2027-03-10 09:00", .job, okayAfter: 0)])
        #expect(quick.recoverySpeed == 40)  // 40 × (1 − 0 / 72)
    }

    @Test func thirtySixHoursIsHalf() {
        #expect(score([Insights.rejection("2027-03-10 09:00", .job, okayAfter: 36)]).recoverySpeed == 20)
    }

    @Test func seventyTwoHoursOrMoreAndNotOkayAfterSeventyTwoHoursScoreNothing() {
        let slow = Insights.rejection("2027-03-01 09:00", .job, okayAfter: 100)
        let waiting = Insights.rejection("2027-03-01 10:00", .job, okayAfter: nil)
        #expect(score([slow, waiting]).recoverySpeed == 0)
        // Beside one okay at once: (1 + 0 + 0) / 3 × 40.
        let quick = Insights.rejection("2027-03-10 09:00", .job, okayAfter: 0)
        #expect(abs(score([slow, waiting, quick]).recoverySpeed - 40.0 / 3) < 1e-9)
    }

    @Test("Item 4: recovery time runs from when the rejection happened, not from when it was logged")
    func recoveryTimeRunsFromWhenItHappened() {
        // Happened three days before it was logged (`--ago 3d`), okay right after logging.
        let logged = Insights.time("2027-03-13 09:00")
        var late = Insights.rejection("2027-03-10 09:00", .dating, okayAfter: nil, logged: "2027-03-13 09:00")
        late.recoveredAt = logged.addingTimeInterval(30)
        #expect(late.recoverySeconds.map { abs($0 - (72 * 3600 + 30)) < 1e-6 } == true)
        #expect(score([late]).recoverySpeed == 0)  // 40 × (1 − 72 / 72) at most, not 40
        // Not okay yet, logged an hour ago but happened 80 h ago: past the 72 h, so it scores 0.
        let waiting = Insights.rejection("2027-03-11 13:00", .dating, okayAfter: nil, logged: "2027-03-14 20:00")
        #expect(score([waiting]).recoverySpeed == 0)
    }

    @Test func withNothingToMeasureItIsTheMiddleTwenty() {
        #expect(score().recoverySpeed == 20)
        // Logged 11 h ago and not okay yet: still under way, left out.
        #expect(score([Insights.rejection("2027-03-14 10:00", .job, okayAfter: nil)]).recoverySpeed == 20)
        // Before the 30 days: left out too.
        #expect(score([Insights.rejection("2027-02-12 10:00", .job, okayAfter: 0)]).recoverySpeed == 20)
    }

    // MARK: Challenges, up to 25

    @Test func eachDayWithAChallengeDoneIsTwoAndAHalfUpToTenDays() {
        #expect(score(challenges: days(from: "2027-03-10", count: 4).map { Insights.challenge($0) }).challenges == 10)
        #expect(score(challenges: days(from: "2027-03-01", count: 10).map { Insights.challenge($0) }).challenges == 25)
        #expect(score(challenges: days(from: "2027-03-01", count: 12).map { Insights.challenge($0) }).challenges == 25)
    }

    @Test func skippedChallengesAndOnesBeforeTheThirtyDaysGiveNothing() {
        let challenges = [
            Insights.challenge("2027-03-10", .skipped), Insights.challenge("2027-02-12"),
            Insights.challenge("2027-02-13"),
        ]
        #expect(score(challenges: challenges).challenges == 2.5)  // Feb 13 only
    }

    // MARK: Check-ins, up to 20

    @Test func eachDayWithACheckInIsOneUpToTwenty() {
        #expect(score(checkIns: days(from: "2027-03-01", count: 7).map(Insights.checkIn)).checkIns == 7)
        #expect(score(checkIns: days(from: "2027-02-13", count: 20).map(Insights.checkIn)).checkIns == 20)
        #expect(score(checkIns: days(from: "2027-02-13", count: 30).map(Insights.checkIn)).checkIns == 20)
        #expect(score(checkIns: [Insights.checkIn("2027-02-12")]).checkIns == 0)
    }

    // MARK: Steady logging, up to 15

    @Test func eachOfTheFourWeeksWithAnythingLoggedIsThreeAndThreeQuarters() {
        // Mar 8–14, Mar 1–7, Feb 22–28, Feb 15–21 are the four blocks.
        #expect(score(checkIns: [Insights.checkIn("2027-03-14")]).steadyLogging == 3.75)
        #expect(
            score(checkIns: [Insights.checkIn("2027-03-08"), Insights.checkIn("2027-03-14")]).steadyLogging == 3.75)
        let everyWeek = [
            Insights.rejection("2027-03-09 10:00", .job, okayAfter: 1),
            Insights.rejection("2027-03-02 10:00", .job, okayAfter: 1),
        ]
        let skipped = [Insights.challenge("2027-02-22", .skipped)]
        let checkIns = [Insights.checkIn("2027-02-15")]
        #expect(score(everyWeek, checkIns: checkIns, challenges: skipped).steadyLogging == 15)
        // Feb 13 and 14 are in the 30 days but in none of the four blocks.
        #expect(score(checkIns: [Insights.checkIn("2027-02-14")]).steadyLogging == 0)
    }

    // MARK: The sum

    @Test func theSumIsRoundedHalfUp() {
        // 20 (nothing to measure) + 2.5 (one challenge) + 3 (three check-ins) + 15 (all four weeks) = 40.5 → 41.
        let score = score(
            checkIns: ["2027-03-02", "2027-02-23", "2027-02-16"].map(Insights.checkIn),
            challenges: [Insights.challenge("2027-03-12")])
        #expect(score.recoverySpeed == 20)
        #expect(score.challenges == 2.5)
        #expect(score.checkIns == 3)
        #expect(score.steadyLogging == 15)
        #expect(score.total == 41)
        #expect(score.message == "Making progress, keep going 📈")
    }

    @Test func aSumOfExactlyAHalfRoundsUpThoughFloatingPointLandsJustBelow() {
        // Okay after 6, 35 and 67 h: 40 × (3 − 108/72) / 3 = 20, which floating point makes 19.999999999999996;
        // with two weeks of logging (7.5) the sum is 27.5, and half up is 28.
        let rejections = [
            Insights.rejection("2027-03-02 10:00", .job, okayAfter: 6),
            Insights.rejection("2027-03-09 10:00", .job, okayAfter: 35),
            Insights.rejection("2027-03-10 10:00", .job, okayAfter: 67),
        ]
        let score = score(rejections)
        #expect(abs(score.recoverySpeed - 20) < 1e-9)
        #expect(score.steadyLogging == 7.5)
        #expect(score.total == 28)
    }

    @Test func everythingAtItsCapIsAHundred() {
        let rejections = ["2027-03-09", "2027-03-02", "2027-02-23", "2027-02-16"].map {
            Insights.rejection("\($0) 10:00", .job, okayAfter: 0)
        }
        let score = score(
            rejections, checkIns: days(from: "2027-02-20", count: 23).map(Insights.checkIn),
            challenges: days(from: "2027-03-01", count: 14).map { Insights.challenge($0) })
        #expect([score.recoverySpeed, score.challenges, score.checkIns, score.steadyLogging] == [40, 25, 20, 15])
        #expect(score.total == 100)
        #expect(score.message == "You're bouncing back stronger! 🚀")
        #expect(score.level == .advanced)
    }

    @Test func theWorkedExampleOfDocsRecoveryScore() {
        let rejections = [
            Insights.rejection("2027-03-02 10:00", .job, okayAfter: 6),  // 1 − 6/72 = 0.9167
            Insights.rejection("2027-03-04 10:00", .social, okayAfter: 18),  // 0.75
            Insights.rejection("2027-03-10 10:00", .dating, okayAfter: 36),  // 0.5
            Insights.rejection("2027-03-09 10:00", .job, okayAfter: nil),  // over 72 h: 0
            Insights.rejection("2027-03-13 20:00", .other, okayAfter: nil),  // 25 h: left out
        ]
        let score = score(
            rejections, checkIns: days(from: "2027-03-01", count: 12).map(Insights.checkIn),
            challenges: days(from: "2027-02-22", count: 7).map { Insights.challenge($0) })
        // 40 × (0.9167 + 0.75 + 0.5 + 0) / 4 = 21.67
        #expect(abs(score.recoverySpeed - 21.6667) < 0.0001)
        #expect(score.challenges == 17.5)  // 2.5 × 7
        #expect(score.checkIns == 12)
        #expect(score.steadyLogging == 11.25)  // 3.75 × 3: nothing Feb 15–21
        #expect(score.total == 62)  // 62.42
        #expect(score.message == "Building solid resilience 💪")
    }

    @Test(arguments: [
        (100, "You're bouncing back stronger! 🚀"), (80, "You're bouncing back stronger! 🚀"),
        (79, "Building solid resilience 💪"), (60, "Building solid resilience 💪"),
        (59, "Making progress, keep going 📈"), (40, "Making progress, keep going 📈"),
        (39, "Every step counts 🌱"), (20, "Every step counts 🌱"), (19, "You're taking the first step 🌟"),
        (0, "You're taking the first step 🌟"),
    ])
    func theSeedsBandsGiveTheMessage(score: Int, message: String) {
        #expect(RecoveryCopy.scoreMessage(score) == message)
    }
}
