import Foundation
import HoorayKit
import Testing

@testable import HabitsPlugin

@Suite struct HabitCodingTests {
    @Test func aHabitSurvivesEncodingWithItsHistoryStoredAsDayNumbers() throws {
        let start = LocalDate(year: 2026, month: 11, day: 1)!
        let habit = Habit(
            name: "Read 10 pages", why: "To become wiser and calmer.", schedule: .weekdays([.monday, .friday]),
            start: start, remindAt: TimeOfDay(hour: 20), createdAt: Date(timeIntervalSince1970: 1_790_000_000),
            completions: [start, start.adding(days: 4)], resets: [HabitReset(day: start.adding(days: 7), note: "Late")],
            pauses: [HabitPause(from: start.adding(days: 10))],
            celebrated: [CelebratedMilestone(days: 7, runStart: start)])
        let data = try JSONEncoder().encode(habit)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"completions\":[\(start.daysSinceEpoch),\(start.daysSinceEpoch + 4)]"))
        #expect(try JSONDecoder().decode(Habit.self, from: data) == habit)
    }
}
