import Foundation
import HoorayEngine
import HoorayKit
import HoorayStorage
import HoorayTesting
import Testing

/// The engine's snooze: a standard button on any notice, handled without the plugin.
@Suite struct SnoozeTests {
    /// The stretch reminder with the standard snooze button and a "Done" of the plugin's own.
    static let snoozable: Reminder = {
        var reminder = stretch
        reminder.notice.actions = [NoticeAction(id: "done", label: "Done"), .snooze()]
        return reminder
    }()

    /// Activates a probe plugin with the reminder, lets it come due at 15:00 and returns its notice's id.
    func showStretch(_ world: World, _ plugin: ProbePlugin) async throws -> NoticeID {
        await world.activate(plugin)
        world.clock.advance(by: 60)
        await world.engine.processDue()
        return try #require(try await world.database.pendingNotices().last?.id)
    }

    func snoozes(_ world: World) async throws -> [StoredRule] {
        try await world.database.rules(plugin: "probe").filter { $0.reminder.id.hasPrefix("snoozed.") }
    }

    @Test func snoozeBringsTheNoticeBackInAnHourWithoutThePlugin() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let pressed = Pressed()
        let plugin = ProbePlugin(reminders: [Self.snoozable], onAction: { action, _ in await pressed.add(action) })
        let id = try await showStretch(world, plugin)

        #expect(await world.engine.invoke(action: "snooze", on: id) == nil)
        #expect(await pressed.actions.isEmpty, "the engine's button: the plugin is not called")
        // Kept as a one-off, as `hooray next` lists it, an hour after the press.
        let snooze = try #require(try await snoozes(world).first)
        #expect(snooze.reminder.id == "snoozed.stretch")
        #expect(snooze.nextDue == world.clock.now.addingTimeInterval(3600))
        #expect(snooze.reminder.notice == Self.snoozable.notice)
        #expect(try await world.database.upcomingRules(limit: 5).rules.first?.reminder.id == "snoozed.stretch")
        // The plugin's own list leaves it out.
        #expect(await world.engine.activePlugins == ["probe"])
    }

    @Test func aSecondPressDoesNotStack() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let id = try await showStretch(world, ProbePlugin(reminders: [Self.snoozable]))
        #expect(await world.engine.invoke(action: "snooze", on: id) == nil)
        let first = world.clock.now.addingTimeInterval(3600)
        world.clock.advance(by: 120)
        // Pressed again on the same notice, it says so and changes nothing.
        #expect(await world.engine.press(action: "snooze", on: id) == .alreadySnoozed(until: first))
        let all = try await snoozes(world)
        #expect(all.count == 1)
        #expect(all.first?.nextDue == first, "the one snooze stays")
    }

    @Test func theSnoozeSurvivesARestartAndAReloadAndComesBackOnce() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let asked = Recorded<DueReminder>()
        let plugin = ProbePlugin(
            reminders: [Self.snoozable],
            onDue: { due in
                await asked.add(due)
                return due.reminder.notice
            })
        let id = try await showStretch(world, plugin)
        #expect(await world.engine.invoke(action: "snooze", on: id) == nil)

        // A restart and a reload (activation again) keep it.
        let engine = await world.restart(with: plugin)
        await engine.apply(
            settings: EngineSettings(),
            plugins: [PluginSetup(plugin: plugin, enabled: true, configuration: NoConfiguration())])
        #expect(try await snoozes(world).count == 1)
        let due = try #require(try await snoozes(world).first?.nextDue)
        #expect(await engine.nextDue == due)

        world.clock.set(to: due.addingTimeInterval(1))
        await engine.processDue()
        await engine.processDue()
        // The plugin is asked again, about its own reminder and the occurrence that was snoozed,
        // knowing it is a snooze.
        let snoozed = try #require(await asked.items.last)
        #expect(snoozed.isSnoozed)
        #expect(snoozed.reminder.id == "stretch")
        #expect(snoozed.dueAt == start.addingTimeInterval(60))
        #expect(snoozed.snoozedUntil == due)
        let notices = try await world.database.pendingNotices()
        #expect(notices.map(\.notice.title) == ["Stretch", "Stretch"], "shown once more, not twice")

        // Its buttons belong to the reminder it came from.
        let pressed = Pressed()
        let listening = ProbePlugin(reminders: [Self.snoozable], onAction: { action, _ in await pressed.add(action) })
        let again = await world.restart(with: listening)
        let copy = try #require(notices.last?.id)
        #expect(await again.invoke(action: "done", on: copy) == nil)
        #expect(
            await pressed.actions == [
                InvokedAction(
                    notice: copy, actionID: "done", reminderID: "stretch", dueAt: start.addingTimeInterval(60))
            ])
    }

    @Test func aSnoozedNoticeKeepsItsOccurrenceAndPayloadThroughEverySnooze() async throws {
        let world = try World()
        defer { world.cleanUp() }
        var reminder = Self.snoozable
        reminder.payload = .object(["habit": .string("read")])
        let asked = Recorded<DueReminder>()
        let pressed = Pressed()
        // Like the habits plugin, it answers with a notice of its own, without a payload.
        let plugin = ProbePlugin(
            reminders: [reminder],
            onDue: { due in
                await asked.add(due)
                return Notice(title: "Read", actions: Self.snoozable.notice.actions)
            },
            onAction: { action, _ in await pressed.add(action) })
        let first = try await showStretch(world, plugin)
        let occurrence = start.addingTimeInterval(60)

        // Snoozed, and snoozed again when it came back.
        #expect(await world.engine.invoke(action: "snooze", on: first) == nil)
        world.clock.advance(by: 3601)
        await world.engine.processDue()
        let second = try #require(try await world.database.pendingNotices().last?.id)
        #expect(second != first)
        #expect(await world.engine.invoke(action: "snooze", on: second) == nil)
        world.clock.advance(by: 3601)
        await world.engine.processDue()
        let third = try #require(try await world.database.pendingNotices().last?.id)
        #expect(third != second)

        // Each time the plugin is told about the 15:00 occurrence, with the reminder's payload.
        let comebacks = await asked.items.dropFirst()
        #expect(comebacks.map(\.dueAt) == [occurrence, occurrence])
        let ends = [occurrence.addingTimeInterval(3600), occurrence.addingTimeInterval(3601 + 3600)]
        #expect(comebacks.map(\.snoozedUntil) == ends, "each comeback knows when its snooze ended")
        #expect(comebacks.allSatisfy { $0.reminder.id == "stretch" && $0.reminder.payload == reminder.payload })

        // A button on the last one is about that occurrence too.
        #expect(await world.engine.invoke(action: "done", on: third) == nil)
        #expect(
            await pressed.actions == [
                InvokedAction(
                    notice: third, actionID: "done", reminderID: "stretch", dueAt: occurrence,
                    payload: reminder.payload)
            ])
    }

    @Test func aReminderThePluginSnoozesComesBackAsItsLatestOccurrence() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let asked = Recorded<DueReminder>()
        var reminder = Self.snoozable
        reminder.notice.actions = [NoticeAction(id: "later", label: "Later")]
        let plugin = ProbePlugin(
            reminders: [reminder],
            onDue: { due in
                await asked.add(due)
                return due.reminder.notice
            },
            onAction: { _, context in
                try await context.reminders.snooze("stretch", until: context.now.addingTimeInterval(600))
            })
        let id = try await showStretch(world, plugin)
        world.clock.advance(by: 60)
        #expect(await world.engine.invoke(action: "later", on: id) == nil)
        world.clock.advance(by: 601)
        await world.engine.processDue()
        let back = try #require(await asked.items.last)
        #expect(back.isSnoozed)
        #expect(back.dueAt == start.addingTimeInterval(60), "the 15:00 occurrence, not the snooze's end")
    }

    @Test func aPluginCanWithdrawASnoozedReminderThatIsNoLongerNeeded() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let plugin = ProbePlugin(reminders: [Self.snoozable], onDue: { $0.isSnoozed ? nil : $0.reminder.notice })
        let id = try await showStretch(world, plugin)
        #expect(await world.engine.invoke(action: "snooze", on: id) == nil)
        world.clock.advance(by: 3601)
        await world.engine.processDue()
        #expect(try await world.database.pendingNotices().count == 1)
    }

    @Test func theSnoozeGoesWithItsReminder() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let id = try await showStretch(world, ProbePlugin(reminders: [Self.snoozable]))
        #expect(await world.engine.invoke(action: "snooze", on: id) == nil)
        await world.activate(ProbePlugin(reminders: []))
        #expect(try await snoozes(world).isEmpty)
        #expect(await world.engine.nextDue == nil)
    }

    @Test func aNoticeFromNoReminderComesBackAsItWas() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let asked = Recorded<DueReminder>()
        await world.activate(
            ProbePlugin(
                reminders: [],
                onDue: { due in
                    await asked.add(due)
                    return nil
                }))
        let board = await world.engine.noticeBoard(for: "probe")
        let posted = Notice(title: "Drink water", actions: [.snooze(for: .seconds(600))])
        let id = try await board.post(posted)
        #expect(await world.engine.invoke(action: "snooze-10m", on: id) == nil)
        let snooze = try #require(try await snoozes(world).first)
        #expect(snooze.reminder.id == "snoozed.notice.\(id)")
        #expect(snooze.nextDue == world.clock.now.addingTimeInterval(600))
        // A reload keeps it too.
        await world.activate(ProbePlugin(reminders: []))
        world.clock.advance(by: 601)
        await world.engine.processDue()
        #expect(await asked.items.isEmpty, "there is no reminder to ask about")
        #expect(try await world.database.pendingNotices().map(\.notice) == [posted, posted])
    }

    @Test(arguments: ["snoozed.stretch", "notice.stretch"])
    func pluginsCannotUseTheSnoozeNames(id: String) async throws {
        let world = try World()
        defer { world.cleanUp() }
        var taken = stretch
        taken.id = id
        await world.activate(ProbePlugin(reminders: [taken]))
        #expect(await world.engine.activePlugins.isEmpty, "refused, and said so in the log")
        let prefix = String(id.prefix { $0 != "." }) + "."
        #expect(SnoozeError.reservedID(id).description.contains("starts with \(prefix)"))

        // Nor one at a time.
        let refused = Recorded<String>()
        await world.activate(
            ProbePlugin(
                reminders: [stretch],
                onAction: { [taken] _, context in
                    do {
                        _ = try await context.reminders.schedule(taken)
                    } catch {
                        await refused.add("\(error)")
                    }
                }))
        world.clock.advance(by: 60)
        await world.engine.processDue()
        let notice = try #require(try await world.database.pendingNotices().last?.id)
        #expect(await world.engine.invoke(action: "default", on: notice) == nil)
        #expect(await refused.items == [SnoozeError.reservedID(id).description])
    }

    @Test(arguments: [
        (Duration.seconds(3600), "snooze", "Snooze 1 h"), (.seconds(600), "snooze-10m", "Snooze 10 min"),
        (.seconds(5400), "snooze-1h30m", "Snooze 1 h 30 min"), (.seconds(86400), "snooze-1d", "Snooze 1 day"),
    ])
    func theButtonSaysHowLong(delay: Duration, id: String, label: String) {
        let button = NoticeAction.snooze(for: delay)
        #expect(button.id == id)
        #expect(button.label == label)
        #expect(button.snoozeDelay == delay)
        #expect(NoticeAction(id: "done", label: "Done").snoozeDelay == nil)
    }
}
