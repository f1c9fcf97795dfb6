import Foundation
import HooraySystemTesting
import Testing

/// A computer that sleeps with `hoorayd` running. A suspend freezes the process (here SIGSTOP),
/// the wall clock goes on (here libfaketime's clock file jumps three days), and on resume the
/// kernel fires the wall-clock alarm whose deadline passed meanwhile (here the alarm's real
/// deadline passes while the process is frozen, so it fires the moment it thaws).
@Suite(.timeLimit(.minutes(3)))
struct SleepTests {
    @Test func threeDaysAsleepWithHoorayDRunningGiveOneWhileYouWereAwayNotice() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(
                reminderTOML(title: "Stretch", body: "Roll your shoulders.", at: "09:00")
                    + reminderTOML(title: "Water", body: "A glass of water?", at: "21:00"))
            let clock = fixture.home.appending("fake-time")
            try HoorayFixture.setFakeTime("2026-11-20 08:59:40", in: clock)
            let daemon = try await fixture.startDaemon(environment: HoorayFixture.fakeTimeVariables(file: clock))

            // The lid closes before 09:00 and opens three days later, at noon.
            #expect(kill(daemon.pid, SIGSTOP) == 0)
            // Frozen, it shows nothing more; on a very slow start, 09:00 may have come already.
            let shownBefore = try server.notifications().count
            try HoorayFixture.setFakeTime("2026-11-23 12:00:00", in: clock)
            // The 09:00 alarm's deadline passes while the process sleeps.
            try await Task.sleep(for: .seconds(25))
            #expect(kill(daemon.pid, SIGCONT) == 0)

            // Four mornings (the last three hours late, past the 2-hour catch-up) and three evenings
            // passed: too late to show, they are told in one notice.
            let arrived = try await server.waitForNotifications(count: shownBefore + 1, timeout: .seconds(30))
            let away = try #require(arrived.last)
            #expect(away.summary == "While you were away")
            #expect(away.body.contains("\(7 - shownBefore) reminders"), "\(away.body)")
            #expect(away.body.contains("Stretch ×\(4 - shownBefore)"), "\(away.body)")
            #expect(away.body.contains("Water ×3"), "\(away.body)")
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-23 12:00:00"))
            #expect(try server.notifications().count == shownBefore + 1, "one notice, not one per reminder")

            let missed = try await fixture.hooray("missed", "--json", fakeTime: "2026-11-23 12:01:00")
            #expect(missed.status == .exited(0), "\(missed.standardError)")
            let entries = try #require(
                try JSONSerialization.jsonObject(with: Data(missed.standardOutput.utf8)) as? [[String: Any]])
            let counts = Dictionary(
                uniqueKeysWithValues: entries.map { ($0["title"] as? String ?? "", $0["count"] as? Int ?? 0) })
            #expect(counts == ["Stretch": 4 - shownBefore, "Water": 3])
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
