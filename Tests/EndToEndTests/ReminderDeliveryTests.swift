import Foundation
import HooraySystemTesting
import Testing

/// The real `hoorayd` delivering a configured reminder to a real notification server.
@Suite(.timeLimit(.minutes(3)))
struct ReminderDeliveryTests {
    @Test func aReminderArrivesOnceAcrossRestartsAndKill9() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(
                reminderTOML(title: "Stretch", body: "Stand up and roll your shoulders.", at: "15:00"))

            // Given a reminder at 15:00 and a clock three seconds before it,
            var daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 14:59:57")
            // then it arrives, from "Hooray", with its title and body.
            let arrived = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            #expect(arrived.count == 1)
            let notification = try #require(arrived.first)
            #expect(notification.appName == "Hooray")
            #expect(notification.summary == "Stretch")
            #expect(notification.body == "Stand up and roll your shoulders.")
            #expect(notification.desktopEntry == "hooray")

            // After a clean restart, that occurrence is not shown again.
            #expect(await daemon.stop() == .exited(0))
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 15:00:20")
            #expect(
                await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-23 15:00:20"), "\(daemon.standardError)")
            #expect(try server.notifications().count == 1)

            // After kill -9, neither.
            daemon.send(SIGKILL)
            #expect(await daemon.waitForExit(timeout: .seconds(10)) == .signalled(SIGKILL))
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 15:00:40")
            #expect(
                await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-23 15:00:40"), "\(daemon.standardError)")
            #expect(try server.notifications().count == 1)

            // And `hooray next` now shows tomorrow's.
            let next = try await fixture.hooray("next", fakeTime: "2026-11-23 15:01:00")
            #expect(next.standardOutput.contains("tomorrow 15:00"))
            #expect(next.standardOutput.contains("Stretch"))
            await daemon.stop()
        }
    }

    @Test func aKill9RightAfterFiringNeitherLosesNorRepeatsIt() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(reminderTOML(title: "Water", body: "A glass of water?", at: "09:00"))
            // No server yet: the occurrence is recorded and waits, then the daemon dies hard.
            var daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 08:59:58")
            let queued = await pollUntil(timeout: .seconds(20)) { () -> Bool? in
                let inbox = try? await fixture.hooray("inbox")
                return inbox?.standardOutput.contains("Water") == true ? true : nil
            }
            #expect(queued == true)
            daemon.send(SIGKILL)
            await daemon.waitForExit(timeout: .seconds(10))

            // A server appears and the daemon comes back: the notice arrives exactly once.
            let server = try await fixture.startServer()
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 09:00:30")
            let arrived = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            #expect(arrived.map(\.summary) == ["Water"])
            #expect(
                await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-23 09:00:30"), "\(daemon.standardError)")
            #expect(try server.notifications().count == 1)
            await daemon.stop()
        }
    }

    @Test func markupInTheBodyArrivesLiterally() async throws {
        for capabilities in [["body", "body-markup", "actions"], ["body", "actions"]] {
            try await HoorayFixture.with { fixture in
                let server = try await fixture.startServer(capabilities: capabilities)
                try fixture.writeConfig(reminderTOML(title: "Cartoon", body: "<b>Tom & Jerry</b>", at: "12:00"))
                let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 11:59:58")
                let arrived = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
                if capabilities.contains("body-markup") {
                    // The server renders markup, so the text is escaped and shows literally.
                    #expect(arrived.first?.body == "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;")
                } else {
                    #expect(arrived.first?.body == "<b>Tom & Jerry</b>")
                }
                await daemon.stop()
            }
        }
    }

    @Test func withNoServerTheReminderWaitsInTheInboxUntilOneAppears() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(
                """
                [delivery]
                retry_every = "2s"

                """ + reminderTOML(title: "Journal", body: "Three lines about today.", at: "21:00"))
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 20:59:58")
            #expect(daemon.standardError.contains("Notifications go to the inbox"))

            let waiting = await pollUntil(timeout: .seconds(20)) { () -> String? in
                let inbox = try? await fixture.hooray("inbox")
                return inbox?.standardOutput.contains("Journal") == true ? inbox?.standardOutput : nil
            }
            let inbox = try #require(waiting)
            #expect(inbox.contains("Three lines about today."))
            #expect(inbox.contains("waiting"))

            let server = try await fixture.startServer()
            let arrived = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            #expect(arrived.map(\.summary) == ["Journal"])
            let emptied = await pollUntil(timeout: .seconds(10)) { () -> Bool? in
                let inbox = try? await fixture.hooray("inbox")
                return inbox?.standardOutput.contains("Your inbox is empty") == true ? true : nil
            }
            #expect(emptied == true)
            await daemon.stop()
        }
    }
}
