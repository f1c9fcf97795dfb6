import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayKitTesting
import HoorayTesting
import RecoveryPlugin
import Testing

/// The follow-up is shown exactly once, and the rejection remembers it was (``Rejection/followUpShown``):
/// across `hooray export` → `delete-my-data` → `import` (records travel, reminders do not), a
/// process stopped between saving a rejection and planning its follow-up, a follow-up that comes
/// while a rejection joining it is being saved, and a `follow_up_after` lowered since.
@Suite struct FollowUpShownTests {
    static let tuesday = FollowUpTests.tuesday
    static let quiet = FollowUpTests.quiet
    static let hour: TimeInterval = 3600

    func world(at now: Date = tuesday, _ configuration: RecoveryConfiguration = quiet) async throws
        -> PluginWorld<RecoveryPlugin>
    {
        try await PluginWorld(
            plugin: RecoveryPlugin(), configuration: configuration, now: now, timeZone: FollowUpTests.berlin)
    }

    func followUps(_ world: PluginWorld<RecoveryPlugin>) async -> [ShownNotice] {
        await world.shown.filter { $0.notice.title == "How are you doing?" && !$0.isUpdate }
    }

    func book(_ world: PluginWorld<RecoveryPlugin>) throws -> RecordBook<Rejection> {
        RecordBook(store: try #require(world.storage as? any RecordStore))
    }

    /// What `hooray import --apply` does with `records` on a fresh database at `now`: adds them, then
    /// has `hoorayd` activate the plugins again.
    func imported(_ records: [Rejection], at now: Date) async throws -> PluginWorld<RecoveryPlugin> {
        let world = try await world(at: now)
        for record in records { try await book(world).insert(record) }
        try await world.reload(configuration: Self.quiet)
        // "At once" is a second later: a one-off reminder is due strictly after it is scheduled.
        await world.advance(by: .seconds(60))
        return world
    }

    /// A rejection of impact 9 happened `hoursAfterTuesday` after Tuesday 10:00, in `group`.
    func rejection(
        _ id: UUID = UUID(), hoursAfterTuesday: Double, group: UUID, due: Date, shown: Date? = nil
    ) -> Rejection {
        let happened = Self.tuesday.addingTimeInterval(hoursAfterTuesday * Self.hour)
        return Rejection(
            id: id, type: .dating, impact: 9, happenedAt: happened, loggedAt: happened, timeZone: "Europe/Berlin",
            followUpGroup: group, followUpDue: due, followUpShown: shown)
    }

    // MARK: Remembering it was shown

    @Test func theFollowUpNotesOnTheRejectionsItShowedAndOnlyThose() async throws {
        let world = try await world()
        try await world.run("log", "--type", "job", "--impact", "8")
        try await world.run("log", "--type", "job", "--impact", "8", "--ago", "10m")
        try await world.run("log", "--type", "job", "--impact", "3")
        #expect(try await book(world).all().allSatisfy { $0.followUpShown == nil })
        await world.advance(by: .seconds(25 * 3600))
        let rejections = try await book(world).all()
        let hard = rejections.filter { $0.impact == 8 }
        #expect(hard.count == 2)
        #expect(hard.allSatisfy { $0.followUpShown != nil && $0.followUpShown == $0.followUpDue })
        #expect(rejections.filter { $0.impact == 3 }.map(\.followUpShown) == [nil])
    }

    @Test func exportedBeforeItWasDueAndImportedAfterTheFollowUpComesOnceAtOnce() async throws {
        let before = try await world()
        try await before.run("log", "--type", "job", "--impact", "8")
        await before.advance(by: .seconds(2 * 3600))
        let exported = try await book(before).all()
        // Imported the next day at 16:00, six hours after it was due: it was never shown, so now.
        let importedAt = Self.tuesday.addingTimeInterval(30 * Self.hour)
        let after = try await imported(exported, at: importedAt)
        let shown = await followUps(after)
        #expect(shown.count == 1)
        #expect(shown.first.map { $0.shownAt <= importedAt.addingTimeInterval(2) } == true)
        #expect(shown.first?.notice.body == "Yesterday was tough. You're stronger than you know.")
        try await after.restart(after: .seconds(86400))
        #expect(await followUps(after).count == 1)
        // Exported again now that it was shown, and imported once more: not shown again.
        let again = try await imported(try await book(after).all(), at: importedAt.addingTimeInterval(40 * Self.hour))
        await again.advance(by: .seconds(3600))
        #expect(await followUps(again).isEmpty)
        #expect(try await again.reminders().filter { $0.reminder.id.hasPrefix("follow-up-") }.isEmpty)
    }

    @Test func aGroupMixingAShownAndAnUnmarkedRejectionShowsTheUnmarkedOneOnceAlone() async throws {
        // A was shown by the group's follow-up on Wednesday 10:00; B, in the same group, carries no
        // note of it (exported by a version before the note, or it did not count then).
        let group = UUID()
        let due = Self.tuesday.addingTimeInterval(24 * Self.hour)
        let shownOne = rejection(group, hoursAfterTuesday: 0, group: group, due: due, shown: due)
        let unmarked = rejection(hoursAfterTuesday: 1.0 / 6, group: group, due: due)
        let world = try await imported([shownOne, unmarked], at: due.addingTimeInterval(6 * Self.hour))
        // One follow-up for B alone: A is not counted again.
        #expect(await followUps(world).map(\.notice.body) == ["Yesterday was tough. You're stronger than you know."])
        let saved = try await book(world).all()
        #expect(saved.first { $0.id == group }?.followUpShown == due)
        #expect(saved.first { $0.id == group }?.followUpDue == due)
        #expect(saved.first { $0.id == unmarked.id }?.followUpShown != nil)
        // I'm okay now on it is about B, the one it asked about: A stays as it was.
        let followUp = try #require(await followUps(world).first)
        try await world.press("okay", on: followUp)
        let pressed = try await book(world).all()
        #expect(pressed.first { $0.id == unmarked.id }?.isRecovered == true)
        #expect(pressed.first { $0.id == group }?.isRecovered == false)
        try await world.restart(after: .seconds(86400))
        #expect(await followUps(world).count == 1)
    }

    @Test func aRecordFromBeforeTheNoteIsNotedShownOnceItsFollowUpCameAndNotShownAgainAfterAnImport() async throws {
        // Saved by a version without `followUpShown`; its follow-up came on Wednesday 10:00.
        let harness = PluginTestHarness(
            pluginName: "recovery", now: Self.tuesday.addingTimeInterval(30 * Self.hour),
            nextDue: { schedule in
                guard case .once(let at) = schedule, at > Self.tuesday.addingTimeInterval(30 * Self.hour) else {
                    return nil
                }
                return at
            }, configuration: Self.quiet)
        let id = UUID()
        let due = Self.tuesday.addingTimeInterval(24 * Self.hour)
        let old = rejection(id, hoursAfterTuesday: 0, group: id, due: due)
        try await harness.context.records(of: Rejection.self).insert(old)
        _ = try await harness.reminders.schedule(
            Reminder(
                id: "follow-up-" + id.uuidString.lowercased(), schedule: .once(at: due),
                notice: Notice(title: "How are you doing?", body: "")))
        try await RecoveryPlugin().activate(context: harness.context, configuration: Self.quiet)
        let noted = try #require(try await harness.context.records(of: Rejection.self).record(old.recordID))
        #expect(noted.followUpShown == due)
        // Exported now, it is not shown again after an import; exported before, it would be.
        let world = try await imported([noted], at: due.addingTimeInterval(40 * Self.hour))
        #expect(await followUps(world).isEmpty)
        let before = try await imported([old], at: due.addingTimeInterval(40 * Self.hour))
        #expect(await followUps(before).count == 1)
    }

    // MARK: A process stopped between saving and planning

    @Test func aRejectionSavedAloneBeforeAStopGetsItsFollowUpOnceWhenStartedAfterItsTime() async throws {
        let world = try await world()
        // Saved as `log` saves it, and the process stopped before it planned the follow-up.
        let id = UUID()
        try await book(world).insert(
            rejection(id, hoursAfterTuesday: 0, group: id, due: Self.tuesday.addingTimeInterval(24 * Self.hour)))
        try await world.restart(after: .seconds(26 * 3600))
        await world.advance(by: .seconds(60))
        #expect(await followUps(world).count == 1)
        try await world.restart(after: .seconds(3600))
        #expect(await followUps(world).count == 1)
    }

    @Test func aRejectionSavedIntoAGroupBeforeAStopIsCountedInItsFollowUpOnce() async throws {
        let world = try await world()
        try await world.run("log", "--type", "dating", "--impact", "9")
        let first = try #require(try await book(world).all().first)
        let group = try #require(first.followUpGroup)
        let due = try #require(first.followUpDue)
        // Joined that follow-up and saved; stopped before scheduling it again.
        await world.advance(by: .seconds(600))
        try await book(world).insert(rejection(hoursAfterTuesday: 1.0 / 6, group: group, due: due))
        try await world.restart(after: .seconds(26 * 3600))
        #expect(
            await followUps(world).map(\.notice.body) == [
                "Yesterday was tough: 2 hard moments. You're stronger than you know."
            ])
        try await world.restart(after: .seconds(3600))
        #expect(await followUps(world).count == 1)
    }

    // MARK: Joining a follow-up

    @Test func aFollowUpDueWithinAMinuteIsNotJoined() async throws {
        let world = try await world()
        try await world.run("log", "--type", "dating", "--impact", "9")
        // 30 seconds before it is due, another whose own time is ten minutes later.
        await world.advance(by: .seconds(24 * 3600 - 30))
        let late = try await world.run("log", "--type", "dating", "--impact", "9", "--ago", "1430m")
        #expect(late.text.contains("I'll check on you today at 10:09"), "\(late.text)")
        await world.advance(by: .seconds(2 * 3600))
        // Each shown once, on its own.
        #expect(
            await followUps(world).map(\.notice.body)
                == Array(
                    repeating: "Yesterday was tough. You're stronger than you know.", count: 2))
    }

    @Test func joiningAfterFollowUpAfterWasLoweredNeverMovesTheFollowUpIntoThePast() async throws {
        let world = try await world()
        try await world.run("log", "--type", "dating", "--impact", "9")
        // follow_up_after lowered to 23h30m; the first rejection's follow-up stays at Wednesday 10:00.
        let lowered = RecoveryConfiguration(
            followUpAfter: ConfigDuration(seconds: 23 * 3600 + 1800), checkIn: false, challengeAt: nil)
        try await world.reload(configuration: lowered)
        await world.advance(by: .seconds(23 * 3600 + 45 * 60))
        // At 09:45 a rejection from 10:30 yesterday, due at 10:00: the first one's own time under
        // the new setting, 09:30, is past.
        try await world.run("log", "--type", "dating", "--impact", "9", "--ago", "1395m")
        let planned = try await world.reminders().filter { $0.reminder.id.hasPrefix("follow-up-") }
        #expect(planned.count == 1)
        let now = await world.now
        #expect(planned.allSatisfy { ($0.nextDue ?? .distantPast) > now })
        await world.advance(by: .seconds(2 * 3600))
        #expect(
            await followUps(world).map(\.notice.body) == [
                "Yesterday was tough: 2 hard moments. You're stronger than you know."
            ])
    }

    // MARK: A follow-up that comes while a rejection joining it is saved

    /// Logs a rejection of impact 9 at Tuesday 10:00 and another ten minutes later, which joins the
    /// first one's follow-up; that follow-up comes at `step` of logging the second. With `editing`,
    /// the second is logged with impact 3 and joins when `hooray recovery edit` raises it to 9.
    ///
    /// - Returns: The follow-ups that came, the rejections saved (first, second) and the reminders.
    func loggedWhileTheFollowUpCame(at step: RacingReminderBook.Step, editing: Bool = false) async throws
        -> (shown: [Notice], first: Rejection, second: Rejection, reminders: [ScheduledReminder])
    {
        let harness = PluginTestHarness(
            pluginName: "recovery", now: Self.tuesday, timeZone: FollowUpTests.berlin, configuration: Self.quiet)
        let racing = RacingReminderBook(step: step)
        let context = PluginContext(
            pluginName: "recovery", reminders: racing, notices: harness.notices, storage: harness.storage,
            records: harness.storage, clock: harness.clock, timeZone: FollowUpTests.berlin,
            logger: harness.context.logger, celebrations: harness.celebrations, configuration: Self.quiet)
        func run(_ command: String, _ values: [String: [String]]) async throws -> Rejection {
            let reply = try await RecoveryPlugin().run(
                CommandInvocation(
                    command: command, values: values, json: true,
                    environment: CommandEnvironment(timeZoneIdentifier: "Europe/Berlin")),
                context: context, configuration: Self.quiet)
            let id = try #require(reply.json?["id"]?.stringValue)
            return try #require(try await context.records(of: Rejection.self).record(id))
        }
        let first = try await run("log", ["type": ["dating"], "impact": ["9"]])
        harness.clock.advance(by: 600)
        let mild = editing ? try await run("log", ["type": ["dating"], "impact": ["3"]]) : nil
        let shown = ShownBox()
        await racing.whenItComes { due in
            if let notice = try await RecoveryPlugin().reminderDue(due, context: context) {
                await shown.add(notice)
            }
        }
        let second =
            if let mild {
                try await run("edit", ["id": [mild.recordID], "impact": ["9"]])
            } else {
                try await run("log", ["type": ["dating"], "impact": ["9"]])
            }
        let book = context.records(of: Rejection.self)
        return (
            await shown.notices, try #require(try await book.record(first.recordID)),
            try #require(try await book.record(second.recordID)), try await racing.list()
        )
    }

    @Test(arguments: [false, true])
    func aFollowUpThatCameJustBeforeTheRejectionWasSavedLeavesItItsOwn(editing: Bool) async throws {
        let (shown, first, second, reminders) = try await loggedWhileTheFollowUpCame(
            at: .afterLooking, editing: editing)
        let firstDue = Self.tuesday.addingTimeInterval(24 * Self.hour)
        // The follow-up that came counted the first rejection alone, and only the first is marked.
        #expect(shown.count == 1)
        #expect(shown.allSatisfy { !$0.body.contains("2 hard moments") })
        #expect(first.followUpShown == firstDue && first.followUpDue == firstDue)
        // The second gets its own, at its own time, and is not marked shown.
        let ownDue = second.happenedAt.addingTimeInterval(86400)
        #expect(second.followUpGroup == second.id)
        #expect(second.followUpDue == ownDue)
        #expect(second.followUpShown == nil)
        #expect(
            reminders.first { $0.reminder.id == "follow-up-" + second.id.uuidString.lowercased() }?.nextDue == ownDue)
    }

    @Test(arguments: [false, true])
    func aFollowUpThatCameAfterTheRejectionWasSavedCountedItAndItGetsNoOther(editing: Bool) async throws {
        let (shown, first, second, reminders) = try await loggedWhileTheFollowUpCame(
            at: .beforeScheduling, editing: editing)
        let firstDue = Self.tuesday.addingTimeInterval(24 * Self.hour)
        #expect(shown.count == 1)
        #expect(shown.allSatisfy { $0.body.contains("2 hard moments") })
        #expect(first.followUpShown == firstDue)
        #expect(second.followUpGroup == first.id)
        #expect(second.followUpShown == firstDue && second.followUpDue == firstDue)
        #expect(reminders.map(\.reminder.id) == ["follow-up-" + first.id.uuidString.lowercased()])
    }
}

/// The notices a racing follow-up showed.
actor ShownBox {
    var notices: [Notice] = []
    func add(_ notice: Notice) { notices.append(notice) }
}

/// Reminders kept as ``InMemoryReminderBook`` keeps them, where the first pending follow-up comes
/// while a rejection is being logged: right after `log` looked for a follow-up to join, or right
/// before it schedules one. Like the engine's, a follow-up that came is not due again when
/// scheduled at the same time.
actor RacingReminderBook: ReminderBook {
    /// When the follow-up comes.
    enum Step {
        case afterLooking, beforeScheduling
    }

    let step: Step
    let inner = InMemoryReminderBook()
    var comes: (@Sendable (DueReminder) async throws -> Void)?
    /// The follow-ups that came, with the time they were due.
    var came: [String: Date] = [:]

    init(step: Step) {
        self.step = step
    }

    /// Has the first pending follow-up come, once, at the next `step`: `body` is asked for its notice.
    func whenItComes(_ body: @escaping @Sendable (DueReminder) async throws -> Void) {
        comes = body
    }

    func comeNow() async throws {
        guard let body = comes else { return }
        comes = nil
        guard
            let due = try await inner.list().first(where: {
                $0.reminder.id.hasPrefix("follow-up-") && came[$0.reminder.id] == nil
            }), let at = due.nextDue
        else { return }
        came[due.reminder.id] = at
        try await body(DueReminder(reminder: due.reminder, dueAt: at))
    }

    func schedule(_ reminder: Reminder) async throws -> ScheduledReminder {
        if step == .beforeScheduling { try await comeNow() }
        if let at = came[reminder.id], reminder.schedule == .once(at: at) {
            return ScheduledReminder(reminder: reminder, nextDue: nil)
        }
        came[reminder.id] = nil
        return try await inner.schedule(reminder)
    }

    func cancel(id: String) async throws {
        came[id] = nil
        try await inner.cancel(id: id)
    }

    func list() async throws -> [ScheduledReminder] {
        let listed = try await inner.list().map {
            came[$0.reminder.id] == nil ? $0 : ScheduledReminder(reminder: $0.reminder, nextDue: nil)
        }
        if step == .afterLooking { try await comeNow() }
        return listed
    }

    func replaceAll(with reminders: [Reminder]) async throws {
        try await inner.replaceAll(with: reminders)
    }

    func snooze(_ id: String, until: Date) async throws {
        try await inner.snooze(id, until: until)
    }
}
