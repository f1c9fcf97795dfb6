import Foundation
import HooraySystemTesting
import Testing

/// Pausing notifications (`hooray pause`, the tray's and the desktop entry's "Pause notifications"),
/// with the real `hoorayd` and notification server, on faked clocks.
@Suite(.timeLimit(.minutes(3)))
struct PauseTests {
    static let config = CalmDeliveryTests.reminders(["Stretch", "Water"], at: "15:00")
    /// Half an hour later, due while a pause until tomorrow holds.
    static let tea = reminderTOML(title: "Tea", body: "Tea, gently.", at: "15:30")

    /// The notices held back now, as `hooray inbox --json` lists them, once there are `count`.
    func held(_ fixture: HoorayFixture, count: Int) async -> [[String: Any]]? {
        await pollUntil(timeout: .seconds(20)) { () -> [[String: Any]]? in
            let waiting =
                (try? await CalmDeliveryTests.inboxJSON(fixture))?.filter { $0["heldBecause"] is String } ?? []
            return waiting.count == count ? waiting : nil
        }
    }

    @Test func remindersWaitWhilePausedAndComeTogetherWhenThePauseEndsEvenAfterARestart() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(Self.config)
            var daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 14:59:45")
            let paused = try await fixture.hooray("pause", "1h", fakeTime: "2026-11-23 14:59:46")
            #expect(paused.status == .exited(0), "\(paused.standardError)")
            #expect(paused.standardOutput.hasPrefix("Notifications are paused until today 15:59."))

            // At 15:00 both reminders wait, saying why and until when.
            let waiting = try #require(await held(fixture, count: 2), "\(daemon.standardError)")
            #expect(waiting.allSatisfy { ($0["heldBecause"] as? String) == "notifications paused until 15:59" })
            // What answers the user is still shown.
            let win = try await fixture.hooray("win", "Sent the email", fakeTime: "2026-11-23 15:00:30")
            #expect(win.status == .exited(0), "\(win.standardError)")
            let shown = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            #expect(shown.map(\.summary) == ["Moment logged"])
            let status = try await fixture.hooray("status", fakeTime: "2026-11-23 15:00:40")
            #expect(status.standardOutput.contains("Paused: notifications of reminders wait until today 15:59"))
            let bar = try await fixture.hooray("bar", "--json", fakeTime: "2026-11-23 15:00:40")
            #expect(bar.standardOutput.contains("Notifications paused until 15:59"), "\(bar.standardOutput)")

            // hoorayd is stopped and started again before the pause ends: it keeps to it, and lets
            // the two go as one notification when it ends.
            #expect(await daemon.stop() == .exited(0))
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 15:59:40")
            let arrived = try await server.waitForNotifications(count: 2, timeout: .seconds(30))
            let digest = try #require(arrived.last)
            #expect(digest.summary == "2 reminders: Stretch, Water")
            #expect(digest.body.hasPrefix("These waited while notifications were paused."))
            let after = try await fixture.hooray("status", fakeTime: "2026-11-23 16:00:00")
            #expect(!after.standardOutput.contains("Paused:"), "\(after.standardOutput)")
            await daemon.stop()
        }
    }

    @Test func pauseOffLetsWhatWaitedGoAtOnce() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(Self.config + Self.tea)
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 14:59:45")
            let paused = try await fixture.hooray("pause", "tomorrow", "--json", fakeTime: "2026-11-23 14:59:46")
            #expect(paused.status == .exited(0), "\(paused.standardError)")
            #expect(paused.standardOutput.contains("\"paused_until\""), "\(paused.standardOutput)")
            _ = try #require(await held(fixture, count: 2), "\(daemon.standardError)")
            // Tea, due at 15:30, will wait for the pause to end at 08:00.
            let next = try await fixture.hooray("next", fakeTime: "2026-11-23 15:00:30")
            let tea = next.standardOutput.split(separator: "\n").first { $0.contains("Tea") }
            #expect(tea?.contains("tomorrow 08:00") == true, "\(next.standardOutput)")
            #expect(tea?.contains("held until 08:00 (paused)") == true, "\(next.standardOutput)")

            let resumed = try await fixture.hooray("pause", "off", fakeTime: "2026-11-23 15:00:40")
            #expect(resumed.standardOutput.hasPrefix("Notifications are on again."), "\(resumed.standardError)")
            let arrived = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            #expect(arrived.first?.summary == "2 reminders: Stretch, Water")
            await daemon.stop()
        }
    }

    @Test func aLengthItCannotReadOrTooLongIsRefusedAndNothingIsPaused() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            let notRunning = try await fixture.hooray("pause")
            #expect(notRunning.status == .exited(69))
            #expect(notRunning.standardError.contains("hoorayd is not running"))
            let daemon = try await fixture.startDaemon()
            for (length, problem) in [
                ("9d", "is longer than 7 days"), ("soon", "is not a length"), ("10s", "is too short"),
            ] {
                let refused = try await fixture.hooray("pause", length)
                #expect(refused.status == .exited(64), "\(length)")
                #expect(refused.standardError.contains("LENGTH \"\(length)\" \(problem)"), "\(refused.standardError)")
            }
            let status = try await fixture.hooray("status")
            #expect(status.status == .exited(0))
            #expect(!status.standardOutput.contains("Paused:"))
            await daemon.stop()
        }
    }
}
