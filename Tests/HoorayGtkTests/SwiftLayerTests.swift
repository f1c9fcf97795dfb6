import Foundation
import HooraySystemTesting
import Testing

/// The Swift layer over GTK 4, on a real GTK under Xvfb: signals reach their closures, closures are
/// let go with their objects, and windows opened and closed leave nothing behind. Each check runs in
/// `hooray-gtk-check` (Tests/GtkCheck), a process of its own with GTK on its main thread, as the app
/// has it: GTK connects to the session bus when it starts, which this test process's other suites
/// keep to themselves.
@Suite(.timeLimit(.minutes(3)))
struct SwiftLayerTests {
    static let binDirectory: String = {
        if let configured = ProcessInfo.processInfo.environment["HOORAY_BIN_DIR"], !configured.isEmpty {
            return configured
        }
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return (runner as NSString).deletingLastPathComponent
    }()

    @Test(arguments: [
        "clicks", "closures", "window", "close-request", "thousand-windows", "other-thread", "adwaita",
        "single-instance", "lists", "dialog", "app-action", "inputs", "localized", "drawing",
    ])
    func theCheckPasses(_ check: String) async throws {
        let display = try await XvfbDisplay()
        let run = try await ProcessRunner.run(
            Self.binDirectory + "/hooray-gtk-check", arguments: [check],
            environment: .inherited(
                overriding: ["DISPLAY": display.name, "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo"],
                removing: ["WAYLAND_DISPLAY"]),
            timeout: .seconds(120))
        await display.stop()
        #expect(run.status == .exited(0), "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.contains("passed \(check)"), "\(run.standardOutput)")
    }
}
