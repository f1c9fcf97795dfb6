import Foundation
import HooraySystemTesting
import Testing

/// `hooray doctor` end to end: what it says when all is well, and when each thing is broken.
@Suite(.timeLimit(.minutes(3)))
struct DoctorTests {
    /// The line of a check, such as the one starting `✗ Notification server:`.
    func line(_ output: ProcessOutput, _ check: String) -> String? {
        output.standardOutput.split(separator: "\n").map(String.init).first { $0.dropFirst(2).hasPrefix(check + ":") }
    }

    @Test func aHealthySetupIsAllTicksAndExitsZero() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let doctor = try await fixture.hooray("doctor")
            #expect(doctor.status == .exited(0), "\(doctor.standardOutput)\(doctor.standardError)")
            let lines = doctor.standardOutput.split(separator: "\n").filter { !$0.isEmpty }
            #expect(!lines.contains { $0.hasPrefix("✗") }, "\(doctor.standardOutput)")
            for check in [
                "Session bus", "Notification server", "Buttons", "Body markup", "Do not disturb", "hoorayd",
                "Configuration", "Database", "Time zone",
            ] {
                #expect(line(doctor, check)?.hasPrefix("✓") == true, "\(check): \(doctor.standardOutput)")
            }
            #expect(line(doctor, "Notification server")?.contains("hooray-test-server") == true)
            // The test server keeps nothing once it leaves the screen: advice, not a failure.
            #expect(
                line(doctor, "Persistence")
                    == "✓ Persistence: the server keeps no notifications once they leave the screen. Notices you missed stay readable with `hooray inbox --all`."
            )
            // Every line is fine or a problem: no third mark.
            #expect(lines.dropLast().allSatisfy { $0.hasPrefix("✓") || $0.hasPrefix("✗") }, "\(doctor.standardOutput)")
            #expect(line(doctor, "AI service") == nil, "AI is not configured, so it is not checked")

            let json = try await fixture.hooray("doctor", "--json")
            #expect(json.status == .exited(0))
            let checks = try #require(
                try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
            #expect(checks.allSatisfy { $0["status"] as? String != "failed" })
            #expect(checks.contains { $0["check"] as? String == "hoorayd" && $0["status"] as? String == "ok" })
            #expect(await daemon.stop() == .exited(0))
            await server.stop()
        }
    }

    @Test func noNotificationServerIsNamedWithItsFix() async throws {
        try await HoorayFixture.with { fixture in
            let daemon = try await fixture.startDaemon()
            let doctor = try await fixture.hooray("doctor")
            #expect(doctor.status == .exited(1))
            let server = try #require(line(doctor, "Notification server"), "\(doctor.standardOutput)")
            #expect(server.hasPrefix("✗ Notification server: none"), "\(server)")
            #expect(server.contains("Fix: Start a notification server such as dunst or mako"), "\(server)")
            #expect(server.contains("notices wait in `hooray inbox` meanwhile"), "\(server)")
            #expect(line(doctor, "hoorayd")?.hasPrefix("✓") == true)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func noSessionBusIsNamedWithItsFix() async throws {
        try await HoorayFixture.with { fixture in
            let missing = fixture.home.appending("no-bus-here")
            let doctor = try await fixture.hooray(
                "doctor", environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(missing)"])
            #expect(doctor.status == .exited(1))
            let bus = try #require(line(doctor, "Session bus"), "\(doctor.standardOutput)")
            #expect(bus.hasPrefix("✗ Session bus: Cannot connect to the D-Bus session bus"), "\(bus)")
            #expect(bus.contains("Fix: Log in to a graphical session, or run hoorayd under `dbus-run-session`"))
            #expect(
                line(doctor, "Notification server")
                    == "✗ Notification server: cannot be reached without a session bus. Fix: Start the session bus first, as the line above says."
            )
        }
    }

    @Test func aStoppedHoorayd() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let doctor = try await fixture.hooray("doctor")
            #expect(doctor.status == .exited(1))
            let daemon = try #require(line(doctor, "hoorayd"), "\(doctor.standardOutput)")
            #expect(daemon.hasPrefix("✗ hoorayd: not running"), "\(daemon)")
            #expect(daemon.contains("`systemctl --user start hooray`"))
            #expect(daemon.contains("`make run`"))
            #expect(line(doctor, "Notification server")?.hasPrefix("✓") == true)
            await server.stop()
        }
    }

    @Test func aDamagedDatabaseGetsTheFixStorageErrorPrints() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let folder = fixture.home.appending("data/hooray")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let database = folder + "/hooray.sqlite"
            try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: database))
            let doctor = try await fixture.hooray("doctor")
            #expect(doctor.status == .exited(1))
            let found = try #require(line(doctor, "Database"), "\(doctor.standardOutput)")
            #expect(found.hasPrefix("✗ Database: the database"), "\(found)")
            #expect(found.contains("is damaged"), "\(found)")
            #expect(found.contains("Fix: `mkdir "), "\(found)")
            #expect(found.contains("damaged-"), "\(found)")
            // It only looked: the damaged file is where it was, as it was.
            #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == Data(repeating: 0x5A, count: 8192))
            await server.stop()
        }
    }

    @Test func aBrokenConfigurationIsNamedByFileAndLine() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let path = try fixture.writeConfig("[plugins.reminders]\nenabled = true\n[[plugins.reminders.reminder]\n")
            let doctor = try await fixture.hooray("doctor")
            #expect(doctor.status == .exited(1))
            let found = try #require(line(doctor, "Configuration"), "\(doctor.standardOutput)")
            #expect(found.hasPrefix("✗ Configuration: \(path):3:"), "\(found)")
            #expect(found.contains("`hooray config check`"), "\(found)")
            await server.stop()
        }
    }

    @Test func aPausedDunstIsSaidAsDoNotDisturb() async throws {
        try await HoorayFixture.with { fixture in
            let dunst = try await DunstServer(busAddress: fixture.bus.address)
            try await dunst.control("set-paused", "true")
            let daemon = try await fixture.startDaemon()
            let doctor = try await fixture.hooray("doctor")
            let found = try #require(line(doctor, "Do not disturb"), "\(doctor.standardOutput)")
            #expect(found.hasPrefix("✓ Do not disturb: on (dunst)"), "\(found)")
            #expect(found.contains("`dunstctl set-paused false`"), "\(found)")
            // Advice, not a failure: everything else is fine.
            #expect(doctor.status == .exited(0), "\(doctor.standardOutput)")
            #expect(await daemon.stop() == .exited(0))
            await dunst.stop()
        }
    }

    @Test func theAIServiceIsAskedOnlyWhenConfigured() async throws {
        try await HoorayFixture.with { fixture in
            try await withAIServer { ai in
                let server = try await fixture.startServer()
                try fixture.writeConfig("[ai]\nprovider = \"hooray\"\nendpoint = \"\(ai.endpoint("good"))\"\n")
                let good = try await fixture.hooray("doctor")
                let answered = try #require(line(good, "AI service"), "\(good.standardOutput)")
                #expect(answered.hasPrefix("✓ AI service: hooray at \(ai.endpoint("good")) answered"), "\(answered)")
                #expect(try ai.requests().count == 1)

                try fixture.writeConfig("[ai]\nprovider = \"hooray\"\nendpoint = \"\(ai.endpoint("status-500"))\"\n")
                let failing = try await fixture.hooray("doctor")
                #expect(failing.status == .exited(1))
                let refused = try #require(line(failing, "AI service"), "\(failing.standardOutput)")
                #expect(refused.hasPrefix("✗ AI service:"), "\(refused)")
                #expect(refused.contains("HTTP status 500"), "\(refused)")
                #expect(refused.contains("Fix: Nothing on your side"), "\(refused)")
                await server.stop()
            }
        }
    }
}
