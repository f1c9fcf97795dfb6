import Foundation
import HoorayKit
import HoorayKitTesting
import HoorayTesting
import Testing

@testable import RemindersPlugin

/// Restarting with reminders in the file: what changed is built again, and the user sees the same
/// reminders as when every one was built.
@Suite struct RemindersRestartTests {
    /// Tue 24 Nov 2026 10:00 UTC.
    static let tuesday = Date(timeIntervalSince1970: 1_795_514_400)

    @Test(
        "After a restart an edited reminder shows its new text, a removed one never comes, the others keep their plan")
    func editedRemovedAndUnchangedAfterRestart() async throws {
        let stretch = ["title": "Stretch", "body": "Roll your shoulders.", "at": "11:00"]
        let water = ["title": "Water", "body": "Drink a glass.", "at": "12:00", "days": "mon-fri"]
        let walk = ["title": "Walk", "body": "Around the block.", "at": "13:00"]
        let world = try await PluginWorld(
            plugin: RemindersPlugin(), configuration: .init(reminder: try [stretch, water, walk].map(entry)),
            now: Self.tuesday)
        let planned = try await world.reminders()

        var edited = stretch
        edited["body"] = "Roll your shoulders, then your wrists."
        try await world.restart(configuration: .init(reminder: try [edited, walk].map(entry)))
        let replanned = try await world.reminders()
        #expect(replanned.map(\.reminder.id) == ["stretch", "walk"])
        #expect(replanned.map(\.nextDue) == planned.filter { $0.reminder.id != "water" }.map(\.nextDue))

        await world.advance(by: .seconds(4 * 3600))
        #expect(await world.shown.map(\.notice.title) == ["Stretch", "Walk"])
        #expect(await world.shown.first?.notice.body == "Roll your shoulders, then your wrists.")
    }

    @Test(
        "After a restart with one of many reminders moved earlier, the next due is the moved one's, the others keep theirs"
    )
    func oneMovedAmongManyAfterRestart() async throws {
        // Tuesday 10:00 UTC; every reminder comes from 12:00 UTC on.
        let fields = (0..<400).map { index in
            [
                "title": "Reminder \(index)", "at": String(format: "%02d:%02d", 12 + index / 120, index % 60),
                "zone": "UTC",
            ]
        }
        let world = try await PluginWorld(
            plugin: RemindersPlugin(), configuration: .init(reminder: try fields.map(entry)), now: Self.tuesday)
        let planned = try await world.reminders()
        #expect(await world.nextDue == Self.tuesday.addingTimeInterval(2 * 3600))

        var moved = fields
        moved[250]["at"] = "10:30"
        moved[251]["body"] = "Reworded."
        try await world.restart(configuration: .init(reminder: try moved.map(entry)))

        let halfPastTen = Self.tuesday.addingTimeInterval(1800)
        #expect(await world.nextDue == halfPastTen, "the moved reminder is planned anew, and comes first")
        let replanned = Dictionary(uniqueKeysWithValues: try await world.reminders().map { ($0.reminder.id, $0) })
        for before in planned where before.reminder.id != "reminder-250" {
            #expect(replanned[before.reminder.id]?.nextDue == before.nextDue, "\(before.reminder.id) keeps its plan")
        }
        #expect(replanned["reminder-251"]?.reminder.notice.body == "Reworded.")
        await world.advance(to: halfPastTen)
        #expect(await world.shown.map(\.notice.title) == ["Reminder 250"])
    }

    /// Records what the plugin declares, building nothing.
    actor DeclaringBook: ReminderBook {
        var declared: [DeclaredReminder] = []
        func schedule(_ reminder: Reminder) async throws -> ScheduledReminder {
            ScheduledReminder(reminder: reminder, nextDue: nil)
        }
        func cancel(id: String) async throws {}
        func list() async throws -> [ScheduledReminder] { [] }
        func replaceAll(with reminders: [Reminder]) async throws { declared = reminders.map(DeclaredReminder.init) }
        func replaceAll(declaring reminders: [DeclaredReminder]) async throws { declared = reminders }
        func snooze(_ id: String, until: Date) async throws {}
    }

    func digests(_ fields: [[String: String]], zone: TimeZone) async throws -> [String?] {
        let harness = PluginTestHarness(pluginName: "reminders", now: Self.tuesday, timeZone: zone)
        let book = DeclaringBook()
        try await RemindersPlugin().activate(
            context: harness.context(reminders: book), configuration: .init(reminder: try fields.map(entry)))
        return await book.declared.map(\.sourceDigest)
    }

    @Test("A reminder's digest changes with each thing it is built from, the zone it falls back on too")
    func theDigestCoversEverythingTheReminderIsBuiltFrom() async throws {
        let base = ["title": "Stretch", "body": "Roll.", "at": "11:00", "days": "mon-fri", "urgency": "normal"]
        let same = try await digests([base], zone: berlin)
        #expect(same == (try await digests([base], zone: berlin)))
        #expect(same.allSatisfy { $0 != nil })
        var variants: [[String: String]] = []
        for (key, value) in [
            ("title", "Stretch!"), ("body", "Roll more."), ("at", "11:01"), ("days", "mon-sat"),
            ("urgency", "critical"),
            ("zone", "Asia/Tokyo"), ("id", "mine"),
        ] {
            var changed = base
            changed[key] = value
            variants.append(changed)
        }
        var every = base
        every["days"] = nil
        every["every"] = "2d"
        every["start"] = "2026-11-01"
        variants.append(every)
        every["start"] = "2026-11-02"
        variants.append(every)
        var seen = Set(same)
        for variant in variants {
            let digest = try await digests([variant], zone: berlin)
            #expect(seen.insert(digest[0]).inserted, "\(variant) has a digest of its own")
        }
        #expect(try await digests([base], zone: TimeZone(identifier: "Asia/Tokyo")!) != same)
        // An `every` reminder without a start reads its first day from storage: built every time.
        #expect(try await digests([["title": "Plants", "at": "09:00", "every": "3d"]], zone: berlin) == [nil])
    }
}
