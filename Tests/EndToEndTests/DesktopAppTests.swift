import Foundation
import HooraySystemTesting
import Testing

/// `hooray-app`, Hooray's window, driven as a screen reader user drives it: through the
/// accessibility tree (AT-SPI, with dogtail), on its own X server, against a real hoorayd on the
/// fixture's session bus. The app runs as a child process: GTK never starts in the test process.
@Suite(.timeLimit(.minutes(3)))
struct DesktopAppTests {
    /// The dogtail script that clicks, types and reads the window (Tests/Fixtures/app).
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/app/log_a_moment.py").path

    /// What the script saw.
    struct Seen: Decodable {
        var prefilled: String?
        var praiseLabels: [String]?
        var error: String?

        enum CodingKeys: String, CodingKey {
            case prefilled, error
            case praiseLabels = "praise_labels"
        }
    }

    /// A moment as `hooray moments --json` lists it.
    struct ListedMoment: Decodable {
        var text: String
        var offlinePraise: String
    }

    @Test(
        "I Did a Thing, a moment typed and Save this moment: the window shows its praise, and hooray moments lists it")
    func loggingAMomentInTheWindowShowsItsPraise() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
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
            let app = try ChildProcess(HoorayFixture.binDirectory + "/hooray-app", environment: desktop)

            let run = try await ProcessRunner.run(
                "/usr/bin/python3", arguments: [Self.script, "Watered the plants"], environment: desktop,
                timeout: .seconds(90))
            let appStatus = await app.stop()
            await accessibility.stop()
            await display.stop()
            await daemon.stop()
            await server.stop()
            let context = "script: \(run.standardOutput)\(run.standardError)\napp (\(appStatus)): \(app.standardError)"
            let seen = try #require(
                try? JSONDecoder().decode(Seen.self, from: Data(run.standardOutput.utf8)), Comment(rawValue: context))
            #expect(seen.error == nil, Comment(rawValue: context))
            // The first moment starts as the CLI's first moment does.
            #expect(seen.prefilled == "I installed this app. A tiny step, but it counts.", Comment(rawValue: context))

            let listing = try await fixture.hooray("moments", "--json")
            let moments = try JSONDecoder().decode([ListedMoment].self, from: Data(listing.standardOutput.utf8))
            #expect(moments.map(\.text) == ["Watered the plants"], "\(listing.standardOutput)")
            let labels = seen.praiseLabels ?? []
            #expect(labels.contains("Moment logged"), "\(labels)")
            #expect(labels.contains { $0.hasPrefix("Watered the plants") }, "\(labels)")
            let praise = try #require(moments.first?.offlinePraise)
            #expect(labels.contains("“\(praise)”"), "the window shows the praise hoorayd saved: \(labels)")
        }
    }
}
