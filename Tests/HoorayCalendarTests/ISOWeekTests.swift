import Foundation
import HoorayCalendar
import Testing

/// ISO 8601 weeks, checked day by day against Foundation's ISO 8601 calendar, and their reading.
struct ISOWeekTests {
    @Test func everyDayOfFortyYearsIsInTheWeekFoundationsISOCalendarSays() {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let first = LocalDate(year: 2000, month: 1, day: 1)!
        for offset in 0..<(40 * 366) {
            let day = first.adding(days: offset)
            let date = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))!
            let week = ISOWeek(containing: day)
            #expect(week.year == calendar.component(.yearForWeekOfYear, from: date), "\(day)")
            #expect(week.week == calendar.component(.weekOfYear, from: date), "\(day)")
            #expect(week.contains(day) && week.monday.weekday == .monday && week.sunday.weekday == .sunday)
        }
    }

    @Test func yearsHave52Or53WeeksAndNeighboursAreRight() throws {
        #expect(ISOWeek.weeks(in: 2026) == 53 && ISOWeek.weeks(in: 2020) == 53 && ISOWeek.weeks(in: 2015) == 53)
        #expect(ISOWeek.weeks(in: 2025) == 52 && ISOWeek.weeks(in: 2027) == 52)
        let last = try ISOWeek.parse("2026-W53")
        #expect(last.monday == LocalDate(year: 2026, month: 12, day: 28))
        #expect(last.sunday == LocalDate(year: 2027, month: 1, day: 3))
        #expect(try ISOWeek.parse("2027-W01").previous == last)
        #expect(try ISOWeek.parse("2026-w5").description == "2026-W05")
        #expect(try ISOWeek.parse(" 2026-W49 ") == ISOWeek(containing: LocalDate(year: 2026, month: 12, day: 6)!))
    }

    @Test(arguments: [
        ("2025-W53", "2025 has no week 53; its weeks are W01 to W52"),
        ("2026-W60", "2026 has no week 60; its weeks are W01 to W53"),
        ("2026-W00", "2026 has no week 0"),
        ("2026-49", "is not a week; write it as YYYY-Www"),
        ("26-W49", "is not a week"),
        ("2026-W4x", "is not a week"),
        ("2026-W049", "is not a week"),
        ("", "is not a week"),
    ])
    func unreadableWeeksSayWhy(text: String, message: String) {
        do {
            _ = try ISOWeek.parse(text)
            Issue.record("\(text) was read")
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }
}
