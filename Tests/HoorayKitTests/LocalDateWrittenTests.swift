import Foundation
import HoorayCalendar
import HoorayKit
import Testing

/// How a day is written in Hooray's text (JSON keeps `YYYY-MM-DD`).
@Suite struct LocalDateWrittenTests {
    static func day(_ text: String) -> LocalDate { LocalDate(parsing: text)! }

    @Test("Item 11: every day in human output is written one way, Fri 27 Nov, with the year only when it is another")
    func oneStyleForDays() {
        let today = Self.day("2026-11-28")
        #expect(Self.day("2026-11-27").written(today: today) == "Fri 27 Nov")
        #expect(Self.day("2026-01-01").written(today: today) == "Thu 1 Jan")
        #expect(Self.day("2025-12-31").written(today: today) == "Wed 31 Dec 2025")
        // The same style as an instant's day and time in the same text.
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let now = utc.date(from: DateComponents(year: 2026, month: 11, day: 28, hour: 17))!
        let earlier = utc.date(from: DateComponents(year: 2026, month: 11, day: 20, hour: 9, minute: 30))!
        #expect(
            Schedule.localDayAndTime(earlier, in: utc.timeZone, now: now)
                == Self.day("2026-11-20").written(today: today) + " 09:30")
        // JSON and input keep ISO 8601.
        #expect(Self.day("2026-11-27").description == "2026-11-27")
    }
}
