import HoorayCalendar
import Testing

@Suite struct ParsingTests {
    @Test(arguments: [("8:30", 8, 30), ("15:00", 15, 0), ("00:00", 0, 0), ("23:59", 23, 59)])
    func timesOfDayParse(text: String, hour: Int, minute: Int) {
        #expect(TimeOfDay(parsing: text) == TimeOfDay(hour: hour, minute: minute))
    }

    @Test(arguments: ["24:00", "12:60", "1500", "3pm", "", "12:5", "-1:00"])
    func badTimesOfDayAreRejected(text: String) {
        #expect(TimeOfDay(parsing: text) == nil)
    }

    @Test func weekdayListsAndRanges() throws {
        #expect(try Weekday.parseSet("mon-fri") == [.monday, .tuesday, .wednesday, .thursday, .friday])
        #expect(try Weekday.parseSet("mon,wed,fri") == [.monday, .wednesday, .friday])
        #expect(try Weekday.parseSet("Sat, Sunday") == [.saturday, .sunday])
        #expect(try Weekday.parseSet("fri-mon") == [.friday, .saturday, .sunday, .monday])
        #expect(try Weekday.parseSet("weekends") == [.saturday, .sunday])
    }

    @Test(arguments: ["mon-", "monday-funday", "xyz", "mon,,fri", ""])
    func badWeekdayListsNameThePart(text: String) {
        #expect(throws: WeekdayListError.self) { try Weekday.parseSet(text) }
    }

    @Test func aBadRangeNamesTheBadDay() {
        let error = #expect(throws: WeekdayListError.self) { try Weekday.parseSet("mon-fryday") }
        #expect(error?.part == "fryday")
    }

    @Test func dayIntervals() {
        #expect(DayInterval(parsing: "3d")?.days == 3)
        #expect(DayInterval(parsing: "1 day")?.days == 1)
        #expect(DayInterval(parsing: "2w")?.days == 14)
        #expect(DayInterval(parsing: "0d") == nil)
        #expect(DayInterval(parsing: "3h") == nil)
    }

    @Test func durations() {
        #expect(ConfigDuration(parsing: "30s")?.seconds == 30)
        #expect(ConfigDuration(parsing: "1h30m")?.seconds == 5400)
        #expect(ConfigDuration(parsing: "90 min")?.seconds == 5400)
        #expect(ConfigDuration(parsing: "2d")?.description == "2d")
        #expect(ConfigDuration(parsing: "soon") == nil)
    }

    @Test func localDatesCountCalendarDays() {
        let leap = LocalDate(year: 2028, month: 2, day: 28)!
        #expect(leap.adding(days: 1) == LocalDate(year: 2028, month: 2, day: 29))
        #expect(leap.adding(days: 2) == LocalDate(year: 2028, month: 3, day: 1))
        #expect(LocalDate(year: 2026, month: 11, day: 22)!.weekday == .sunday)
        #expect(LocalDate(year: 1970, month: 1, day: 1)!.daysSinceEpoch == 0)
        #expect(LocalDate(parsing: "2026-02-30") == nil)
        #expect(LocalDate(daysSinceEpoch: -1).description == "1969-12-31")
    }
}
