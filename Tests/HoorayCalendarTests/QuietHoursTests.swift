import Foundation
import HoorayCalendar
import Testing

@Suite struct QuietHoursTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func instant(_ text: String, _ zone: TimeZone) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    @Test func aWindowPastMidnightEndsTheNextMorning() throws {
        let quiet = try QuietHours(parsing: "22:00-07:30")
        #expect(
            quiet.end(containing: instant("2026-11-23 23:10", berlin), in: berlin)
                == instant("2026-11-24 07:30", berlin))
        #expect(
            quiet.end(containing: instant("2026-11-24 03:00", berlin), in: berlin)
                == instant("2026-11-24 07:30", berlin))
        #expect(
            quiet.end(containing: instant("2026-11-24 22:00", berlin), in: berlin)
                == instant("2026-11-25 07:30", berlin))
        // The end itself is no longer quiet, nor is the afternoon.
        #expect(quiet.end(containing: instant("2026-11-24 07:30", berlin), in: berlin) == nil)
        #expect(quiet.end(containing: instant("2026-11-24 15:00", berlin), in: berlin) == nil)
        #expect(quiet.description == "22:00-07:30")
    }

    @Test func touchingWindowsCountAsOneAndSeveralAreAllowed() throws {
        let quiet = try QuietHours(parsing: " 21:00-22:00 , 22:00-07:00, 12:30-13:30")
        #expect(quiet.windows.count == 3)
        #expect(
            quiet.end(containing: instant("2026-11-23 21:15", berlin), in: berlin)
                == instant("2026-11-24 07:00", berlin))
        #expect(
            quiet.end(containing: instant("2026-11-23 12:45", berlin), in: berlin)
                == instant("2026-11-23 13:30", berlin))
    }

    @Test func theRepeatedHourWhenClocksGoBackEndsAtTheNextEndTime() throws {
        let quiet = try QuietHours(parsing: "22:00-02:30")
        // Berlin, 25 October 2026: 02:00–03:00 happens twice (00:00–01:00 UTC in summer time, then
        // 01:00–02:00 UTC in winter time). At 02:40 in the first pass the window has ended; at 02:10
        // in the second pass it ends at the second 02:30.
        let utc = TimeZone(identifier: "UTC")!
        #expect(quiet.end(containing: instant("2026-10-25 00:40", utc), in: berlin) == nil)
        #expect(
            quiet.end(containing: instant("2026-10-25 00:10", utc), in: berlin) == instant("2026-10-25 00:30", utc))
        #expect(
            quiet.end(containing: instant("2026-10-25 01:10", utc), in: berlin) == instant("2026-10-25 01:30", utc))
    }

    @Test func theDaylightSavingNightKeepsTheLocalEnd() throws {
        let quiet = try QuietHours(parsing: "22:00-07:30")
        // Berlin's clocks went back on 25 October 2026 at 03:00.
        #expect(
            quiet.end(containing: instant("2026-10-24 23:00", berlin), in: berlin)
                == instant("2026-10-25 07:30", berlin))
    }

    @Test func noneAndEmptyMeanNoQuietHours() throws {
        #expect(try QuietHours(parsing: "none").isEmpty)
        #expect(try QuietHours(parsing: "").isEmpty)
        #expect(QuietHours.none.end(containing: Date(), in: berlin) == nil)
    }

    @Test func badWindowsAreRefusedWithTheFix() {
        #expect(throws: QuietHoursError.malformed("22:00 to 07:30")) { try QuietHours(parsing: "22:00 to 07:30") }
        #expect(throws: QuietHoursError.malformed("25:00-07:00")) { try QuietHours(parsing: "25:00-07:00") }
        #expect(throws: QuietHoursError.malformed("")) { try QuietHours(parsing: "22:00-23:00,") }
        #expect(throws: QuietHoursError.empty("07:00-07:00")) { try QuietHours(parsing: "07:00-07:00") }
        #expect(throws: QuietHoursError.overlapping("22:00-07:30", "23:00-01:00")) {
            try QuietHours(parsing: "22:00-07:30, 23:00-01:00")
        }
        #expect(throws: QuietHoursError.overlapping("22:00-07:30", "07:00-08:00")) {
            try QuietHours(parsing: "22:00-07:30, 07:00-08:00")
        }
        #expect(QuietHoursError.overlapping("a", "b").description.contains("join them into one window"))
        #expect(QuietHoursError.malformed("x").description.contains("HH:MM-HH:MM"))
    }
}
