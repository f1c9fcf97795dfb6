import Foundation
import HoorayKit
import HoorayScheduling
import Testing

@Suite("Catch-up planning")
struct CatchUpPlanTests {
    /// Every day at 08:00 in New York: 12:00Z in summer, 13:00Z in winter.
    let daily = Schedule.daily(at: time("08:00"), zone: newYork)

    @Test("Missed three days: the latest is shown once and the two before it are skipped")
    func missedThreeDays() {
        // Given the daemon was off from before 2026-06-01 08:00 until 08:30 on 2026-06-03
        let plan = CatchUpPlan.plan(
            nextDue: utc("2026-06-01T12:00:00Z"), schedule: daily, now: utc("2026-06-03T12:30:00Z"),
            catchUpWithin: .seconds(2 * 3600))
        // Then only the 2026-06-03 occurrence is shown, as a catch-up
        #expect(iso(plan.fire) == "2026-06-03T12:00:00Z")
        #expect(plan.isCatchUp)
        #expect(plan.skipped == 2)
        #expect(iso(plan.nextDue) == "2026-06-04T12:00:00Z")
    }

    @Test("Missed beyond the lateness limit: nothing is shown, all are skipped, next due is ahead")
    func missedBeyondLimit() {
        let plan = CatchUpPlan.plan(
            nextDue: utc("2026-06-01T12:00:00Z"), schedule: daily, now: utc("2026-06-03T20:00:00Z"),
            catchUpWithin: .seconds(2 * 3600))
        #expect(plan.fire == nil)
        #expect(!plan.isCatchUp)
        #expect(plan.skipped == 3)
        #expect(iso(plan.nextDue) == "2026-06-04T12:00:00Z")
    }

    @Test(
        "An on-time wakeup fires without being a catch-up, even with no catch-up allowed",
        arguments: [0.0, 0.5, 59.0])
    func onTime(secondsLate: Double) {
        let plan = CatchUpPlan.plan(
            nextDue: utc("2026-06-01T12:00:00Z"), schedule: daily,
            now: utc("2026-06-01T12:00:00Z").addingTimeInterval(secondsLate), catchUpWithin: .zero)
        #expect(iso(plan.fire) == "2026-06-01T12:00:00Z")
        #expect(!plan.isCatchUp)
        #expect(plan.skipped == 0)
        #expect(iso(plan.nextDue) == "2026-06-02T12:00:00Z")
    }

    @Test("A wakeup a few minutes late within the limit is a catch-up")
    func slightlyLate() {
        let plan = CatchUpPlan.plan(
            nextDue: utc("2026-06-01T12:00:00Z"), schedule: daily, now: utc("2026-06-01T12:05:00Z"),
            catchUpWithin: .seconds(3600))
        #expect(iso(plan.fire) == "2026-06-01T12:00:00Z")
        #expect(plan.isCatchUp)
        #expect(plan.skipped == 0)
    }

    @Test("A rule not yet due fires nothing and keeps its next due instant")
    func notYetDue() {
        let plan = CatchUpPlan.plan(
            nextDue: utc("2026-06-02T12:00:00Z"), schedule: daily, now: utc("2026-06-01T13:00:00Z"),
            catchUpWithin: .seconds(3600))
        #expect(plan == CatchUpPlan(fire: nil, isCatchUp: false, skipped: 0, nextDue: utc("2026-06-02T12:00:00Z")))
    }

    @Test("Missed across spring-forward: days are counted by the calendar, the 23-hour day included")
    func missedAcrossSpringForward() {
        let plan = CatchUpPlan.plan(
            nextDue: utc("2026-03-07T13:00:00Z"), schedule: daily, now: utc("2026-03-09T12:10:00Z"),
            catchUpWithin: .seconds(3600))
        #expect(iso(plan.fire) == "2026-03-09T12:00:00Z")
        #expect(plan.skipped == 2)
        #expect(iso(plan.nextDue) == "2026-03-10T12:00:00Z")
    }

    @Test("Missed weekdays over a week and a half count only the chosen days")
    func missedWeekdays() {
        let schedule = Schedule.weekly(
            on: [.monday, .tuesday, .wednesday, .thursday, .friday], at: time("09:00"), zone: newYork)
        // Friday 2026-06-05 through Tuesday 2026-06-16: Jun 5, 8-12, 15, 16 (8 occurrences).
        let plan = CatchUpPlan.plan(
            nextDue: utc("2026-06-05T13:00:00Z"), schedule: schedule, now: utc("2026-06-16T13:05:00Z"),
            catchUpWithin: .seconds(3600))
        #expect(iso(plan.fire) == "2026-06-16T13:00:00Z")
        #expect(plan.skipped == 7)
        #expect(iso(plan.nextDue) == "2026-06-17T13:00:00Z")
    }

    @Test("A one-off missed within the limit is shown late and never due again")
    func onceWithinLimit() {
        let due = utc("2026-06-01T12:00:00Z")
        let plan = CatchUpPlan.plan(
            nextDue: due, schedule: .once(at: due), now: utc("2026-06-01T12:30:00Z"), catchUpWithin: .seconds(3600))
        #expect(plan == CatchUpPlan(fire: due, isCatchUp: true, skipped: 0, nextDue: nil))
    }

    @Test("A one-off missed beyond the limit is skipped and never due again")
    func onceBeyondLimit() {
        let due = utc("2026-06-01T12:00:00Z")
        let plan = CatchUpPlan.plan(
            nextDue: due, schedule: .once(at: due), now: utc("2026-06-01T15:00:00Z"), catchUpWithin: .seconds(3600))
        #expect(plan == CatchUpPlan(fire: nil, isCatchUp: false, skipped: 1, nextDue: nil, lastSkipped: due))
    }

    @Test("A one-off with no limit missed for three days is shown once, late, and never due again")
    func onceWithoutLimitMissedForThreeDays() {
        // Given a one-off due Friday at 12:00 and a daemon stopped until Monday at 12:00
        let due = utc("2026-06-05T12:00:00Z")
        // When it plans with no lateness limit
        let plan = CatchUpPlan.plan(
            nextDue: due, schedule: .once(at: due), now: utc("2026-06-08T12:00:00Z"), catchUpWithin: nil)
        // Then it is shown, as a catch-up, and nothing is left to show
        #expect(plan == CatchUpPlan(fire: due, isCatchUp: true, skipped: 0, nextDue: nil))
    }

    @Test("With no limit a repeating rule still shows only the latest missed occurrence")
    func repeatingWithoutLimitShowsOnlyTheLatest() {
        let plan = CatchUpPlan.plan(
            nextDue: utc("2026-06-01T12:00:00Z"), schedule: daily, now: utc("2026-06-03T20:00:00Z"),
            catchUpWithin: nil)
        #expect(iso(plan.fire) == "2026-06-03T12:00:00Z")
        #expect(plan.isCatchUp)
        #expect(plan.skipped == 2)
    }

    @Test(
        "A reminder's own limit always applies; without one a one-off has none and a repeating rule the default",
        arguments: [
            (Schedule.once(at: utc("2026-06-01T12:00:00Z")), nil, nil),
            (Schedule.once(at: utc("2026-06-01T12:00:00Z")), 3600, 3600),
            (Schedule.daily(at: time("08:00"), zone: newYork), nil, 7200),
            (Schedule.daily(at: time("08:00"), zone: newYork), 600, 600),
        ] as [(Schedule, Int?, Int?)])
    func catchUpLimit(schedule: Schedule, own: Int?, expected: Int?) {
        let reminder = Reminder(
            id: "r", schedule: schedule, notice: Notice(title: "R"), catchUpWithin: own.map { .seconds($0) })
        #expect(CatchUpPlan.catchUpLimit(for: reminder, default: .seconds(7200)) == expected.map { .seconds($0) })
    }

    @Test("A one-off past its own limit, as the engine plans it, is skipped and never due again")
    func onceWithOwnLimitMissedForThreeDays() {
        let due = utc("2026-06-05T12:00:00Z")
        let reminder = Reminder(
            id: "r", schedule: .once(at: due), notice: Notice(title: "R"), catchUpWithin: .seconds(3600))
        let plan = CatchUpPlan.plan(
            nextDue: due, schedule: reminder.schedule, now: utc("2026-06-08T12:00:00Z"),
            catchUpWithin: CatchUpPlan.catchUpLimit(for: reminder, default: .seconds(7200)))
        #expect(plan == CatchUpPlan(fire: nil, isCatchUp: false, skipped: 1, nextDue: nil, lastSkipped: due))
    }

    @Test("A daily rule missed for 30 years shows one notice and counts every skipped day")
    func dailyMissedForThirtyYears() {
        // 1996-06-01 through 2026-06-03 is 10,960 days (checked with date(1)); one is shown.
        let plan = CatchUpPlan.plan(
            nextDue: utc("1996-06-01T12:00:00Z"), schedule: daily, now: utc("2026-06-03T12:30:00Z"),
            catchUpWithin: .seconds(3600))
        #expect(iso(plan.fire) == "2026-06-03T12:00:00Z")
        #expect(plan.skipped == 10_959)
        #expect(iso(plan.nextDue) == "2026-06-04T12:00:00Z")
    }

    @Test("A weekday rule missed for 30 years counts only weekdays")
    func weekdaysMissedForThirtyYears() {
        let schedule = Schedule.weekly(
            on: [.monday, .tuesday, .wednesday, .thursday, .friday], at: time("09:00"), zone: newYork)
        // Monday 1996-06-03 through Wednesday 2026-06-03 holds 7,828 weekdays (counted with Python).
        let plan = CatchUpPlan.plan(
            nextDue: utc("1996-06-03T13:00:00Z"), schedule: schedule, now: utc("2026-06-03T13:30:00Z"),
            catchUpWithin: .seconds(3600))
        #expect(iso(plan.fire) == "2026-06-03T13:00:00Z")
        #expect(plan.skipped == 7_827)
        #expect(iso(plan.nextDue) == "2026-06-04T13:00:00Z")
    }

    @Test("An every-7-days rule missed for 30 years beyond the limit skips them all")
    func everyWeekMissedForThirtyYears() {
        let schedule = Schedule.everyNDays(interval: 7, anchor: day("1996-06-01"), at: time("08:00"), zone: newYork)
        // 1996-06-01 to 2026-06-06 is 10,962 days = 1,566 weeks, so 1,567 occurrences.
        let plan = CatchUpPlan.plan(
            nextDue: utc("1996-06-01T12:00:00Z"), schedule: schedule, now: utc("2026-06-06T20:00:00Z"),
            catchUpWithin: .seconds(3600))
        #expect(plan.fire == nil)
        #expect(plan.skipped == 1_567)
        #expect(iso(plan.nextDue) == "2026-06-13T12:00:00Z")
    }
}
