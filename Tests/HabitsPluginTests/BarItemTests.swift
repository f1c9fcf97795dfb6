import Foundation
import HoorayCommandLine
import HoorayKit
import HoorayTesting
import Testing

@testable import HabitsPlugin

/// What the habits plugin puts on the status bar (`hooray bar`): done of due today, the best streak.
@Suite struct HabitsBarItemTests {
    // Monday 2026-11-23, 09:00 UTC.
    static let monday = Date(timeIntervalSince1970: 1_795_424_400)

    func world() async throws -> PluginWorld<HabitsPlugin> {
        try await PluginWorld(plugin: HabitsPlugin(), configuration: HabitsConfiguration(), now: Self.monday)
    }

    @Test func withoutHabitsNothingGoesOnTheBar() async throws {
        let world = try await world()
        #expect(await world.barSnapshot().items.isEmpty)
    }

    @Test func habitsDueTodayAreCountedWithTheBestStreakAndTheNextReminder() async throws {
        let world = try await world()
        try await world.run("add", "Read", "--remind", "20:00")
        try await world.run("add", "Walk")
        // Due on Sundays only: not counted on a Monday.
        try await world.run("add", "Stretch", "--on", "sun")
        try await world.run("done", "Read")
        let snapshot = await world.barSnapshot()
        let item = try #require(snapshot.items.first?.item)
        #expect(snapshot.items.count == 1)
        #expect(item.text == "✅ 1/2")
        #expect(item.tooltip == "Habits: 1 of 2 done today")
        #expect(item.progress == BarProgress(done: 1, due: 2))
        #expect(item.streak == BarStreak(days: 1, name: "Read"))
        // Read is done today: its 20:00 reminder will not come, so it is not the bar's next.
        #expect(snapshot.next == nil)

        try await world.run("done", "Walk")
        let all = try #require(await world.barSnapshot().items.first?.item)
        #expect(all.text == "✅ 2/2")
        #expect(all.tooltip == "Habits: all 2 done today")
        // Both at one day: the first by name, so the line does not change from one moment to the next.
        #expect(all.streak == BarStreak(days: 1, name: "Read"))
    }

    @Test func aHabitDoneOnADayItWasNotDueCountsAsDone() async throws {
        let world = try await world()
        try await world.run("add", "Stretch", "--on", "sun")
        #expect(await world.barSnapshot().items.map(\.item.text) == [""])
        try await world.run("done", "Stretch")
        #expect(await world.barSnapshot().items.map(\.item.text) == ["✅ 1/1"])
    }
}
