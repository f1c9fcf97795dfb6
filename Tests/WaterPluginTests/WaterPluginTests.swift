import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayKitTesting
import Testing

@testable import WaterPlugin

/// An instant given as wall-clock time in a zone, such as `2026-11-23 09:00` in Europe/Berlin.
func time(_ text: String, in zone: TimeZone = TimeZone(identifier: "UTC")!) -> Date {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = zone
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter.date(from: text)!
}

/// The water plugin against HoorayKitTesting's fakes: its reminders, commands, button and celebration.
@Suite struct WaterPluginTests {
    /// Monday 23 November 2026, 08:00 UTC.
    static let monday = time("2026-11-23 08:00")

    func setUp(_ configuration: WaterConfiguration = WaterConfiguration()) async throws -> PluginTestHarness {
        let harness = PluginTestHarness(pluginName: "water", now: Self.monday, configuration: configuration)
        try await WaterPlugin().activate(context: harness.context, configuration: configuration)
        return harness
    }

    func run(_ harness: PluginTestHarness, _ command: CommandInvocation, goal: Int = 8) async throws -> CommandReply {
        try await WaterPlugin().run(command, context: harness.context, configuration: WaterConfiguration(goal: goal))
    }

    func drink(_ glasses: Int? = nil) -> CommandInvocation {
        CommandInvocation(command: "drink", values: glasses.map { ["glasses": ["\($0)"]] } ?? [:], json: true)
    }

    @Test func itIsOffUntilEnabled() {
        #expect(!WaterPlugin().isEnabledByDefault)
    }

    @Test func aReminderEveryTwoHoursFromNineToNineWithADrankButton() async throws {
        let harness = try await setUp()
        let reminders = try await harness.reminders.list().map(\.reminder)
        #expect(
            reminders.map(\.id) == [
                "glass-09:00", "glass-11:00", "glass-13:00", "glass-15:00", "glass-17:00", "glass-19:00", "glass-21:00",
            ])
        #expect(reminders.first?.schedule == .daily(at: TimeOfDay(hour: 9)!, zone: TimeZone(identifier: "UTC")!))
        #expect(reminders.allSatisfy { $0.notice.actions.map(\.label) == ["Drank a glass"] })
    }

    @Test func fromAndUntilSetTheFirstAndLastReminder() async throws {
        let harness = try await setUp(
            WaterConfiguration(from: TimeOfDay(hour: 7, minute: 30)!, until: TimeOfDay(hour: 12)!))
        #expect(try await harness.reminders.list().map(\.reminder.id) == ["glass-07:30", "glass-09:30", "glass-11:30"])
    }

    @Test func drinkCountsAGlassAndTellsTodaysCount() async throws {
        let harness = try await setUp()
        let first = try await run(harness, drink())
        #expect(first.text == "Counted. 1 of 8 glasses today.")
        let more = try await run(harness, drink(2))
        #expect(more.text == "Counted. 3 of 8 glasses today.")
        #expect(more.json == (try JSONValue(json: #"{"date": "2026-11-23", "glasses": 3, "goal": 8}"#)))
        let today = try await run(harness, CommandInvocation(command: "today"))
        #expect(today.text == "3 of 8 glasses today.")
    }

    @Test func todayStartsAtMidnightInTheUsersTimeZone() async throws {
        let harness = try await setUp()
        _ = try await run(harness, drink())
        harness.clock.set(to: time("2026-11-23 12:00"))
        // 12:00 UTC is still Monday in London, but already 01:00 on Tuesday in Auckland: a new day.
        let london = CommandEnvironment(timeZoneIdentifier: "Europe/London")
        #expect(
            try await run(harness, CommandInvocation(command: "today", environment: london)).text
                == "1 of 8 glasses today.")
        let auckland = CommandEnvironment(timeZoneIdentifier: "Pacific/Auckland")
        let today = try await run(harness, CommandInvocation(command: "today", json: true, environment: auckland))
        #expect(today.json?["date"] == .string("2026-11-24"))
        #expect(today.text == "No glasses counted yet today; `hooray water drink` counts one.")
    }

    @Test(arguments: ["0", "21", "two", "-1"])
    func aBadNumberOfGlassesIsRefusedAndNothingIsCounted(given: String) async throws {
        let harness = try await setUp()
        let command = CommandInvocation(command: "drink", values: ["glasses": [given]])
        await #expect(
            throws: PluginCommandError.invalidValue(
                "--glasses", "--glasses \(given) is not a number of glasses; give 1 to 20, such as --glasses 2")
        ) {
            try await run(harness, command)
        }
        #expect(try await run(harness, CommandInvocation(command: "today", json: true)).json?["glasses"] == .number(0))
    }

    @Test func reachingTheGoalIsCelebratedOnceADay() async throws {
        let harness = try await setUp()
        let seven = try await run(harness, drink(7))
        #expect(await harness.celebrations.celebrations.isEmpty)
        #expect(!seven.text.contains("✓"))

        let eighth = try await run(harness, drink())
        let celebration = try #require(await harness.celebrations.celebrations.first)
        #expect(celebration.title == "8 glasses of water today")
        #expect(celebration.size == .big)
        #expect(eighth.text.hasPrefix("Counted. 8 of 8 glasses today.\n✓ 8 glasses of water today — "))
        #expect(await harness.notices.notices.map(\.title) == ["8 glasses of water today"])

        // More glasses, and a button pressed, are counted without another celebration.
        _ = try await run(harness, drink())
        let reminder = try #require(try await harness.reminders.list().first).reminder
        let due = DueReminder(reminder: reminder, dueAt: harness.clock.now)
        try await harness.press("drank", on: reminder.notice, from: due, of: WaterPlugin())
        #expect(try await run(harness, CommandInvocation(command: "today")).text == "10 of 8 glasses today.")
        #expect(await harness.celebrations.celebrations.count == 1)

        // The next day starts again.
        harness.clock.advance(by: 24 * 3600)
        _ = try await run(harness, drink(8))
        #expect(await harness.celebrations.celebrations.count == 2)
    }

    @Test func theDrankButtonCountsAGlassAndCelebratesAtTheConfiguredGoal() async throws {
        let harness = try await setUp(WaterConfiguration(goal: 2))
        let reminder = try #require(try await harness.reminders.list().first).reminder
        let due = DueReminder(reminder: reminder, dueAt: harness.clock.now)
        try await harness.press("drank", on: reminder.notice, from: due, of: WaterPlugin())
        #expect(await harness.celebrations.celebrations.isEmpty)
        try await harness.press("drank", on: reminder.notice, from: due, of: WaterPlugin())
        #expect(await harness.celebrations.celebrations.map(\.title) == ["2 glasses of water today"])
        let today = try await run(harness, CommandInvocation(command: "today"), goal: 2)
        #expect(today.text == "2 of 2 glasses today.")
    }

    @Test func aCelebrationThatCannotBeShownLosesNoGlass() async throws {
        let harness = try await setUp(WaterConfiguration(goal: 1))
        let failing = harness.context(celebrations: FailingCelebrationCenter())
        // The button that reaches the goal counts its glass, though the celebration fails...
        let reminder = try #require(try await harness.reminders.list().first).reminder
        try await WaterPlugin().actionInvoked(
            InvokedAction(notice: NoticeID(rawValue: 1), actionID: "drank", reminderID: reminder.id), context: failing)
        #expect(try await run(harness, CommandInvocation(command: "today"), goal: 1).text == "1 of 1 glasses today.")
        // ...and so does the command, the next day: it says the glass was counted.
        harness.clock.advance(by: 24 * 3600)
        let reply = try await WaterPlugin().run(drink(), context: failing, configuration: WaterConfiguration(goal: 1))
        #expect(reply.text == "Counted. 1 of 1 glasses today.")
    }

    @Test func theReminderSaysHowFarTheDayIsAndRestsOnceTheGoalIsReached() async throws {
        let harness = try await setUp(WaterConfiguration(goal: 3))
        let plugin = WaterPlugin()
        let reminder = try #require(try await harness.reminders.list().first).reminder
        let nine = DueReminder(reminder: reminder, dueAt: time("2026-11-23 09:00"))

        #expect(try await plugin.reminderDue(nine, context: harness.context)?.body == "A few sips count too.")
        _ = try await run(harness, drink(2), goal: 3)
        #expect(
            try await plugin.reminderDue(nine, context: harness.context)?.body
                == "2 of 3 so far today. A few sips count too.")
        _ = try await run(harness, drink(), goal: 3)
        #expect(try await plugin.reminderDue(nine, context: harness.context) == nil, "no reminders after the goal")
    }

    @Test func aLateReminderFollowedByAnotherIsNotShown() async throws {
        let harness = try await setUp()
        let plugin = WaterPlugin()
        let reminder = try #require(try await harness.reminders.list().first).reminder
        // The computer slept from 08:00 to 11:30: the 09:00 reminder is two and a half hours late.
        harness.clock.set(to: time("2026-11-23 11:30"))
        let late = DueReminder(reminder: reminder, dueAt: time("2026-11-23 09:00"), isCatchUp: true)
        #expect(try await plugin.reminderDue(late, context: harness.context) == nil)
        // Half an hour late, with no other reminder since, it is still worth showing.
        harness.clock.set(to: time("2026-11-23 09:30"))
        #expect(try await plugin.reminderDue(late, context: harness.context) != nil)
    }

    @Test func theConfigurationIsChecked() throws {
        func decode(_ json: String) throws -> WaterConfiguration {
            try JSONDecoder().decode(WaterConfiguration.self, from: Data(json.utf8))
        }
        #expect(try decode("{}") == WaterConfiguration())
        #expect(try decode(#"{"goal": 6, "from": "08:00"}"#).times.first == TimeOfDay(hour: 8))
        #expect(throws: DecodingError.self) { try decode(#"{"goal": 0}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"from": "22:00"}"#) }
    }
}

/// A celebration center whose notices cannot be posted, as when the database is full.
struct FailingCelebrationCenter: CelebrationCenter {
    var style: CelebrationStyle { .calm }
    struct Failure: Error {}

    func celebrate(_ celebration: Celebration) async throws -> CelebrationOutcome {
        throw Failure()
    }
}
