import Foundation
import HoorayKit
import HoorayScheduling
import Testing

/// A wall-clock time on a date in a zone and the instant it must resolve to (checked with GNU date).
struct WallClockCase: Sendable, CustomTestStringConvertible {
    var name: String
    var zone: TimeZone
    var date: String
    var time: String
    var expected: String

    var testDescription: String { name }
}

let wallClockCases: [WallClockCase] = [
    WallClockCase(
        name: "NY 02:30 in the spring gap moves forward one hour", zone: newYork,
        date: "2026-03-08", time: "02:30", expected: "2026-03-08T07:30:00Z"),
    WallClockCase(
        name: "NY 02:00, the start of the gap, becomes 03:00 EDT", zone: newYork,
        date: "2026-03-08", time: "02:00", expected: "2026-03-08T07:00:00Z"),
    WallClockCase(
        name: "NY 03:00, the end of the gap, exists", zone: newYork,
        date: "2026-03-08", time: "03:00", expected: "2026-03-08T07:00:00Z"),
    WallClockCase(
        name: "NY repeated 01:30 is its first (EDT) occurrence", zone: newYork,
        date: "2026-11-01", time: "01:30", expected: "2026-11-01T05:30:00Z"),
    WallClockCase(
        name: "NY 02:00 after fall-back happens once, in EST", zone: newYork,
        date: "2026-11-01", time: "02:00", expected: "2026-11-01T07:00:00Z"),
    WallClockCase(
        name: "Berlin 02:00 in the spring gap becomes 03:00 CEST", zone: berlin,
        date: "2026-03-29", time: "02:00", expected: "2026-03-29T01:00:00Z"),
    WallClockCase(
        name: "Berlin repeated 02:59 is its first (CEST) occurrence", zone: berlin,
        date: "2026-10-25", time: "02:59", expected: "2026-10-25T00:59:00Z"),
    WallClockCase(
        name: "Sydney repeated 02:00 is its first (AEDT) occurrence", zone: sydney,
        date: "2026-04-05", time: "02:00", expected: "2026-04-04T15:00:00Z"),
    WallClockCase(
        name: "Sydney 02:45 in the spring gap becomes 03:45 AEDT", zone: sydney,
        date: "2026-10-04", time: "02:45", expected: "2026-10-03T16:45:00Z"),
    WallClockCase(
        name: "Sydney midnight on an ordinary day", zone: sydney,
        date: "2026-07-01", time: "00:00", expected: "2026-06-30T14:00:00Z"),
    WallClockCase(
        name: "Lord Howe 02:15 in its 30-minute spring gap moves forward 30 minutes", zone: lordHowe,
        date: "2026-10-04", time: "02:15", expected: "2026-10-03T15:45:00Z"),
    WallClockCase(
        name: "Lord Howe repeated 01:45 is its first (+11:00) occurrence", zone: lordHowe,
        date: "2026-04-05", time: "01:45", expected: "2026-04-04T14:45:00Z"),
    WallClockCase(
        name: "Kathmandu's +05:45 offset", zone: TimeZone(identifier: "Asia/Kathmandu")!,
        date: "2026-07-01", time: "09:00", expected: "2026-07-01T03:15:00Z"),
    WallClockCase(
        name: "Kolkata's +05:30 offset", zone: TimeZone(identifier: "Asia/Kolkata")!,
        date: "2026-11-01", time: "01:30", expected: "2026-10-31T20:00:00Z"),
    WallClockCase(
        name: "Chatham 02:50 in its spring gap becomes 03:50 (+13:45)", zone: TimeZone(identifier: "Pacific/Chatham")!,
        date: "2026-09-27", time: "02:50", expected: "2026-09-26T14:05:00Z"),
    WallClockCase(
        name: "Apia skipped 2011-12-30 across the date line: 09:00 moves forward a whole day", zone: apia,
        date: "2011-12-30", time: "09:00", expected: "2011-12-30T19:00:00Z"),
    WallClockCase(
        name: "Apia the day before it crossed the date line", zone: apia,
        date: "2011-12-29", time: "09:00", expected: "2011-12-29T19:00:00Z"),
]

@Suite("Wall-clock time and instants")
struct WallClockTests {
    @Test(arguments: wallClockCases)
    func instantOfWallClockTime(_ row: WallClockCase) {
        let instant = NextDue.instant(of: day(row.date), at: time(row.time), in: row.zone)
        #expect(iso(instant) == row.expected)
    }

    @Test("Both occurrences of a repeated time read as the same local date and time")
    func repeatedTimeReadsTheSame() {
        for instant in [utc("2026-11-01T05:30:00Z"), utc("2026-11-01T06:30:00Z")] {
            #expect(NextDue.localDate(of: instant, in: newYork) == day("2026-11-01"))
            #expect(NextDue.timeOfDay(of: instant, in: newYork) == time("01:30"))
        }
    }

    @Test("Local date changes at local midnight, not UTC midnight")
    func localDateAtMidnight() {
        #expect(NextDue.localDate(of: utc("2026-03-08T04:59:59Z"), in: newYork) == day("2026-03-07"))
        #expect(NextDue.timeOfDay(of: utc("2026-03-08T04:59:59Z"), in: newYork) == time("23:59"))
        #expect(NextDue.localDate(of: utc("2026-03-08T05:00:00Z"), in: newYork) == day("2026-03-08"))
        #expect(NextDue.localDate(of: utc("2026-10-03T14:00:00Z"), in: sydney) == day("2026-10-04"))
        #expect(
            NextDue.localDate(of: utc("1969-12-31T23:59:59Z"), in: TimeZone(identifier: "UTC")!) == day("1969-12-31"))
    }

    @Test(
        "Reading an instant as wall-clock time and back gives its earliest twin, never a later one",
        arguments: [
            (newYork, "2026-03-07T12:00:00Z"), (newYork, "2026-10-31T12:00:00Z"),
            (berlin, "2026-03-28T12:00:00Z"), (berlin, "2026-10-24T12:00:00Z"),
            (sydney, "2026-04-04T00:00:00Z"), (sydney, "2026-10-03T00:00:00Z"),
        ])
    func roundTripAroundTransitions(zone: TimeZone, start: String) {
        // Every minute of two days around the change: an instant in the second pass of a repeated hour
        // maps back exactly one hour earlier; every other instant maps back to itself.
        var shifts: [TimeInterval: Int] = [:]
        for minute in 0..<(48 * 60) {
            let instant = utc(start).addingTimeInterval(TimeInterval(minute * 60))
            let date = NextDue.localDate(of: instant, in: zone)
            let wallTime = NextDue.timeOfDay(of: instant, in: zone)
            let back = NextDue.instant(of: date, at: wallTime, in: zone)
            shifts[instant.timeIntervalSince(back), default: 0] += 1
        }
        let fallsBack = ["2026-10-31T12:00:00Z", "2026-10-24T12:00:00Z", "2026-04-04T00:00:00Z"].contains(start)
        #expect(shifts == (fallsBack ? [0: 48 * 60 - 60, 3600: 60] : [0: 48 * 60]))
    }
}
