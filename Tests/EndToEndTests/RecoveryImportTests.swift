import Foundation
import HooraySystemTesting
import Testing

/// The 24-hour follow-up across `hooray export`, `hooray delete-my-data` and `hooray import --apply`
/// with the real `hoorayd` running: reminders do not travel in an export, so a follow-up shown weeks
/// ago must not come back when its rejection does, and one exported before it was due must still
/// come, once (shown exactly once, issue 14).
@Suite(.timeLimit(.minutes(3)))
struct RecoveryImportTests {
    @Test func aFollowUpShownWeeksAgoIsNotShownAgainAfterExportDeleteAndImport() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(RecoveryTests.quietConfig)
            // A rejection of impact 8 on 3 November, never marked okay,
            var daemon = try await fixture.startDaemon(fakeTime: "2026-11-03 10:00:00")
            let logged = try await fixture.hooray("reject", "--type", "job", "--impact", "8")
            #expect(logged.status == .exited(0), "\(logged.standardError)")
            _ = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            #expect(await daemon.stop() == .exited(0))
            // and its follow-up, shown the next day.
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-04 10:30:00")
            let followUp = try #require(try await server.waitForNotifications(count: 2, timeout: .seconds(20)).last)
            #expect(followUp.summary == "How are you doing?")
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-04 10:30:00"))
            #expect(await daemon.stop() == .exited(0))

            // Three weeks later: export, delete everything, import it back while hoorayd runs.
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-24 10:00:00")
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-24 10:00:00"))
            let file = fixture.home.appending("backup.json")
            let exported = try await fixture.hooray("export", "-o", file)
            #expect(exported.status == .exited(0), "\(exported.standardError)")
            #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\"followUpShown\" : \"2026-11-04T"))
            #expect(try await fixture.hooray("delete-my-data", "--yes").status == .exited(0))
            let imported = try await fixture.hooray("import", file, "--apply")
            #expect(imported.status == .exited(0), "\(imported.standardError)")
            #expect(imported.standardOutput.contains("1 rejection added"), "\(imported.standardOutput)")
            // hoorayd activated the plugin again with the rejection back: had it nothing to keep
            // from planning the follow-up, it would have now.
            #expect(imported.standardOutput.contains("hoorayd has it too."), "\(imported.standardOutput)")

            // The rejection is back, still waiting for "I'm okay now"; its follow-up is not planned again.
            let listed = try await fixture.hooray("recovery", "list", "--json")
            #expect(listed.standardOutput.contains("\"recoveredAt\" : null"), "\(listed.standardOutput)")
            #expect(try await fixture.nextEntries(all: true).allSatisfy { !$0.id.hasPrefix("follow-up-") })
            // Once hoorayd has done all it had to by a minute from now, nothing more was shown.
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-24 10:01:00"))
            #expect(try server.notifications().map(\.summary).filter { $0 == "How are you doing?" }.count == 1)
            // The round trip still gives the same bytes.
            let again = try await fixture.hooray("export")
            #expect(again.standardOutput == (try String(contentsOfFile: file, encoding: .utf8)))
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func aFollowUpExportedBeforeItWasDueAndImportedAfterIsShownOnceAtOnce() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(RecoveryTests.quietConfig)
            // A rejection of impact 8 on 3 November at 10:00, exported at once, then everything deleted.
            var daemon = try await fixture.startDaemon(fakeTime: "2026-11-03 10:00:00")
            let logged = try await fixture.hooray("reject", "--type", "job", "--impact", "8")
            #expect(logged.status == .exited(0), "\(logged.standardError)")
            _ = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            let file = fixture.home.appending("backup.json")
            let exported = try await fixture.hooray("export", "-o", file)
            #expect(exported.status == .exited(0), "\(exported.standardError)")
            #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\"followUpShown\" : null"))
            #expect(try await fixture.hooray("delete-my-data", "--yes").status == .exited(0))
            #expect(await daemon.stop() == .exited(0))

            // Imported on 5 November, a day after its follow-up was due, which was never shown.
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-05 10:00:00")
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-05 10:00:00"))
            #expect(try server.notifications().count == 1)
            let imported = try await fixture.hooray("import", file, "--apply")
            #expect(imported.status == .exited(0), "\(imported.standardError)")
            #expect(imported.standardOutput.contains("hoorayd has it too."), "\(imported.standardOutput)")
            let followUp = try #require(try await server.waitForNotifications(count: 2, timeout: .seconds(20)).last)
            #expect(followUp.summary == "How are you doing?")
            // Once, also after a restart.
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-05 10:01:00"))
            #expect(await daemon.stop() == .exited(0))
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-05 12:00:00")
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-05 12:00:00"))
            #expect(try server.notifications().map(\.summary).filter { $0 == "How are you doing?" }.count == 1)
            // The rejection now says its follow-up was shown.
            let again = try await fixture.hooray("export")
            #expect(again.standardOutput.contains("\"followUpShown\" : \"2026-11-0"), "\(again.standardOutput)")
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
