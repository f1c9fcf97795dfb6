import Foundation
import HooraySystemTesting
import Testing

/// A milestone's celebration window: a habit reaching 7 days, from the window's Habits view or a
/// terminal, with the real hoorayd on the fixture's session bus asking `hooray-app` for it over
/// D-Bus, and the window watched through the accessibility tree (AT-SPI, with dogtail) on an X
/// server of its own. GTK never starts in the test process.
@Suite(.serialized, .timeLimit(.minutes(6)))
struct DesktopAppCelebrationTests {
    /// The dogtail script that clicks the Habits view's check and watches the windows.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/app/celebration_window.py").path

    static let habit = "Read 10 pages"
    /// The milestone's title, as the calm notification and the window say it.
    static let title = "Read 10 pages · 7 days"
    /// The habits plugin's words for a 7-day milestone.
    static let detail = "7 days in a row. Look at that."
    /// hoorayd's clock: the seventh day, a Sunday.
    static let seventhDay = "2026-11-22 09:00:00"

    /// What the script saw.
    struct Seen: Decodable {
        var habitLabels: [String]?
        var celebrationLabels: [String]?
        var afterLabels: [String]?
        var shownAfter: Double?
        var closedAfter: Double?
        var windows: [String]?
        var quit: Bool?
        var error: String?

        enum CodingKeys: String, CodingKey {
            case error, windows, quit
            case habitLabels = "habit_labels"
            case celebrationLabels = "celebration_labels"
            case afterLabels = "after_labels"
            case shownAfter = "shown_after"
            case closedAfter = "closed_after"
        }
    }

    /// A habit as `hooray habit list --json` lists it.
    struct ListedHabit: Decodable {
        var name: String
        var streak: Int
        var today: String
    }

    /// An X server and the accessibility bus on the fixture's session bus, for the app and the script.
    struct Desktop {
        let display: XvfbDisplay
        let accessibility: ChildProcess
        let environment: ProcessEnvironment

        init(_ fixture: HoorayFixture) async throws {
            display = try await XvfbDisplay()
            environment = fixture.environment(
                overriding: ["DISPLAY": display.name, "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo"])
            accessibility = try ChildProcess(
                "/usr/libexec/at-spi-bus-launcher", arguments: ["--launch-immediately"], environment: environment)
            let busUp = try await ProcessRunner.run(
                "gdbus", arguments: ["wait", "--session", "--timeout", "20", "org.a11y.Bus"],
                environment: environment, timeout: .seconds(30))
            #expect(busUp.status.isSuccess, "the accessibility bus did not start: \(busUp.standardError)")
        }

        /// Runs the script with `arguments`.
        func drive(_ arguments: [String]) async throws -> ProcessOutput {
            try await ProcessRunner.run(
                "/usr/bin/python3", arguments: [DesktopAppCelebrationTests.script] + arguments,
                environment: environment, timeout: .seconds(240))
        }

        /// Says what a window manager says of a full-screen window in front (EWMH: the active window,
        /// and its state), said of the root window: no window manager runs here.
        func enterFullScreen() async throws {
            let rootInfo = try await ProcessRunner.run(
                "xwininfo", arguments: ["-root"], environment: environment, timeout: .seconds(30))
            let root = try #require(
                rootInfo.standardOutput.split(separator: " ").first { $0.hasPrefix("0x") }.map(String.init),
                "\(rootInfo.standardOutput)")
            try await xprop(["-f", "_NET_ACTIVE_WINDOW", "32x", "-set", "_NET_ACTIVE_WINDOW", root])
            try await xprop(["-f", "_NET_WM_STATE", "32a", "-set", "_NET_WM_STATE", "_NET_WM_STATE_FULLSCREEN"])
        }

        /// The full-screen window left (``enterFullScreen()`` undone, but for the active window).
        func leaveFullScreen() async throws {
            try await xprop(["-remove", "_NET_WM_STATE"])
        }

        private func xprop(_ arguments: [String]) async throws {
            let output = try await ProcessRunner.run(
                "xprop", arguments: ["-root"] + arguments, environment: environment, timeout: .seconds(30))
            #expect(output.status == .exited(0), "\(output.standardError)")
        }

        func stop() async {
            await accessibility.stop()
            await display.stop()
        }
    }

    /// Adds the habit and marks its six days before the seventh, with hoorayd stopped.
    static func sixDaysDone(_ fixture: HoorayFixture) async throws {
        var outputs = [
            try await fixture.hooray("habit", "add", habit, "--start", "2026-11-16", fakeTime: "2026-11-16 09:00:00")
        ]
        for day in 16...21 {
            outputs.append(
                try await fixture.hooray(
                    "habit", "done", habit, "--date", "2026-11-\(day)", fakeTime: "2026-11-22 08:00:00"))
        }
        for output in outputs { #expect(output.status == .exited(0), "\(output.standardError)") }
    }

    /// The habits, as `hooray habit list --json` lists them on the seventh day.
    static func habits(_ fixture: HoorayFixture) async throws -> [ListedHabit] {
        let listing = try await fixture.hooray("habit", "list", "--json", fakeTime: "2026-11-22 10:00:00")
        return try JSONDecoder().decode([ListedHabit].self, from: Data(listing.standardOutput.utf8))
    }

    /// A script for the session bus to run when it starts the app: it notes that it ran, then runs
    /// `hooray-app` as a service with the desktop's variables (the bus's own are the test's).
    static func writeActivation(_ fixture: HoorayFixture, environment: ProcessEnvironment?) throws -> String {
        let marker = fixture.home.appending("app-activated.log")
        var lines = ["#!/bin/sh", "echo started >> '\(marker)'"]
        if let environment {
            let variables = environment.resolved().filter { !$0.key.contains("=") && !$0.value.contains("'") }
                .sorted { $0.key < $1.key }.map { "'\($0.key)=\($0.value)'" }
            lines.append(
                "exec /usr/bin/env -i \(variables.joined(separator: " ")) '\(HoorayFixture.binDirectory)/hooray-app'"
                    + " --gapplication-service")
        }
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: fixture.appActivationScript, atomically: true, encoding: .utf8)
        return marker
    }

    @Test("A habit checked in the Habits view on its 7th day opens the calm celebration window, which closes by itself")
    func checkingTheSeventhDayInTheWindowCelebrates() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try await Self.sixDaysDone(fixture)
            let daemon = try await fixture.startDaemon(fakeTime: Self.seventhDay)
            let desktop = try await Desktop(fixture)
            let app = try ChildProcess(HoorayFixture.binDirectory + "/hooray-app", environment: desktop.environment)
            let run = try await desktop.drive(["habit", Self.habit, Self.title])
            let appStatus = await app.stop()
            await desktop.stop()
            let habits = try await Self.habits(fixture)
            let shown = try server.notifications()
            await daemon.stop()
            await server.stop()
            let context = Comment(
                rawValue: "script: \(run.standardOutput)\(run.standardError)\napp (\(appStatus)): \(app.standardError)"
                    + "\nhoorayd: \(daemon.standardError)")
            let seen = try #require(try? JSONDecoder().decode(Seen.self, from: Data(run.standardOutput.utf8)), context)
            #expect(seen.error == nil, context)

            #expect((seen.habitLabels ?? []).contains("6 days"), "the streak before the check: \(context)")
            let celebration = seen.celebrationLabels ?? []
            #expect(celebration.contains(Self.title), "\(context)")
            #expect(celebration.contains { $0.hasSuffix("\n" + Self.detail) }, "the notice's words: \(context)")
            #expect(!celebration.contains("Confetti"), "calm: a glow, no confetti: \(context)")
            // It stays a few seconds (6), then goes by itself: nothing was clicked.
            #expect((seen.closedAfter ?? 0) >= 3, "\(context)")
            #expect(
                (seen.afterLabels ?? []).contains("7 days · done today · 7 Day badge"), "the row, updated: \(context)")
            #expect(habits.first?.streak == 7 && habits.first?.today == "done", "hooray habit list agrees")
            #expect(shown.contains { $0.summary == Self.title }, "the notification is shown too: \(shown)")
            if let after = seen.shownAfter { print("Celebration window shown \(after) s after the click") }
        }
    }

    @Test(
        "With the app not running, a milestone reached in a terminal starts it for the celebration window alone, which closes, and the app quits"
    )
    func aMilestoneStartsTheAppThroughDBusActivation() async throws {
        try await HoorayFixture.with(appActivation: true) { fixture in
            let server = try await fixture.startServer()
            try await Self.sixDaysDone(fixture)
            let daemon = try await fixture.startDaemon(fakeTime: Self.seventhDay)
            let desktop = try await Desktop(fixture)
            let marker = try Self.writeActivation(fixture, environment: desktop.environment)
            let run = try await desktop.drive(
                ["activated", HoorayFixture.binDirectory + "/hooray", Self.habit, Self.title])
            await desktop.stop()
            let habits = try await Self.habits(fixture)
            await daemon.stop()
            await server.stop()
            let context = Comment(
                rawValue: "script: \(run.standardOutput)\(run.standardError)\nhoorayd: \(daemon.standardError)")
            let seen = try #require(try? JSONDecoder().decode(Seen.self, from: Data(run.standardOutput.utf8)), context)
            #expect(seen.error == nil, context)
            #expect(seen.windows == [Self.title], "the celebration alone, no main window: \(context)")
            #expect((seen.celebrationLabels ?? []).contains(Self.title), "\(context)")
            #expect((seen.closedAfter ?? 0) >= 3, "\(context)")
            #expect(seen.quit == true, "\(context)")
            let started = (try? String(contentsOfFile: marker, encoding: .utf8)) ?? ""
            #expect(started == "started\n", "the session bus started the app once")
            #expect(habits.first?.streak == 7)
            if let after = seen.shownAfter {
                print("Celebration window shown \(after) s after `hooray habit done`, the app started for it")
            }
        }
    }

    @Test("A playful milestone's window has the notification's 🎉 title, sparks and confetti")
    func aPlayfulMilestonesWindowHasConfetti() async throws {
        try await HoorayFixture.with(appActivation: true) { fixture in
            try fixture.writeConfig("[celebrations]\nstyle = \"playful\"\n")
            let server = try await fixture.startServer()
            try await Self.sixDaysDone(fixture)
            let daemon = try await fixture.startDaemon(fakeTime: Self.seventhDay)
            let desktop = try await Desktop(fixture)
            _ = try Self.writeActivation(fixture, environment: desktop.environment)
            let title = "🎉 " + Self.title
            let run = try await desktop.drive(["activated", HoorayFixture.binDirectory + "/hooray", Self.habit, title])
            await desktop.stop()
            let shown = try server.notifications()
            await daemon.stop()
            await server.stop()
            let context = Comment(
                rawValue: "script: \(run.standardOutput)\(run.standardError)\nhoorayd: \(daemon.standardError)")
            let seen = try #require(try? JSONDecoder().decode(Seen.self, from: Data(run.standardOutput.utf8)), context)
            #expect(seen.error == nil, context)
            let labels = seen.celebrationLabels ?? []
            #expect(labels.contains(title) && labels.contains("Confetti"), "\(context)")
            #expect(shown.map(\.summary) == [title], "\(shown)")
        }
    }

    @Test("Over a full-screen window the celebration waits, and shows once the user left it")
    func theWindowWaitsWhileAFullScreenWindowIsInFront() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try await Self.sixDaysDone(fixture)
            let daemon = try await fixture.startDaemon(fakeTime: Self.seventhDay)
            let desktop = try await Desktop(fixture)
            let app = try ChildProcess(HoorayFixture.binDirectory + "/hooray-app", environment: desktop.environment)
            let ready = try await desktop.drive(["windows"])
            try await desktop.enterFullScreen()

            let done = try await fixture.hooray("habit", "done", Self.habit)
            #expect(done.status == .exited(0), "\(done.standardError)")
            // The positive signal first: the notification was shown, the app took the request, and
            // said it waits.
            let shown = try await server.waitForNotifications(count: 1, timeout: .seconds(30))
            let settled = await fixture.waitUntilSettled(daemon)
            let waits = await app.waitForOutput(
                containing: "the celebration waits", in: .standardError, timeout: .seconds(30))
            let during = try await desktop.drive(["windows"])

            try await desktop.leaveFullScreen()
            let after = try await desktop.drive(["watch", Self.title])
            let appStatus = await app.stop()
            await desktop.stop()
            await daemon.stop()
            await server.stop()
            let context = Comment(
                rawValue: "\(ready.standardOutput)\(during.standardOutput)\(during.standardError)\n"
                    + "\(after.standardOutput)\(after.standardError)\napp (\(appStatus)): \(app.standardError)")
            #expect(shown.map(\.summary) == [Self.title], "\(shown)")
            #expect(settled && waits, context)
            let before = try #require(
                try? JSONDecoder().decode(Seen.self, from: Data(during.standardOutput.utf8)), context)
            #expect(before.windows == ["Hooray"], "no celebration over the full-screen window: \(context)")
            let seen = try #require(
                try? JSONDecoder().decode(Seen.self, from: Data(after.standardOutput.utf8)), context)
            #expect(seen.error == nil, context)
            #expect((seen.celebrationLabels ?? []).contains(Self.title), context)
            #expect((seen.closedAfter ?? 0) >= 3, context)
        }
    }

    @Test("Over a full-screen window one celebration waits: a newer one takes the place of the one waiting")
    func aNewerCelebrationReplacesTheWaitingOne() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let desktop = try await Desktop(fixture)
            let app = try ChildProcess(HoorayFixture.binDirectory + "/hooray-app", environment: desktop.environment)
            let ready = try await desktop.drive(["windows"])
            try await desktop.enterFullScreen()
            // Two milestones asked for as hoorayd asks (`app.celebrate`), one after the other.
            for title in ["Stretch · 7 days", Self.title] {
                let asked = try await ProcessRunner.run(
                    "gdbus",
                    arguments: [
                        "call", "--session", "--dest", "org.hooray.Hooray", "--object-path", "/org/hooray/Hooray",
                        "--method", "org.freedesktop.Application.ActivateAction", "celebrate",
                        "[<('\(title)', '\(Self.detail)', 'calm')>]", "{}",
                    ], environment: desktop.environment, timeout: .seconds(30))
                #expect(asked.status == .exited(0), "\(asked.standardError)")
            }
            let waits = await app.waitForOutput(
                containing: "the celebration waits", in: .standardError, timeout: .seconds(30))
            try await desktop.leaveFullScreen()
            let after = try await desktop.drive(["watch", Self.title])
            let appStatus = await app.stop()
            await desktop.stop()
            await daemon.stop()
            await server.stop()
            let context = Comment(
                rawValue: "\(ready.standardOutput)\(after.standardOutput)\(after.standardError)\n"
                    + "app (\(appStatus)): \(app.standardError)")
            #expect(waits, context)
            #expect(!ready.standardOutput.contains("\"error\""), "the window opened: \(context)")
            let seen = try #require(
                try? JSONDecoder().decode(Seen.self, from: Data(after.standardOutput.utf8)), context)
            #expect(seen.error == nil, context)
            #expect((seen.celebrationLabels ?? []).contains(Self.title), context)
            #expect(seen.windows == ["Hooray", Self.title], "the older one is not shown too: \(context)")
            if let after = seen.shownAfter { print("Newer celebration shown \(after) s after the full screen ended") }
        }
    }

    @Test("In do-not-disturb a milestone's window waits with its notification, and is asked for when it ends")
    func theWindowWaitsForDoNotDisturbToEnd() async throws {
        try await HoorayFixture.with(appActivation: true) { fixture in
            let server = try await TestNotificationServer(
                busAddress: fixture.bus.address, name: "Plasma", inhibited: true)
            try await Self.sixDaysDone(fixture)
            let daemon = try await fixture.startDaemon(fakeTime: Self.seventhDay)
            let marker = try Self.writeActivation(fixture, environment: nil)
            let done = try await fixture.hooray("habit", "done", Self.habit)
            #expect(done.status == .exited(0), "\(done.standardError)")
            // The positive signal first: the milestone waits in the inbox for do-not-disturb to end.
            var inbox = ""
            let waiting = await pollUntil(timeout: .seconds(30), interval: .milliseconds(100)) { () -> Bool? in
                inbox = (try? await fixture.hooray("inbox").standardOutput) ?? ""
                return inbox.contains(Self.title) && inbox.lowercased().contains("do not disturb") ? true : nil
            }
            #expect(waiting == true, "\(inbox)\n\(daemon.standardError)")
            #expect(!FileManager.default.fileExists(atPath: marker), "no window while do-not-disturb is on")
            #expect(try server.notifications().isEmpty)

            try await server.setInhibited(false)
            let shown = try await server.waitForNotifications(count: 1, timeout: .seconds(30))
            let asked = await pollUntil(timeout: .seconds(30), interval: .milliseconds(100)) { () -> Bool? in
                FileManager.default.fileExists(atPath: marker) ? true : nil
            }
            await daemon.stop()
            await server.stop()
            #expect(shown.map(\.summary) == [Self.title], "\(shown)")
            #expect(asked == true, "the app is asked for the window once it ended: \(daemon.standardError)")
        }
    }

    @Test("With [celebrations] window = false a milestone is a notification only: the app is not asked for a window")
    func windowFalseKeepsCelebrationsToNotifications() async throws {
        try await HoorayFixture.with(appActivation: true) { fixture in
            try fixture.writeConfig("[celebrations]\nwindow = false\n")
            let server = try await fixture.startServer()
            try await Self.sixDaysDone(fixture)
            let daemon = try await fixture.startDaemon(fakeTime: Self.seventhDay)
            let marker = try Self.writeActivation(fixture, environment: nil)
            let done = try await fixture.hooray("habit", "done", Self.habit)
            #expect(done.status == .exited(0), "\(done.standardError)")
            // The positive signal first: the milestone's notification was shown and its delivery is
            // over (hoorayd asks for the window in the same delivery, after the notification).
            let shown = try await server.waitForNotifications(count: 1, timeout: .seconds(30))
            let settled = await fixture.waitUntilSettled(daemon)
            await daemon.stop()
            await server.stop()
            #expect(settled, "\(daemon.standardError)")
            #expect(shown.map(\.summary) == [Self.title], "\(shown)")
            #expect(!FileManager.default.fileExists(atPath: marker), "the app was not started for a window")
        }
    }

    @Test(
        "With hoorayd stopped a milestone reached in a terminal is a notification only: the command does not start the app"
    )
    func withHooraydStoppedAMilestoneIsANotificationOnly() async throws {
        try await HoorayFixture.with(appActivation: true) { fixture in
            let server = try await fixture.startServer()
            try await Self.sixDaysDone(fixture)
            let marker = try Self.writeActivation(fixture, environment: nil)
            let started = ContinuousClock.now
            let done = try await fixture.hooray("habit", "done", Self.habit, fakeTime: Self.seventhDay)
            let took = ContinuousClock.now - started
            let shown = try await server.waitForNotifications(count: 1, timeout: .seconds(30))
            await server.stop()
            #expect(done.status == .exited(0), "\(done.standardError)")
            #expect(shown.map(\.summary) == [Self.title], "\(shown)")
            #expect(!FileManager.default.fileExists(atPath: marker), "the app was not started for a window")
            print("`hooray habit done` at a milestone with hoorayd stopped took \(took)")
        }
    }
}
