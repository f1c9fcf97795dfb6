import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayTesting
import Testing

/// The one reader of what people type for days, past times and lengths, and its one error style.
@Suite struct TimeInputTests {
    /// Sunday 22 November 2026, 09:30 in New York (14:30 UTC).
    static let now = Date(timeIntervalSince1970: 1_795_357_800)
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let input = TimeInput(now: now, timeZone: newYork)
    static let today = LocalDate(year: 2026, month: 11, day: 22)!

    @Test("Item 10: a number of days back is read by one range, 1 to 3650, and refused in one sentence")
    func daysBackHaveOneRange() throws {
        #expect(TimeInput.daysBack == 1...3650)
        #expect(try TimeInput.daysBack(" 30 ") == 30)
        #expect(try TimeInput.daysBack("3650") == 3650)
        for refused in ["0", "3651", "3660", "-1", "two"] {
            let error = #expect(throws: PluginCommandError.self) { try TimeInput.daysBack(refused) }
            #expect(
                error?.message
                    == "--days must be a number of days from 1 to 3650; got \(refused). For example --days 30")
            #expect(error?.message == TimeInput.daysBackProblem(refused))
        }
    }

    @Test(arguments: [
        ("now", TimeInput.Expression.now), ("Just now", .now), ("today", .day(today)),
        (" Yesterday ", .day(today.adding(days: -1))), ("2026-11-01", .day(LocalDate(year: 2026, month: 11, day: 1)!)),
        ("2h ago", .ago(seconds: 7200)), ("1h30m", .length(seconds: 5400)), ("3d", .length(seconds: 259_200)),
        ("2w", .length(seconds: 1_209_600)), ("90 min", .length(seconds: 5400)), ("in 10m", .ahead(seconds: 600)),
        ("-5m", .ahead(seconds: 300)),
    ])
    func everyFormReads(text: String, expression: TimeInput.Expression) {
        #expect(Self.input.parse(text) == expression)
    }

    @Test(arguments: ["", "soon", "tomorow", "2026-02-30", "2h later", "ago", "in", "1.5h"])
    func otherTextIsNothing(text: String) {
        #expect(Self.input.parse(text) == nil)
    }

    @Test func todayIsTheUsersDay() throws {
        // 14:30 UTC is still Sunday morning in New York, and already Monday in Auckland.
        #expect(try Self.input.day("today", option: "--date") == Self.today)
        let auckland = TimeInput(now: Self.now, timeZone: TimeZone(identifier: "Pacific/Auckland")!)
        #expect(try auckland.day("today", option: "--date") == Self.today.adding(days: 1))
        #expect(try Self.input.day("10h ago", option: "--date") == Self.today.adding(days: -1))
        #expect(try Self.input.day("now", option: "--date") == Self.today)
    }

    @Test(arguments: [
        (
            "--date", "tomorow", TimeInput.DayLimit.any,
            "--date \"tomorow\" is not a day; write YYYY-MM-DD (such as 2026-11-22), today, yesterday or 3d ago"
        ),
        (
            "--date", "2026-12-01", .todayOrEarlier,
            "--date \"2026-12-01\" is in the future; give today or an earlier day"
        ),
        ("--until", "2026-11-01", .todayOrLater, "--until \"2026-11-01\" is in the past; give today or a later day"),
        (
            "--start", "3d", .any,
            "--start \"3d\" is not a day; write YYYY-MM-DD (such as 2026-11-22), today, yesterday or 3d ago"
        ),
    ])
    func aDayRefusalNamesTheOptionWhatWasTypedAndTheForms(
        option: String, text: String, limit: TimeInput.DayLimit, message: String
    ) {
        let error = #expect(throws: PluginCommandError.self) { try Self.input.day(text, option: option, limit: limit) }
        #expect(error?.message == message)
    }

    @Test(arguments: [
        ("5m", 300), ("2h", 7200), ("3d", 259_200), ("1h30m", 5400), ("90 min", 5400), ("now", 0), ("2h ago", 7200),
        ("0", 0),
    ])
    func agoForms(text: String, seconds: Int) throws {
        #expect(try Self.input.secondsAgo(text, option: "--ago") == seconds)
    }

    @Test(arguments: [
        (
            "in 10m",
            "--ago \"in 10m\" is in the future; write how long ago it happened, such as 5m, 2h, 3d or 1h30m (units: s, m, h, d)"
        ),
        (
            "a while",
            "--ago \"a while\" is not a time; write how long ago it happened, such as 5m, 2h, 3d or 1h30m (units: s, m, h, d)"
        ),
        ("400d", "--ago \"400d\" is more than 366 days ago; give a time within the last 366 days"),
    ])
    func anAgoRefusalNamesTheOptionWhatWasTypedAndTheForms(text: String, message: String) {
        let error = #expect(throws: PluginCommandError.self) {
            try Self.input.secondsAgo(text, option: "--ago", maximum: 366 * 86400)
        }
        #expect(error?.message == message)
    }

    @Test func lengthsAndDays() throws {
        #expect(try Self.input.seconds("1h30m", option: "--every") == 5400)
        #expect(try Self.input.days("2w", option: "--for") == 14)
        let short = #expect(throws: PluginCommandError.self) {
            try Self.input.seconds("30s", option: "--every", minimum: 60)
        }
        #expect(short?.message == "--every \"30s\" is too short; give at least 1 minute")
        let hours = #expect(throws: PluginCommandError.self) { try Self.input.days("36h", option: "--for") }
        #expect(hours?.message == "--for \"36h\" is not a number of days; write days or weeks, such as 5d or 2w")
        let long = #expect(throws: PluginCommandError.self) { try Self.input.days("9d", option: "--for", maximum: 7) }
        #expect(long?.message == "--for \"9d\" is longer than 7 days; give at most 7d")
    }

    // MARK: Fuzzing

    static let seed = FuzzInputs.seed

    static func replay(_ index: Int, _ input: String) -> Comment {
        "seed \(seed), input #\(index): \(input.debugDescription)"
    }

    /// Runs `read`, and checks that a refusal is a ``PluginCommandError`` that starts with the
    /// option and quotes `input`.
    static func refusal<T>(of input: String, option: String, _ index: Int, _ read: () throws -> T) -> T? {
        do {
            return try read()
        } catch let error as PluginCommandError {
            #expect(error.message.hasPrefix(option + " \""), replay(index, input))
            #expect(FuzzInputs.message(error.message, names: input), replay(index, input))
        } catch {
            Issue.record("not a PluginCommandError: \(error); \(replay(index, input))")
        }
        return nil
    }

    /// Whatever is typed for `--ago` is a time within the last 366 days, or a refusal that quotes
    /// it; never a crash.
    @Test func agoIsWithinAYearOrRefusedByName() {
        let inputs = FuzzInputs.strings(
            from: ["5m", "2h", "3d", "1h30m", "90 min", "now", "just now", "2h ago", "0", " 10s "],
            units: ["s", "m", "h", "d", " ago", " min", ""], count: 4000, seed: Self.seed &+ 10)
        for (index, input) in inputs.enumerated() {
            guard
                let seconds = Self.refusal(
                    of: input, option: "--ago", index,
                    { try Self.input.secondsAgo(input, option: "--ago", maximum: 366 * 86400) })
            else { continue }
            #expect((0...(366 * 86400)).contains(seconds), Self.replay(index, input))
        }
    }

    @Test(arguments: ["9223372036854775807m", "2562047788015216h", "106751991167301d", "1d9223372036854775807s"])
    func anAgoTooLongToCountIsRefusedNotTrapped(text: String) {
        let error = #expect(throws: PluginCommandError.self) { try Self.input.secondsAgo(text, option: "--ago") }
        #expect(error?.message.contains("--ago \"\(text)\" is not a time") == true)
    }

    /// Whatever is typed for a day is a day that can be written as YYYY-MM-DD and read back, or a
    /// refusal that quotes it.
    @Test func daysAreStorableOrRefusedByName() {
        let inputs = FuzzInputs.strings(
            from: ["2026-11-21", "today", "yesterday", "2024-02-29", "0000-01-01", "9999-12-31", "3d ago", "now"],
            units: ["-01", "-", " ago", ""], count: 3000, seed: Self.seed &+ 23)
        for (index, input) in inputs.enumerated() {
            for limit in [TimeInput.DayLimit.any, .todayOrEarlier, .todayOrLater] {
                guard
                    let day = Self.refusal(
                        of: input, option: "--date", index,
                        { try Self.input.day(input, option: "--date", limit: limit) })
                else { continue }
                #expect(LocalDate(parsing: day.description) == day, Self.replay(index, input))
                switch limit {
                case .any: break
                case .todayOrEarlier: #expect(day <= Self.today, Self.replay(index, input))
                case .todayOrLater: #expect(day >= Self.today, Self.replay(index, input))
                }
            }
        }
    }

    /// Whatever is typed for a number of days is at least one day, or a refusal that quotes it.
    @Test func numbersOfDaysArePositiveOrRefusedByName() {
        let inputs = FuzzInputs.strings(
            from: ["5d", "2w", "1 day", "3 weeks", "3660d"], units: ["d", "w", " days", " weeks", ""], count: 3000,
            seed: Self.seed &+ 24)
        for (index, input) in inputs.enumerated() {
            guard
                let days = Self.refusal(
                    of: input, option: "--for", index, { try Self.input.days(input, option: "--for", maximum: 3660) })
            else { continue }
            #expect((1...3660).contains(days), Self.replay(index, input))
        }
    }

    /// Whatever is typed for a length is at least the minimum, or a refusal that quotes it.
    @Test func lengthsAreAtLeastTheMinimumOrRefusedByName() {
        let inputs = FuzzInputs.strings(
            from: ["30m", "2h", "1h30m", "90 min", "3d", "2w"], units: ["s", "m", "h", "d", "w", ""], count: 3000,
            seed: Self.seed &+ 27)
        for (index, input) in inputs.enumerated() {
            guard
                let seconds = Self.refusal(
                    of: input, option: "--every", index,
                    { try Self.input.seconds(input, option: "--every", minimum: 60) })
            else { continue }
            #expect(seconds >= 60, Self.replay(index, input))
        }
    }
}
