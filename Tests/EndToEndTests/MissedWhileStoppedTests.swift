import Foundation
import HooraySystemTesting
import Testing

/// Reminders that came due while `hoorayd` was stopped: the real binaries, libfaketime clocks three
/// days apart, and a real notification server.
@Suite(.timeLimit(.minutes(3)))
struct MissedWhileStoppedTests {
    /// A reminder as `hooray next --json` prints it.
    struct PrintedNext: Decodable {
        let id: String
        let title: String
        let due: Date
    }

    /// A notice as `hooray inbox --all --json` prints it.
    struct PrintedNotice: Decodable {
        let title: String
    }

    /// What hoorayd logs once its first pass has shown, skipped or queued what came due while it was stopped.
    static let caughtUp = "caught up;"

    @Test func aOneOffDueWhileStoppedForThreeDaysIsShownOnceOnStart() async throws {
        let fixture = try await HoorayFixture()
        do {
            try await snoozeThenStopForThreeDays(fixture)
        } catch {
            await fixture.tearDown()
            throw error
        }
        await fixture.tearDown()
    }

    func snoozeThenStopForThreeDays(_ fixture: HoorayFixture) async throws {
        let server = try await fixture.startServer()
        // A lateness limit of one hour, so that only the rule for one-offs can show a notice three days late.
        try fixture.writeConfig(
            "[scheduler]\ncatch_up_within = \"1h\"\n\n"
                + reminderTOML(title: "Stretch", body: "Stand up and roll your shoulders.", at: "09:00")
                + reminderTOML(title: "Water", body: "A glass of water?", at: "10:00"))

        // Given Friday's stretch reminder, snoozed for an hour: a one-off due at 10:00,
        var daemon = try await fixture.startDaemon(fakeTime: "2026-11-20 08:59:58")
        let stretch = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(20)).first)
        #expect(stretch.summary == "Stretch")
        try await server.invokeAction(id: stretch.id, key: "snooze")
        let snoozed = try #require(
            await pollUntil(timeout: .seconds(20)) { () -> PrintedNext? in
                try? await next(fixture).first { $0.id == "snoozed.stretch" }
            })
        #expect(snoozed.due >= iso("2026-11-20T10:00:00Z") && snoozed.due < iso("2026-11-20T10:01:00Z"))
        // and hoorayd stopped before it came due, until Monday 10:30, three days later.
        #expect(await daemon.stop() == .exited(0))
        daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 10:30:00")

        // The snoozed one-off arrives once, three days late. Of the repeating reminders, only the
        // latest missed occurrence within the hour is caught up: Water at 10:00, once, and not Friday's,
        // Saturday's or Sunday's; Stretch at 09:00 is an hour and a half late, so it is skipped.
        // The occurrences too late to show are told in one "While you were away" notice.
        let arrived = try await server.waitForNotifications(count: 4, timeout: .seconds(20))
        #expect(arrived.dropFirst().map(\.summary).sorted() == ["Stretch", "Water", "While you were away"])
        #expect(arrived.dropFirst().first { $0.summary == "Stretch" }?.body == "Stand up and roll your shoulders.")
        let away = arrived.first { $0.summary == "While you were away" }
        #expect(away?.body.hasPrefix("6 reminders passed") == true, "\(String(describing: away))")
        #expect(away?.body.contains("Water ×3, Stretch ×3") == true, "\(String(describing: away))")
        #expect(await daemon.waitForOutput(containing: Self.caughtUp, in: .standardError, timeout: .seconds(20)))
        #expect(try await allNotices(fixture).sorted() == ["Stretch", "Stretch", "Water", "While you were away"])
        #expect(try await next(fixture).map(\.id).sorted() == ["stretch", "water"], "the one-off is done")

        // Exactly once: a restart shows neither again.
        #expect(await daemon.stop() == .exited(0))
        daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 10:31:00")
        #expect(await daemon.waitForOutput(containing: Self.caughtUp, in: .standardError, timeout: .seconds(20)))
        #expect(try await allNotices(fixture).sorted() == ["Stretch", "Stretch", "Water", "While you were away"])
        #expect(try server.notifications().count == 4)
        #expect(await daemon.stop() == .exited(0))
    }

    func next(_ fixture: HoorayFixture) async throws -> [PrintedNext] {
        let output = try await fixture.hooray("next", "--json")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([PrintedNext].self, from: Data(output.standardOutput.utf8))
    }

    /// The titles of every notice ever queued, shown or not.
    func allNotices(_ fixture: HoorayFixture) async throws -> [String] {
        let output = try await fixture.hooray("inbox", "--all", "--json")
        return try JSONDecoder().decode([PrintedNotice].self, from: Data(output.standardOutput.utf8)).map(\.title)
    }

    func iso(_ text: String) -> Date {
        try! Date(text, strategy: .iso8601)
    }
}
