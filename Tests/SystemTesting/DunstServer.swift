import Foundation

/// The real dunst notification server, on a private session bus, drawing on its own headless X server.
///
/// It starts `Xvfb` on a display it picks itself (`-displayfd`, so tests running side by side never
/// collide), then `dunst` with a minimal configuration in a temporary folder, and waits until dunst
/// owns `org.freedesktop.Notifications`. ``control(_:)`` runs `dunstctl` on the same bus, which is how
/// a test pauses dunst (`set-paused true`), as a user does for do-not-disturb.
///
/// ```swift
/// let dunst = try await DunstServer(busAddress: bus.address)
/// try await dunst.control("set-paused", "true")
/// // ... run the program under test with bus.environment() ...
/// #expect(try await dunst.count("displayed") == 0)
/// await dunst.stop()
/// ```
///
/// Needs the Debian packages `dunst` and `xvfb` (the Makefile's TEST_PKGS).
public final class DunstServer: Sendable {
    /// The bus dunst is on.
    public let busAddress: String
    /// The X display dunst draws on, such as `:42`.
    public let display: String

    private let directory: TemporaryDirectory
    private let xServer: XvfbDisplay
    private let dunst: ChildProcess

    /// Starts Xvfb and dunst, and waits until dunst answers on the bus.
    ///
    /// - Parameters:
    ///   - busAddress: The bus to serve on, such as ``PrivateSessionBus/address``.
    ///   - timeout: How long each of them may take to start.
    /// - Throws: ``SystemTestingError/notReady(what:output:)`` when either does not start.
    public init(busAddress: String, timeout: Duration = .seconds(20)) async throws {
        self.busAddress = busAddress
        directory = try TemporaryDirectory(prefix: "hooray-dunst")
        let config = try directory.write(
            """
            [global]
                monitor = 0
                follow = none
                history_length = 50
                # Stay on screen until the test looks, so that "displayed" counts what was shown.
                timeout = 0

            """, to: "dunstrc")
        let xServer = try await XvfbDisplay(size: "640x480x24", timeout: timeout)
        self.xServer = xServer
        display = xServer.name
        dunst = try ChildProcess(
            "dunst", arguments: ["-config", config, "-print"],
            environment: .inherited(
                overriding: [
                    "DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": busAddress, "HOME": directory.path,
                    "XDG_CONFIG_HOME": directory.appending("config"),
                ], removing: ["WAYLAND_DISPLAY"]))
        let answered = await pollUntil(timeout: timeout, interval: .milliseconds(50)) { () -> Bool? in
            guard dunst.isRunning else { return false }
            let output = try? await self.run("is-paused")
            return output?.status.isSuccess == true ? true : nil
        }
        guard answered == true else {
            await stop()
            throw SystemTestingError.notReady(what: "dunst on \(display)", output: dunst.standardError)
        }
    }

    /// Whether dunst is still running.
    public var isRunning: Bool { dunst.isRunning }

    /// What dunst printed, for diagnosing a failing test.
    public var log: String { dunst.standardOutput + dunst.standardError }

    /// Runs `dunstctl` with arguments on dunst's bus, such as `set-paused true`.
    ///
    /// - Returns: What it printed.
    /// - Throws: ``SystemTestingError/commandFailed(command:status:standardError:)`` when it fails.
    @discardableResult
    public func control(_ arguments: String...) async throws -> String {
        let output = try await run(arguments)
        guard output.status.isSuccess else {
            throw SystemTestingError.commandFailed(
                command: "dunstctl \(arguments.joined(separator: " "))", status: output.status,
                standardError: output.standardError)
        }
        return output.standardOutput
    }

    /// The summary (title) of every notification dunst was given to show, oldest first, as its
    /// `-print` output lists them.
    public func summaries() -> [String] {
        dunst.standardOutput.split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("summary: '"), text.hasSuffix("'") else { return nil }
            return String(text.dropFirst("summary: '".count).dropLast())
        }
    }

    /// `dunstctl count displayed`, `waiting` or `history`: how many notifications are on screen, held
    /// by dunst itself while paused, or closed.
    public func count(_ which: String) async throws -> Int {
        let text = try await run(["count", which]).standardOutput
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Stops dunst and the X server.
    public func stop() async {
        await dunst.stop(gracePeriod: .seconds(3))
        await xServer.stop(gracePeriod: .seconds(3))
        directory.remove()
    }

    private func run(_ arguments: String...) async throws -> ProcessOutput {
        try await run(arguments)
    }

    private func run(_ arguments: [String]) async throws -> ProcessOutput {
        try await ProcessRunner.run(
            "dunstctl", arguments: arguments,
            environment: .inherited(overriding: ["DBUS_SESSION_BUS_ADDRESS": busAddress]), timeout: .seconds(10))
    }
}
