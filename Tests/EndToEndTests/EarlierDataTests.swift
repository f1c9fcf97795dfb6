import Foundation
import HooraySystemTesting
import Testing

/// An existing user upgrades: the database an earlier `hooray` wrote
/// (`Tests/Fixtures/databases/hooray-v2.sqlite`, see its README) is read by this one.
@Suite(.timeLimit(.minutes(3)))
struct EarlierDataTests {
    struct PrintedMoment: Decodable {
        let text: String
        let favorite: Bool
        let mood: String?
    }

    struct ListedHabit: Decodable {
        let name: String
        let streak: Int
        let paused: Bool
    }

    /// Puts the fixture where this fixture's `hooray` keeps its database.
    func installEarlierDatabase(_ fixture: HoorayFixture) throws {
        // Tests/EndToEndTests/this file → Tests/Fixtures/databases.
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/databases/hooray-v2.sqlite").path
        let folder = fixture.home.appending("data/hooray")
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.copyItem(atPath: source, toPath: folder + "/hooray.sqlite")
        try fixture.writeConfig(
            """
            [[plugins.reminders.reminder]]
            title = "Stretch"
            body = "Roll your shoulders."
            at = "20:00"
            """)
    }

    @Test func momentsHabitsAndSnoozesSurviveTheUpgrade() async throws {
        try await HoorayFixture.with { fixture in
            try installEarlierDatabase(fixture)
            let evening = "2026-11-22 20:30:00"

            let moments = try await fixture.hooray("moments", "--json", fakeTime: evening)
            #expect(moments.status == .exited(0), "\(moments.standardError)")
            let printed = try JSONDecoder().decode([PrintedMoment].self, from: Data(moments.standardOutput.utf8))
            #expect(printed.map(\.text) == ["Sent the scary email", "Took a short walk"], "newest first")
            #expect(printed.map(\.favorite) == [false, true])
            #expect(printed.first?.mood == "proud")
            let yesterday = try await fixture.hooray("moments", "--day", "yesterday", fakeTime: evening)
            #expect(yesterday.standardOutput.contains("Sent the scary email"))
            #expect(!yesterday.standardOutput.contains("Took a short walk"))

            let list = try await fixture.hooray("habit", "list", "--json", fakeTime: evening)
            #expect(list.status == .exited(0), "\(list.standardError)")
            let habits = try JSONDecoder().decode([ListedHabit].self, from: Data(list.standardOutput.utf8))
            #expect(habits.map(\.name) == ["Read 10 pages", "Water the plants"])
            let show = try await fixture.hooray(
                "habit", "show", "read 10 pages", "--month", "2026-11", fakeTime: evening)
            #expect(show.standardOutput.contains("Remember why: To become wiser and calmer."))
            #expect(show.standardOutput.contains("●"))

            // Both snoozes of 20:00 are still to come at 21:00, now the engine's.
            struct Next: Decodable {
                let id: String
                let plugin: String
                let due: Date
            }
            let next = try await fixture.hooray("next", "--json", fakeTime: evening)
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let upcoming = try decoder.decode([Next].self, from: Data(next.standardOutput.utf8))
            let snoozes = upcoming.filter { $0.id.hasPrefix("snoozed.") }
            #expect(
                snoozes.map(\.id).sorted() == [
                    "snoozed.habit.a2e46172-6453-4c54-b861-62ce0f97f922", "snoozed.stretch",
                ], "\(upcoming)")
            #expect(!upcoming.contains { $0.id.hasPrefix("snooze.") })
            let due = try #require(ISO8601DateFormatter().date(from: "2026-11-22T21:00:09Z"))
            #expect(snoozes.allSatisfy { abs($0.due.timeIntervalSince(due)) < 1 })
        }
    }
}
