import Foundation
import HoorayKit
import HoorayKitTesting
import Testing

/// A plugin that only remembers the buttons pressed on its notices.
struct ButtonProbe: HoorayPlugin {
    let pressed = PressedButtons()

    var name: String { "probe" }
    var summary: String { "test plugin" }

    func activate(context: PluginContext, configuration: NoConfiguration) async throws {}

    func actionInvoked(_ action: InvokedAction, context: PluginContext) async throws {
        await pressed.add(action)
    }
}

actor PressedButtons {
    var actions: [InvokedAction] = []
    func add(_ action: InvokedAction) { actions.append(action) }
}

/// `PluginTestHarness.press` hands a plugin what the engine would: the reminder, the occurrence and
/// the payload, through snoozes too.
@Suite struct PluginTestHarnessTests {
    /// Sunday 22 November 2026, 09:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_338_000)
    static let payload = JSONValue.object(["rejection": .string("job")])

    /// A reminder with a payload, due yesterday evening, scheduled in the harness's book.
    func setUp() async throws -> (PluginTestHarness, DueReminder) {
        let harness = PluginTestHarness(pluginName: "probe", now: Self.now)
        let reminder = Reminder(
            id: "follow-up", schedule: .once(at: Self.now.addingTimeInterval(-12 * 3600)),
            notice: Notice(title: "How are you feeling now?", actions: [.snooze()]), payload: Self.payload)
        _ = try await harness.reminders.schedule(reminder)
        return (harness, DueReminder(reminder: reminder, dueAt: Self.now.addingTimeInterval(-12 * 3600)))
    }

    @Test func aButtonGetsTheOccurrenceAndTheRemindersPayload() async throws {
        let (harness, due) = try await setUp()
        let plugin = ButtonProbe()
        try await harness.press("okay", on: Notice(title: "How are you feeling now?"), from: due, of: plugin)
        // A notice's own payload comes first, as with the engine.
        let own = Notice(title: "Still there?", payload: .string("own"))
        try await harness.press("okay", on: own, id: NoticeID(rawValue: 2), from: due, of: plugin)
        // A notice from no reminder has neither.
        try await harness.press("okay", on: Notice(title: "Hi"), id: NoticeID(rawValue: 3), from: nil, of: plugin)
        #expect(
            await plugin.pressed.actions == [
                InvokedAction(
                    notice: NoticeID(rawValue: 1), actionID: "okay", reminderID: "follow-up", dueAt: due.dueAt,
                    payload: Self.payload),
                InvokedAction(
                    notice: NoticeID(rawValue: 2), actionID: "okay", reminderID: "follow-up", dueAt: due.dueAt,
                    payload: .string("own")),
                InvokedAction(notice: NoticeID(rawValue: 3), actionID: "okay"),
            ])
    }

    @Test func aSnoozedNoticeComesBackAboutItsOccurrence() async throws {
        let (harness, due) = try await setUp()
        let plugin = ButtonProbe()
        try await harness.press("snooze", on: due.reminder.notice, from: due, of: plugin)
        #expect(await plugin.pressed.actions.isEmpty, "the engine's button")

        let back = try #require(await harness.reminders.snoozedDue("follow-up"))
        #expect(back.reminder.id == "follow-up")
        #expect(back.reminder.payload == Self.payload)
        #expect(back.dueAt == due.dueAt)
        #expect(back.snoozedUntil == Self.now.addingTimeInterval(3600))

        try await harness.press("okay", on: back.reminder.notice, from: back, of: plugin)
        #expect(
            await plugin.pressed.actions == [
                InvokedAction(
                    notice: NoticeID(rawValue: 1), actionID: "okay", reminderID: "follow-up", dueAt: due.dueAt,
                    payload: Self.payload)
            ])
    }
}
