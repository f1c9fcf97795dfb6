import Foundation
import HoorayCalendar
import HoorayKit
import HoorayTesting
import Testing

@testable import WaterPlugin

/// The water plugin on the real engine with a manual clock (`PluginWorld`): when its reminders come,
/// after a sleep, across a daylight-saving change and a restart.
@Suite struct WaterWorldTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    func world(
        _ configuration: WaterConfiguration = WaterConfiguration(), at start: String,
        catchUpWithin: Duration = .seconds(7200)
    ) async throws -> PluginWorld<WaterPlugin> {
        try await PluginWorld(
            plugin: WaterPlugin(), configuration: configuration, now: time(start, in: Self.berlin),
            timeZone: Self.berlin, catchUpWithin: catchUpWithin)
    }

    /// The wall-clock times in Berlin at which these notices were shown.
    func berlinTimes(_ shown: [ShownNotice]) -> [String] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = Self.berlin
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return shown.map { formatter.string(from: $0.shownAt) }
    }

    @Test func aDayBringsAReminderEveryTwoHoursFromNineToNine() async throws {
        let world = try await world(at: "2026-11-23 07:00")
        await world.advance(to: time("2026-11-24 08:00", in: Self.berlin))
        let shown = await world.shown
        #expect(
            berlinTimes(shown) == [
                "2026-11-23 09:00", "2026-11-23 11:00", "2026-11-23 13:00", "2026-11-23 15:00", "2026-11-23 17:00",
                "2026-11-23 19:00", "2026-11-23 21:00",
            ])
        #expect(shown.allSatisfy { $0.title == "A glass of water?" && $0.actionIDs == ["drank"] })
        #expect(await world.nextDue == time("2026-11-24 09:00", in: Self.berlin))
    }

    @Test func theDrankButtonCountsAndTheGoalIsCelebratedOnceThenTheDayIsLeftInPeace() async throws {
        let world = try await world(WaterConfiguration(goal: 2), at: "2026-11-23 08:00")
        await world.advance(to: time("2026-11-23 09:00", in: Self.berlin))
        try await world.press("drank", on: try #require(await world.shown.last))
        await world.advance(to: time("2026-11-23 11:00", in: Self.berlin))
        let second = try #require(await world.shown.last)
        #expect(second.body == "1 of 2 so far today. A few sips count too.")

        try await world.press("drank", on: second)
        #expect(await world.shown.map(\.title).last == "2 glasses of water today")
        // The goal is reached: no more reminders today, nor another celebration; tomorrow they come again.
        await world.advance(to: time("2026-11-24 09:00", in: Self.berlin))
        #expect(
            await world.shown.map(\.title) == [
                "A glass of water?", "A glass of water?", "2 glasses of water today", "A glass of water?",
            ])
        #expect(try await world.run("today").text == "No glasses counted yet today; `hooray water drink` counts one.")
    }

    @Test(arguments: [Duration.seconds(7200), .seconds(12 * 3600)])
    func afterASleepOverSeveralRemindersOnlyOneIsShown(catchUpWithin: Duration) async throws {
        // Whether the user lets reminders be two or twelve hours late,
        let world = try await world(at: "2026-11-23 08:00", catchUpWithin: catchUpWithin)
        await world.advance(to: time("2026-11-23 09:30", in: Self.berlin))
        // a computer asleep from 09:30 to 16:30 missed the reminders of 11:00, 13:00 and 15:00:
        await world.suspend(until: time("2026-11-23 16:30", in: Self.berlin))
        // on waking, one reminder is shown, not three; the others are told in one "While you were away".
        // Those too late to show (with a 2-hour limit: 11:00 and 13:00) are told in one notice; with
        // a 12-hour limit none is too late, and the water plugin shows only the latest.
        let away = await world.shown.filter { $0.title == "While you were away" }
        #expect(away.count == (catchUpWithin == .seconds(7200) ? 1 : 0))
        let reminders = await world.shown.filter { $0.title != "While you were away" }
        #expect(berlinTimes(reminders) == ["2026-11-23 09:00", "2026-11-23 16:30"])
        await world.advance(to: time("2026-11-23 17:00", in: Self.berlin))
        #expect(berlinTimes(await world.shown).last == "2026-11-23 17:00")
    }

    @Test func onTheNightClocksGoForwardAMissingTimeComesAnHourLater() async throws {
        // Night-owl reminders at 00:00, 02:00 and 04:00; on 29 March 2026 Berlin skips from 02:00 to 03:00.
        let nights = WaterConfiguration(from: TimeOfDay(hour: 0)!, until: TimeOfDay(hour: 4)!)
        let world = try await world(nights, at: "2026-03-28 23:00")
        await world.advance(to: time("2026-03-29 12:00", in: Self.berlin))
        #expect(berlinTimes(await world.shown) == ["2026-03-29 00:00", "2026-03-29 03:00", "2026-03-29 04:00"])
        // In UTC the 04:00 reminder is three hours after midnight's, not four.
        let instants = await world.shown.map(\.shownAt)
        #expect(instants[2].timeIntervalSince(instants[0]) == 3 * 3600)
    }

    @Test func onTheNightClocksGoBackARepeatedTimeIsShownOnce() async throws {
        // On 25 October 2026 Berlin goes from 03:00 back to 02:00: 02:00 happens twice.
        let nights = WaterConfiguration(from: TimeOfDay(hour: 0)!, until: TimeOfDay(hour: 4)!)
        let world = try await world(nights, at: "2026-10-24 23:00")
        await world.advance(to: time("2026-10-25 12:00", in: Self.berlin))
        let instants = await world.shown.map(\.shownAt)
        #expect(instants == [time("2026-10-24 22:00"), time("2026-10-25 00:00"), time("2026-10-25 03:00")])
    }

    @Test func aDayAcrossTheChangeCountsFromLocalMidnight() async throws {
        let world = try await world(at: "2026-03-28 23:30")
        try await world.run("drink")
        await world.advance(to: time("2026-03-29 00:30", in: Self.berlin))
        let reply = try await world.run("drink", "--json")
        #expect(reply.json?["date"] == .string("2026-03-29"))
        #expect(reply.json?["glasses"] == .number(1))
        await world.advance(to: time("2026-03-29 22:00", in: Self.berlin))
        #expect(await world.shown.count == 7)
    }

    @Test func aRestartKeepsTheCountAndShowsNothingTwice() async throws {
        let world = try await world(at: "2026-11-23 08:00")
        await world.advance(to: time("2026-11-23 09:00", in: Self.berlin))
        try await world.run("drink", "--glasses", "3")
        try await world.press("drank", on: try #require(await world.shown.first))

        try await world.restart(after: .seconds(600))
        #expect(try await world.run("today").text == "4 of 8 glasses today.")
        #expect(await world.shown.count == 1, "the 09:00 reminder is not shown again")
        await world.advance(to: time("2026-11-23 11:00", in: Self.berlin))
        #expect(await world.shown.last?.body == "4 of 8 so far today. A few sips count too.")
    }

    @Test func aMistypedOptionIsRefusedAsTheCommandLineWouldRefuseIt() async throws {
        let world = try await world(at: "2026-11-23 08:00")
        await #expect(throws: PluginWorldError.self) { try await world.run("drink", "--glass", "2") }
        await #expect(throws: PluginCommandError.self) { try await world.run("drink", "--glasses", "lots") }
        #expect(try await world.run("today", "--json").json?["glasses"] == .number(0))
        #expect(await world.log.filter { $0.level >= .error }.isEmpty)
    }
}
