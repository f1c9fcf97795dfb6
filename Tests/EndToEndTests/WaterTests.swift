import Foundation
import HooraySystemTesting
import Testing

/// The water plugin end to end: the real binaries, libfaketime clocks, a real notification server.
@Suite(.timeLimit(.minutes(3)))
struct WaterTests {
    /// What `hooray water drink --json` and `hooray water today --json` print.
    struct PrintedCount: Decodable, Equatable {
        let date: String
        let glasses: Int
        let goal: Int
    }

    static let enabled = "[plugins.water]\nenabled = true\n"
    static let notEnabled = "the water plugin is not enabled; enable it with `[plugins.water] enabled = true`"

    /// The state `hooray plugins` shows for the water plugin: `enabled` or `disabled`.
    func state(_ fixture: HoorayFixture) async throws -> String? {
        let lines = try await fixture.hooray("plugins").standardOutput.split(separator: "\n")
        let columns = lines.first { $0.hasPrefix("water ") }?.split(separator: " ", omittingEmptySubsequences: true)
        return columns.map { String($0[1]) }
    }

    func count(_ output: ProcessOutput) throws -> PrintedCount {
        #expect(output.status == .exited(0), "\(output.standardError)")
        return try JSONDecoder().decode(PrintedCount.self, from: Data(output.standardOutput.utf8))
    }

    @Test func itIsOffUntilEnabledAndSaysHow() async throws {
        try await HoorayFixture.with { fixture in
            #expect(try await state(fixture) == "disabled")

            let here = try await fixture.hooray("water", "drink")
            #expect(here.status == .exited(1))
            #expect(here.standardError.contains(Self.notEnabled))

            let daemon = try await fixture.startDaemon()
            let there = try await fixture.hooray("water", "drink")
            #expect(there.status == .exited(1))
            #expect(there.standardError.contains(Self.notEnabled))
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func theReminderComesAtItsTimeAndItsButtonCountsAGlass() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(Self.enabled)
            #expect(try await state(fixture) == "enabled")

            // Monday 15 June 2026, three seconds before the first reminder of the day.
            let daemon = try await fixture.startDaemon(fakeTime: "2026-06-15 08:59:57")
            #expect(
                await daemon.waitForOutput(
                    containing: "the next at Mon 15 Jun 09:00", in: .standardError, timeout: .seconds(20)))
            let shown = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(20)).first)
            #expect(shown.summary == "A glass of water?")
            #expect(shown.body == "A few sips count too.")
            #expect(shown.actions.map(\.label) == ["Drank a glass"])

            try await server.invokeAction(id: shown.id, key: "drank")
            let counted = await pollUntil(timeout: .seconds(15)) { () -> PrintedCount? in
                let printed = try? count(try await fixture.hooray("water", "today", "--json"))
                return printed?.glasses == 1 ? printed : nil
            }
            #expect(counted == PrintedCount(date: "2026-06-15", glasses: 1, goal: 8))
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func drinkCountsWithAndWithoutTheDaemonAndTheEighthGlassIsCelebratedOnce() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(Self.enabled)

            // No hoorayd: the command runs in `hooray` itself.
            let here = try await fixture.hooray(
                "water", "drink", "--glasses", "6", "--json", fakeTime: "2026-06-15 11:30:00")
            #expect(try count(here) == PrintedCount(date: "2026-06-15", glasses: 6, goal: 8))
            let today = try await fixture.hooray("water", "today", fakeTime: "2026-06-15 11:30:00")
            #expect(today.standardOutput == "6 of 8 glasses today.\n")

            // With hoorayd running on 15 June, `hooray` on today's real date counts on the daemon's day:
            // the daemon ran it.
            let daemon = try await fixture.startDaemon(fakeTime: "2026-06-15 12:00:00")
            let there = try await fixture.hooray("water", "drink", "--json")
            #expect(try count(there) == PrintedCount(date: "2026-06-15", glasses: 7, goal: 8))

            let eighth = try await fixture.hooray("water", "drink")
            #expect(eighth.status == .exited(0), "\(eighth.standardError)")
            #expect(eighth.standardOutput.hasPrefix("Counted. 8 of 8 glasses today.\n✓ 8 glasses of water today — "))
            let celebration = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(20)).first)
            #expect(celebration.summary == "8 glasses of water today")

            // A ninth glass is counted, and celebrated no more.
            let ninth = try await fixture.hooray("water", "drink")
            #expect(ninth.standardOutput == "Counted. 9 of 8 glasses today.\n")
            #expect(await fixture.waitUntilSettled(daemon), "\(daemon.standardError)")
            #expect(try server.notifications().map(\.summary) == ["8 glasses of water today"])
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
