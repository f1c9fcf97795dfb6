import Foundation
import HooraySystemTesting
import Testing

/// The window shows what changed elsewhere at once, pushed by hoorayd (its `changes`), never polled.
@Suite(.timeLimit(.minutes(5)))
struct DesktopAppLiveTests {
    @Test("A win typed in a terminal appears in the open Moments view with nothing clicked")
    func aWinTypedInATerminalAppearsInMoments() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let (seen, context) = try await DesktopAppTests.drive(
                fixture, ["live", HoorayFixture.binDirectory + "/hooray", "Typed in a terminal"])
            let moments = try await DesktopAppTests.moments(fixture)
            await daemon.stop()
            await server.stop()
            #expect(moments.map(\.text) == ["Typed in a terminal"], "\(moments)")
            let listed = seen.momentsLabels ?? []
            #expect(listed.contains("Today") && listed.contains("Typed in a terminal"), "\(context)")
            // The figure, for the record (not asserted: this machine's load decides it).
            if let line = context.rawValue.split(separator: "\n").first(where: { $0.contains("after `hooray win`") }) {
                print("Moments: \(line)")
            }
        }
    }
}
