import Foundation
import HoorayCalendar
import HoorayKit
import HoorayTesting
import Testing

/// Fuzz tests of the parsers of times, dates, weekdays and lengths a person types or saves: each
/// input is either read into a value in range that reads back the same, or refused with a message
/// that names it; never a crash.
///
/// The inputs come from ``FuzzInputs/seed``; a failure names the seed and the input's index, and
/// `HOORAY_FUZZ_SEED=<seed>` replays the run.
@Suite struct ParserFuzzTests {
    static let seed = FuzzInputs.seed

    static func replay(_ index: Int, _ input: String) -> Comment {
        "seed \(seed), input #\(index): \(input.debugDescription)"
    }

    /// The message of a refusal to decode `text` as a `T` from JSON, as configuration values are.
    static func refusal<T: Decodable>(decoding type: T.Type, from text: String) -> String? {
        do {
            let json = try JSONEncoder().encode([text])
            _ = try JSONDecoder().decode([T].self, from: json)
            return nil
        } catch DecodingError.dataCorrupted(let context) {
            return context.debugDescription
        } catch {
            return "\(error)"
        }
    }

    @Test func timesOfDayAreReadInRangeOrRefusedByName() {
        let inputs = FuzzInputs.strings(
            from: ["8:30", "15:00", "00:00", "23:59", " 7:05 "], units: [":00", ":", ":5", ""], count: 3000,
            seed: Self.seed)
        for (index, input) in inputs.enumerated() {
            if let time = TimeOfDay(parsing: input) {
                #expect((0...23).contains(time.hour) && (0...59).contains(time.minute), Self.replay(index, input))
                #expect(TimeOfDay(parsing: time.description) == time, Self.replay(index, input))
            } else {
                let message = Self.refusal(decoding: TimeOfDay.self, from: input) ?? ""
                #expect(!message.isEmpty && FuzzInputs.message(message, names: input), Self.replay(index, input))
            }
        }
    }

    @Test func datesAreReadInRangeOrRefusedByName() {
        let today = LocalDate(year: 2026, month: 11, day: 22)!
        let inputs = FuzzInputs.strings(
            from: ["2026-11-22", "2024-02-29", "0001-01-01", "9999-12-31", "today", "yesterday"],
            units: ["-01", "-1", "-", ""], count: 3000, seed: Self.seed &+ 1)
        for (index, input) in inputs.enumerated() {
            if let date = LocalDate(parsing: input) {
                #expect((0...9999).contains(date.year), Self.replay(index, input))
                #expect(LocalDate(parsing: date.description) == date, Self.replay(index, input))
                #expect(LocalDate(daysSinceEpoch: date.daysSinceEpoch) == date, Self.replay(index, input))
            } else {
                let message = Self.refusal(decoding: LocalDate.self, from: input) ?? ""
                #expect(!message.isEmpty && FuzzInputs.message(message, names: input), Self.replay(index, input))
            }
            // As typed on the command line, where `today` and `yesterday` count too.
            if let day = LocalDate(parsing: input, today: today) {
                #expect(
                    day == today || day == today.adding(days: -1) || LocalDate(parsing: day.description) == day,
                    Self.replay(index, input))
            }
        }
    }

    @Test func weekdayListsAreReadOrRefusedByName() {
        let inputs = FuzzInputs.strings(
            from: ["mon-fri", "mon,wed,fri", "Sat, Sunday", "fri-mon", "weekends", "daily", "tue"],
            units: ["-", ",", "day", ""], count: 3000, seed: Self.seed &+ 2)
        for (index, input) in inputs.enumerated() {
            do {
                let days = try Weekday.parseSet(input)
                #expect(!days.isEmpty, Self.replay(index, input))
            } catch {
                let message = error.description
                #expect(!message.isEmpty && FuzzInputs.message(message, names: input), Self.replay(index, input))
            }
        }
    }

    @Test func dayIntervalsAreAtLeastADayAndReadBack() {
        let inputs = FuzzInputs.strings(
            from: ["3d", "1 day", "2w", "2 weeks", "10 days"], units: ["d", "w", " days", " weeks", "h", ""],
            count: 3000, seed: Self.seed &+ 3)
        for (index, input) in inputs.enumerated() {
            guard let interval = DayInterval(parsing: input) else { continue }
            #expect(interval.days >= 1, Self.replay(index, input))
            #expect(DayInterval(parsing: "\(interval.days)d") == interval, Self.replay(index, input))
        }
    }

    @Test(arguments: ["9223372036854775807w", "1317624576693539402w", "99999999999999999999d"])
    func dayIntervalsTooLongToCountAreRefused(text: String) {
        #expect(DayInterval(parsing: text) == nil)
    }

    @Test func durationsAreNeverNegativeAndReadBack() {
        let inputs = FuzzInputs.strings(
            from: ["30s", "5m", "2h", "1d", "1h30m", "90 min", "2 hours 5 minutes", "45"],
            units: ["s", "m", "h", "d", "min", " hours", "sec", ""], count: 4000, seed: Self.seed &+ 4)
        for (index, input) in inputs.enumerated() {
            if let duration = ConfigDuration(parsing: input) {
                #expect(duration.seconds >= 0, Self.replay(index, input))
                #expect(ConfigDuration(parsing: duration.description) == duration, Self.replay(index, input))
            } else {
                let message = Self.refusal(decoding: ConfigDuration.self, from: input) ?? ""
                #expect(!message.isEmpty && FuzzInputs.message(message, names: input), Self.replay(index, input))
            }
        }
    }

    @Test(arguments: [
        "9223372036854775807m", "9223372036854775807d", "153722867280912931m", "2562047788015216h",
        "106751991167301d", "1d9223372036854775807s", "9223372036854775807s1s",
    ])
    func durationsTooLongToCountInSecondsAreRefused(text: String) {
        #expect(ConfigDuration(parsing: text) == nil)
    }

    struct Settings: Decodable {
        enum CodingKeys: String, CodingKey { case timeout }
        let timeout: ConfigDuration

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            timeout = try container.decodeDuration(.timeout, default: .init(seconds: 5), within: 1...3600)
        }
    }

    @Test func configuredDurationsOfAnySizeAreCheckedAgainstTheirRange() throws {
        var random = SeededRandomNumberGenerator(seed: Self.seed &+ 5)
        let numbers =
            [Int.min, Int.min + 1, -1, 0, 1, 3600, 3601, Int.max]
            + (0..<500).map { _ in Int.random(in: Int.min...Int.max, using: &random) }
        for number in numbers {
            let json = Data(#"{"timeout": \#(number)}"#.utf8)
            do {
                let settings = try JSONDecoder().decode(Settings.self, from: json)
                #expect((1...3600).contains(settings.timeout.seconds), "seed \(Self.seed), \(number)")
            } catch DecodingError.dataCorrupted(let context) {
                #expect(context.debugDescription.contains("out of range"), "seed \(Self.seed), \(number)")
            }
        }
    }

    @Test func theMostNegativeConfiguredDurationIsShownNotTrapped() throws {
        let json = Data(#"{"timeout": -9223372036854775808}"#.utf8)
        let error = #expect(throws: DecodingError.self) { try JSONDecoder().decode(Settings.self, from: json) }
        guard case .dataCorrupted(let context) = error else { return }
        #expect(context.debugDescription == "-106751991167300d15h30m8s is out of range; use a duration from 1s to 1h")
    }
}
