import Foundation
import HoorayCalendar
import HoorayKit
import Testing

@testable import HabitsPlugin

@Suite struct HabitCodingTests {
    @Test func aHabitSurvivesEncodingWithItsHistoryStoredAsABitmap() throws {
        let start = LocalDate(year: 2026, month: 11, day: 1)!
        let habit = Habit(
            name: "Read 10 pages", why: "To become wiser and calmer.", schedule: .weekdays([.monday, .friday]),
            start: start, remindAt: TimeOfDay(hour: 20), createdAt: Date(timeIntervalSince1970: 1_790_000_000),
            completions: [start, start.adding(days: 4)], resets: [HabitReset(day: start.adding(days: 7), note: "Late")],
            pauses: [HabitPause(from: start.adding(days: 10))],
            celebrated: [CelebratedMilestone(days: 7, runStart: start)])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(habit)
        let text = String(decoding: data, as: UTF8.self)
        // Days 0 and 4 from the first: one byte, 0b0001_0001.
        #expect(text.contains("\"done\":{\"bits\":\"EQ==\",\"from\":\(start.daysSinceEpoch)}"), "\(text)")
        #expect(try JSONDecoder().decode(Habit.self, from: data) == habit)
    }

    @Test(arguments: [0, 1, 7, 8, 9, 365, 1000])
    func anyHistoryRoundTrips(length: Int) throws {
        let start = LocalDate(year: 2025, month: 1, day: 1)!
        let days = Set((0..<length).filter { $0 % 3 != 1 }.map { start.adding(days: $0) })
        let habit = Habit(
            name: "Walk", start: start, createdAt: Date(timeIntervalSince1970: 0), completions: DaySet(days))
        let decoded = try JSONDecoder().decode(Habit.self, from: try JSONEncoder().encode(habit))
        #expect(Set(decoded.completions) == days)
    }

    @Test func theEarlierListOfDayNumbersStillReads() throws {
        let json = """
            {"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","name":"Walk","schedule":{"daily":{}},"start":"2026-11-01",
             "createdAt":0,"completions":[20393,20395],"resets":[],"pauses":[],"celebrated":[]}
            """
        let habit = try JSONDecoder().decode(Habit.self, from: Data(json.utf8))
        #expect(habit.completions.map(\.daysSinceEpoch).sorted() == [20393, 20395])
    }
}
