import CGtk
import Foundation
import GtkTestSupport
import HooraySystemTesting

/// One X server (Xvfb) for the whole test process, and GTK started on it once, on the main thread,
/// as the app starts it. Xvfb ends with the process (`-terminate`: when its last client, GTK here,
/// goes away).
@MainActor
enum GtkTestDisplay {
    private static var started: Result<String, any Error>?
    private static var server: ChildProcess?

    /// Starts Xvfb and GTK if they are not yet; the display's name.
    static func start() async throws -> String {
        if let started { return try started.get() }
        let result: Result<String, any Error>
        do {
            result = .success(try await startServer())
        } catch {
            result = .failure(error)
        }
        started = result
        return try result.get()
    }

    private static func startServer() async throws -> String {
        let (xServer, display) = try await startXvfb()
        server = xServer
        // DISPLAY, GDK_BACKEND=x11 and GSK_RENDERER=cairo were made when the process loaded
        // (GtkTestSupport): DISPLAY's value is only replaced here, safely beside other threads.
        guard hooray_gtk_test_environment_made() == 1 else {
            throw SystemTestingError.notReady(what: "GTK's variables", output: "")
        }
        setenv("DISPLAY", display, 1)
        guard gtk_init_check() != 0 else {
            throw SystemTestingError.notReady(what: "GTK on \(display)", output: xServer.standardError)
        }
        adw_init()
        return display
    }

    private nonisolated static func startXvfb() async throws -> (ChildProcess, String) {
        let xServer = try ChildProcess(
            "Xvfb", arguments: ["-displayfd", "1", "-nolisten", "tcp", "-terminate", "-screen", "0", "1280x800x24"],
            environment: .inherited(removing: ["DISPLAY"]))
        guard
            let number = await pollUntil(
                timeout: .seconds(20), interval: .milliseconds(20),
                {
                    let line = xServer.standardOutput
                    return line.hasSuffix("\n") ? Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
                })
        else {
            await xServer.stop(gracePeriod: .seconds(1))
            throw SystemTestingError.notReady(what: "Xvfb", output: xServer.standardOutput + xServer.standardError)
        }
        return (xServer, ":\(number)")
    }
}
