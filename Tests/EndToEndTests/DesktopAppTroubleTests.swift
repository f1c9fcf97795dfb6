import Foundation
import HooraySystemTesting
import Testing

/// The window when something goes wrong around it: hoorayd killed while a moment is being written, a
/// configuration broken by hand while it is open. Nothing typed is lost, and the window goes on.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct DesktopAppTroubleTests {
    @Test("hoorayd killed while a moment is written: the window says so, and the words are saved once it is back")
    func aMomentWrittenWhileHooraydDiesIsKept() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let log = fixture.home.appending("second-hoorayd.log")
            let (seen, context) = try await DesktopAppTests.drive(
                fixture,
                ["stopped", "Fixed the bike", String(daemon.pid), HoorayFixture.binDirectory + "/hoorayd", log])
            let moments = try await DesktopAppTests.moments(fixture)
            if let pid = seen.pid { kill(pid, SIGTERM) }
            await daemon.stop()
            await server.stop()
            #expect(seen.notRunningLabels?.contains("Hooray isn't running") == true, "\(context)")
            #expect(seen.kept == "Fixed the bike", "what was typed is still there: \(context)")
            #expect(moments.map(\.text) == ["Fixed the bike"], "saved once: \(moments)")
        }
    }

    @Test("A configuration broken by hand while the window is open: hoorayd keeps its last good one, the window logs")
    func aConfigurationBrokenByHandLeavesTheWindowWorking() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            // Half typed, as an editor saves it mid-line.
            _ = try fixture.writeConfig("[delivery]\nquiet_hours = \"22:00-")
            let reload = try await fixture.hooray("reload")
            #expect(reload.status != .exited(0), "hooray reload refuses it: \(reload.standardError)")
            #expect(reload.standardError.contains("hooray.toml"), "and names the file: \(reload.standardError)")
            let (seen, context) = try await DesktopAppTests.drive(fixture, ["log", "Watered the plants"])
            let moments = try await DesktopAppTests.moments(fixture)
            await daemon.stop()
            await server.stop()
            #expect(seen.praiseLabels?.contains("Moment logged") == true, "\(context)")
            #expect(moments.map(\.text) == ["Watered the plants"], "\(moments)")
        }
    }

    @Test("A hoorayd of another version (running on after an upgrade) is named in the window, with the fix")
    func aHooraydOfAnotherVersionIsNamed() async throws {
        try await HoorayFixture.with { fixture in
            // A daemon from before the protocol had versions: it answers every request the old way.
            let old = try await fixture.startStandInDaemon(
                """
                import socket, sys
                server = socket.socket(socket.AF_UNIX); server.bind(sys.argv[1]); server.listen(4)
                print("listening", flush=True)
                while True:
                    connection, _ = server.accept(); connection.recv(65536)
                    connection.sendall(b'{"ok":false,"message":"unreadable request"}\\n'); connection.close()
                """)
            let (seen, context) = try await DesktopAppTests.drive(fixture, ["toast", "Couldn't reach Hooray: "])
            _ = await old.stop()
            let said = (seen.toastLabels ?? []).first { $0.hasPrefix("Couldn't reach Hooray: ") } ?? ""
            #expect(said.contains("speaks control protocol 0"), "\(context)")
            #expect(said.contains("systemctl --user restart hooray"), "the fix is named: \(context)")
        }
    }

    @Test(
        "hoorayd frozen while a moment is saved: the window says it couldn't; the try ran once hoorayd went on, so words changed since are kept to save as another moment"
    )
    func aSaveWhoseAnswerNeverCameIsRunOnce() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let (seen, context) = try await DesktopAppTests.drive(
                fixture,
                [
                    "frozen", "Called the bank", String(daemon.pid), HoorayFixture.binDirectory + "/hooray",
                    "Called the bank and the landlord",
                ])
            let moments = try await DesktopAppTests.moments(fixture)
            await daemon.stop()
            await server.stop()
            #expect(seen.kept == "Called the bank and the landlord", "the changed words stayed: \(context)")
            #expect(seen.praiseLabels?.contains("Moment logged") == true, "\(context)")
            // Each saved once: the first try (run when hoorayd went on), then the changed words, on purpose.
            #expect(moments.map(\.text) == ["Called the bank and the landlord", "Called the bank"], "\(moments)")
        }
    }
}
