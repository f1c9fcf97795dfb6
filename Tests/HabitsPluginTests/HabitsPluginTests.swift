import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayKitTesting
import Testing

@testable import HabitsPlugin

/// The habits plugin against in-memory fakes: commands, reminders, buttons and milestones.
@Suite struct HabitsPluginTests {
    // Sunday 2026-11-22, 09:00 UTC.
    static let sunday = Date(timeIntervalSince1970: 1_795_338_000)
    static let today = LocalDate(year: 2026, month: 11, day: 22)!

    func setUp() async throws -> (HabitsPlugin, PluginTestHarness) {
        let harness = PluginTestHarness(pluginName: "habits", now: Self.sunday)
        let plugin = HabitsPlugin()
        try await plugin.activate(context: harness.context, configuration: HabitsConfiguration())
        return (plugin, harness)
    }

    @discardableResult
    func run(_ plugin: HabitsPlugin, _ harness: PluginTestHarness, _ command: String, _ request: HabitRequest)
        async throws -> HabitReply
    {
        try await plugin.perform(command, request, context: harness.context)
    }

    func habits(_ harness: PluginTestHarness) async throws -> [Habit] {
        try await harness.context.records(of: Habit.self).byName()
    }

    func due(_ harness: PluginTestHarness, _ id: String, at date: Date) async throws -> DueReminder {
        let reminder = try #require(try await harness.reminders.list().first { $0.reminder.id == id }).reminder
        return DueReminder(reminder: reminder, dueAt: date)
    }

    /// More habits than the plugin reads in one page: each is planned, found and listed.
    @Test func habitsBeyondOnePageArePlannedFoundAndListed() async throws {
        let harness = PluginTestHarness(pluginName: "habits", now: Self.sunday)
        let book = harness.context.records(of: Habit.self)
        let count = RecordBook<Habit>.defaultPageSize + 44
        for index in 0..<count {
            try await book.insert(
                makeHabit(
                    String(format: "Habit %04d", index), start: "2026-11-01",
                    done: days("2026-11-01", through: "2026-11-21"),
                    remindAt: index.isMultiple(of: 3) ? nil : TimeOfDay(hour: 20, minute: 0)))
        }
        let plugin = HabitsPlugin()
        try await plugin.activate(context: harness.context, configuration: HabitsConfiguration())
        #expect(try await harness.reminders.list().count == count - (count + 2) / 3)

        let last = String(format: "Habit %04d", count - 1)
        let reply = try await run(plugin, harness, HabitCommand.done, HabitRequest(name: last.uppercased()))
        #expect(reply.message == "Done: “\(last)” · 22 days")
        await #expect(throws: PluginCommandError.self) {
            try await run(plugin, harness, HabitCommand.add, HabitRequest(name: last.lowercased()))
        }
        do {
            try await run(plugin, harness, HabitCommand.done, HabitRequest(name: "Habit 9999"))
            Issue.record("a habit that does not exist was marked done")
        } catch let error as PluginCommandError {
            #expect(error.message.hasPrefix("there is no habit \"Habit 9999\""))
        }

        let list = try await plugin.run(
            CommandInvocation(command: "list"), context: harness.context, configuration: HabitsConfiguration())
        let lines = list.text.split(separator: "\n")
        #expect(lines.count == count + 1)
        #expect(lines.last?.hasPrefix(last) == true)
        #expect(lines.last?.contains("22 days  done") == true)
        #expect(list.json == nil)
        let json = try await plugin.run(
            CommandInvocation(command: "list", json: true), context: harness.context,
            configuration: HabitsConfiguration())
        guard case .array(let rows) = try #require(json.json) else {
            Issue.record("the list's JSON is not an array")
            return
        }
        #expect(rows.count == count)
        let names = try await plugin.run(
            CommandInvocation(command: "list", flags: ["names"]), context: harness.context,
            configuration: HabitsConfiguration())
        #expect(
            names.text.split(separator: "\n").map(String.init) == (0..<count).map { String(format: "Habit %04d", $0) })

        let bar = try await plugin.barItems(context: harness.context, configuration: HabitsConfiguration())
        #expect(bar.first?.text == "✅ 1/\(count)")
    }

    @Test func anAddedHabitGetsAReminderOnItsDueDays() async throws {
        let (plugin, harness) = try await setUp()
        let reply = try await run(
            plugin, harness, HabitCommand.add, HabitRequest(name: "Run", on: "mon,wed,fri", remind: "07:30"))
        #expect(reply.message == "Added “Run”: mon, wed, fri, with a reminder at 07:30.")
        let id = "habit." + reply.habit.id.uuidString.lowercased()
        let reminder = try #require(try await harness.reminders.list().first { $0.reminder.id == id })
        #expect(
            reminder.reminder.schedule
                == .weekly(
                    on: [.monday, .wednesday, .friday], at: TimeOfDay(hour: 7, minute: 30)!,
                    zone: TimeZone(identifier: "UTC")!))
    }

    @Test func theReminderIsShownOnlyWhenDueNotDoneAndNotPaused() async throws {
        let (plugin, harness) = try await setUp()
        let added = try await run(plugin, harness, HabitCommand.add, HabitRequest(name: "Read", remind: "20:00"))
        let id = "habit." + added.habit.id.uuidString.lowercased()
        let tonight = Self.sunday.addingTimeInterval(11 * 3600)

        let notice = try #require(
            try await plugin.reminderDue(try await due(harness, id, at: tonight), context: harness.context))
        #expect(notice.title == "Read")
        #expect(notice.body == "Don't forget to make time for Read today.")
        #expect(notice.actions.map(\.id) == ["done", "snooze"])

        try await run(plugin, harness, HabitCommand.done, HabitRequest(name: "read"))
        #expect(try await plugin.reminderDue(try await due(harness, id, at: tonight), context: harness.context) == nil)

        try await run(plugin, harness, HabitCommand.pause, HabitRequest(name: "Read", duration: "3d"))
        let tomorrow = tonight.addingTimeInterval(86400)
        #expect(try await plugin.reminderDue(try await due(harness, id, at: tomorrow), context: harness.context) == nil)
    }

    @Test func afterAMissTheReminderOffersWhyAndAResetWithoutGuilt() async throws {
        let (plugin, harness) = try await setUp()
        let added = try await run(
            plugin, harness, HabitCommand.add,
            HabitRequest(name: "Read", why: "To become wiser and calmer.", remind: "20:00", start: "2026-11-20"))
        try await run(plugin, harness, HabitCommand.done, HabitRequest(name: "Read", date: "2026-11-20"))
        // 2026-11-21 was missed; tonight's reminder says why, gently.
        let id = "habit." + added.habit.id.uuidString.lowercased()
        let notice = try #require(
            try await plugin.reminderDue(
                try await due(harness, id, at: Self.sunday.addingTimeInterval(11 * 3600)), context: harness.context))
        #expect(notice.body.contains("Remember why: To become wiser and calmer."))
        #expect(notice.body.contains("hooray habit reset Read"))
        for word in ["failed", "broke your", "shame", "should"] { #expect(!notice.body.contains(word)) }
    }

    @Test func theDoneButtonCompletesTodayAndSnoozeComesBackInAnHour() async throws {
        let (plugin, harness) = try await setUp()
        let added = try await run(plugin, harness, HabitCommand.add, HabitRequest(name: "Read", remind: "09:00"))
        let id = "habit." + added.habit.id.uuidString.lowercased()
        let first = try await due(harness, id, at: Self.sunday)
        let notice = try #require(try await plugin.reminderDue(first, context: harness.context))
        try await harness.press("snooze", on: notice, from: first, of: plugin)
        let snooze = try #require(await harness.reminders.snoozes[id])
        #expect(snooze.schedule == .once(at: Self.sunday.addingTimeInterval(3600)))
        #expect(snooze.notice == notice)

        // The snoozed reminder comes back while the habit is still not done...
        let back = try #require(await harness.reminders.snoozedDue(id))
        #expect(back.snoozedUntil == Self.sunday.addingTimeInterval(3600))
        #expect(try await plugin.reminderDue(back, context: harness.context)?.title == "Read")

        // ...and its Done button completes today.
        try await harness.press("done", on: notice, from: back, of: plugin)
        let habit = try #require(try await habits(harness).first)
        #expect(habit.completions == [Self.today])
        #expect(habit.streak(today: Self.today).days == 1)
        #expect(try await plugin.reminderDue(back, context: harness.context) == nil, "done meanwhile: not shown")
    }

    @Test func doneAfterMidnightOnLastNightsReminderMarksThatDay() async throws {
        let (plugin, harness) = try await setUp()
        let added = try await run(
            plugin, harness, HabitCommand.add, HabitRequest(name: "Read", remind: "23:00", start: "2026-11-21"))
        let id = "habit." + added.habit.id.uuidString.lowercased()
        let saturdayNight = Self.sunday.addingTimeInterval(-10 * 3600)  // Saturday 23:00
        let lastNight = try await due(harness, id, at: saturdayNight)
        let notice = try #require(try await plugin.reminderDue(lastNight, context: harness.context))

        // Done is pressed at 09:00 on Sunday, on Saturday's reminder: Saturday is done, not Sunday.
        try await harness.press("done", on: notice, from: lastNight, of: plugin)
        let saturday = Self.today.adding(days: -1)
        #expect(try await habits(harness).first?.completions == [saturday])
    }

    @Test func aReminderSnoozedPastMidnightIsStillAboutItsOwnDay() async throws {
        let (plugin, harness) = try await setUp()
        let added = try await run(
            plugin, harness, HabitCommand.add, HabitRequest(name: "Read", remind: "23:00", start: "2026-11-21"))
        let id = "habit." + added.habit.id.uuidString.lowercased()
        // Saturday 23:30: the 23:00 reminder is snoozed for an hour, into Sunday.
        harness.clock.set(to: Self.sunday.addingTimeInterval(-9.5 * 3600))
        let lastNight = try await due(harness, id, at: Self.sunday.addingTimeInterval(-10 * 3600))
        let notice = try #require(try await plugin.reminderDue(lastNight, context: harness.context))
        try await harness.press("snooze", on: notice, from: lastNight, of: plugin)

        // Back at 00:30 on Sunday, it still reminds of Saturday, and its Done marks Saturday.
        harness.clock.set(to: Self.sunday.addingTimeInterval(-8.5 * 3600))
        let back = try #require(await harness.reminders.snoozedDue(id))
        #expect(back.dueAt == lastNight.dueAt)
        #expect(try await plugin.reminderDue(back, context: harness.context) != nil)
        try await harness.press("done", on: notice, from: back, of: plugin)
        #expect(try await habits(harness).first?.completions == [Self.today.adding(days: -1)])
        #expect(try await plugin.reminderDue(back, context: harness.context) == nil, "Saturday is done")
    }

    @Test func aCelebrationThatCannotBeShownDoesNotUndoTheDone() async throws {
        let (plugin, harness) = try await setUp()
        for name in ["Read", "Walk"] {
            try await run(
                plugin, harness, HabitCommand.add, HabitRequest(name: name, remind: "09:00", start: "2026-11-10"))
            for day in 16...21 {
                try await run(plugin, harness, HabitCommand.done, HabitRequest(name: name, date: "2026-11-\(day)"))
            }
        }
        let failing = harness.context(celebrations: FailingCelebrationCenter())

        // The button that makes a seven-day streak: its celebration fails, and the day is done all the same.
        let read = try #require(try await habits(harness).first { $0.name == "Read" })
        try await plugin.actionInvoked(
            InvokedAction(
                notice: NoticeID(rawValue: 1), actionID: "done", reminderID: "habit." + read.recordID,
                dueAt: Self.sunday),
            context: failing)
        #expect(try await habits(harness).first { $0.name == "Read" }?.completions.contains(Self.today) == true)

        // The command too says the day is done, without the celebration.
        let walk = try await plugin.perform(HabitCommand.done, HabitRequest(name: "Walk"), context: failing)
        #expect(walk.message == "Done: “Walk” · 7 days")
        #expect(walk.celebration == nil)
        #expect(try await habits(harness).first { $0.name == "Walk" }?.completions.contains(Self.today) == true)
        #expect(await harness.celebrations.celebrations.isEmpty)
    }

    @Test func snoozesOfAnEarlierVersionAreHandedToTheEngine() async throws {
        let (plugin, harness) = try await setUp()
        let added = try await run(plugin, harness, HabitCommand.add, HabitRequest(name: "Read", remind: "09:00"))
        let uuid = added.habit.id.uuidString.lowercased()
        // Before the engine snoozed reminders, the plugin scheduled `snooze.<habit id>` itself.
        let until = Self.sunday.addingTimeInterval(1800)
        _ = try await harness.reminders.schedule(
            Reminder(id: "snooze." + uuid, schedule: .once(at: until), notice: Notice(title: "Read")))
        try await plugin.activate(context: harness.context, configuration: HabitsConfiguration())
        #expect(try await harness.reminders.list().map(\.reminder.id) == ["habit." + uuid])
        #expect(await harness.reminders.snoozes["habit." + uuid]?.schedule == .once(at: until))
        // A Done button on a notice it showed still works.
        let legacy = DueReminder(
            reminder: Reminder(id: "snooze." + uuid, schedule: .once(at: until), notice: Notice(title: "Read")),
            dueAt: until)
        try await harness.press("done", on: Notice(title: "Read"), from: legacy, of: plugin)
        #expect(try await habits(harness).first?.completions == [Self.today])
    }

    @Test func habitsKeptByAnEarlierVersionAreFound() async throws {
        let harness = PluginTestHarness(pluginName: "habits", now: Self.sunday)
        // Before the record book, each habit was a value `habit.<id>` of the plugin's storage.
        let old = makeHabit("Read", start: "2026-11-01", done: days("2026-11-01", through: "2026-11-21"))
        try await harness.storage.setData(try RecordBook<Habit>.encode(old), forKey: "habit." + old.recordID)
        let plugin = HabitsPlugin()
        try await plugin.activate(context: harness.context, configuration: HabitsConfiguration())
        #expect(try await habits(harness) == [old])
        #expect(try await harness.storage.keys().isEmpty, "moved, not copied")
        let done = try await run(plugin, harness, HabitCommand.done, HabitRequest(name: "read"))
        #expect(done.streak == 22)
    }

    @Test("Item 11: habit done from the command line celebrates today as the notification's Done button does")
    func doneFromTheCommandLineCelebrates() async throws {
        let (plugin, harness) = try await setUp()
        try await run(
            plugin, harness, HabitCommand.add, HabitRequest(name: "Read", remind: "20:00", start: "2026-11-10"))
        let done = try await run(plugin, harness, HabitCommand.done, HabitRequest(name: "Read"))
        #expect(done.celebration != nil, "the line the terminal prints")
        let celebrations = await harness.celebrations.celebrations
        #expect(celebrations.map(\.title) == ["Read · 1 day"])
        #expect(celebrations.map(\.size) == [.small])
        // A day filled in afterwards is celebrated only at a milestone.
        let yesterday = try await run(plugin, harness, HabitCommand.done, HabitRequest(name: "Read", date: "yesterday"))
        #expect(yesterday.celebration == nil)
        #expect(await harness.celebrations.celebrations.count == 1)
    }

    @Test("Item 6: a habit done today holds today's reminder, so that next and the bar leave it out")
    func doneTodayHoldsTodaysReminder() async throws {
        let (plugin, harness) = try await setUp()
        let added = try await run(plugin, harness, HabitCommand.add, HabitRequest(name: "Read", remind: "20:00"))
        let id = "habit." + added.habit.recordID
        #expect(await harness.reminders.reminders[id]?.hold == nil)
        try await run(plugin, harness, HabitCommand.done, HabitRequest(name: "Read"))
        let held = try #require(await harness.reminders.reminders[id])
        #expect(held.hold?.reason == "done today")
        #expect(held.notShownReason(at: Self.sunday.addingTimeInterval(3600)) == "done today")
        #expect(held.notShownReason(at: Self.sunday.addingTimeInterval(86400)) == nil, "tomorrow's comes")
        try await run(plugin, harness, HabitCommand.undo, HabitRequest(name: "Read"))
        #expect(await harness.reminders.reminders[id]?.hold == nil)
        // Restarted with the day done, the hold is planned again.
        try await run(plugin, harness, HabitCommand.done, HabitRequest(name: "Read"))
        try await plugin.activate(context: harness.context, configuration: HabitsConfiguration())
        #expect(await harness.reminders.reminders[id]?.hold?.reason == "done today")
    }

    @Test func aMilestoneIsCelebratedOncePerRun() async throws {
        let (plugin, harness) = try await setUp()
        try await run(plugin, harness, HabitCommand.add, HabitRequest(name: "Stretch", start: "2026-11-10"))
        for day in 16...21 {
            let reply = try await run(
                plugin, harness, HabitCommand.done, HabitRequest(name: "Stretch", date: "2026-11-\(day)"))
            #expect(reply.celebration == nil)
        }
        let seventh = try await run(plugin, harness, HabitCommand.done, HabitRequest(name: "Stretch"))
        #expect(seventh.streak == 7)
        #expect(seventh.celebration != nil)
        #expect(await harness.notices.notices.count == 1)
        #expect(await harness.notices.notices.first?.title.contains("Stretch · 7 days") == true)

        try await run(plugin, harness, HabitCommand.undo, HabitRequest(name: "Stretch"))
        let again = try await run(plugin, harness, HabitCommand.done, HabitRequest(name: "Stretch"))
        // The same run never celebrates 7 twice: done again today, it is celebrated small, as any day done.
        #expect(again.celebration != nil)
        #expect(
            await harness.notices.notices.map(\.category) == ["hooray.celebration.big", "hooray.celebration"])

        // A reset starts a new run; reaching 7 there is celebrated again.
        harness.clock.set(to: Self.sunday.addingTimeInterval(86400))
        try await run(plugin, harness, HabitCommand.reset, HabitRequest(name: "Stretch", note: "Travelled"))
        for offset in 0..<6 {
            harness.clock.set(to: Self.sunday.addingTimeInterval(Double(offset + 1) * 86400))
            try await run(plugin, harness, HabitCommand.done, HabitRequest(name: "Stretch"))
        }
        harness.clock.set(to: Self.sunday.addingTimeInterval(7 * 86400))
        let newRun = try await run(plugin, harness, HabitCommand.done, HabitRequest(name: "Stretch"))
        #expect(newRun.streak == 7)
        #expect(newRun.celebration != nil)
    }

    @Test(arguments: [
        (HabitRequest(name: "  "), "needs a name"),
        (HabitRequest(name: "Walk", every: "0d"), "at least one day"),
        (HabitRequest(name: "Walk", every: "fortnightly"), "--every 3d"),
        (HabitRequest(name: "Walk", on: "mon,xyz"), "\"xyz\" is not a day"),
        (HabitRequest(name: "Walk", remind: "7pm"), "HH:MM"),
        (HabitRequest(name: "Walk", every: "2d", on: "mon"), "not both"),
        (HabitRequest(name: "Walk", start: "tomorrowish"), "YYYY-MM-DD"),
    ])
    func badHabitsAreRefusedAndNothingIsSaved(request: HabitRequest, message: String) async throws {
        let (plugin, harness) = try await setUp()
        let error = await #expect(throws: PluginCommandError.self) {
            try await run(plugin, harness, HabitCommand.add, request)
        }
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        #expect(try await habits(harness).isEmpty)
        #expect(try await harness.reminders.list().isEmpty)
    }

    @Test func pausesAndResumesKeepTheStreak() async throws {
        let (plugin, harness) = try await setUp()
        try await run(plugin, harness, HabitCommand.add, HabitRequest(name: "Read", start: "2026-11-20"))
        for day in 20...22 {
            try await run(plugin, harness, HabitCommand.done, HabitRequest(name: "Read", date: "2026-11-\(day)"))
        }
        harness.clock.set(to: Self.sunday.addingTimeInterval(86400))
        try await run(plugin, harness, HabitCommand.pause, HabitRequest(name: "Read"))
        await #expect(throws: PluginCommandError.self) {
            try await run(plugin, harness, HabitCommand.pause, HabitRequest(name: "Read"))
        }
        harness.clock.set(to: Self.sunday.addingTimeInterval(4 * 86400))
        let resumed = try await run(plugin, harness, HabitCommand.resume, HabitRequest(name: "Read"))
        #expect(resumed.streak == 3, "paused days neither count nor break the streak")
        let done = try await run(plugin, harness, HabitCommand.done, HabitRequest(name: "Read"))
        #expect(done.streak == 4)
        await #expect(throws: PluginCommandError.self) {
            try await run(plugin, harness, HabitCommand.resume, HabitRequest(name: "Read"))
        }
    }

    @Test func renameKeepsHistoryAndDeleteRemovesTheReminders() async throws {
        let (plugin, harness) = try await setUp()
        try await run(plugin, harness, HabitCommand.add, HabitRequest(name: "Read", remind: "20:00"))
        try await run(plugin, harness, HabitCommand.done, HabitRequest(name: "Read"))
        let renamed = try await run(
            plugin, harness, HabitCommand.rename, HabitRequest(name: "read", newName: "Read 10 pages"))
        #expect(renamed.streak == 1)
        #expect(try await harness.reminders.list().first?.reminder.notice.title == "Read 10 pages")
        let id = try #require(try await harness.reminders.list().first).reminder.id
        try await harness.reminders.snooze(id, until: Self.sunday.addingTimeInterval(3600))
        try await run(plugin, harness, HabitCommand.delete, HabitRequest(name: "Read 10 pages"))
        #expect(try await habits(harness).isEmpty)
        #expect(try await harness.reminders.list().isEmpty)
        #expect(await harness.reminders.snoozes.isEmpty, "the snooze goes with its reminder")
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
