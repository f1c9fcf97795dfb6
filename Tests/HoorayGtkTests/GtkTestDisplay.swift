import Foundation
import HooraySystemTesting

/// An X server (Xvfb) on a display it picks itself (`-displayfd`), for one GTK check.
struct XvfbDisplay {
    let server: ChildProcess
    /// The display's name, `:N`.
    let name: String

    /// Starts Xvfb and waits until it says which display it took.
    init() async throws {
        let server = try ChildProcess(
            "Xvfb", arguments: ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1280x800x24"],
            environment: .inherited(removing: ["DISPLAY"]))
        guard
            let number = await pollUntil(
                timeout: .seconds(20), interval: .milliseconds(20),
                {
                    let line = server.standardOutput
                    return line.hasSuffix("\n") ? Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
                })
        else {
            await server.stop(gracePeriod: .seconds(1))
            throw SystemTestingError.notReady(what: "Xvfb", output: server.standardOutput + server.standardError)
        }
        self.server = server
        name = ":\(number)"
    }

    /// Stops the server.
    func stop() async {
        await server.stop(gracePeriod: .seconds(2))
    }
}
