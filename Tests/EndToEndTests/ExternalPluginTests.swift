import Foundation
import HooraySystemTesting
import Testing

/// Plugins in other languages as a user meets them: a folder copied into place, `hooray reload`, and
/// the plugin's commands, notices and buttons through the real hoorayd and notification server.
@Suite(.timeLimit(.minutes(4)))
struct ExternalPluginTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/plugins").path

    /// Copies an example plugin's folder into the user's plugin folder, as a user would.
    static func install(_ name: String, into fixture: HoorayFixture) throws {
        let plugins = fixture.home.appending("data/hooray/plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: examples + "/" + name, toPath: plugins + "/" + name)
    }

    struct PrintedPlugin: Decodable {
        let name: String
        let state: String
        let pid: Int32?
        let lastError: String?
    }

    static func plugins(_ fixture: HoorayFixture) async throws -> [PrintedPlugin] {
        let output = try await fixture.hooray("plugins", "--json")
        return try JSONDecoder().decode([PrintedPlugin].self, from: Data(output.standardOutput.utf8))
    }

    @Test func thePomodoroFolderCopiedInAndReloadedStartsASessionWhoseBreakButtonReachesIt() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let before = try await fixture.hooray("pomodoro", "start")
            #expect(before.status != .exited(0), "there is no pomodoro plugin yet")

            try Self.install("pomodoro", into: fixture)
            let reload = try await fixture.hooray("reload")
            #expect(reload.status == .exited(0), "\(reload.standardError)")
            let running = await pollUntil(timeout: .seconds(20), interval: .milliseconds(100)) {
                () -> PrintedPlugin? in
                try? await Self.plugins(fixture).first { $0.name == "pomodoro" && $0.state == "running" }
            }
            #expect(running?.pid != nil, "\(daemon.standardError)")

            let started = try await fixture.hooray("pomodoro", "start", "Write the report", "--minutes", "1")
            #expect(started.status == .exited(0), "\(started.standardError)")
            #expect(started.standardOutput.contains("Focus until"), "\(started.standardOutput)")
            let planned = try await fixture.nextEntries().filter { $0.plugin == "pomodoro" }
            #expect(planned.count == 1)

            // A minute later the session's notice arrives, with its buttons.
            let shown = try await server.waitForNotifications(count: 1, timeout: .seconds(100))
            let notice = try #require(shown.first { $0.summary.contains("Focus session done") })
            #expect(notice.body.contains("Write the report"), "\(notice.body)")
            #expect(notice.actions.map(\.label).contains("Break"))
            if let due = planned.first?.due {
                #expect(abs(Date(timeIntervalSince1970: notice.realtime).timeIntervalSince(due)) < 2, "shown when due")
            }

            // Break reaches the plugin, which plans the break's end.
            try await server.invokeAction(id: notice.id, key: "break")
            let breakEnd = await pollUntil(timeout: .seconds(15), interval: .milliseconds(100)) {
                () -> HoorayFixture.NextEntry? in
                try? await fixture.nextEntries().first { $0.plugin == "pomodoro" && $0.title.contains("Break's over") }
            }
            #expect(breakEnd != nil, "\(daemon.standardError)")
            let status = try await fixture.hooray("pomodoro", "status", "--json")
            #expect(status.status == .exited(0), "\(status.standardError)")
            await daemon.stop()
        }
    }

    @Test func itsHelpComesFromPluginTomlAndEnabledFalseTurnsItOff() async throws {
        try await HoorayFixture.with { fixture in
            try Self.install("stretch", into: fixture)
            let help = try await fixture.hooray("stretch", "--help")
            #expect(help.status == .exited(0), "\(help.standardError)")
            #expect(help.standardOutput.contains("now"), "\(help.standardOutput)")
            // Without hoorayd, hooray runs the program itself for the one command.
            let now = try await fixture.hooray("stretch", "now")
            #expect(now.status == .exited(0), "\(now.standardError)")
            #expect(try await fixture.hooray("inbox").standardOutput.contains("Time to stretch"))

            try fixture.writeConfig("[plugins.stretch]\nenabled = false\n")
            #expect(try await Self.plugins(fixture).first { $0.name == "stretch" }?.state == "disabled")
            let off = try await fixture.hooray("stretch", "now")
            #expect(off.status != .exited(0))
            #expect(off.standardError.contains("enabled = true"), "\(off.standardError)")
        }
    }

    /// Writes a plugin that posts fifteen notices in one command, with the SDK beside it.
    static func writeNoisyPlugin(into fixture: HoorayFixture) throws {
        let folder = fixture.home.appending("data/hooray/plugins/chatty")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
        name = "chatty"
        version = "1.0.0"
        api_version = 1
        description = "Says too much."
        exec = ["chatty.py"]
        permissions = ["notify"]

        [[commands]]
        name = "burst"
        summary = "Post fifteen notices at once."
        """.write(toFile: folder + "/plugin.toml", atomically: true, encoding: .utf8)
        try writeProgram(
            """
            #!/usr/bin/env python3
            from hooray_plugin import Plugin, HostError

            plugin = Plugin()

            @plugin.command("burst")
            def burst(command, host):
                shown = held = 0
                for number in range(15):
                    try:
                        host.post_notice({"title": "Burst %d" % number})
                        shown += 1
                    except HostError as error:
                        held += 1
                        reason = error.message
                return "%d shown, %d held back: %s" % (shown, held, reason)

            plugin.run()

            """, to: folder + "/chatty.py")
        try FileManager.default.copyItem(
            atPath: examples + "/pomodoro/hooray_plugin.py", toPath: folder + "/hooray_plugin.py")
    }

    @Test func aPluginPostingTooManyNoticesIsHeldBackWithOneNoisyNotice() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try Self.writeNoisyPlugin(into: fixture)
            let daemon = try await fixture.startDaemon()
            let burst = try await fixture.hooray("chatty", "burst")
            #expect(burst.status == .exited(0), "\(burst.standardError)")
            #expect(burst.standardOutput.hasPrefix("10 shown, 5 held back: "), "\(burst.standardOutput)")
            #expect(burst.standardOutput.contains("notices_per_minute"))

            // The ten it may post, and one notice saying it is being noisy — once.
            let shown = try await server.waitForNotifications(count: 11, timeout: .seconds(20))
            #expect(shown.filter { $0.summary.hasPrefix("Burst ") }.count == 10)
            #expect(shown.filter { $0.summary == "chatty is being noisy" }.count == 1)
            let again = try await fixture.hooray("chatty", "burst")
            #expect(again.standardOutput.hasPrefix("0 shown, 15 held back"), "\(again.standardOutput)")
            #expect(await fixture.waitUntilSettled(daemon))
            let all = try server.notifications()
            #expect(all.count == 11, "\(all.map(\.summary))")
            await daemon.stop()
        }
    }
}
