import Foundation
import HoorayCalendar
import HoorayKit
import HoorayKitTesting
import RemindersPlugin
import Testing

let berlin = TimeZone(identifier: "Europe/Berlin")!
let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18

func entry(_ fields: [String: String]) throws -> RemindersPlugin.Entry {
    try JSONDecoder().decode(RemindersPlugin.Entry.self, from: JSONSerialization.data(withJSONObject: fields))
}

@Suite struct RemindersPluginTests {
    @Test func configuredRemindersBecomeSchedules() async throws {
        let harness = PluginTestHarness(pluginName: "reminders", now: now, timeZone: berlin)
        let configuration = RemindersPlugin.Configuration(reminder: [
            try entry(["title": "Stretch", "body": "Roll your shoulders.", "at": "15:00", "days": "mon-fri"]),
            try entry([
                "title": "Water the plants", "at": "09:30", "every": "3d", "start": "2026-11-01", "zone": "Asia/Tokyo",
            ]),
            try entry(["title": "Journal", "at": "21:00"]),
        ])
        try await RemindersPlugin().activate(context: harness.context, configuration: configuration)
        let scheduled = await harness.reminders.reminders
        #expect(
            scheduled["stretch"]?.schedule
                == .weekly(
                    on: [.monday, .tuesday, .wednesday, .thursday, .friday], at: TimeOfDay(hour: 15)!, zone: berlin))
        #expect(
            scheduled["water-the-plants"]?.schedule
                == .everyNDays(
                    interval: 3, anchor: LocalDate(year: 2026, month: 11, day: 1)!, at: TimeOfDay(hour: 9, minute: 30)!,
                    zone: TimeZone(identifier: "Asia/Tokyo")!))
        #expect(scheduled["journal"]?.schedule == .daily(at: TimeOfDay(hour: 21)!, zone: berlin))
        #expect(scheduled["stretch"]?.notice.body == "Roll your shoulders.")
        #expect(scheduled["stretch"]?.notice.title == "Stretch")
    }

    @Test func removingAReminderFromTheFileCancelsIt() async throws {
        let harness = PluginTestHarness(pluginName: "reminders", now: now, timeZone: berlin)
        let plugin = RemindersPlugin()
        try await plugin.activate(
            context: harness.context,
            configuration: .init(reminder: [
                try entry(["title": "A", "at": "10:00"]), try entry(["title": "B", "at": "11:00"]),
            ]))
        try await plugin.activate(
            context: harness.context, configuration: .init(reminder: [try entry(["title": "B", "at": "11:00"])]))
        #expect(await harness.reminders.reminders.keys.sorted() == ["b"])
    }

    @Test func everyNDaysWithoutAStartKeepsItsFirstDayAcrossRestarts() async throws {
        let harness = PluginTestHarness(pluginName: "reminders", now: now, timeZone: berlin)
        let plugin = RemindersPlugin()
        let configuration = RemindersPlugin.Configuration(reminder: [
            try entry(["title": "Plants", "at": "09:00", "every": "3d"])
        ])
        try await plugin.activate(context: harness.context, configuration: configuration)
        harness.clock.advance(by: 86400 * 2)
        try await plugin.activate(context: harness.context, configuration: configuration)
        let schedule = await harness.reminders.reminders["plants"]?.schedule
        #expect(
            schedule
                == .everyNDays(
                    interval: 3, anchor: LocalDate(year: 2026, month: 11, day: 18)!, at: TimeOfDay(hour: 9)!,
                    zone: berlin))
    }

    @Test func sameTitlesGetDistinctIDs() async throws {
        let harness = PluginTestHarness(pluginName: "reminders", now: now)
        try await RemindersPlugin().activate(
            context: harness.context,
            configuration: .init(reminder: [
                try entry(["title": "Stretch!", "at": "10:00"]), try entry(["title": "stretch", "at": "16:00"]),
            ]))
        #expect(await harness.reminders.reminders.keys.sorted() == ["stretch", "stretch-2"])
    }

    @Test(arguments: [
        (["title": "X", "at": "25:00"], "not a time of day"),
        (["title": "X", "at": "10:00", "days": "mon-funday"], "not a list of weekdays"),
        (["title": "X", "at": "10:00", "every": "0d"], "not an interval of days"),
        (["title": "X", "at": "10:00", "zone": "Mars/Olympus"], "not a known time zone"),
        (["title": "X", "at": "10:00", "days": "mon", "every": "2d"], "either `days` or `every`"),
        (["title": " ", "at": "10:00"], "title that is not empty"),
        (["title": "X", "at": "10:00", "id": "notice.x"], "cannot start with \"notice.\""),
        (["title": "X", "at": "10:00", "id": "snoozed.x"], "cannot start with \"snoozed.\""),
    ])
    func badEntriesSayWhatIsWrong(fields: [String: String], message: String) {
        do {
            _ = try entry(fields)
            Issue.record("accepted \(fields)")
        } catch {
            #expect(String(describing: error).contains(message))
        }
    }
}

@Suite struct SnoozeTests {
    @Test func snoozeBringsTheReminderBackInAnHourAndSurvivesAReload() async throws {
        let harness = PluginTestHarness(pluginName: "reminders", now: now, timeZone: berlin)
        let plugin = RemindersPlugin()
        let configuration = RemindersPlugin.Configuration(reminder: [try entry(["title": "Stretch", "at": "15:00"])])
        try await plugin.activate(context: harness.context, configuration: configuration)
        let notice = try #require(await harness.reminders.reminders["stretch"]?.notice)
        #expect(notice.actions == [.snooze()])
        #expect(notice.actions.map(\.label) == ["Snooze 1 h"])

        // The engine's snooze: pressed as the engine presses it, the plugin writes no code for it.
        let reminder = try #require(await harness.reminders.reminders["stretch"])
        try await harness.press("snooze", on: notice, from: DueReminder(reminder: reminder, dueAt: now), of: plugin)
        #expect(
            await harness.reminders.reminders["snoozed.stretch"]?.schedule == .once(at: now.addingTimeInterval(3600)))

        // Snoozing the snoozed one moves it again rather than stacking a second one.
        harness.clock.advance(by: 3600)
        let back = try #require(await harness.reminders.snoozedDue("stretch"))
        #expect(back.dueAt == now, "still about the occurrence that was snoozed")
        try await harness.press("snooze", on: notice, id: NoticeID(rawValue: 2), from: back, of: plugin)
        #expect(
            await harness.reminders.reminders["snoozed.stretch"]?.schedule == .once(at: now.addingTimeInterval(7200)))

        try await plugin.activate(context: harness.context, configuration: configuration)
        #expect(await harness.reminders.reminders.keys.sorted() == ["snoozed.stretch", "stretch"])
        // Removing the reminder from the file drops its snooze too.
        try await plugin.activate(context: harness.context, configuration: .init(reminder: []))
        #expect(await harness.reminders.reminders.isEmpty)
    }
}

@Suite struct RemindersEntryDecodingTests {
    /// Lists and zones already read are kept by their text; each reminder must still get its own
    /// meaning, and a wrong one must be refused every time, not only the first.
    @Test func aListOrZoneWrittenInManyRemindersMeansTheSameInEachAndAWrongOneIsRefusedEachTime() throws {
        for title in ["First", "Second"] {
            let tokyo = try entry(["title": title, "at": "09:00", "days": "tue,thu", "zone": "Asia/Tokyo"])
            #expect(tokyo.days?.days == [.tuesday, .thursday])
            #expect(tokyo.zone?.zone.identifier == "Asia/Tokyo")
            let berlin = try entry(["title": title, "at": "09:00", "days": "sat", "zone": "Europe/Berlin"])
            #expect(berlin.days?.days == [.saturday])
            #expect(berlin.zone?.zone.identifier == "Europe/Berlin")
        }
        for title in ["First", "Second"] {
            #expect(throws: DecodingError.self) { try entry(["title": title, "at": "09:00", "zone": "Mars/Olympus"]) }
            #expect(throws: DecodingError.self) { try entry(["title": title, "at": "09:00", "days": "mon-fri,xyz"]) }
        }
    }
}
