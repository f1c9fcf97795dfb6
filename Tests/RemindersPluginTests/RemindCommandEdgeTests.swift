import Foundation
import HoorayCommandLine
import HoorayKit
import HoorayKitTesting
import HoorayTesting
import Testing

@testable import RemindersPlugin

/// `hooray remind` where its reminders meet the rest of Hooray: imports, snoozes, quiet hours,
/// reloads racing a command, ids written in hooray.toml and other time zones.
@Suite struct RemindCommandEdgeTests {
    static let tuesday = RemindCommandPluginTests.tuesday
    let helper = RemindCommandPluginTests()

    func world(_ entries: [[String: String]] = []) async throws -> PluginWorld<RemindersPlugin> {
        try await helper.world(entries)
    }

    func run(_ world: PluginWorld<RemindersPlugin>, _ words: String...) async throws -> CommandReply {
        try await world.run(try helper.parse(words))
    }

    func book(_ world: PluginWorld<RemindersPlugin>) throws -> RecordBook<CommandLineReminder> {
        RecordBook(store: try #require(world.storage as? any RecordStore))
    }

    // MARK: A one-off that will not come

    @Test func aOneOffImportedAfterItsTimeIsDoneAndPrunedLikeAShownOne() async throws {
        let world = try await world()
        // As `hooray import --apply` adds it: the record alone, from an export made before it came due.
        let record = CommandLineReminder(
            id: "r5", title: "Tea", body: "", once: Self.tuesday.addingTimeInterval(20 * 60),
            zone: "UTC", createdAt: Self.tuesday.addingTimeInterval(-3600))
        try await book(world).insert(record)
        await world.advance(by: .seconds(3600))
        // Not listed even before the daemon activates the plugin again...
        #expect(try await helper.listed(world).isEmpty)
        // ...nor after the reload that follows an import; it is not shown late either.
        try await world.reload(configuration: await world.configuration)
        #expect(try await helper.listed(world).isEmpty)
        await world.advance(by: .seconds(3600))
        #expect(await world.shown.isEmpty)
        #expect(try await book(world).record("r5")?.shownAt == record.once)
        let error = try #require(await helper.refusal(world, ["remove", "r5"]))
        #expect(error.message.contains("r5 (Tea) was a one-off and came due today 10:20"), "\(error.message)")
        #expect(error.message.contains("nothing left to remove"))

        // A week later it is gone from the book, as a shown one is.
        await world.advance(by: .seconds(8 * 86400))
        try await world.reload(configuration: await world.configuration)
        #expect(try await book(world).record("r5") == nil)
        #expect(try await world.reminders().isEmpty)
    }

    @Test func aOneOffImportedBeforeItsTimeIsStillShown() async throws {
        let world = try await world()
        let record = CommandLineReminder(
            id: "r5", title: "Tea", body: "", once: Self.tuesday.addingTimeInterval(20 * 60),
            zone: "UTC", createdAt: Self.tuesday.addingTimeInterval(-3600))
        try await book(world).insert(record)
        try await world.reload(configuration: await world.configuration)
        #expect(try await helper.listed(world).map { $0["id"] } == [.string("r5")])
        await world.advance(by: .seconds(30 * 60))
        #expect(await world.shown.map(\.title) == ["Tea"])
        #expect(try await helper.listed(world).isEmpty)
    }

    @Test("Item 11: --in comes on the minute it shows, not seconds past it")
    func inComesOnTheMinuteItShows() async throws {
        // 10:00:58: two minutes on is 10:02:58; shown as 10:03 and due at 10:03:00.
        let harness = PluginTestHarness(pluginName: "reminders", now: Self.tuesday.addingTimeInterval(58))
        let reply = try await RemindersPlugin().run(
            try helper.parse(["add", "Tea", "--in", "2m"]), context: harness.context, configuration: .init())
        #expect(reply.text.hasPrefix("Added r1: Tea, once, today 10:03."), "\(reply.text)")
        let reminder = try #require(await harness.reminders.reminders["r1"])
        #expect(reminder.schedule == .once(at: Self.tuesday.addingTimeInterval(3 * 60)))
    }

    @Test func aSkippedOneOffLeavesTheList() async throws {
        let harness = PluginTestHarness(pluginName: "reminders", now: Self.tuesday)
        let plugin = RemindersPlugin()
        _ = try await plugin.run(
            try helper.parse(["add", "Tea", "--in", "20m"]), context: harness.context, configuration: .init())
        let reminder = try #require(await harness.reminders.reminders["r1"])
        harness.clock.advance(by: 3 * 3600)
        try await plugin.reminderSkipped(
            SkippedReminder(reminder: reminder, dueAt: Self.tuesday.addingTimeInterval(20 * 60)),
            context: harness.context)
        var list = try helper.parse(["list"])
        list.json = true
        let reply = try await plugin.run(list, context: harness.context, configuration: .init())
        #expect(reply.json == .array([]))
    }

    // MARK: Removing a one-off whose notice has not reached the screen

    @Test func removingASnoozedOneOffSaysSoAndStopsItComingBack() async throws {
        let world = try await world()
        _ = try await run(world, "add", "Tea", "--in", "20m")
        await world.advance(by: .seconds(21 * 60))
        let shown = try #require(await world.shown.first)
        try await world.press("snooze", on: shown)

        let edit = try #require(await helper.refusal(world, ["edit", "r1", "--in", "5m"]))
        #expect(
            edit.message.contains("r1 (Tea) was a one-off and came due today 10:20; it is snoozed until today 11:21"))
        let removed = try await run(world, "remove", "r1")
        #expect(
            removed.text
                == "Removed r1: Tea. It came due today 10:20 and was snoozed until today 11:21; it will not come back.")
        await world.advance(by: .seconds(3 * 3600))
        #expect(await world.shown.map(\.title) == ["Tea"])
        #expect(try await book(world).record("r1") == nil)
    }

    @Test func removingAOneOffHeldForQuietHoursSaysItWillStillBeShown() async throws {
        let harness = PluginTestHarness(pluginName: "reminders", now: Self.tuesday)
        let held = QuietBook(inner: harness.reminders, until: Self.tuesday.addingTimeInterval(21 * 3600 + 30 * 60))
        let context = harness.context(reminders: held)
        let plugin = RemindersPlugin()
        _ = try await plugin.run(
            try helper.parse(["add", "Tea", "--in", "20m"]), context: context, configuration: .init())
        harness.clock.advance(by: 21 * 60)
        let due = DueReminder(
            reminder: try #require(await harness.reminders.reminders["r1"]),
            dueAt: Self.tuesday.addingTimeInterval(20 * 60))
        _ = try await plugin.reminderDue(due, context: context)

        let reply = try await plugin.run(try helper.parse(["remove", "r1"]), context: context, configuration: .init())
        #expect(
            reply.text
                == "Removed r1: Tea. It came due today 10:21 and waits: quiet hours until 07:30 (shown at tomorrow 07:30). "
                + "That notice will still be shown then; `hooray inbox` has it meanwhile.")
        #expect(await harness.reminders.reminders["r1"] == nil)
    }

    // MARK: A reload racing a command

    @Test func aReloadRacingAnAddOrARemoveKeepsWhatTheCommandDid() async throws {
        let harness = PluginTestHarness(pluginName: "reminders", now: Self.tuesday)
        let racing = RacingBook(inner: harness.reminders)
        let context = harness.context(reminders: racing)
        let plugin = RemindersPlugin()
        _ = try await plugin.run(
            try helper.parse(["add", "A", "--at", "10:00"]), context: context, configuration: .init())
        // While the reload replaces the plan, `hooray remind` removes r1 and adds r2.
        await racing.whileReplacing {
            _ = try await plugin.run(try helper.parse(["remove", "r1"]), context: context, configuration: .init())
            _ = try await plugin.run(
                try helper.parse(["add", "B", "--at", "11:00"]), context: context, configuration: .init())
        }
        try await plugin.activate(context: context, configuration: .init())
        #expect(await racing.raced)
        #expect(await harness.reminders.reminders.keys.sorted() == ["r2"])
    }

    // MARK: Ids written in hooray.toml

    @Test func anIDWithCapitalsInTheFileIsPointedToTheFile() async throws {
        let world = try await world([["id": "Stretch", "title": "Stretch", "at": "15:00"]])
        for words in [["edit", "Stretch", "--at", "16:00"], ["remove", "stretch"]] {
            let error = try #require(await helper.refusal(world, words))
            #expect(error.message.hasPrefix("Stretch is written in hooray.toml"), "\(error.message)")
        }
    }

    // MARK: Zones

    @Test func aReminderAddedInAnotherZoneKeepsItsTimeAcrossAReload() async throws {
        // hoorayd in UTC; the command given in a shell with TZ=America/New_York.
        let world = try await world()
        var add = try helper.parse(["add", "Call", "mom", "--at", "18:00"])
        add.environment = CommandEnvironment(timeZoneIdentifier: "America/New_York")
        let reply = try await world.run(add)
        #expect(reply.text.hasPrefix("Added r1: Call mom, every day at 18:00 — next: today 18:00."), "\(reply.text)")
        // 18:00 in New York is 23:00 UTC in November.
        let evening = Self.tuesday.addingTimeInterval(13 * 3600)
        #expect(try await world.reminders().first?.nextDue == evening)
        try await world.reload(configuration: await world.configuration)
        try await world.restart()
        #expect(try await world.reminders().first?.nextDue == evening)
        // In the daemon's own zone the list says which zone it keeps.
        let listed = try await helper.listed(world)
        #expect(listed.first?["zone"] == .string("America/New_York"))
        #expect(listed.first?["schedule"] == .string("every day at 18:00 (America/New_York)"))
    }
}

/// A reminder book whose notices are all held for quiet hours until `until`.
struct QuietBook: ReminderBook {
    let inner: InMemoryReminderBook
    let until: Date

    func schedule(_ reminder: Reminder) async throws -> ScheduledReminder { try await inner.schedule(reminder) }
    func cancel(id: String) async throws { try await inner.cancel(id: id) }
    func list() async throws -> [ScheduledReminder] { try await inner.list() }
    func replaceAll(with reminders: [Reminder]) async throws { try await inner.replaceAll(with: reminders) }
    func snooze(_ id: String, until: Date) async throws { try await inner.snooze(id, until: until) }
    func waitingNotice(of id: String) async throws -> WaitingNotice? {
        .held(reason: "quiet hours until 07:30", until: until)
    }
}

/// A reminder book that runs a command while the plan is being replaced, as a reload racing it.
actor RacingBook: ReminderBook {
    let inner: InMemoryReminderBook
    var command: (@Sendable () async throws -> Void)?
    var raced = false

    init(inner: InMemoryReminderBook) { self.inner = inner }

    func whileReplacing(_ command: @escaping @Sendable () async throws -> Void) { self.command = command }

    func schedule(_ reminder: Reminder) async throws -> ScheduledReminder { try await inner.schedule(reminder) }
    func cancel(id: String) async throws { try await inner.cancel(id: id) }
    func list() async throws -> [ScheduledReminder] { try await inner.list() }
    func snooze(_ id: String, until: Date) async throws { try await inner.snooze(id, until: until) }

    func replaceAll(with reminders: [Reminder]) async throws {
        if let command {
            self.command = nil
            try await command()
            raced = true
        }
        try await inner.replaceAll(with: reminders)
    }
}

extension PluginTestHarness {
    /// The harness's context with another reminder book.
    func context(reminders: any ReminderBook) -> PluginContext {
        PluginContext(
            pluginName: context.pluginName, reminders: reminders, notices: notices, storage: storage, records: storage,
            clock: clock, timeZone: context.timeZone, logger: context.logger, ai: ai, background: background,
            celebrations: celebrations)
    }
}
