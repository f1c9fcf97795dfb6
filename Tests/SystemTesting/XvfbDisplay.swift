import Foundation

/// An X server (Xvfb) on a display it picks itself (`-displayfd`, so tests running side by side
/// never share one), for GTK and for dunst.
public struct XvfbDisplay: Sendable {
    let server: ChildProcess
    /// The display's name, `:N`.
    public let name: String

    /// Starts Xvfb and waits until it says which display it took.
    ///
    /// - Parameters:
    ///   - size: The screen, such as `"1280x800x24"` (width, height, depth).
    ///   - timeout: How long to wait for it.
    public init(size: String = "1280x800x24", timeout: Duration = .seconds(20)) async throws {
        let server = try ChildProcess(
            "Xvfb", arguments: ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", size],
            environment: .inherited(removing: ["DISPLAY"]))
        guard
            let number = await pollUntil(
                timeout: timeout, interval: .milliseconds(20),
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
    ///
    /// - Parameter gracePeriod: How long it may take before it is killed.
    public func stop(gracePeriod: Duration = .seconds(2)) async {
        await server.stop(gracePeriod: gracePeriod)
    }
}
