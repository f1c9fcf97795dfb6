import Foundation
import HoorayCalendar
import Testing

/// A day written `YYYY-MM-DD`.
func day(_ text: String) -> LocalDate { LocalDate(parsing: text)! }

/// Every day from `first` through `last`, both included.
func days(_ first: String, through last: String) -> [LocalDate] {
    let from = day(first)
    return (0...from.days(until: day(last))).map { from.adding(days: $0) }
}

/// A history for tests; its days are given as days.
func makeHistory(
    due: DueDays = .daily, start: String, done: [LocalDate] = [], resets: [String] = [], pauses: [StreakPause] = [],
    celebrated: [CelebratedMilestone] = []
) -> StreakHistory {
    StreakHistory(
        due: due, start: day(start), done: DaySet(done), pauses: pauses, resets: resets.map(day),
        celebrated: celebrated)
}

/// A pause from `from` through `through` (open-ended when `nil`).
func pause(_ from: String, _ through: String? = nil) -> StreakPause {
    StreakPause(from: day(from), through: through.map(day))
}

/// November 2026 starts on a Sunday: the 2nd, 9th, 16th, 23rd and 30th are Mondays.
private let monWedFri = DueDays.weekdays([.monday, .wednesday, .friday])

struct StreakCase: Sendable, CustomTestStringConvertible {
    let name: String
    let history: StreakHistory
    let today: String
    let days: Int
    let runStart: String?
    let lastMissed: String?

    init(
        _ name: String, _ history: StreakHistory, today: String, days: Int, runStart: String? = nil,
        lastMissed: String? = nil
    ) {
        self.name = name
        self.history = history
        self.today = today
        self.days = days
        self.runStart = runStart
        self.lastMissed = lastMissed
    }

    var testDescription: String { name }
}

/// The streak engine: due days, days that neither count nor break, today open until it ends, resets.
@Suite struct StreakTests {
    static let schedules: [StreakCase] = [
        // Every day.
        StreakCase(
            "daily: every day done through today",
            makeHistory(start: "2026-11-02", done: days("2026-11-02", through: "2026-11-15")),
            today: "2026-11-15", days: 14, runStart: "2026-11-02"),
        StreakCase(
            "daily: today not done yet is still open",
            makeHistory(start: "2026-11-02", done: days("2026-11-02", through: "2026-11-14")),
            today: "2026-11-15", days: 13, runStart: "2026-11-02"),
        StreakCase(
            "daily: a missed day ends the run",
            makeHistory(
                start: "2026-11-02", done: days("2026-11-02", through: "2026-11-15").filter { $0 != day("2026-11-09") }),
            today: "2026-11-15", days: 6, runStart: "2026-11-10", lastMissed: "2026-11-09"),
        StreakCase(
            "daily: yesterday missed and today open",
            makeHistory(start: "2026-11-02", done: days("2026-11-02", through: "2026-11-13")),
            today: "2026-11-15", days: 0, lastMissed: "2026-11-14"),
        StreakCase(
            "daily: the first day, not done yet", makeHistory(start: "2026-11-02"), today: "2026-11-02", days: 0),
        StreakCase(
            "daily: a completion after today is ignored",
            makeHistory(start: "2026-11-02", done: days("2026-11-02", through: "2026-11-20")),
            today: "2026-11-10", days: 9, runStart: "2026-11-02"),
        // Mon, Wed, Fri over three weeks.
        StreakCase(
            "mon/wed/fri: three weeks done, today friday",
            makeHistory(
                due: monWedFri, start: "2026-11-02",
                done: ["02", "04", "06", "09", "11", "13", "16", "18", "20"].map(nov)),
            today: "2026-11-20", days: 9, runStart: "2026-11-02"),
        StreakCase(
            "mon/wed/fri: a weekend does not break it",
            makeHistory(
                due: monWedFri, start: "2026-11-02",
                done: ["02", "04", "06", "09", "11", "13", "16", "18", "20"].map(nov)),
            today: "2026-11-22", days: 9, runStart: "2026-11-02"),
        StreakCase(
            "mon/wed/fri: monday open after a full week",
            makeHistory(due: monWedFri, start: "2026-11-02", done: ["02", "04", "06", "09", "11", "13"].map(nov)),
            today: "2026-11-16", days: 6, runStart: "2026-11-02"),
        StreakCase(
            "mon/wed/fri: a missed wednesday ends the run",
            makeHistory(
                due: monWedFri, start: "2026-11-02",
                done: ["02", "04", "06", "09", "13", "16", "18", "20"].map(nov)),
            today: "2026-11-20", days: 4, runStart: "2026-11-13", lastMissed: "2026-11-11"),
        StreakCase(
            "mon/wed/fri: done on a tuesday instead does not make up for wednesday",
            makeHistory(due: monWedFri, start: "2026-11-02", done: ["02", "04", "06", "09", "10", "13"].map(nov)),
            today: "2026-11-13", days: 1, runStart: "2026-11-13", lastMissed: "2026-11-11"),
        StreakCase(
            "mon/wed/fri: completions on not-due days are extra, not counted",
            makeHistory(
                due: monWedFri, start: "2026-11-02",
                done: days("2026-11-02", through: "2026-11-15")),
            today: "2026-11-15", days: 6, runStart: "2026-11-02"),
        // Every 3 days from Sunday the 1st: the 1st, 4th, 7th, 10th, 13th, 16th, 19th, 22nd.
        StreakCase(
            "every 3 days: done on each, today between two",
            makeHistory(
                due: .everyNDays(3), start: "2026-11-01",
                done: ["01", "04", "07", "10", "13", "16", "19"].map(nov)),
            today: "2026-11-21", days: 7, runStart: "2026-11-01"),
        StreakCase(
            "every 3 days: today due and open",
            makeHistory(
                due: .everyNDays(3), start: "2026-11-01",
                done: ["01", "04", "07", "10", "13", "16", "19"].map(nov)),
            today: "2026-11-22", days: 7, runStart: "2026-11-01"),
        StreakCase(
            "every 3 days: a missed occurrence ends the run",
            makeHistory(
                due: .everyNDays(3), start: "2026-11-01", done: ["01", "04", "07", "13", "16", "19"].map(nov)),
            today: "2026-11-20", days: 3, runStart: "2026-11-13", lastMissed: "2026-11-10"),
        StreakCase(
            "every 3 days: a day late is not on the rhythm",
            makeHistory(due: .everyNDays(3), start: "2026-11-01", done: ["01", "04", "07", "11", "13"].map(nov)),
            today: "2026-11-13", days: 1, runStart: "2026-11-13", lastMissed: "2026-11-10"),
    ]

    @Test(arguments: schedules)
    func theStreakFollowsTheSchedule(_ example: StreakCase) {
        expect(example)
    }

    static let pausesAndResets: [StreakCase] = [
        StreakCase(
            "a paused stretch in the middle keeps the streak",
            makeHistory(
                start: "2026-11-02",
                done: days("2026-11-02", through: "2026-11-08") + days("2026-11-14", through: "2026-11-16"),
                pauses: [pause("2026-11-09", "2026-11-13")]),
            today: "2026-11-16", days: 10, runStart: "2026-11-02"),
        StreakCase(
            "a completion on a paused day does not count",
            makeHistory(
                start: "2026-11-02",
                done: days("2026-11-02", through: "2026-11-10") + days("2026-11-14", through: "2026-11-16"),
                pauses: [pause("2026-11-09", "2026-11-13")]),
            today: "2026-11-16", days: 10, runStart: "2026-11-02"),
        StreakCase(
            "overlapping and touching pauses are one stretch",
            makeHistory(
                start: "2026-11-02",
                done: days("2026-11-02", through: "2026-11-08") + days("2026-11-16", through: "2026-11-17"),
                pauses: [
                    pause("2026-11-12", "2026-11-13"), pause("2026-11-09", "2026-11-11"),
                    pause("2026-11-10", "2026-11-12"),
                    pause("2026-11-14", "2026-11-15"),
                ]),
            today: "2026-11-17", days: 9, runStart: "2026-11-02"),
        StreakCase(
            "a pause covering today keeps the streak",
            makeHistory(
                start: "2026-11-02", done: days("2026-11-02", through: "2026-11-08"),
                pauses: [pause("2026-11-09", "2026-11-20")]),
            today: "2026-11-12", days: 7, runStart: "2026-11-02"),
        StreakCase(
            "an open-ended pause keeps the streak",
            makeHistory(
                start: "2026-11-02", done: days("2026-11-02", through: "2026-11-08"), pauses: [pause("2026-11-09")]),
            today: "2026-11-30", days: 7, runStart: "2026-11-02"),
        StreakCase(
            "a missed day before a pause still ends the run",
            makeHistory(
                start: "2026-11-02",
                done: days("2026-11-02", through: "2026-11-07") + days("2026-11-12", through: "2026-11-13"),
                pauses: [pause("2026-11-09", "2026-11-11")]),
            today: "2026-11-13", days: 2, runStart: "2026-11-12", lastMissed: "2026-11-08"),
        StreakCase(
            "mon/wed/fri: a paused week keeps the streak",
            makeHistory(
                due: monWedFri, start: "2026-11-02", done: ["02", "04", "06", "16", "18"].map(nov),
                pauses: [pause("2026-11-07", "2026-11-15")]),
            today: "2026-11-18", days: 5, runStart: "2026-11-02"),
        StreakCase(
            "a reset starts a new run on its day",
            makeHistory(start: "2026-11-02", done: days("2026-11-02", through: "2026-11-16"), resets: ["2026-11-10"]),
            today: "2026-11-16", days: 7, runStart: "2026-11-10"),
        StreakCase(
            "a reset day that was done counts, even today",
            makeHistory(start: "2026-11-02", done: days("2026-11-02", through: "2026-11-16"), resets: ["2026-11-16"]),
            today: "2026-11-16", days: 1, runStart: "2026-11-16"),
        StreakCase(
            "a reset today, not done yet, leaves nothing",
            makeHistory(start: "2026-11-02", done: days("2026-11-02", through: "2026-11-15"), resets: ["2026-11-16"]),
            today: "2026-11-16", days: 0),
        StreakCase(
            "a reset day not done is not a miss; the run starts after it",
            makeHistory(
                start: "2026-11-02",
                done: days("2026-11-02", through: "2026-11-08") + days("2026-11-11", through: "2026-11-16"),
                resets: ["2026-11-10"]),
            today: "2026-11-16", days: 6, runStart: "2026-11-11"),
        StreakCase(
            "the latest of two resets counts",
            makeHistory(
                start: "2026-11-02", done: days("2026-11-02", through: "2026-11-16"),
                resets: ["2026-11-05", "2026-11-10"]),
            today: "2026-11-16", days: 7, runStart: "2026-11-10"),
        StreakCase(
            "a reset after today is ignored",
            makeHistory(start: "2026-11-02", done: days("2026-11-02", through: "2026-11-16"), resets: ["2026-11-20"]),
            today: "2026-11-16", days: 15, runStart: "2026-11-02"),
        StreakCase(
            "mon/wed/fri: a reset on a not-due day starts the run at the next due day",
            makeHistory(
                due: monWedFri, start: "2026-11-02", done: ["02", "04", "06", "09", "11", "13"].map(nov),
                resets: ["2026-11-10"]),
            today: "2026-11-13", days: 2, runStart: "2026-11-11"),
        StreakCase(
            "days before the start never count",
            makeHistory(start: "2026-11-10", done: days("2026-11-02", through: "2026-11-12")),
            today: "2026-11-12", days: 3, runStart: "2026-11-10"),
        StreakCase(
            "today before the start has no streak",
            makeHistory(start: "2026-11-10", done: days("2026-11-02", through: "2026-11-08")),
            today: "2026-11-08", days: 0),
        // Daylight saving time begins in America/New_York on 2026-03-08: days are days.
        StreakCase(
            "daily across the start of daylight saving time",
            makeHistory(start: "2026-03-01", done: days("2026-03-01", through: "2026-03-14")),
            today: "2026-03-14", days: 14, runStart: "2026-03-01"),
        StreakCase(
            "every 3 days across the start of daylight saving time",
            makeHistory(
                due: .everyNDays(3), start: "2026-03-06",
                done: ["2026-03-06", "2026-03-09", "2026-03-12"].map(day)),
            today: "2026-03-14", days: 3, runStart: "2026-03-06"),
        StreakCase(
            "daily across the end of daylight saving time, with a miss after it",
            makeHistory(
                start: "2026-10-28",
                done: days("2026-10-28", through: "2026-11-05").filter { $0 != day("2026-11-02") }),
            today: "2026-11-05", days: 3, runStart: "2026-11-03", lastMissed: "2026-11-02"),
    ]

    @Test(arguments: pausesAndResets)
    func pausesKeepTheStreakAndResetsStartAgain(_ example: StreakCase) {
        expect(example)
    }

    private func expect(_ example: StreakCase, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let streak = example.history.streak(today: day(example.today))
        #expect(streak.days == example.days, sourceLocation: sourceLocation)
        #expect(streak.runStart == example.runStart.map(day), sourceLocation: sourceLocation)
        #expect(streak.lastMissed == example.lastMissed.map(day), sourceLocation: sourceLocation)
    }

    @Test func completionsLoggedAroundTheClockChangeCountOncePerDay() {
        // Given evenings and early mornings in New York from 5 to 11 March 2026, the 8th being 23 hours long,
        let zone = TimeZone(identifier: "America/New_York")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let instants: [Date] = (5...11).flatMap { date -> [Date] in
            [(0, 30), (23, 30)].map { hour, minute in
                calendar.date(from: DateComponents(year: 2026, month: 3, day: date, hour: hour, minute: minute))!
            }
        }
        // when each is logged on its local day,
        let done = instants.map { LocalDate(instant: $0, in: zone) }
        let history = makeHistory(start: "2026-03-05", done: done)
        // then each day counts once.
        let today = LocalDate(instant: instants.last!, in: zone)
        #expect(today == day("2026-03-11"))
        #expect(history.streak(today: today) == Streak(days: 7, runStart: day("2026-03-05")))
    }

    @Test(arguments: [
        (DueDays.daily, "2026-11-02", "2026-11-16"),
        (monWedFri, "2026-11-02", "2026-11-18"),
        (DueDays.everyNDays(3), "2026-11-01", "2026-11-19"),
    ])
    func undoingTodayLowersTheStreakByOne(due: DueDays, start: String, today: String) {
        var history = makeHistory(due: due, start: start, done: days(start, through: today))
        let before = history.streak(today: day(today)).days
        history.done.remove(day(today))
        let after = history.streak(today: day(today))
        #expect(before > 1)
        #expect(after.days == before - 1)
        #expect(after.lastMissed == nil)
    }

    @Test func aYearOfHistoryCountsOnlyTheRunSinceTheLastMiss() {
        // A year of daily history with a miss three days ago: the streak is the three days since.
        let history = days("2025-11-01", through: "2026-11-16").filter { $0 != day("2026-11-13") }
        let year = makeHistory(start: "2025-11-01", done: history)
        #expect(
            year.streak(today: day("2026-11-16"))
                == Streak(days: 3, runStart: day("2026-11-14"), lastMissed: day("2026-11-13")))
        #expect(year.streak(today: day("2026-11-12")).days == 377)
    }
}

@Suite struct DayStateTests {
    /// Mon/Wed/Fri from Tuesday 3 November; today is Friday the 20th.
    static let history = makeHistory(
        due: monWedFri, start: "2026-11-03",
        done: ["02", "04", "06", "07", "09", "13", "16", "20", "25"].map(nov),
        resets: ["2026-11-11", "2026-11-16"], pauses: [pause("2026-11-13", "2026-11-14"), pause("2026-11-27")])

    @Test(arguments: [
        ("2026-11-02", DayState.notDue),  // done, but before the start
        ("2026-11-04", .done),
        ("2026-11-05", .notDue),
        ("2026-11-07", .done),  // done on a not-due day
        ("2026-11-11", .reset),  // reset, not done
        ("2026-11-13", .paused),  // paused wins over done
        ("2026-11-16", .reset),  // reset wins over done
        ("2026-11-18", .open),  // missed
        ("2026-11-19", .notDue),
        ("2026-11-20", .done),  // today
        ("2026-11-25", .future),  // done in the future is still the future
        ("2026-11-27", .future),
    ])
    func eachDayHasOneState(date: String, state: DayState) {
        #expect(Self.history.state(on: day(date), today: day("2026-11-20")) == state)
    }

    @Test func todayDueAndNotDoneIsOpen() {
        #expect(Self.history.state(on: day("2026-11-23"), today: day("2026-11-23")) == .open)
    }

    @Test(arguments: [
        ("2026-11-02", false),  // before the start
        ("2026-11-04", true),
        ("2026-11-05", false),
        ("2026-11-13", false),  // paused
        ("2026-11-16", true),
        ("2026-11-30", false),  // open-ended pause
    ])
    func dueDaysFollowTheScheduleTheStartAndThePauses(date: String, isDue: Bool) {
        #expect(Self.history.isDue(on: day(date)) == isDue)
    }

    @Test func aResetDayCanBeDoneToo() {
        #expect(Self.history.isDone(on: day("2026-11-16")))
        #expect(!Self.history.isDone(on: day("2026-11-11")))
    }
}

@Suite struct MilestoneTests {
    /// Done every day from 2 November through `last`.
    private static func daily(through last: String, celebrated: [CelebratedMilestone] = []) -> StreakHistory {
        makeHistory(start: "2026-11-02", done: days("2026-11-02", through: last), celebrated: celebrated)
    }

    @Test(
        arguments: [
            (6, nil), (7, 7), (8, nil), (29, nil), (30, 30), (31, nil), (100, 100), (365, 365),
        ] as [(Int, Int?)])
    func aMilestoneIsReachedOnTheDayTheStreakEqualsIt(length: Int, milestone: Int?) {
        let today = day("2026-11-02").adding(days: length - 1)
        let history = Self.daily(through: today.description)
        #expect(history.streak(today: today).days == length)
        #expect(history.milestoneReached(by: today, today: today, milestones: .habits) == milestone)
    }

    @Test func aDayDoneYesterdayReachesItWhileTodayIsStillOpen() {
        let history = Self.daily(through: "2026-11-08")
        #expect(history.milestoneReached(by: day("2026-11-08"), today: day("2026-11-09"), milestones: .habits) == 7)
        // An earlier day of the run is not the one that reached it.
        #expect(history.milestoneReached(by: day("2026-11-07"), today: day("2026-11-09"), milestones: .habits) == nil)
    }

    @Test func aDayNotCountedReachesNothing() {
        let history = makeHistory(
            due: monWedFri, start: "2026-11-02",
            done: ["02", "04", "06", "09", "11", "13", "16", "17"].map(nov))
        // Tuesday the 17th is extra: the streak is 7 but was reached on Monday.
        #expect(history.streak(today: day("2026-11-17")).days == 7)
        #expect(history.milestoneReached(by: day("2026-11-17"), today: day("2026-11-17"), milestones: .habits) == nil)
        #expect(history.milestoneReached(by: day("2026-11-16"), today: day("2026-11-17"), milestones: .habits) == 7)
    }

    @Test func aMilestoneIsCelebratedOncePerRun() {
        let today = day("2026-11-08")
        let done = Self.daily(
            through: "2026-11-08", celebrated: [CelebratedMilestone(days: 7, runStart: day("2026-11-02"))])
        #expect(done.milestoneReached(by: today, today: today, milestones: .habits) == nil)
        // Another run that reached 7 does not stop this one.
        let other = Self.daily(
            through: "2026-11-08", celebrated: [CelebratedMilestone(days: 7, runStart: day("2026-10-01"))])
        #expect(other.milestoneReached(by: today, today: today, milestones: .habits) == 7)
    }

    @Test(
        arguments: [
            (0, nil), (1, nil), (6, nil), (7, 7), (8, 7), (29, 7), (30, 30), (99, 30), (100, 100), (364, 100),
            (365, 365),
            (400, 365),
        ] as [(Int, Int?)])
    func theBadgeIsTheHighestMilestoneReached(length: Int, badge: Int?) {
        let today = day("2026-11-02").adding(days: max(length, 1) - 1)
        let done = length == 0 ? [] : days("2026-11-02", through: today.description)
        let history = makeHistory(start: "2026-11-02", done: done)
        #expect(history.streak(today: today).days == length)
        #expect(history.badge(today: today, milestones: .habits) == badge)
    }

    @Test func customMilestonesInAnyOrder() {
        let history = Self.daily(through: "2026-11-11")
        #expect(history.badge(today: day("2026-11-11"), milestones: [10, 3, 5]) == 10)
        #expect(history.milestoneReached(by: day("2026-11-11"), today: day("2026-11-11"), milestones: [10, 3]) == 10)
        #expect(history.badge(today: day("2026-11-11"), milestones: []) == nil)
        #expect(MilestoneSet([30, 7, 0, -1, 7]).days == [7, 30])
    }

    @Test func completingADayCelebratesEachMilestoneOncePerRun() {
        var history = Self.daily(through: "2026-11-07")
        let today = day("2026-11-08")
        // Day 7 reaches the milestone, once.
        #expect(history.complete(today, today: today, milestones: .habits) == 7)
        #expect(history.celebrated == [CelebratedMilestone(days: 7, runStart: day("2026-11-02"))])
        #expect(history.complete(today, today: today, milestones: .habits) == nil, "a day already done changes nothing")
        // Undone and done again: the run already celebrated 7.
        history.done.remove(today)
        #expect(history.complete(today, today: today, milestones: .habits) == nil)
        // A new run after a reset celebrates it again.
        history.resets.append(day("2026-11-09"))
        for offset in 0..<7 {
            let next = day("2026-11-09").adding(days: offset)
            let milestone = history.complete(next, today: next, milestones: .habits)
            #expect(milestone == (offset == 6 ? 7 : nil))
        }
    }

    @Test func fillingInAForgottenDayCelebratesTheMilestoneItPassed() {
        // Done every day but the 4th: a streak of 4. Filling in the 4th makes it 8, past 7.
        var history = makeHistory(
            start: "2026-11-02", done: days("2026-11-02", through: "2026-11-09").filter { $0 != nov("04") })
        #expect(history.streak(today: nov("09")).days == 5)
        #expect(history.complete(nov("04"), today: nov("09"), milestones: .habits) == 7)
        // A day outside the run (before a reset) celebrates nothing.
        var reset = makeHistory(
            start: "2026-11-02", done: days("2026-11-10", through: "2026-11-16"), resets: ["2026-11-10"])
        #expect(reset.complete(nov("03"), today: nov("16"), milestones: .habits) == nil)
    }

    @Test func pausedAndNotDueDaysNeitherCountNorBreak() {
        let history = makeHistory(
            due: .weekdays([.monday, .wednesday, .friday]), start: "2026-11-02",
            done: ["02", "04", "06", "16"].map(nov), pauses: [pause("2026-11-09", "2026-11-13")])
        // The weekend and the paused week in between: the streak goes on.
        #expect(history.streak(today: nov("16")).days == 4)
        #expect(history.previousDueDay(before: nov("16")) == nov("06"))
    }
}

/// A day of November 2026, written as its two digits.
func nov(_ date: String) -> LocalDate { day("2026-11-\(date)") }
