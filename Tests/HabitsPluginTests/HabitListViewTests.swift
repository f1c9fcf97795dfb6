import Foundation
import HoorayCalendar
import HoorayKit
import Testing

@testable import HabitsPlugin

@Suite struct HabitListViewTests {
    static let today = nov("22")  // a Sunday

    static let read = makeHabit(
        "Read 10 pages", start: "2026-10-24", done: days("2026-10-24", through: "2026-11-22"),
        id: UUID(uuidString: "3F2A9C1B-0000-4000-8000-000000000001")!, why: "To become wiser and calmer.",
        remindAt: TimeOfDay(hour: 20))

    /// Five habits in no order: done, due, not due, paused, and brand new.
    static let habits = [
        makeHabit(
            "Walk", start: "2026-11-10", done: days("2026-11-10", through: "2026-11-19"), pauses: [pause("2026-11-20")]),
        read,
        makeHabit(
            "Stretch", schedule: .weekdays([.monday, .wednesday, .friday]), start: "2026-11-02", done: [nov("20")]),
        makeHabit(
            "meditate", schedule: .everyNDays(3), start: "2026-11-01",
            done: ["01", "04", "07", "10", "13", "16", "19"].map(nov)),
        makeHabit("Journal", start: "2026-11-22"),
    ]

    @Test func theListShowsStreaksTodayAndBadgesSortedByName() {
        let text = HabitListView.text(Self.habits, today: Self.today, milestones: Habit.defaultMilestones)
        #expect(
            text == """
                NAME           STREAK   TODAY    SCHEDULE            BADGE
                Journal        0 days   due      every day
                meditate       7 days   due      every 3 days        7 Day
                Read 10 pages  30 days  done     every day at 20:00  30 Day
                Stretch        1 day    not due  mon, wed, fri
                Walk           10 days  paused   every day           7 Day
                """)
    }

    @Test func withoutHabitsTheListInvitesTheFirstOne() {
        #expect(
            HabitListView.text([], today: Self.today, milestones: Habit.defaultMilestones)
                == "No habits yet. Add your first one: hooray habit add \"Read 10 pages\" --why \"To become wiser and calmer.\""
        )
        #expect(HabitListView.json([], today: Self.today, milestones: Habit.defaultMilestones) == "[]")
    }

    @Test func aHabitAsJSONHasSortedKeysAndIsPretty() {
        let json = HabitListView.json([Self.read], today: Self.today, milestones: Habit.defaultMilestones)
        #expect(
            json == """
                [
                  {
                    "badge" : 30,
                    "id" : "3f2a9c1b-0000-4000-8000-000000000001",
                    "name" : "Read 10 pages",
                    "paused" : false,
                    "remindAt" : "20:00",
                    "schedule" : "every day",
                    "streak" : 30,
                    "today" : "done",
                    "why" : "To become wiser and calmer."
                  }
                ]
                """)
    }

    @Test func theJSONListHasOneObjectPerHabitWithNullsForWhatIsAbsent() throws {
        let json = HabitListView.json(Self.habits, today: Self.today, milestones: Habit.defaultMilestones)
        let objects = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["name"] as? String } == ["Journal", "meditate", "Read 10 pages", "Stretch", "Walk"])
        let keys: Set = ["id", "name", "streak", "today", "schedule", "remindAt", "badge", "why", "paused"]
        #expect(objects.allSatisfy { Set($0.keys) == keys })
        #expect(objects.map { $0["today"] as? String } == ["due", "due", "done", "notDue", "paused"])
        #expect(objects.map { $0["streak"] as? Int } == [0, 7, 30, 1, 10])
        #expect(objects.map { $0["badge"] as? Int } == [nil, 7, 30, nil, 7])
        #expect(objects.map { $0["paused"] as? Bool } == [false, false, false, false, true])
        #expect(
            objects.map { $0["schedule"] as? String } == [
                "every day", "every 3 days", "every day", "mon, wed, fri", "every day",
            ])
        let walk = objects[4]
        #expect(objects[0]["badge"] is NSNull)
        #expect(walk["remindAt"] is NSNull)
        #expect(walk["why"] is NSNull)
    }

    @Test func aHabitDoneOnANotDueDayIsDoneToday() {
        let extra = makeHabit("Stretch", schedule: .weekdays([.monday]), start: "2026-11-02", done: [Self.today])
        let text = HabitListView.text([extra], today: Self.today, milestones: Habit.defaultMilestones)
        #expect(text.split(separator: "\n").last == "Stretch  0 days  done   mon")
    }
}
