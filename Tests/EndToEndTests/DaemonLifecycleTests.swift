import Foundation
import HooraySystemTesting
import Testing

/// Starting, stopping, locking and reloading the real `hoorayd`.
@Suite(.timeLimit(.minutes(3)))
struct DaemonLifecycleTests {
    @Test func sigtermStopsItCleanlyAndQuickly() async throws {
        try await HoorayFixture.with { fixture in
            let daemon = try await fixture.startDaemon()
            daemon.send(SIGTERM)
            // The issue asks for a clean exit within 2 s of SIGTERM.
            let status = await daemon.waitForExit(timeout: .seconds(2))
            #expect(status == .exited(0))
            #expect(daemon.standardError.contains("hoorayd stopped"))
        }
    }

    @Test func aSecondDaemonRefusesToStart() async throws {
        try await HoorayFixture.with { fixture in
            let first = try await fixture.startDaemon()
            let second = try await ProcessRunner.run(
                HoorayFixture.binDirectory + "/hoorayd", environment: fixture.environment(), timeout: .seconds(20))
            #expect(second.status == .exited(75))
            #expect(second.standardError.contains("hoorayd is already running (pid \(first.pid))"))
            #expect(first.isRunning)
            await first.stop()
        }
    }

    @Test func withoutAnySessionBusItStartsAndSaysWhereNoticesGo() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(reminderTOML(title: "Stretch", body: "", at: "15:00"))
            let daemon = try await fixture.startDaemon(withoutBus: true)
            #expect(daemon.isRunning)
            #expect(daemon.standardError.contains("Notifications go to the inbox"))
            #expect(daemon.standardError.contains("hooray inbox"))
            await daemon.stop()
        }
    }

    @Test func aBrokenReloadKeepsTheLastGoodConfiguration() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(reminderTOML(title: "Stretch", body: "", at: "15:00"))
            let daemon = try await fixture.startDaemon()

            // The user breaks the file, then reloads.
            try fixture.writeConfig(
                reminderTOML(title: "Stretch", body: "", at: "15:00") + "[[plugins.reminders.reminder]]\nat = 1500\n")
            daemon.send(SIGHUP)
            let reported = await daemon.waitForOutput(
                containing: "still running on the last good one", in: .standardError, timeout: .seconds(15))
            #expect(reported)
            #expect(daemon.isRunning)
            #expect(daemon.standardError.contains("hooray.toml:"))
            let next = try await fixture.hooray("next")
            #expect(next.standardOutput.contains("Stretch"))

            // A good edit then takes effect at the next reload.
            try fixture.writeConfig(reminderTOML(title: "Breathe", body: "", at: "16:00"))
            daemon.send(SIGHUP)
            #expect(
                await daemon.waitForOutput(
                    containing: "configuration reloaded", in: .standardError, timeout: .seconds(15)))
            let after = try await fixture.hooray("next")
            #expect(after.standardOutput.contains("Breathe"))
            #expect(!after.standardOutput.contains("Stretch"))
            await daemon.stop()
        }
    }

    @Test func statusNamesTheServerAndItsCapabilities() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer(capabilities: ["body", "actions"])
            let offline = try await fixture.hooray("status")
            #expect(offline.status == .exited(69))
            #expect(offline.standardOutput.contains("hoorayd is not running"))
            #expect(offline.standardOutput.contains("hooray-test-server"))

            let daemon = try await fixture.startDaemon()
            let online = try await fixture.hooray("status")
            #expect(online.status == .exited(0))
            #expect(online.standardOutput.contains("hoorayd is running (pid \(daemon.pid)"))
            #expect(online.standardOutput.contains("hooray-test-server"))
            #expect(online.standardOutput.contains("Capabilities: body, actions"))
            await daemon.stop()
            await server.stop()
        }
    }
}
