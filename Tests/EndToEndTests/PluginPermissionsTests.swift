import Foundation
import HooraySystemTesting
import Testing

/// A plugin's permissions as the user meets them: listed in plain words, shown in full by
/// `hooray plugins show NAME`, a new one holding the plugin until `hooray plugins allow NAME`, and a
/// misspelt one refusing the folder — through the real hoorayd.
@Suite(.timeLimit(.minutes(4)))
struct PluginPermissionsTests {
    struct PrintedPlugin: Decodable {
        let name: String
        let state: String
        let lastError: String?
        let permissions: [String]?
        let notAllowed: [String]?
        let program: [String]?
        let dataFolder: String?
        let canReach: [String]?
        let cannotReach: [String]?
    }

    static func plugins(_ fixture: HoorayFixture) async throws -> [PrintedPlugin] {
        let output = try await fixture.hooray("plugins", "--json")
        return try JSONDecoder().decode([PrintedPlugin].self, from: Data(output.standardOutput.utf8))
    }

    static func plugin(_ name: String, _ fixture: HoorayFixture) async throws -> PrintedPlugin? {
        try await plugins(fixture).first { $0.name == name }
    }

    /// The example `stretch` plugin, with `permissions` as given (line 6 of its plugin.toml).
    @discardableResult
    static func installStretch(into fixture: HoorayFixture, permissions: String) throws -> String {
        let folder = fixture.home.appending("data/hooray/plugins/stretch")
        if !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(
                atPath: fixture.home.appending("data/hooray/plugins"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: ExternalPluginTests.examples + "/stretch", toPath: folder)
        }
        let manifest = try String(contentsOfFile: folder + "/plugin.toml", encoding: .utf8)
        let lines = manifest.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("permissions") ? "permissions = [\(permissions)]" : String(line)
        }
        try lines.joined(separator: "\n").write(toFile: folder + "/plugin.toml", atomically: true, encoding: .utf8)
        return folder
    }

    static func waitUntil(_ state: String, _ name: String, _ fixture: HoorayFixture) async -> PrintedPlugin? {
        await pollUntil(timeout: .seconds(20), interval: .milliseconds(100)) { () -> PrintedPlugin? in
            guard let plugin = try? await Self.plugin(name, fixture), plugin.state == state else { return nil }
            return plugin
        }
    }

    @Test func pluginsShowPrintsOnePluginInFullAndAMistypedNameGetsTheNearOne() async throws {
        try await HoorayFixture.with { fixture in
            let folder = try Self.installStretch(into: fixture, permissions: #""notify", "schedule""#)
            let daemon = try await fixture.startDaemon()
            #expect(await Self.waitUntil("running", "stretch", fixture) != nil, "\(daemon.standardError)")

            let shown = try await fixture.hooray("plugins", "show", "stretch")
            #expect(shown.status == .exited(0), "\(shown.standardError)")
            let text = shown.standardOutput
            for words in [
                "stretch 1.0.0 — A gentle nudge", "State:       running (pid ", "stretch.sh", "plugin-data/stretch",
                "It asks to:\n  - post notices and celebrate\n  - schedule and cancel its own reminders",
                "It can reach:", "its own folder", "read-only", "It cannot reach:", "your secrets",
                "the network: it has none",
            ] {
                #expect(text.contains(words), "\(words) is not in:\n\(text)")
            }
            #expect(text.contains(URL(fileURLWithPath: folder).resolvingSymlinksInPath().path), "\(text)")

            let json = try await fixture.hooray("plugins", "show", "stretch", "--json")
            let detail = try JSONDecoder().decode(PrintedPlugin.self, from: Data(json.standardOutput.utf8))
            #expect(detail.permissions == ["post notices and celebrate", "schedule and cancel its own reminders"])
            #expect(detail.program?.first?.hasSuffix("/stretch/stretch.sh") == true, "\(json.standardOutput)")
            #expect(detail.dataFolder?.hasSuffix("/hooray/plugin-data/stretch") == true)
            #expect(detail.cannotReach?.contains { $0.hasPrefix("the network") } == true)

            let listed = try await fixture.hooray("plugins")
            #expect(
                listed.standardOutput.contains(
                    "stretch: post notices and celebrate; schedule and cancel its own reminders"),
                "\(listed.standardOutput)")

            let mistyped = try await fixture.hooray("plugins", "show", "strech")
            #expect(mistyped.status == .exited(64))
            #expect(
                mistyped.standardError.contains(
                    #"hooray plugins show: there is no plugin "strech"; did you mean `hooray plugins show stretch`?"#),
                "\(mistyped.standardError)")
            #expect(mistyped.standardOutput.isEmpty)
            await daemon.stop()
        }
    }

    @Test func anUpdateAskingForTheNetworkIsHeldUntilAllowedAndItsCommandsSaySo() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            try Self.installStretch(into: fixture, permissions: #""notify", "schedule""#)
            let daemon = try await fixture.startDaemon()
            #expect(await Self.waitUntil("running", "stretch", fixture) != nil, "\(daemon.standardError)")

            // An update asks for the network too.
            try Self.installStretch(into: fixture, permissions: #""notify", "schedule", "network:127.0.0.1:8080""#)
            let reload = try await fixture.hooray("reload")
            #expect(reload.status == .exited(0), "\(reload.standardError)")
            let held = try #require(await Self.waitUntil("held", "stretch", fixture), "\(daemon.standardError)")
            #expect(
                held.notAllowed == ["reach the network (it names 127.0.0.1:8080; Hooray cannot hold it to that host)"])
            let reason = held.lastError ?? ""
            #expect(reason.contains("asks to reach the network (it names 127.0.0.1:8080"), "\(reason)")
            #expect(reason.contains("`hooray plugins allow stretch`"), "\(reason)")

            let refused = try await fixture.hooray("stretch", "now")
            #expect(refused.status == .exited(1), "\(refused.standardOutput)")
            #expect(refused.standardError.contains("is not running: it is held"), "\(refused.standardError)")
            #expect(refused.standardError.contains("hooray plugins allow stretch"), "\(refused.standardError)")

            let doctor = try await fixture.hooray("doctor")
            #expect(doctor.standardOutput.contains("✓ Plugins: stretch is held"), "\(doctor.standardOutput)")
            #expect(doctor.standardOutput.contains("`hooray plugins allow stretch`"), "\(doctor.standardOutput)")

            let allowed = try await fixture.hooray("plugins", "allow", "stretch")
            #expect(allowed.status == .exited(0), "\(allowed.standardError)")
            #expect(
                allowed.standardOutput.contains(
                    "Allowing stretch to:\n  - reach the network (it names 127.0.0.1:8080"),
                "\(allowed.standardOutput)")
            #expect(allowed.standardOutput.contains("stretch is running (pid "), "\(allowed.standardOutput)")
            #expect(try await Self.plugin("stretch", fixture)?.state == "running")
            let now = try await fixture.hooray("stretch", "now")
            #expect(now.status == .exited(0), "\(now.standardError)")

            // Allowed once, it stays allowed across a start of hoorayd.
            await daemon.stop()
            let again = try await fixture.startDaemon()
            #expect(await Self.waitUntil("running", "stretch", fixture) != nil, "\(again.standardError)")
            await again.stop()
        }
    }

    @Test func aMisspeltPermissionRefusesTheFolderWithTheNearOne() async throws {
        try await HoorayFixture.with { fixture in
            let daemon = try await fixture.startDaemon()
            try Self.installStretch(into: fixture, permissions: #""notify", "netwrok""#)
            let reload = try await fixture.hooray("reload")
            #expect(reload.status == .exited(0), "\(reload.standardError)")
            let refused = try #require(await Self.waitUntil("refused", "stretch", fixture), "\(daemon.standardError)")
            #expect(
                refused.lastError?.contains(
                    "plugin.toml:6:26: `netwrok` is not a permission; did you mean `network`?") == true,
                "\(refused.lastError ?? "")")
            let listed = try await fixture.hooray("plugins")
            #expect(listed.standardOutput.contains("did you mean `network`?"), "\(listed.standardOutput)")
            await daemon.stop()
        }
    }
}
