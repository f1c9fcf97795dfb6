import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayTesting
import Testing

@testable import HabitsPlugin

/// Fuzz tests of what `hooray habit` reads from its options (`--every`, `--on`, `--remind`,
/// `--for`, `--until`, and the calendar's `--month`): each value is read into something a habit
/// can keep, or refused with a message that quotes it; never a crash. (`--start` and `--date` are
/// read by HoorayCommandLine's `TimeInput`, fuzzed in `TimeInputTests`.) A failure names
/// ``FuzzInputs/seed`` and the input's index.
@Suite struct OptionFuzzTests {
    static let seed = FuzzInputs.seed
    static let today = LocalDate(year: 2026, month: 11, day: 22)!
    /// Reads options on Sunday 22 November 2026 at 09:00 UTC.
    static let input = TimeInput(
        now: Date(timeIntervalSince1970: 1_795_338_000), timeZone: TimeZone(identifier: "UTC")!)

    static func replay(_ index: Int, _ input: String) -> Comment {
        "seed \(seed), input #\(index): \(input.debugDescription)"
    }

    /// Runs `read`, and checks that a refusal is a ``PluginCommandError`` quoting `input`.
    static func refusal<T>(of input: String, _ index: Int, _ read: () throws -> T) -> T? {
        do {
            return try read()
        } catch let error as PluginCommandError {
            #expect(FuzzInputs.message(error.message, names: input), replay(index, input))
        } catch {
            Issue.record("not a PluginCommandError: \(error); \(replay(index, input))")
        }
        return nil
    }

    @Test func rhythmsAreAtLeastADayOrRefusedByName() {
        let inputs = FuzzInputs.strings(
            from: ["day", "daily", "3d", "2w", "2 weeks", "1 day", "10 days"], units: ["d", "w", " days", ""],
            count: 3000, seed: Self.seed &+ 20)
        for (index, input) in inputs.enumerated() {
            guard let schedule = Self.refusal(of: input, index, { try HabitRules.schedule(every: input, on: nil) })
            else { continue }
            switch schedule {
            case .daily: break
            case .everyNDays(let days): #expect(days > 1, Self.replay(index, input))
            case .weekdays: Issue.record("--every gave weekdays; \(Self.replay(index, input))")
            case nil: Issue.record("--every gave no schedule; \(Self.replay(index, input))")
            }
        }
    }

    @Test func weekdaysAreSomeDaysOrRefusedByName() {
        let inputs = FuzzInputs.strings(
            from: ["mon,wed,fri", "mon-fri", "weekends", "sat, sun", "fri-mon"], units: ["-", ",", ""], count: 3000,
            seed: Self.seed &+ 21)
        for (index, input) in inputs.enumerated() {
            guard let schedule = Self.refusal(of: input, index, { try HabitRules.schedule(every: nil, on: input) })
            else { continue }
            switch schedule {
            case .daily: break
            case .weekdays(let days): #expect((1...6).contains(days.count), Self.replay(index, input))
            case .everyNDays, nil:
                Issue.record("--on gave \(String(describing: schedule)); \(Self.replay(index, input))")
            }
        }
    }

    @Test func reminderTimesAreReadOrRefusedByName() {
        let inputs = FuzzInputs.strings(
            from: ["20:00", "7:30", "off", "none", "00:00", "23:59"], units: [":00", ":", ""], count: 3000,
            seed: Self.seed &+ 22)
        for (index, input) in inputs.enumerated() {
            guard let time = Self.refusal(of: input, index, { try HabitRules.remindTime(input) }), let time else {
                continue
            }
            #expect(TimeOfDay(parsing: time.description) == time, Self.replay(index, input))
        }
    }

    @Test func pausesEndOnAStorableDayOrAreRefusedByName() {
        let lengths = FuzzInputs.strings(
            from: ["5d", "2w", "1 day", "3 weeks", "3660d"], units: ["d", "w", " days", " weeks", ""], count: 3000,
            seed: Self.seed &+ 24)
        let dates = FuzzInputs.strings(
            from: ["2026-12-01", "today", "2027-01-01", "9999-12-31"], units: ["-01", "-", ""], count: 2000,
            seed: Self.seed &+ 25)
        for (index, input) in lengths.enumerated() {
            guard
                let end = Self.refusal(
                    of: input, index, { try HabitRules.pauseEnd(for: input, until: nil, input: Self.input) })
            else { continue }
            guard let end else {
                Issue.record("--for gave an endless pause; \(Self.replay(index, input))")
                continue
            }
            #expect(end >= Self.today && LocalDate(parsing: end.description) == end, Self.replay(index, input))
        }
        for (index, input) in dates.enumerated() {
            guard
                let end = Self.refusal(
                    of: input, index, { try HabitRules.pauseEnd(for: nil, until: input, input: Self.input) }),
                let end
            else { continue }
            #expect(end >= Self.today && LocalDate(parsing: end.description) == end, Self.replay(index, input))
        }
    }

    @Test(arguments: ["9223372036854775807d", "1317624576693539401w", "3661d", "523w"])
    func aPauseTooLongIsRefusedNotTrapped(text: String) {
        let error = #expect(throws: PluginCommandError.self) {
            try HabitRules.pauseEnd(for: text, until: nil, input: Self.input)
        }
        #expect(error?.message.hasPrefix("--for \"\(text)\" is") == true)
    }

    @Test func monthsAreInRange() {
        let inputs = FuzzInputs.strings(
            from: ["2026-11", "2026-01", "0000-12", "9999-12"], units: ["-1", "-", ""], count: 3000,
            seed: Self.seed &+ 26)
        for (index, input) in inputs.enumerated() {
            guard let month = HabitCalendar.parseMonth(input) else { continue }
            #expect((0...9999).contains(month.year) && (1...12).contains(month.month), Self.replay(index, input))
        }
    }
}
