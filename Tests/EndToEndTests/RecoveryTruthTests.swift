import Foundation
import HooraySystemTesting
import Testing

/// Issue 29's recovery items as a user meets them: the real `hoorayd` and `hooray`, a private bus, a
/// headless notification server and a libfaketime clock.
@Suite(.timeLimit(.minutes(3)))
struct RecoveryTruthTests {
    /// The dashboard's score as `hooray recovery --json` prints it.
    struct PrintedDashboard: Decodable {
        struct Score: Decodable {
            let recoverySpeed: Double
        }
        let score: Score
    }

    @Test("Item 4: a rejection logged with --ago 3d and marked okay took three days, and scores so")
    func recoveryTimeRunsFromWhenItHappened() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            try fixture.writeConfig(RecoveryTests.quietConfig)
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-24 10:00:00")
            let logged = try await fixture.hooray(
                "reject", "--type", "job", "--impact", "5", "--ago", "3d", "No reply after the final round")
            #expect(logged.status == .exited(0), "\(logged.standardError)")
            let okay = try await fixture.hooray("recovery", "okay")
            #expect(okay.status == .exited(0), "\(okay.standardError)")
            #expect(okay.standardOutput.contains("bounced back in 3 d"), "\(okay.standardOutput)")
            #expect(!okay.standardOutput.contains("under a minute"))

            let dashboard = try await fixture.hooray("recovery", "--json")
            #expect(dashboard.status == .exited(0), "\(dashboard.standardError)")
            let printed = try JSONDecoder().decode(PrintedDashboard.self, from: Data(dashboard.standardOutput.utf8))
            #expect(printed.score.recoverySpeed == 0, "three days is the slowest recovery the score counts")
            let text = try await fixture.hooray("recovery")
            #expect(text.standardOutput.contains("Recovery speed"))
            #expect(!text.standardOutput.contains("40 of 40"))
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test("Item 5: \"just wants to be friends\" gets the direct-no plan and template, not \"Ghosted Again?\"")
    func aDatingNoteThatIsNotGhostingGetsItsOwnPlan() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(RecoveryTests.quietConfig)
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-24 10:00:00")
            let friends = try await fixture.hooray(
                "reject", "--type", "dating", "--impact", "6", "She said she just wants to be friends")
            #expect(friends.status == .exited(0), "\(friends.standardError)")
            #expect(friends.standardOutput.contains("Not the Answer You Hoped For? You're Not Alone"))
            #expect(friends.standardOutput.contains("After Direct Rejection"))
            #expect(!friends.standardOutput.contains("Ghosted"))
            #expect(!friends.standardOutput.contains("77%"))
            let notice = try #require(try await server.waitForNotifications(count: 1).first)
            #expect(notice.summary == "Not the Answer You Hoped For? You're Not Alone")
            #expect(!notice.body.contains("77%"))

            let plan = try await fixture.hooray("recovery", "plan")
            #expect(plan.standardOutput.contains("Not the Answer You Hoped For?"), "\(plan.standardOutput)")

            // Left on read is ghosting: the seed's plan, word for word.
            let ghosted = try await fixture.hooray("reject", "--type", "dating", "--impact", "4", "left on read again")
            #expect(ghosted.standardOutput.contains("Ghosted Again? You're Not Alone"))
            #expect(ghosted.standardOutput.contains("Remember: 77% of Gen Z have ghosted someone"))
            #expect(ghosted.standardOutput.contains("After Being Ghosted"))
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
