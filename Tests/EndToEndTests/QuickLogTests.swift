import Foundation
import HooraySystemTesting
import Testing

/// `hooray-app --quick`, the small window to log a moment from anywhere, driven as a user drives it:
/// the keyboard (Enter, Esc) and the accessibility tree (AT-SPI, with dogtail), on its own X server,
/// against a real hoorayd. The app runs as a child process: GTK never starts in the test process.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct QuickLogTests {
    /// The dogtail script that opens the quick window, types and reads it (Tests/Fixtures/app).
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/app/quick_window.py").path
    static let app = HoorayFixture.binDirectory + "/hooray-app"

    /// What the script saw.
    struct Seen: Decodable {
        var labels: [String]?
        var closed: Bool?
        var geometry: [Int?]?
        var screen: [Int?]?
        var mainOpen: Bool?
        var notRunningLabels: [String]?
        var kept: String?
        var error: String?

        enum CodingKeys: String, CodingKey {
            case labels, closed, geometry, screen, kept, error
            case mainOpen = "main_open"
            case notRunningLabels = "not_running_labels"
        }
    }

    /// Starts an X server and the accessibility bus in the fixture's world (and the main window with
    /// `mainWindow`), runs the script with `arguments`, which opens the quick window, and stops them.
    ///
    /// - Parameter during: What to do while the script runs.
    /// - Returns: What the script saw, and what to show when an expectation fails.
    static func drive(
        _ fixture: HoorayFixture, _ arguments: [String], mainWindow: Bool = false,
        during: (ChildProcess) async throws -> Void = { _ in }
    ) async throws -> (seen: Seen, context: Comment) {
        let display = try await XvfbDisplay()
        let desktop = fixture.environment(overriding: [
            "DISPLAY": display.name, "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo",
        ])
        let accessibility = try ChildProcess(
            "/usr/libexec/at-spi-bus-launcher", arguments: ["--launch-immediately"], environment: desktop)
        let busUp = try await ProcessRunner.run(
            "gdbus", arguments: ["wait", "--session", "--timeout", "20", "org.a11y.Bus"], environment: desktop,
            timeout: .seconds(30))
        #expect(busUp.status.isSuccess, "the accessibility bus did not start: \(busUp.standardError)")
        let main = mainWindow ? try ChildProcess(app, environment: desktop) : nil
        let run = try ChildProcess("/usr/bin/python3", arguments: [script] + arguments, environment: desktop)
        try await during(run)
        if await run.waitForExit(timeout: .seconds(180)) == nil { await run.stop() }
        await run.waitForOutputToEnd(timeout: .seconds(2))
        let mainStatus = await main?.stop()
        await accessibility.stop()
        await display.stop()
        let context = Comment(
            rawValue:
                "script: \(run.standardOutput)\(run.standardError)\nmain window: \(String(describing: mainStatus))"
                + " \(main?.standardError ?? "")")
        let seen = try #require(try? JSONDecoder().decode(Seen.self, from: Data(run.standardOutput.utf8)), context)
        #expect(seen.error == nil, context)
        return (seen, context)
    }

    @Test(
        "With the main window open, hooray-app --quick opens its own small window, centred; a moment typed and Enter shows its praise, closes it and is listed by hooray moments"
    )
    func enterSavesTheMoment() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let (seen, context) = try await Self.drive(
                fixture, ["save", Self.app, "Replied to the landlord", "--main"], mainWindow: true)
            let moments = try await DesktopAppTests.moments(fixture)
            await daemon.stop()
            await server.stop()
            #expect(moments.map(\.text) == ["Replied to the landlord"], "\(moments)")
            let praise = try #require(moments.first?.offlinePraise)
            #expect((seen.labels ?? []).contains("“\(praise)”"), "the praise hoorayd saved: \(context)")
            #expect(seen.closed == true, "the window closes by itself once saved: \(context)")
            #expect(seen.mainOpen == true, "the main window stays open: \(context)")
            // Centred on the screen (its shadow makes the X window a few pixels taller at the bottom).
            let place = (seen.geometry ?? []).compactMap { $0 }
            let screen = (seen.screen ?? []).compactMap { $0 }
            try #require(place.count == 4 && screen.count == 2, context)
            #expect(abs(place[0] + place[2] / 2 - screen[0] / 2) <= 30, "centred across: \(place) on \(screen)")
            #expect(abs(place[1] + place[3] / 2 - screen[1] / 2) <= 30, "centred down: \(place) on \(screen)")
        }
    }

    @Test("Esc closes the quick window without saving what was typed")
    func escapeClosesWithoutSaving() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let (seen, context) = try await Self.drive(fixture, ["escape", Self.app, "Not worth saving"])
            let moments = try await DesktopAppTests.moments(fixture)
            await daemon.stop()
            await server.stop()
            #expect(seen.closed == true, "Esc closes the window: \(context)")
            #expect(moments.isEmpty, "nothing saved: \(moments)")
        }
    }

    @Test(
        "Without hoorayd, Enter in the quick window says Hooray isn't running and how to start it; the text stays, and Enter once hoorayd runs saves it, once"
    )
    func notRunningKeepsTheText() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let go = fixture.home.appending("hoorayd-runs")
            var daemon: ChildProcess?
            let (seen, context) = try await Self.drive(fixture, ["later", Self.app, "Called my sister", go]) {
                script in
                let waiting = await script.waitForOutput(
                    containing: "waiting for hoorayd", in: .standardError, timeout: .seconds(120))
                guard waiting else { return }
                daemon = try await fixture.startDaemon()
                _ = FileManager.default.createFile(atPath: go, contents: nil)
            }
            let moments = try await DesktopAppTests.moments(fixture)
            await daemon?.stop()
            await server.stop()
            let said = seen.notRunningLabels ?? []
            #expect(
                said.contains(
                    "Hooray isn't running, so this moment isn't saved yet. Start it (systemctl --user start hooray), then press Enter again."
                ), "\(context)")
            #expect(seen.kept == "Called my sister", "nothing typed is lost: \(context)")
            #expect(moments.map(\.text) == ["Called my sister"], "saved once hoorayd runs: \(moments)")
            #expect(seen.closed == true, "\(context)")
        }
    }
}
