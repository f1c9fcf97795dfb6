import Foundation

/// A real `org.freedesktop.Notifications` server for tests, which records what it was asked to show.
///
/// It runs `notification_server.py` (next to this file) with Debian's `/usr/bin/python3` and its
/// `dbus-next` module, on the bus whose address you give. It owns the server name, answers like a
/// desktop's server would, and appends every `Notify` and `CloseNotification` call to a record file
/// that ``notifications()`` reads back. ``invokeAction(id:key:)`` and ``dismiss(id:reason:)`` do
/// what a user does with the mouse.
///
/// ```swift
/// let bus = try await PrivateSessionBus()
/// let server = try await TestNotificationServer(busAddress: bus.address, capabilities: ["body"])
/// // ... run the program under test with bus.environment() ...
/// let shown = try await server.waitForNotifications(count: 1)
/// #expect(shown[0].appName == "Hooray")
/// await server.stop()
/// ```
///
/// The server exits by itself when its bus goes away.
public final class TestNotificationServer: Sendable {
    /// The capabilities a server announces unless told otherwise.
    public static let defaultCapabilities = ["body", "body-markup", "actions"]

    /// The absolute path of `notification_server.py`, found next to this source file.
    public static let scriptPath: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("notification_server.py")
        .path

    /// The bus the server is on.
    public let busAddress: String
    /// The server's record file: one JSON object per line.
    public let recordFile: String
    /// The capabilities the server announces.
    public let capabilities: [String]
    /// The uid the server and its `dbus-send` calls run as; this process's when `nil`.
    public let user: UInt32?

    private let process: ChildProcess
    private let directory: TemporaryDirectory

    /// Starts a server and waits until it owns `org.freedesktop.Notifications`.
    ///
    /// - Parameters:
    ///   - busAddress: The bus to serve on, such as ``PrivateSessionBus/address``.
    ///   - capabilities: What `GetCapabilities` returns; leave out `body-markup` or `actions` to test
    ///     clients against simpler servers.
    ///   - hang: Own the name but never answer `Notify`, like a server that hangs.
    ///   - answerDelay: Answer `Notify` only after this long, like a slow server.
    ///   - name: The server name `GetServerInformation` returns.
    ///   - inhibited: Have KDE Plasma's `Inhibited` property (do-not-disturb), starting with this
    ///     value; ``setInhibited(_:)`` changes it. `nil`: no such property.
    ///   - makoModes: Answer mako's `ListModes` with these modes (such as `do-not-disturb`); `nil`:
    ///     no mako interface.
    ///   - user: The uid to run as, for a bus of that user's (``PrivateSessionBus/init(user:timeout:)``).
    ///   - timeout: How long the server may take to start.
    /// - Throws: ``SystemTestingError/notReady(what:output:)`` when it does not start, for example
    ///   because another server already owns the name.
    public init(
        busAddress: String,
        capabilities: [String] = TestNotificationServer.defaultCapabilities,
        hang: Bool = false,
        answerDelay: Duration? = nil,
        name: String = "hooray-test-server",
        inhibited: Bool? = nil,
        makoModes: [String]? = nil,
        user: UInt32? = nil,
        timeout: Duration = .seconds(10)
    ) async throws {
        self.busAddress = busAddress
        self.user = user
        self.capabilities = capabilities
        directory = try TemporaryDirectory(prefix: "hooray-server")
        recordFile = directory.appending("record.jsonl")
        _ = FileManager.default.createFile(atPath: recordFile, contents: nil)
        if let user { try SecondUser.give(directory.path, to: user) }
        var arguments = [
            Self.scriptPath, "--caps", capabilities.joined(separator: ","), "--record", recordFile, "--name", name,
        ]
        if hang { arguments.append("--hang") }
        if let inhibited { arguments += ["--inhibited", inhibited ? "on" : "off"] }
        if let makoModes { arguments += ["--mako-modes", makoModes.joined(separator: ",")] }
        if let answerDelay {
            let seconds = Double(answerDelay.components.seconds) + Double(answerDelay.components.attoseconds) / 1e18
            arguments += ["--delay", String(seconds)]
        }
        let command = SecondUser.commandLine("/usr/bin/python3", arguments, as: user)
        process = try ChildProcess(
            command.executable,
            arguments: command.arguments,
            environment: .inherited(overriding: ["DBUS_SESSION_BUS_ADDRESS": busAddress, "PYTHONUNBUFFERED": "1"])
        )
        guard await process.waitForOutput(containing: "READY", timeout: timeout) else {
            await process.stop(gracePeriod: .seconds(1))
            throw SystemTestingError.notReady(
                what: "notification_server.py on \(busAddress)",
                output: process.standardOutput + process.standardError
            )
        }
    }

    /// Whether the server process is still running.
    public var isRunning: Bool { process.isRunning }

    /// What the server printed on standard error, for diagnosing a failing test.
    public var log: String { process.standardError }

    /// Every notification shown so far, oldest first; updates in place appear as separate entries.
    ///
    /// - Throws: ``SystemTestingError/unreadableRecord(file:line:reason:)`` for a malformed line.
    public func notifications() throws -> [RecordedNotification] {
        try records().compactMap { method, line in
            method == "Notify" ? try JSONDecoder().decode(RecordedNotification.self, from: line) : nil
        }
    }

    /// The ids of every `CloseNotification` call so far, oldest first.
    public func closeRequests() throws -> [UInt32] {
        struct Close: Decodable { var id: UInt32 }
        return try records().compactMap { method, line in
            method == "CloseNotification" ? try JSONDecoder().decode(Close.self, from: line).id : nil
        }
    }

    /// Waits until at least `count` notifications were shown, and returns all of them.
    ///
    /// - Parameters:
    ///   - count: How many `Notify` calls to wait for.
    ///   - timeout: How long to wait; generous by default, since it only delays failing tests.
    /// - Returns: Every notification shown so far.
    /// - Throws: ``SystemTestingError/timedOut(waitingFor:)`` when fewer arrived in time.
    @discardableResult
    public func waitForNotifications(count: Int, timeout: Duration = .seconds(10)) async throws
        -> [RecordedNotification]
    {
        let shown = try await pollUntil(timeout: timeout, interval: .milliseconds(20)) {
            let shown = try notifications()
            return shown.count >= count ? shown : nil
        }
        guard let shown else {
            throw SystemTestingError.timedOut(
                waitingFor: "\(count) notification(s) on the test server; got \(try notifications().count)"
            )
        }
        return shown
    }

    /// Clicks a button: the server emits `ActionInvoked(id, key)`, then `NotificationClosed(id, 2)`.
    ///
    /// - Parameters:
    ///   - id: The notification's server id.
    ///   - key: The action key, such as `done` or `default`.
    /// - Throws: ``SystemTestingError/commandFailed(command:status:standardError:)`` when `dbus-send` fails.
    public func invokeAction(id: UInt32, key: String) async throws {
        try await control("InvokeAction", "uint32:\(id)", "string:\(key)")
    }

    /// Types `text` into a notification's inline reply and sends it, as KDE Plasma does: emits
    /// `NotificationReplied(id, text)`, then closes it. For a server started with `inline-reply`.
    public func reply(id: UInt32, text: String) async throws {
        try await control("Reply", "uint32:\(id)", "string:\(text)")
    }

    /// Closes a notification the way the server or the user would, emitting `NotificationClosed(id, reason)`.
    ///
    /// - Parameters:
    ///   - id: The notification's server id.
    ///   - reason: 1 expired, 2 dismissed by the user (the default), 3 closed by a call.
    public func dismiss(id: UInt32, reason: UInt32 = 2) async throws {
        try await control("Dismiss", "uint32:\(id)", "uint32:\(reason)")
    }

    /// Turns KDE's do-not-disturb on or off: sets `Inhibited` and emits `PropertiesChanged`, as
    /// Plasma does. Only for a server started with `inhibited`.
    public func setInhibited(_ inhibited: Bool) async throws {
        try await control("SetInhibited", "boolean:\(inhibited)")
    }

    /// Sets mako's modes, as `makoctl mode -s MODE…` does; mako sends no signal when they change.
    ///
    /// - Parameter modes: The modes, at least one (such as `default` and `do-not-disturb`).
    public func setMakoModes(_ modes: [String]) async throws {
        try await send(
            path: "/fr/emersion/Mako", member: "fr.emersion.Mako.SetModes",
            ["array:string:" + modes.joined(separator: ",")])
    }

    /// Stops the server (`SIGTERM`, then `SIGKILL`) and waits until the bus has released its name.
    ///
    /// Waiting for the name means the next server, or a test expecting no server, finds the bus in
    /// the state it expects. The record file stays readable.
    public func stop() async {
        // A server that already exited (stopped before, or gone with its bus) owns nothing, and
        // the name may by now belong to another server.
        guard process.isRunning else { return }
        await process.stop(gracePeriod: .seconds(5))
        _ = await pollUntil(timeout: .seconds(5), interval: .milliseconds(20)) {
            await nameIsOwned() ? nil : true
        }
    }

    /// Whether anyone owns `org.freedesktop.Notifications` on the server's bus; `false` when the bus is gone.
    private func nameIsOwned() async -> Bool {
        let command = SecondUser.commandLine(
            "dbus-send",
            [
                "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.Notifications",
            ], as: user)
        let output = try? await ProcessRunner.run(
            command.executable,
            arguments: command.arguments,
            environment: .inherited(overriding: ["DBUS_SESSION_BUS_ADDRESS": busAddress]),
            timeout: .seconds(5)
        )
        guard let output, output.status.isSuccess else { return false }
        return output.standardOutput.contains("boolean true")
    }

    private func control(_ method: String, _ arguments: String...) async throws {
        try await send(path: "/org/freedesktop/Notifications", member: "org.hooray.TestControl.\(method)", arguments)
    }

    private func send(path: String, member method: String, _ arguments: [String]) async throws {
        let command = ["--session", "--print-reply", "--dest=org.freedesktop.Notifications", path, method]
        let line = SecondUser.commandLine("dbus-send", command + arguments, as: user)
        let output = try await ProcessRunner.run(
            line.executable,
            arguments: line.arguments,
            environment: .inherited(overriding: ["DBUS_SESSION_BUS_ADDRESS": busAddress]),
            timeout: .seconds(10)
        )
        guard output.status.isSuccess else {
            throw SystemTestingError.commandFailed(
                command: "dbus-send \(method)",
                status: output.status,
                standardError: output.standardError
            )
        }
    }

    /// The complete lines of the record file with their `method`; a line still being written is skipped.
    private func records() throws -> [(method: String, line: Data)] {
        struct Method: Decodable { var method: String }
        let text = (try? String(contentsOfFile: recordFile, encoding: .utf8)) ?? ""
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast()  // after the last newline: empty, or a line not yet complete
        return try lines.enumerated().map { number, line in
            let data = Data(line.utf8)
            do {
                return (try JSONDecoder().decode(Method.self, from: data).method, data)
            } catch {
                throw SystemTestingError.unreadableRecord(file: recordFile, line: number + 1, reason: "\(error)")
            }
        }
    }
}
