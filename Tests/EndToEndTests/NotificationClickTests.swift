import Foundation
import HooraySystemTesting
import Testing

/// A click on a notification (its `default` action, as the server invokes it) opens the desktop app at
/// what the notification is about; without the app, the notification has no click action at all.
@Suite(.serialized, .timeLimit(.minutes(6)))
struct NotificationClickTests {
    typealias Desktop = DesktopAppCelebrationTests.Desktop

    /// What the script saw.
    struct Seen: Decodable {
        var view: String?
        var focused: String?
        var labels: [String]?
        var calendar: String?
        var error: String?
    }

    /// Runs the script's `clicked` step and reads what it saw.
    func seen(
        _ desktop: Desktop, showing text: String, withCalendar: Bool = false, context: @autoclosure () -> String
    ) async throws -> Seen {
        let run = try await desktop.drive(["clicked", text] + (withCalendar ? ["calendar"] : []))
        let said = "script: \(run.standardOutput)\(run.standardError)\n\(context())"
        let seen = try #require(try? JSONDecoder().decode(Seen.self, from: Data(run.standardOutput.utf8)), "\(said)")
        #expect(seen.error == nil, "\(said)")
        return seen
    }

    @Test(
        "A click on a habit's reminder opens the app at the habit; the evening prompt's Log it opens Log a moment; a click on a logged moment shows that moment"
    )
    func aClickOpensTheAppAtWhatTheNotificationIsAbout() async throws {
        try await HoorayFixture.with(appActivation: true) { fixture in
            let server = try await fixture.startServer()
            let added = try await fixture.hooray(
                "habit", "add", "Read 10 pages", "--remind", "07:30", fakeTime: "2026-11-23 07:00:00")
            #expect(added.status == .exited(0), "\(added.standardError)")
            try fixture.writeConfig("[plugins.wins]\nevening_prompt = \"07:30\"\n")
            let desktop = try await Desktop(fixture)
            let marker = try DesktopAppCelebrationTests.writeActivation(fixture, environment: desktop.environment)
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 07:29:57")

            // The reminder comes with its buttons and the click; the app is not running yet. The evening
            // prompt (at the same time here) has no reply field on this server: its button opens the app.
            let due = try await server.waitForNotifications(count: 2, timeout: .seconds(30))
            let reminder = try #require(due.first { $0.summary == "Read 10 pages" })
            let prompt = try #require(due.first { $0.summary == "What went well today?" })
            #expect(reminder.actions.map(\.key) == ["default", "done", "snooze"], "\(reminder.actions)")
            #expect(prompt.actions.map(\.key) == ["default", "evening-reply"], "\(prompt.actions)")
            try await server.invokeAction(id: reminder.id, key: "default")
            let habit = try await seen(
                desktop, showing: "Read 10 pages", withCalendar: true, context: daemon.standardError)
            #expect(habit.view == "Habits")
            #expect(habit.calendar?.hasPrefix("Calendar of ") == true, "the habit open, with its month")
            #expect(try String(contentsOfFile: marker, encoding: .utf8) == "started\n", "the bus started the app")

            try await server.invokeAction(id: prompt.id, key: "evening-reply")
            // Log a moment, its Save button on screen (the script waits for it).
            _ = try await seen(desktop, showing: "Save this moment", context: daemon.standardError)
            #expect(try await fixture.momentTexts().isEmpty, "pressed without an answer, nothing is logged")

            // Logged from a terminal: the click shows the moment in the running app, its row focused.
            let logged = try await fixture.hooray("win", "Sent the scary email", fakeTime: "2026-11-23 07:31:00")
            #expect(logged.status == .exited(0), "\(logged.standardError)")
            let moment = try #require(try await server.waitForNotifications(count: 3, timeout: .seconds(30)).last)
            #expect(moment.summary == "Moment logged")
            try await server.invokeAction(id: moment.id, key: "default")
            let shown = try await seen(desktop, showing: "Sent the scary email", context: daemon.standardError)
            #expect(shown.view == "Moments")
            #expect(shown.focused?.hasPrefix("Sent the scary email") == true, "\(shown)")
            // The habit's own button still marks it done: the click did not press it.
            #expect(try await fixture.habitStates().map(\.today) == ["due"])
            await desktop.stop()
            await daemon.stop()
        }
    }

    @Test(
        "The desktop entry's actions, asked for over the bus as a dock asks, pause notifications, open the journey and Log a moment"
    )
    func theDesktopEntrysActionsPauseAndOpenTheJourneyAndLogAMoment() async throws {
        try await HoorayFixture.with(appActivation: true) { fixture in
            _ = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let desktop = try await Desktop(fixture)
            _ = try DesktopAppCelebrationTests.writeActivation(fixture, environment: desktop.environment)
            let entry = try String(contentsOfFile: Self.desktopEntry, encoding: .utf8)
            #expect(entry.contains("\nActions=log-win;open-journey;pause-notifications;\n"))

            // Pause notifications: the app asks hoorayd, without a window.
            #expect(entry.contains("[Desktop Action pause-notifications]\nName=Pause notifications\n"))
            let pause = try await ProcessRunner.run(
                "gdbus",
                arguments: [
                    "call", "--session", "--dest", "org.hooray.Hooray", "--object-path", "/org/hooray/Hooray",
                    "--method", "org.freedesktop.Application.ActivateAction", "pause-notifications", "[]", "{}",
                ], environment: desktop.environment, timeout: .seconds(30))
            #expect(pause.status == .exited(0), "\(pause.standardError)")
            let paused = await pollUntil(timeout: .seconds(30)) { () -> String? in
                let status = try? await fixture.hooray("status")
                return status?.standardOutput.split(separator: "\n").first { $0.hasPrefix("Paused:") }.map(String.init)
            }
            #expect(paused?.contains("wait until ") == true, "\(daemon.standardError)")

            for (action, shows) in [("open-journey", "Journey"), ("log-win", "Save this moment")] {
                #expect(entry.contains("[Desktop Action \(action)]"))
                let asked = try await ProcessRunner.run(
                    "gdbus",
                    arguments: [
                        "call", "--session", "--dest", "org.hooray.Hooray", "--object-path", "/org/hooray/Hooray",
                        "--method", "org.freedesktop.Application.ActivateAction", action, "[]", "{}",
                    ], environment: desktop.environment, timeout: .seconds(30))
                #expect(asked.status == .exited(0), "\(asked.standardError)")
                let seen = try await seen(desktop, showing: shows, context: daemon.standardError)
                if action == "open-journey" { #expect(seen.view == "Journey") }
            }
            await desktop.stop()
            await daemon.stop()
        }
    }

    /// The app's desktop entry, as the package installs it.
    static let desktopEntry = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("packaging/org.hooray.Hooray.desktop").path

    @Test func withoutTheAppANotificationHasNoClickAction() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let logged = try await fixture.hooray("win", "Drank water")
            #expect(logged.status == .exited(0), "\(logged.standardError)")
            let shown = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(20)).first)
            #expect(shown.summary == "Moment logged")
            #expect(shown.actions.isEmpty, "\(shown.actions)")
            await daemon.stop()
        }
    }
}
