import Foundation
import HoorayCalendar
import HoorayKit
import HoorayScheduling
import Testing

/// One row of the next-due table: a schedule, an instant to look after, and the instant expected.
///
/// Expected instants were worked out by hand and checked with GNU date, for example
/// `date -u -d 'TZ="America/New_York" 2026-03-08 03:30' +%FT%TZ`; a time in a gap is the time one
/// hour later on the same day, and a repeated time is written with its first offset (EDT, CEST, AEDT).
struct NextDueCase: Sendable, CustomTestStringConvertible {
    var name: String
    var schedule: Schedule
    var after: String
    var expected: String?

    var testDescription: String { name }
}

private let weekdays: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]

let newYorkCases: [NextDueCase] = [
    NextDueCase(
        name: "NY daily 02:30 on spring-forward day moves forward to 03:30 EDT",
        schedule: .daily(at: time("02:30"), zone: newYork),
        after: "2026-03-07T12:00:00Z", expected: "2026-03-08T07:30:00Z"),
    NextDueCase(
        name: "NY daily 02:30 the day after spring-forward is back at 02:30 EDT",
        schedule: .daily(at: time("02:30"), zone: newYork),
        after: "2026-03-08T07:30:00Z", expected: "2026-03-09T06:30:00Z"),
    NextDueCase(
        name: "NY daily 08:00 stays at 08:00 across the 23-hour day",
        schedule: .daily(at: time("08:00"), zone: newYork),
        after: "2026-03-07T13:00:00Z", expected: "2026-03-08T12:00:00Z"),
    NextDueCase(
        name: "NY daily 01:30 on fall-back day is due at its first (EDT) occurrence",
        schedule: .daily(at: time("01:30"), zone: newYork),
        after: "2026-10-31T12:00:00Z", expected: "2026-11-01T05:30:00Z"),
    NextDueCase(
        name: "NY daily 01:30 right after its first occurrence skips the repeat",
        schedule: .daily(at: time("01:30"), zone: newYork),
        after: "2026-11-01T05:30:00Z", expected: "2026-11-02T06:30:00Z"),
    NextDueCase(
        name: "NY daily 01:30 from between its two occurrences goes to the next day",
        schedule: .daily(at: time("01:30"), zone: newYork),
        after: "2026-11-01T06:00:00Z", expected: "2026-11-02T06:30:00Z"),
    NextDueCase(
        name: "NY daily 01:30 from after the repeated 01:30 EST goes to the next day",
        schedule: .daily(at: time("01:30"), zone: newYork),
        after: "2026-11-01T06:45:00Z", expected: "2026-11-02T06:30:00Z"),
    NextDueCase(
        name: "NY weekdays 09:00 skip the weekend of spring-forward",
        schedule: .weekly(on: weekdays, at: time("09:00"), zone: newYork),
        after: "2026-03-06T14:00:00Z", expected: "2026-03-09T13:00:00Z"),
    NextDueCase(
        name: "NY weekdays 09:00 skip the weekend of fall-back",
        schedule: .weekly(on: weekdays, at: time("09:00"), zone: newYork),
        after: "2026-10-30T13:00:00Z", expected: "2026-11-02T14:00:00Z"),
    NextDueCase(
        name: "NY every 3 days counts calendar days across spring-forward (71 hours)",
        schedule: .everyNDays(interval: 3, anchor: day("2026-03-05"), at: time("09:00"), zone: newYork),
        after: "2026-03-05T14:00:00Z", expected: "2026-03-08T13:00:00Z"),
    NextDueCase(
        name: "NY every 3 days continues three calendar days later",
        schedule: .everyNDays(interval: 3, anchor: day("2026-03-05"), at: time("09:00"), zone: newYork),
        after: "2026-03-08T13:00:00Z", expected: "2026-03-11T13:00:00Z"),
    NextDueCase(
        name: "NY every 1 day keeps 09:00 across the 25-hour day",
        schedule: .everyNDays(interval: 1, anchor: day("2026-10-31"), at: time("09:00"), zone: newYork),
        after: "2026-10-31T13:00:00Z", expected: "2026-11-01T14:00:00Z"),
    NextDueCase(
        name: "NY once in the future is due at its instant",
        schedule: .once(at: utc("2026-03-08T07:30:00Z")),
        after: "2026-03-08T07:00:00Z", expected: "2026-03-08T07:30:00Z"),
    NextDueCase(
        name: "NY once at exactly the given instant is not due again",
        schedule: .once(at: utc("2026-03-08T07:30:00Z")),
        after: "2026-03-08T07:30:00Z", expected: nil),
    NextDueCase(
        name: "NY once in the past is never due",
        schedule: .once(at: utc("2026-11-01T05:30:00Z")),
        after: "2026-11-01T08:00:00Z", expected: nil),
]

let berlinCases: [NextDueCase] = [
    NextDueCase(
        name: "Berlin daily 02:30 on spring-forward day moves forward to 03:30 CEST",
        schedule: .daily(at: time("02:30"), zone: berlin),
        after: "2026-03-28T12:00:00Z", expected: "2026-03-29T01:30:00Z"),
    NextDueCase(
        name: "Berlin daily 02:30 the day after spring-forward is back at 02:30 CEST",
        schedule: .daily(at: time("02:30"), zone: berlin),
        after: "2026-03-29T01:30:00Z", expected: "2026-03-30T00:30:00Z"),
    NextDueCase(
        name: "Berlin daily 02:30 on fall-back day is due at its first (CEST) occurrence",
        schedule: .daily(at: time("02:30"), zone: berlin),
        after: "2026-10-24T12:00:00Z", expected: "2026-10-25T00:30:00Z"),
    NextDueCase(
        name: "Berlin daily 02:30 from between its two occurrences goes to the next day",
        schedule: .daily(at: time("02:30"), zone: berlin),
        after: "2026-10-25T01:00:00Z", expected: "2026-10-26T01:30:00Z"),
    NextDueCase(
        name: "Berlin mon, wed, fri 07:00 skip the weekend of spring-forward",
        schedule: .weekly(on: [.monday, .wednesday, .friday], at: time("07:00"), zone: berlin),
        after: "2026-03-27T06:00:00Z", expected: "2026-03-30T05:00:00Z"),
    NextDueCase(
        name: "Berlin every 2 days counts calendar days across fall-back (49 hours)",
        schedule: .everyNDays(interval: 2, anchor: day("2026-10-23"), at: time("12:00"), zone: berlin),
        after: "2026-10-23T10:00:00Z", expected: "2026-10-25T11:00:00Z"),
    NextDueCase(
        name: "Berlin every 7 days is first due on its anchor, even at a time in the gap",
        schedule: .everyNDays(interval: 7, anchor: day("2026-03-29"), at: time("02:30"), zone: berlin),
        after: "2026-01-01T00:00:00Z", expected: "2026-03-29T01:30:00Z"),
    NextDueCase(
        name: "Berlin once in the past is never due",
        schedule: .once(at: utc("2026-10-25T00:30:00Z")),
        after: "2026-10-25T01:30:00Z", expected: nil),
    NextDueCase(
        name: "Berlin daily 09:00 is due on leap day",
        schedule: .daily(at: time("09:00"), zone: berlin),
        after: "2028-02-28T08:00:00Z", expected: "2028-02-29T08:00:00Z"),
    NextDueCase(
        name: "Berlin tuesdays 09:00 land on leap day",
        schedule: .weekly(on: [.tuesday], at: time("09:00"), zone: berlin),
        after: "2028-02-22T08:00:00Z", expected: "2028-02-29T08:00:00Z"),
    NextDueCase(
        name: "Berlin every 2 days from 2028-02-27 is due on leap day",
        schedule: .everyNDays(interval: 2, anchor: day("2028-02-27"), at: time("09:00"), zone: berlin),
        after: "2028-02-27T08:00:00Z", expected: "2028-02-29T08:00:00Z"),
    NextDueCase(
        name: "Berlin every 2 days counts leap day on to March 2",
        schedule: .everyNDays(interval: 2, anchor: day("2028-02-27"), at: time("09:00"), zone: berlin),
        after: "2028-02-29T08:00:00Z", expected: "2028-03-02T08:00:00Z"),
    NextDueCase(
        name: "Berlin every 365 days from 2027-03-01 lands on leap day",
        schedule: .everyNDays(interval: 365, anchor: day("2027-03-01"), at: time("09:00"), zone: berlin),
        after: "2027-03-01T08:00:00Z", expected: "2028-02-29T08:00:00Z"),
]

let sydneyCases: [NextDueCase] = [
    NextDueCase(
        name: "Sydney daily 02:30 on fall-back day (03:00 to 02:00) is due at its first (AEDT) occurrence",
        schedule: .daily(at: time("02:30"), zone: sydney),
        after: "2026-04-04T00:00:00Z", expected: "2026-04-04T15:30:00Z"),
    NextDueCase(
        name: "Sydney daily 02:30 from between its two occurrences goes to the next day",
        schedule: .daily(at: time("02:30"), zone: sydney),
        after: "2026-04-04T16:00:00Z", expected: "2026-04-05T16:30:00Z"),
    NextDueCase(
        name: "Sydney daily 02:30 on spring-forward day (02:00 to 03:00) moves forward to 03:30 AEDT",
        schedule: .daily(at: time("02:30"), zone: sydney),
        after: "2026-10-03T00:00:00Z", expected: "2026-10-03T16:30:00Z"),
    NextDueCase(
        name: "Sydney daily 02:30 the day after spring-forward is back at 02:30 AEDT",
        schedule: .daily(at: time("02:30"), zone: sydney),
        after: "2026-10-03T16:30:00Z", expected: "2026-10-04T15:30:00Z"),
    NextDueCase(
        name: "Sydney sundays 02:15 are due at the first 02:15 of fall-back sunday",
        schedule: .weekly(on: [.sunday], at: time("02:15"), zone: sydney),
        after: "2026-03-28T15:15:00Z", expected: "2026-04-04T15:15:00Z"),
    NextDueCase(
        name: "Sydney sundays 02:15 fire once on fall-back sunday, then a week later",
        schedule: .weekly(on: [.sunday], at: time("02:15"), zone: sydney),
        after: "2026-04-04T15:15:00Z", expected: "2026-04-11T16:15:00Z"),
    NextDueCase(
        name: "Sydney weekdays 08:00 skip the weekend of spring-forward",
        schedule: .weekly(on: weekdays, at: time("08:00"), zone: sydney),
        after: "2026-10-01T22:00:00Z", expected: "2026-10-04T21:00:00Z"),
    NextDueCase(
        name: "Sydney every 3 days counts calendar days across fall-back (73 hours)",
        schedule: .everyNDays(interval: 3, anchor: day("2026-04-03"), at: time("09:00"), zone: sydney),
        after: "2026-04-02T22:00:00Z", expected: "2026-04-05T23:00:00Z"),
    NextDueCase(
        name: "Sydney every 1 day keeps 12:00 across the 23-hour day",
        schedule: .everyNDays(interval: 1, anchor: day("2026-10-01"), at: time("12:00"), zone: sydney),
        after: "2026-10-03T02:00:00Z", expected: "2026-10-04T01:00:00Z"),
    NextDueCase(
        name: "Sydney once in the past is never due",
        schedule: .once(at: utc("2026-10-03T16:30:00Z")),
        after: "2026-10-04T00:00:00Z", expected: nil),
]

@Suite("Next due instant")
struct NextDueTests {
    @Test(arguments: newYorkCases + berlinCases + sydneyCases)
    func nextDue(_ row: NextDueCase) {
        let due = NextDue.next(after: utc(row.after), for: row.schedule)
        #expect(iso(due) == row.expected)
    }

    @Test("A schedule with no chosen weekdays or no positive interval is never due")
    func neverDue() {
        let now = utc("2026-06-01T00:00:00Z")
        #expect(NextDue.next(after: now, for: .weekly(on: [], at: time("09:00"), zone: berlin)) == nil)
        let zeroInterval = Schedule.everyNDays(interval: 0, anchor: day("2026-01-01"), at: time("09:00"), zone: berlin)
        #expect(NextDue.next(after: now, for: zeroInterval) == nil)
    }

    @Test("Occurrences across spring-forward keep one per day, the skipped one moved forward")
    func occurrencesAcrossSpringForward() {
        let schedule = Schedule.daily(at: time("02:30"), zone: newYork)
        let found = NextDue.occurrences(
            of: schedule, after: utc("2026-03-06T12:00:00Z"), through: utc("2026-03-10T06:30:00Z"), limit: 10)
        #expect(
            found.map(iso) == [
                "2026-03-07T07:30:00Z", "2026-03-08T07:30:00Z", "2026-03-09T06:30:00Z", "2026-03-10T06:30:00Z",
            ])
    }

    @Test("Occurrences across fall-back include the repeated time once")
    func occurrencesAcrossFallBack() {
        let schedule = Schedule.daily(at: time("01:30"), zone: newYork)
        let found = NextDue.occurrences(
            of: schedule, after: utc("2026-10-30T12:00:00Z"), through: utc("2026-11-03T12:00:00Z"), limit: 10)
        #expect(
            found.map(iso) == [
                "2026-10-31T05:30:00Z", "2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z", "2026-11-03T06:30:00Z",
            ])
    }

    @Test("Occurrences stop at the limit and exclude the start of the window")
    func occurrencesLimit() {
        let schedule = Schedule.daily(at: time("08:00"), zone: berlin)
        let found = NextDue.occurrences(
            of: schedule, after: utc("2026-06-01T06:00:00Z"), through: utc("2026-07-01T00:00:00Z"), limit: 2)
        #expect(found.map(iso) == ["2026-06-02T06:00:00Z", "2026-06-03T06:00:00Z"])
        #expect(
            NextDue.occurrences(
                of: schedule, after: utc("2026-06-01T06:00:00Z"), through: utc("2026-07-01T00:00:00Z"), limit: 0) == [])
    }
}
