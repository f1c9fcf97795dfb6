import Foundation
import HoorayKit
import Testing

@testable import HabitsPlugin

@Suite struct CalendarTests {
    /// Weekdays from Tuesday 3 November 2026, seen on Monday the 23rd: every state appears.
    ///
    /// Done the 3rd to the 10th (and on Saturday the 21st, extra); missed the 11th; reset and done the
    /// 12th; paused the 16th to the 18th (done on the 17th anyway); a pause planned from the 30th.
    static let habit = makeHabit(
        schedule: .weekdays([.monday, .tuesday, .wednesday, .thursday, .friday]), start: "2026-11-03",
        done: ["01", "03", "04", "05", "06", "09", "10", "12", "13", "17", "19", "20", "21"].map(nov),
        resets: ["2026-11-12"], pauses: [pause("2026-11-16", "2026-11-18"), pause("2026-11-30", "2026-12-04")])

    @Test func aMonthShowsEveryStateAndMarksToday() {
        let text = HabitCalendar.render(Self.habit, month: (2026, 11), today: nov("23"), color: false)
        #expect(
            text == """
                       November 2026
                 Mo  Tu  We  Th  Fr  Sa  Su
                                          1
                                          ·
                  2   3   4   5   6   7   8
                  ·   ●   ●   ●   ●   ·   ·
                  9  10  11  12  13  14  15
                  ●   ●   ○   ✗   ●   ·   ·
                 16  17  18  19  20  21  22
                  ‖   ‖   ‖   ●   ●   ●   ·
                [23] 24  25  26  27  28  29
                  ○   ◌   ◌   ◌   ◌
                 30
                  ‖
                ● done  ✗ reset  ‖ paused  ○ due, not done  · not due  ◌ coming up
                """)
        // Today's brackets never touch the next day's number.
        #expect(!text.contains("]2"))
    }

    @Test func todayOnASundayWithOneDigit() {
        let habit = makeHabit(
            schedule: .everyNDays(2), start: "2026-02-01", done: [day("2026-02-01"), day("2026-02-03")])
        let text = HabitCalendar.render(habit, month: (2026, 2), today: day("2026-02-08"), color: false)
        #expect(
            text == """
                       February 2026
                 Mo  Tu  We  Th  Fr  Sa  Su
                                          1
                                          ●
                  2   3   4   5   6   7  [8]
                  ·   ●   ·   ○   ·   ○   ·
                  9  10  11  12  13  14  15
                  ◌       ◌       ◌       ◌
                 16  17  18  19  20  21  22
                      ◌       ◌       ◌
                 23  24  25  26  27  28
                  ◌       ◌       ◌
                ● done  ✗ reset  ‖ paused  ○ due, not done  · not due  ◌ coming up
                """)
    }

    @Test func todayInTheMiddleOfAWeekKeepsItsNeighboursApart() throws {
        let habit = makeHabit(schedule: .daily, start: "2026-11-01")
        let text = HabitCalendar.render(habit, month: (2026, 11), today: nov("11"), color: false)
        let week = try #require(text.split(separator: "\n").first { $0.contains("[11]") })
        #expect(week == "  9  10 [11] 12  13  14  15")
    }

    @Test func aMonthBeforeTheStartIsNotDueAndOneAfterTodayIsComingUp() {
        let habit = makeHabit(schedule: .weekdays([.monday]), start: "2026-11-02")
        let before = HabitCalendar.render(habit, month: (2026, 10), today: nov("23"), color: false)
        #expect(
            before.split(separator: "\n").dropFirst(2).dropLast().allSatisfy {
                $0.allSatisfy { " ·0123456789".contains($0) }
            })
        let after = HabitCalendar.render(habit, month: (2027, 1), today: nov("23"), color: false)
        #expect(after.split(separator: "\n").dropLast().filter { $0.contains("◌") }.count == 4)
    }

    @Test func colorAddsANSICodesAndNoColorHasNone() {
        let plain = HabitCalendar.render(Self.habit, month: (2026, 11), today: nov("23"), color: false)
        let colored = HabitCalendar.render(Self.habit, month: (2026, 11), today: nov("23"), color: true)
        #expect(!plain.contains("\u{1B}"))
        #expect(colored.contains("\u{1B}[32m●\u{1B}[0m"))  // done, green
        #expect(colored.contains("\u{1B}[31m✗\u{1B}[0m"))  // reset, red
        #expect(colored.contains("\u{1B}[33m○\u{1B}[0m"))  // open, yellow
        #expect(colored.contains("\u{1B}[2m‖\u{1B}[0m"))  // paused, dim
        #expect(colored.contains("\u{1B}[2m◌\u{1B}[0m"))  // coming up, dim
        #expect(colored.contains("\u{1B}[1m[23]\u{1B}[0m"))  // today, bold
        // Without the escape codes, the coloured calendar is the plain one.
        #expect(colored.replacing(/\x{1B}\[[0-9;]*m/, with: "") == plain)
    }

    @Test(arguments: [
        ("2026-11", 2026, 11), ("1999-01", 1999, 1), (" 2027-12\n", 2027, 12),
    ])
    func aMonthIsWrittenYearDashMonth(text: String, year: Int, month: Int) {
        let parsed = HabitCalendar.parseMonth(text)
        #expect(parsed?.year == year)
        #expect(parsed?.month == month)
    }

    @Test(arguments: ["2026-13", "2026-00", "2026-1", "26-11", "2026/11", "2026-11-01", "", "november", "2026-1a"])
    func otherTextIsNotAMonth(text: String) {
        #expect(HabitCalendar.parseMonth(text) == nil)
    }

    /// The month a client draws (`hooray habit show --json`) says what the terminal's symbols say.
    @Test func theMonthAsDataMatchesTheTerminalsSymbols() throws {
        let view = HabitMonthView(Self.habit, month: nov("01"), today: nov("23"), milestones: [30, 7, 7, 0])
        // The terminal's calendar, read day by day: each day's symbol is under its number's last
        // digit, in the line below the week's numbers.
        let lines = HabitCalendar.render(Self.habit, month: (2026, 11), today: nov("23"), color: false)
            .split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        var terminal: [Character] = []
        for number in 1...30 {
            let day = nov(String(format: "%02d", number))
            let week = (6 + number - 1) / 7  // November 2026 starts on a Sunday: six empty cells first.
            let symbols = lines[3 + 2 * week]
            let column = (day.weekday.rawValue - 1) * 4 + 2
            terminal.append(column < symbols.count ? symbols[column] : " ")
        }
        // The data's marks, as the terminal draws them: a day after today that is not due is blank there.
        let drawn = view.days.map { day -> Character in
            switch day.state {
            case .done: "●"
            case .reset: "✗"
            case .paused: "‖"
            case .missed, .open: "○"
            case .comingUp: "◌"
            case .notDue: day.date > "2026-11-23" ? " " : "·"
            }
        }
        #expect(view.days.count == 30)
        #expect(drawn == terminal)
        #expect(view.days[22] == .init(date: "2026-11-23", state: .open))
        #expect(view.days[10].state == .missed)
        #expect(view.asOf == "2026-11-23" && view.month == "2026-11" && view.start == "2026-11-03")
        #expect(view.on == ["mon", "tue", "wed", "thu", "fri"] && view.every == nil)
        #expect(view.milestones == [7, 30])
    }

    @Test func theRhythmIsGivenAsAClientEditsIt() {
        let daily = HabitMonthView(makeHabit(start: "2026-11-01"), month: nov("01"), today: nov("23"), milestones: [])
        #expect(daily.on?.count == 7 && daily.every == nil)
        let third = HabitMonthView(
            makeHabit(schedule: .everyNDays(3), start: "2026-11-01"), month: day("2026-12-01"), today: nov("23"),
            milestones: [])
        #expect(third.on == nil && third.every == 3)
        // December, all after today: every third day from the 1st of November (… the 28th) is coming up.
        #expect(third.days.count == 31)
        #expect(third.days.filter { $0.state == .comingUp }.map(\.date).prefix(2) == ["2026-12-01", "2026-12-04"])
    }

    @Test func theJSONHasTheListsKeysAndTheMonths() throws {
        let json = try HabitMonthView.json(Self.habit, month: nov("01"), today: nov("23"), milestones: [7])
        #expect(json["name"]?.stringValue == "Read 10 pages")
        #expect(json["today"]?.stringValue == "due")
        #expect(json["asOf"]?.stringValue == "2026-11-23")
        // A key without a value is there, as null.
        #expect(json["every"] == .null)
        guard case .array(let days) = json["days"] else {
            Issue.record("no days in \(json)")
            return
        }
        #expect(days.count == 30)
        #expect(days[11]["state"]?.stringValue == "reset")
    }
}
