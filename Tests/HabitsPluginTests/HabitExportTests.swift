import Foundation
import HoorayCalendar
import HoorayKit
import Testing

@testable import HabitsPlugin

/// A habit in `hooray export`: its history as lists of days, read back strictly.
@Suite struct HabitExportTests {
    static func day(_ text: String) -> LocalDate { LocalDate(parsing: text)! }

    static let habit = Habit(
        name: "Water the ferns", why: "They were a gift", schedule: .weekdays([.friday, .monday]),
        start: day("2026-11-15"), remindAt: TimeOfDay(parsing: "20:00"),
        createdAt: Date(timeIntervalSince1970: 1_794_729_600.25),
        completions: [day("2026-11-16"), day("2026-11-20"), day("2026-11-23")],
        resets: [HabitReset(day: day("2026-11-21"), note: "Travelling")],
        pauses: [HabitPause(from: day("2026-11-17"), through: day("2026-11-18")), HabitPause(from: day("2026-11-25"))],
        celebrated: [CelebratedMilestone(days: 3, runStart: day("2026-11-16"))])

    @Test func aHabitIsWrittenAsDaysAndReadBackTheSame() throws {
        let value = try Self.habit.exportValue()
        #expect(value["done"] == .array(["2026-11-16", "2026-11-20", "2026-11-23"].map(JSONValue.string)))
        #expect(value["schedule"] == .object(["days": .array([.string("mon"), .string("fri")])]))
        #expect(value["createdAt"] == .string("2026-11-15T08:00:00.25Z"))
        #expect(
            value["paused"]?.text()
                == #"[{"from":"2026-11-17","through":"2026-11-18"},{"from":"2026-11-25","through":null}]"#)
        #expect(value["resets"]?.text() == #"[{"day":"2026-11-21","note":"Travelling"}]"#)
        #expect(value["id"] == nil, "the id is written once, beside the value")
        let stored = try Habit.storedRecord(fromExport: value, id: Self.habit.recordID)
        #expect(try RecordBook<Habit>.decode(stored.data) == Self.habit)
        #expect(stored.date == .day(Self.day("2026-11-15")))
    }

    @Test(arguments: [
        (
            "done", JSONValue.array([.string("2026-11-16"), .string("2026-11-16")]),
            "done[1]: 2026-11-16 is listed twice"
        ),
        ("done", .array([.string("16/11/2026")]), "done[0]: \"16/11/2026\" is not a date"),
        ("schedule", .object(["every": .string("week")]), "schedule.every: \"week\" is not \"day\""),
        ("schedule", .object(["days": .array([.string("mon"), .string("funday")])]), "schedule.days[1]"),
        ("schedule", .object(["everyDays": .number(0)]), "schedule.everyDays: 0 is not 1 or more"),
        (
            "paused", .array([.object(["from": .string("2026-11-18"), "through": .string("2026-11-17")])]),
            "paused[0].through: 2026-11-17 is before the pause's first day"
        ),
        ("start", .null, "start: it is"),
    ])
    func aWrongFieldIsRefusedByName(field: String, value: JSONValue, words: String) throws {
        guard case .object(var members) = try Self.habit.exportValue() else { Issue.record("not an object"); return }
        members[field] = value
        #expect {
            _ = try Habit.storedRecord(fromExport: .object(members), id: Self.habit.recordID)
        } throws: { error in
            "\(error)".contains(words)
        }
    }
}
