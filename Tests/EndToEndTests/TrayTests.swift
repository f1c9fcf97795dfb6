import Foundation
import HooraySystemTesting
import Testing

/// The tray icon, end to end: the real `hoorayd` registers its StatusNotifierItem with a
/// StatusNotifierWatcher stand-in (Tests/Fixtures/tray/watcher.py, which behaves as Plasma's does)
/// on the test's private session bus, and the menu is read and clicked over com.canonical.dbusmenu
/// with `gdbus`, as a tray host calls it; what it did is checked with the real `hooray`.
@Suite(.timeLimit(.minutes(5)))
struct TrayTests {
    static let watcher = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/tray/watcher.py").path

    /// Starts the watcher stand-in and waits until it owns its name.
    func startWatcher(_ fixture: HoorayFixture) async throws -> ChildProcess {
        let watcher = try ChildProcess(
            "/usr/bin/python3", arguments: [Self.watcher], environment: fixture.environment())
        let ready = await watcher.waitForOutput(containing: "ready", in: .standardOutput, timeout: .seconds(20))
        #expect(ready, "the watcher did not start: \(watcher.standardError)")
        return watcher
    }

    /// Waits for the watcher to say `event` (`registered` or `unregistered`) after `after` lines,
    /// and returns the item's service.
    func waitFor(_ event: String, from watcher: ChildProcess, after: Int = 0) async -> String? {
        await pollUntil(timeout: .seconds(20)) { () -> String? in
            watcher.standardOutput.split(separator: "\n").dropFirst(after)
                .first { $0.hasPrefix(event + " ") }.map { String($0.dropFirst(event.count + 1)) }
        }
    }

    /// Calls a method with `gdbus` and returns what it printed.
    func call(_ fixture: HoorayFixture, _ service: String, _ path: String, _ method: String, _ arguments: String...)
        async throws -> String
    {
        let output = try await ProcessRunner.run(
            "gdbus",
            arguments: ["call", "--session", "--dest", service, "--object-path", path, "--method", method, "--"]
                + arguments,
            environment: fixture.environment(), timeout: .seconds(30))
        #expect(output.status == .exited(0), "\(method): \(output.standardError)")
        return output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The menu's layout, as a tray host reads it.
    func layout(_ fixture: HoorayFixture, _ service: String) async throws -> String {
        try await call(fixture, service, "/MenuBar", "com.canonical.dbusmenu.GetLayout", "0", "-1", "@as []")
    }

    /// The id of the menu's entry labelled `label`, in a layout as `gdbus` prints it.
    func id(of label: String, in layout: String) -> String? {
        let marker = "{'label': <'\(label)'>"
        guard let range = layout.range(of: marker) else { return nil }
        let before = layout[..<range.lowerBound]
        guard let open = before.range(of: "<(", options: .backwards) else { return nil }
        return before[open.upperBound...].split(separator: ",").first.map(String.init)
    }

    /// Clicks the entry labelled `label`, as a tray host does.
    func click(_ label: String, _ fixture: HoorayFixture, _ service: String) async throws {
        let menu = try await layout(fixture, service)
        let entry = id(of: label, in: menu)
        #expect(entry != nil, "no “\(label)” in \(menu)")
        _ = try await call(
            fixture, service, "/MenuBar", "com.canonical.dbusmenu.Event", entry ?? "-1", "clicked", "<0>", "0")
    }

    @Test func theMenuListsTheDueHabitsAndTickingOneMarksItDone() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            for habit in ["Read 10 pages", "Stretch_daily"] {
                let added = try await fixture.hooray("habit", "add", habit)
                #expect(added.status == .exited(0), "\(added.standardError)")
            }
            let watcher = try await startWatcher(fixture)
            let daemon = try await fixture.startDaemon()
            let service = try #require(await waitFor("registered", from: watcher), "\(daemon.standardError)")
            #expect(service.hasPrefix("org.kde.StatusNotifierItem-"))

            let tooltip = try await call(
                fixture, service, "/StatusNotifierItem", "org.freedesktop.DBus.Properties.Get",
                "org.kde.StatusNotifierItem", "ToolTip")
            #expect(tooltip.contains("'Hooray', 'Habits: 0 of 2 done today"), "\(tooltip)")
            let menu = try await layout(fixture, service)
            #expect(menu.contains("{'label': <'Read 10 pages'>, 'enabled': <true>, 'toggle-type': <'checkmark'>"))
            // An underscore is doubled, or the tray would read it as a mnemonic.
            #expect(menu.contains("'Stretch__daily'"), "\(menu)")
            #expect(menu.contains("'Pause notifications for 1 hour'") && menu.contains("'Quit the tray'"))

            try await click("Read 10 pages", fixture, service)
            // The usual celebration, as `hooray habit done` shows it.
            let shown = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            #expect(shown.first?.category == "hooray.celebration")
            #expect(try await fixture.habitStates().map(\.today) == ["done", "due"])
            // Done, it leaves the menu; the tooltip counts it.
            let after = await pollUntil(timeout: .seconds(15)) { () -> String? in
                let menu = try? await layout(fixture, service)
                return menu.flatMap { $0.contains("'Read 10 pages'") ? nil : $0 }
            }
            #expect(after?.contains("'Stretch__daily'") == true, "\(after ?? "the habit stayed in the menu")")
            let counted = try await call(
                fixture, service, "/StatusNotifierItem", "org.freedesktop.DBus.Properties.Get",
                "org.kde.StatusNotifierItem", "ToolTip")
            #expect(counted.contains("Habits: 1 of 2 done today"), "\(counted)")
            await daemon.stop()
            await watcher.stop()
        }
    }

    @Test func theIconLeavesWithTheWatcherAndComesBackWithIt() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            let first = try await startWatcher(fixture)
            let daemon = try await fixture.startDaemon()
            let service = try #require(await waitFor("registered", from: first), "\(daemon.standardError)")
            first.send(SIGKILL)
            _ = await first.waitForExit(timeout: .seconds(10))
            // A new watcher knows no items: hoorayd registers again, under the same name.
            let second = try await startWatcher(fixture)
            #expect(await waitFor("registered", from: second) == service, "\(daemon.standardError)")
            #expect(daemon.isRunning)

            // Pause from the menu: the menu and `hooray status` say until when.
            try await click("Pause notifications for 1 hour", fixture, service)
            let paused = await pollUntil(timeout: .seconds(15)) { () -> String? in
                let menu = try? await layout(fixture, service)
                return menu.flatMap { $0.contains("'Resume notifications'") ? $0 : nil }
            }
            #expect(paused?.contains("Notifications paused until ") == true)
            let status = try await fixture.hooray("status")
            #expect(status.standardOutput.contains("Paused: notifications of reminders wait until"))
            try await click("Resume notifications", fixture, service)
            let resumed = await pollUntil(timeout: .seconds(15)) { () -> Bool? in
                let status = try? await fixture.hooray("status")
                return status.map { $0.standardOutput.contains("Paused:") } == false ? true : nil
            }
            #expect(resumed == true)

            // Quit the tray: the item's name goes, so the watcher drops it, and hoorayd goes on.
            try await click("Quit the tray", fixture, service)
            #expect(await waitFor("unregistered", from: second) == service)
            #expect(daemon.isRunning)
            await second.stop()
            let third = try await startWatcher(fixture)
            // hoorayd keeps to the user's choice: once it has seen the third watcher come, it has
            // registered nothing with it.
            let seen = await daemon.waitForOutput(
                containing: "hoorayd's icon stays away, as Quit the tray asked", in: .standardError,
                timeout: .seconds(20))
            #expect(seen, "\(daemon.standardError)")
            let items = try await call(
                fixture, "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher",
                "org.freedesktop.DBus.Properties.Get",
                "org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems")
            #expect(items == "(<@as []>,)", "\(items)")
            await daemon.stop()
            await third.stop()
        }
    }

    @Test func withTrayOffNoIconIsShownUntilTheSettingTurnsItOn() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            try fixture.writeConfig("[delivery]\ntray = false\n")
            let watcher = try await startWatcher(fixture)
            let daemon = try await fixture.startDaemon()
            let keptAway = await daemon.waitForOutput(
                containing: "hoorayd's icon stays away, as [delivery] tray = false asked", in: .standardError,
                timeout: .seconds(20))
            #expect(keptAway, "\(daemon.standardError)")
            let none = try await call(
                fixture, "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher",
                "org.freedesktop.DBus.Properties.Get",
                "org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems")
            #expect(none == "(<@as []>,)", "\(none)")

            let set = try await fixture.hooray("config", "set", "delivery.tray", "true")
            #expect(set.status == .exited(0), "\(set.standardError)")
            let service = try #require(await waitFor("registered", from: watcher), "\(daemon.standardError)")
            // Without the app, a click on the icon has nothing to open: the tray shows the menu.
            let isMenu = try await call(
                fixture, service, "/StatusNotifierItem", "org.freedesktop.DBus.Properties.Get",
                "org.kde.StatusNotifierItem", "ItemIsMenu")
            #expect(isMenu == "(<true>,)")
            let menu = try await layout(fixture, service)
            #expect(!menu.contains("'Open Hooray'") && !menu.contains("'Log a win…'"), "\(menu)")
            // An item the menu does not have is refused, as dbusmenu's clients expect.
            let unknown = try await ProcessRunner.run(
                "gdbus",
                arguments: [
                    "call", "--session", "--dest", service, "--object-path", "/MenuBar", "--method",
                    "com.canonical.dbusmenu.GetLayout", "--", "9999", "-1", "@as []",
                ], environment: fixture.environment(), timeout: .seconds(30))
            #expect(unknown.status != .exited(0))
            #expect(unknown.standardError.contains("the menu has no item 9999 now"), "\(unknown.standardError)")
            await daemon.stop()
            await watcher.stop()
        }
    }
}
