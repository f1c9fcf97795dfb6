import Foundation
import HooraySystemTesting
import Testing

/// Buttons pressed on the notification or from the terminal, and a session bus that goes away.
@Suite(.timeLimit(.minutes(3)))
struct ActionAndBusTests {
    @Test func clickingSnoozeOnTheNotificationBringsItBackInAnHour() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(reminderTOML(title: "Stretch", body: "Roll your shoulders.", at: "15:00"))
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 14:59:58")
            let shown = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(20)).first)
            #expect(shown.actions.map(\.label) == ["Snooze 1 h"])

            try await server.invokeAction(id: shown.id, key: "snooze")
            let snoozed = await pollUntil(timeout: .seconds(15)) { () -> HoorayFixture.NextEntry? in
                try? await fixture.nextEntries().first { $0.id == "snoozed.stretch" }
            }
            let due = try #require(snoozed).due
            // An hour after the click, which happened in the first seconds after 15:00 (fake clock).
            let expected = ISO8601DateFormatter().date(from: "2026-11-23T16:00:00Z")!
            #expect(due >= expected && due < expected.addingTimeInterval(60))
            await daemon.stop()
        }
    }

    @Test func withoutActionSupportTheButtonIsPressedFromTheTerminal() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer(capabilities: ["body"])
            try fixture.writeConfig(reminderTOML(title: "Stretch", body: "", at: "15:00"))
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 14:59:58")
            let shown = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(20)).first)
            // The server offers no actions, so the notification has no buttons...
            #expect(shown.actions.isEmpty)
            // ...but the inbox lists the button and `hooray act` presses it.
            let inbox = try await fixture.hooray("inbox", "--all")
            #expect(inbox.standardOutput.contains("hooray act 1 snooze"))
            let act = try await fixture.hooray("act", "1", "snooze")
            #expect(act.status == .exited(0))
            let entries = try await fixture.nextEntries()
            #expect(entries.contains { $0.id == "snoozed.stretch" })

            let wrong = try await fixture.hooray("act", "1", "explode")
            #expect(wrong.status == .exited(1))
            #expect(wrong.standardError.contains("its actions: snooze"))
            await daemon.stop()
        }
    }

    @Test func actWithoutTheDaemonSaysHowToStartIt() async throws {
        try await HoorayFixture.with { fixture in
            let act = try await fixture.hooray("act", "1", "snooze")
            #expect(act.status == .exited(69))
            #expect(act.standardError.contains("hoorayd is not running"))
        }
    }

    @Test func theDaemonOutlivesItsSessionBusAndDeliversWhenItReturns() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(
                """
                [delivery]
                retry_every = "1s"

                """ + reminderTOML(title: "Breathe", body: "In for four, out for six.", at: "15:00"))
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 14:59:52")

            // The bus goes away (taking the server with it) and comes back with a new server.
            await server.stop()
            await fixture.bus.stop()
            #expect(
                await daemon.waitForOutput(
                    containing: "Lost the connection to the session bus", in: .standardError, timeout: .seconds(15)))
            #expect(daemon.isRunning)
            try await fixture.bus.start()
            let returned = try await fixture.startServer()

            let arrived = try await returned.waitForNotifications(count: 1, timeout: .seconds(40))
            #expect(arrived.map(\.summary) == ["Breathe"])
            #expect(daemon.isRunning)
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
