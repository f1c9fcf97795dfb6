import Foundation
import HooraySystemTesting
import Testing

/// `hooray delete-my-data`, with the daemon running.
@Suite(.timeLimit(.minutes(2)))
struct DeleteMyDataTests {
    struct IdentityJSON: Decodable {
        let userId: String
    }

    func userID(_ fixture: HoorayFixture) async throws -> String {
        let output = try await fixture.hooray("identity", "--json")
        return try JSONDecoder().decode(IdentityJSON.self, from: Data(output.standardOutput.utf8)).userId
    }

    @Test func withoutATerminalItNeedsYesAndDeletesNothing() async throws {
        try await HoorayFixture.with { fixture in
            let before = try await userID(fixture)
            let refused = try await fixture.hooray("delete-my-data")
            #expect(refused.status == .exited(64))
            #expect(refused.standardError.contains("hooray delete-my-data --yes"))
            #expect(try await userID(fixture) == before)
        }
    }

    @Test func aStoppedHoorayDIsNotAskedAndNothingIsDeletedLater() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            #expect(try await fixture.hooray("win", "Kept through it").status == .exited(0))
            #expect(await fixture.waitUntilSettled(daemon))
            daemon.send(SIGSTOP)
            let refused = try await fixture.hooray("delete-my-data", "--yes")
            #expect(refused.status == .exited(75), "\(refused.standardError)")
            #expect(refused.standardError.contains("hoorayd is stopped"), "\(refused.standardError)")
            #expect(refused.standardError.contains("nothing was deleted"), "\(refused.standardError)")
            daemon.send(SIGCONT)
            // Going on, hoorayd deletes nothing: the request was never sent.
            #expect(try await fixture.hooray("status").status == .exited(0))
            let moments = try await fixture.hooray("moments")
            #expect(moments.standardOutput.contains("Kept through it"), "\(moments.standardOutput)")
            #expect(!daemon.standardError.contains("deleted the user's data"))
            #expect(try server.notifications().filter { $0.body.contains("Kept through it") }.count == 1)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func itRemovesNoticesAndTheIdentityAndTheDaemonCarriesOn() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(reminderTOML(title: "Stretch", body: "Roll your shoulders.", at: "15:00"))
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 14:59:58")
            _ = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            let before = try await userID(fixture)
            #expect(try await fixture.hooray("inbox", "--all").standardOutput.contains("Stretch"))

            let deleted = try await fixture.hooray("delete-my-data", "--yes")
            #expect(deleted.status == .exited(0))
            #expect(deleted.standardOutput.contains("Deleted 1 notice(s)"))
            #expect(deleted.standardOutput.contains("and your anonymous id"))
            // hoorayd, the one writer of the database, deleted it.
            #expect(
                await daemon.waitForOutput(
                    containing: "deleted the user's data at their request", in: .standardError, timeout: .seconds(10)),
                "\(daemon.standardError)")

            #expect(try await fixture.hooray("inbox", "--all").standardOutput.contains("No notices yet."))
            let after = try await userID(fixture)
            #expect(after != before)
            // The configured reminder is still scheduled, and the daemon still runs.
            let next = try await fixture.hooray("next")
            #expect(next.standardOutput.contains("Stretch"))
            #expect(daemon.isRunning)
            // The occurrence already shown is not shown again.
            #expect(
                await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-23 15:00:00") { next in
                    next.contains { $0.title == "Stretch" }
                }, "\(daemon.standardError)")
            #expect(try server.notifications().count == 1)
            await daemon.stop()
        }
    }
}
