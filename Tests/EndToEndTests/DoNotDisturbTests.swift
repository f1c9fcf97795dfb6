import Foundation
import HooraySystemTesting
import Testing

/// The desktop's do-not-disturb, end to end: the real dunst under Xvfb, and test servers shaped
/// like KDE Plasma and mako.
@Suite(.timeLimit(.minutes(3)))
struct DoNotDisturbTests {
    /// Waits until `hooray status` prints a line containing `text`, and returns what it printed.
    func statusSays(_ text: String, _ fixture: HoorayFixture) async throws -> String? {
        await pollUntil(timeout: .seconds(20), interval: .milliseconds(100)) { () -> String? in
            let output = try? await fixture.hooray("status").standardOutput
            return output?.contains(text) == true ? output : nil
        }
    }

    @Test func whileDunstIsPausedRemindersWaitAndAreShownWhenDunstResumes() async throws {
        try await HoorayFixture.with { fixture in
            let dunst = try await DunstServer(busAddress: fixture.bus.address)
            // Given dunst paused, as `dunstctl set-paused true` does for do-not-disturb,
            try await dunst.control("set-paused", "true")
            try fixture.writeConfig(
                reminderTOML(title: "Stretch", body: "Roll your shoulders.", at: "15:00")
                    + reminderTOML(title: "Water", body: "A glass of water?", at: "15:00"))
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 14:59:57")

            // hoorayd knows it,
            let paused = try await statusSays("Do not disturb: on (dunst)", fixture)
            #expect(paused != nil, "\(daemon.standardError)")
            // and the reminders, once due, wait in the inbox, saying why (a notice is in the inbox a
            // moment before the delivery pass marks why it waits),
            var last = ""
            let waiting = await pollUntil(timeout: .seconds(20), interval: .milliseconds(100)) { () -> String? in
                let inbox = (try? await fixture.hooray("inbox").standardOutput) ?? ""
                last = inbox
                let both = inbox.contains("Stretch") && inbox.contains("Water")
                return both && inbox.lowercased().contains("do not disturb") ? inbox : nil
            }
            #expect(waiting != nil, "\(last)\n\(daemon.standardError)")
            // instead of reaching dunst, which neither shows them nor keeps them itself.
            #expect(dunst.summaries() == [], "\(dunst.log)")
            #expect(try await dunst.count("waiting") == 0)

            // When dunst resumes, hoorayd hears it and shows what waited, together.
            try await dunst.control("set-paused", "false")
            let shown = await pollUntil(timeout: .seconds(20), interval: .milliseconds(100)) { () -> [String]? in
                let summaries = dunst.summaries()
                return summaries.isEmpty ? nil : summaries
            }
            let summaries = try #require(shown, "\(daemon.standardError)\n\(dunst.log)")
            #expect(try await statusSays("Do not disturb: off (dunst)", fixture) != nil)
            // Nothing waits for do-not-disturb any more (the digest's buttons stay in the inbox).
            let released = await pollUntil(timeout: .seconds(20), interval: .milliseconds(100)) { () -> String? in
                let inbox = try? await fixture.hooray("inbox").standardOutput
                return inbox.map { $0.lowercased().contains("do not disturb") } == false ? inbox : nil
            }
            #expect(released != nil, "\(daemon.standardError)")
            #expect(dunst.summaries() == summaries, "one notification, and nothing after it")
            #expect(summaries.count == 1)
            #expect(summaries.first?.contains("Stretch") == true, "\(summaries)")
            #expect(summaries.first?.contains("Water") == true, "\(summaries)")
            #expect(await daemon.stop() == .exited(0))
            await dunst.stop()
        }
    }

    @Test func statusSaysWhenDunstIsPausedEvenWithoutHoorayd() async throws {
        try await HoorayFixture.with { fixture in
            let dunst = try await DunstServer(busAddress: fixture.bus.address)
            try await dunst.control("set-paused", "true")
            let status = try await fixture.hooray("status")
            #expect(status.standardOutput.contains("Do not disturb: on (dunst)"), "\(status.standardOutput)")
            let json = try await fixture.hooray("status", "--json")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
            let state = try #require(object["doNotDisturb"] as? [String: Any], "\(json.standardOutput)")
            #expect(state["on"] as? Bool == true)
            #expect(state["source"] as? String == "dunst")
            await dunst.stop()
        }
    }

    @Test func kdesInhibitedPropertyIsFollowedThroughItsChangeSignal() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await TestNotificationServer(
                busAddress: fixture.bus.address, name: "Plasma", inhibited: true)
            let daemon = try await fixture.startDaemon()
            #expect(try await statusSays("Do not disturb: on (KDE)", fixture) != nil, "\(daemon.standardError)")
            // Turned off in Plasma: hoorayd hears PropertiesChanged and says so, without being asked to look.
            try await server.setInhibited(false)
            #expect(try await statusSays("Do not disturb: off (KDE)", fixture) != nil, "\(daemon.standardError)")
            try await server.setInhibited(true)
            #expect(try await statusSays("Do not disturb: on (KDE)", fixture) != nil, "\(daemon.standardError)")
            #expect(await daemon.stop() == .exited(0))
            await server.stop()
        }
    }

    @Test func gnomesShowBannersSettingIsFollowedThroughItsChangeSignal() async throws {
        try await HoorayFixture.with { fixture in
            // GSettings kept in a key file of the test's home, which every process of the test shares.
            let settings = ["GSETTINGS_BACKEND": "keyfile"]
            func showBanners(_ value: Bool) async throws {
                let output = try await ProcessRunner.run(
                    "gsettings", arguments: ["set", "org.gnome.desktop.notifications", "show-banners", "\(value)"],
                    environment: fixture.environment(overriding: settings))
                #expect(output.status == .exited(0), "\(output.standardError)")
            }
            let server = try await TestNotificationServer(busAddress: fixture.bus.address, name: "gnome-shell")
            try await showBanners(false)
            let daemon = try await fixture.startDaemon(environment: settings)
            func statusSays(_ text: String) async -> Bool {
                await pollUntil(timeout: .seconds(20), interval: .milliseconds(100)) { () -> Bool? in
                    let output = try? await fixture.hooray("status", environment: settings).standardOutput
                    return output?.contains(text) == true ? true : nil
                } ?? false
            }
            #expect(await statusSays("Do not disturb: on (GNOME)"), "\(daemon.standardError)")
            try await showBanners(true)
            #expect(await statusSays("Do not disturb: off (GNOME)"), "\(daemon.standardError)")
            #expect(await daemon.stop() == .exited(0))
            await server.stop()
        }
    }

    @Test func makosDoNotDisturbModeIsReadWhenAsked() async throws {
        for (modes, line) in [
            (["default", "do-not-disturb"], "Do not disturb: on (mako)"),
            (["default"], "Do not disturb: off (mako)"),
        ] {
            try await HoorayFixture.with { fixture in
                let server = try await TestNotificationServer(
                    busAddress: fixture.bus.address, name: "mako", makoModes: modes)
                let status = try await fixture.hooray("status")
                #expect(status.standardOutput.contains(line), "\(status.standardOutput)")
                await server.stop()
            }
        }
    }

    @Test func makosModeChangedWhileHooraydRunsIsWhatStatusSays() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await TestNotificationServer(
                busAddress: fixture.bus.address, name: "mako", makoModes: ["default", "do-not-disturb"])
            let daemon = try await fixture.startDaemon()
            #expect(try await statusSays("Do not disturb: on (mako)", fixture) != nil, "\(daemon.standardError)")
            // mako sends no signal: the very next `hooray status` asks it, rather than saying what hoorayd last heard.
            try await server.setMakoModes(["default"])
            let off = try await fixture.hooray("status")
            #expect(off.standardOutput.contains("Do not disturb: off (mako)"), "\(off.standardOutput)")
            try await server.setMakoModes(["default", "do-not-disturb"])
            let on = try await fixture.hooray("status")
            #expect(on.standardOutput.contains("Do not disturb: on (mako)"), "\(on.standardOutput)")
            #expect(await daemon.stop() == .exited(0))
            await server.stop()
        }
    }

    @Test func aServerWithoutDoNotDisturbIsNeverInIt() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let status = try await fixture.hooray("status")
            #expect(status.standardOutput.contains("Do not disturb: off\n"), "\(status.standardOutput)")
            await server.stop()
        }
    }
}
