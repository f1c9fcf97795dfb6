import Foundation
import HooraySystemTesting
import Testing

/// A user's world for one end-to-end test: a home with its own XDG folders, a private session
/// bus, and (when asked) a headless notification server on it. The real `hoorayd` and `hooray`
/// binaries run inside it.
final class HoorayFixture: Sendable {
    let home: TemporaryDirectory
    let bus: PrivateSessionBus

    /// The folder holding the built `hoorayd` and `hooray`.
    static let binDirectory: String = {
        if let configured = ProcessInfo.processInfo.environment["HOORAY_BIN_DIR"], !configured.isEmpty {
            return configured
        }
        // The test runner sits next to the executables in the build folder.
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return (runner as NSString).deletingLastPathComponent
    }()

    /// Runs `body` with a fresh fixture and tears it down when `body` returns, also when it throws.
    ///
    /// ```swift
    /// try await HoorayFixture.with { fixture in
    ///     let daemon = try await fixture.startDaemon()
    ///     // ...
    /// }
    /// ```
    ///
    /// - Parameter appActivation: Whether the session bus starts the desktop app on demand (D-Bus
    ///   activation), through ``appActivationScript``, which the test writes.
    static func with<Result>(appActivation: Bool = false, _ body: (HoorayFixture) async throws -> Result)
        async throws -> Result
    {
        let fixture = try await HoorayFixture(appActivation: appActivation)
        do {
            let result = try await body(fixture)
            await fixture.tearDown()
            return result
        } catch {
            await fixture.tearDown()
            throw error
        }
    }

    /// The program the session bus runs when it starts the app (with `appActivation`), which the
    /// test writes: a shell script that gives the app the test's display and folders.
    var appActivationScript: String { home.appending("app-activated.sh") }

    init(appActivation: Bool = false) async throws {
        home = try TemporaryDirectory(prefix: "hooray-e2e")
        var services: String?
        if appActivation {
            // The app's service file as the package installs it, but for the script.
            let folder = home.appending("dbus-services")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try """
            [D-BUS Service]
            Name=org.hooray.Hooray
            Exec=/bin/sh \(home.appending("app-activated.sh"))

            """.write(toFile: folder + "/org.hooray.Hooray.service", atomically: true, encoding: .utf8)
            services = folder
        }
        bus = try await PrivateSessionBus(serviceDirectory: services)
        for folder in ["config/hooray", "data", "runtime", "etc/conf.d"] {
            try FileManager.default.createDirectory(
                atPath: home.appending(folder), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        // The one-time welcome would be every test's first notification, and the daily check-in,
        // challenge, Night Prep and Morning Focus, which start with a plugin's first use, would come
        // between a test's own; tests of them turn them back on in the user's file, which overrides
        // this system drop-in. `withoutTestDefaults` leaves the drop-in out: a fresh install.
        try """
        [plugins.wins]
        welcome = false

        [plugins.recovery]
        checkin = false
        challenge_at = "off"

        [plugins.swaps]
        night_prep = "off"
        morning_focus = "off"

        """.write(toFile: home.appending("etc/conf.d/10-tests.toml"), atomically: true, encoding: .utf8)
    }

    /// The environment of the binaries: this fixture's folders, bus and a fixed time zone.
    func environment(overriding: [String: String] = [:], withoutBus: Bool = false, removing: [String] = [])
        -> ProcessEnvironment
    {
        var values = [
            "HOME": home.path,
            "XDG_CONFIG_HOME": home.appending("config"),
            "XDG_DATA_HOME": home.appending("data"),
            "XDG_RUNTIME_DIR": home.appending("runtime"),
            "HOORAY_SYSCONFDIR": home.appending("etc"),
            // The system's plugin folder (/usr/lib/hooray/plugins) is the test's own, empty unless it fills it.
            "HOORAY_SYSTEM_PLUGIN_DIR": home.appending("system-plugins"),
            "TZ": "UTC",
            "LANG": "C.UTF-8",
            "DBUS_SESSION_BUS_ADDRESS": bus.address,
        ]
        if withoutBus { values["DBUS_SESSION_BUS_ADDRESS"] = nil }
        values.merge(overriding) { _, new in new }
        // The user's desktop session stays out, unless a test gives one.
        var removed = ["DISPLAY", "WAYLAND_DISPLAY", "JOURNAL_STREAM"].filter { overriding[$0] == nil }
        if overriding["FAKETIME"] == nil && overriding["FAKETIME_TIMESTAMP_FILE"] == nil {
            removed += ["FAKETIME", "LD_PRELOAD"]
        }
        if withoutBus { removed.append("DBUS_SESSION_BUS_ADDRESS") }
        for name in removing { values[name] = nil }
        removed += removing
        return .inherited(overriding: values, removing: removed)
    }

    /// Writes the user's `~/.config/hooray/hooray.toml`.
    @discardableResult
    func writeConfig(_ text: String) throws -> String {
        let path = home.appending("config/hooray/hooray.toml")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Starts a notification server on the fixture's bus.
    func startServer(capabilities: [String] = TestNotificationServer.defaultCapabilities) async throws
        -> TestNotificationServer
    {
        try await TestNotificationServer(busAddress: bus.address, capabilities: capabilities)
    }

    /// Starts `hoorayd` and waits until it says it is running.
    ///
    /// - Parameters:
    ///   - fakeTime: When given, the daemon's wall clock starts at this UTC time (`faketime`) and runs on.
    ///   - withoutBus: Start it with no session bus at all.
    func startDaemon(
        fakeTime: String? = nil, withoutBus: Bool = false, arguments: [String] = [],
        environment extra: [String: String] = [:], removing: [String] = []
    ) async throws
        -> ChildProcess
    {
        let child = try ChildProcess(
            Self.binDirectory + "/hoorayd", arguments: arguments,
            environment: environment(
                overriding: Self.fakeTimeVariables(fakeTime).merging(extra) { _, new in new }, withoutBus: withoutBus,
                removing: removing))
        let ready = await child.waitForOutput(
            containing: "hoorayd is running", in: .standardError, timeout: .seconds(30))
        if !ready {
            Issue.record(
                "hoorayd did not start: \(child.exitStatus.map { "\($0)" } ?? "still running")\n\(child.standardError)")
        }
        return child
    }

    /// Starts a stand-in for `hoorayd`: `script`, a Python program given the control socket's path
    /// (then `arguments`), which prints "listening" once it listens there; waits for that.
    func startStandInDaemon(_ script: String, arguments: [String] = []) async throws -> ChildProcess {
        let folder = home.appending("runtime/hooray")
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let child = try ChildProcess(
            "/usr/bin/python3", arguments: ["-c", script, folder + "/control.sock"] + arguments,
            environment: environment())
        #expect(await child.waitForOutput(containing: "listening", in: .standardOutput, timeout: .seconds(10)))
        return child
    }

    /// The requests waiting in the spool for hoorayd (docs/protocol.md, "One writer").
    func spoolFiles() throws -> [String] {
        let folder = home.appending("data/hooray/spool")
        guard FileManager.default.fileExists(atPath: folder) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
    }

    /// Runs `hooray` with arguments and waits for it.
    func hooray(_ arguments: String..., fakeTime: String? = nil, environment extra: [String: String] = [:])
        async throws -> ProcessOutput
    {
        try await hooray(arguments: arguments, fakeTime: fakeTime, environment: extra)
    }

    /// Runs `hooray` with an array of arguments and waits for it.
    ///
    /// - Parameter input: Text for its standard input, which is then closed; `/dev/null` when `nil`.
    func hooray(
        arguments: [String], fakeTime: String? = nil, environment extra: [String: String] = [:], input: String? = nil
    ) async throws -> ProcessOutput {
        try await ProcessRunner.run(
            Self.binDirectory + "/hooray", arguments: arguments,
            environment: environment(overriding: Self.fakeTimeVariables(fakeTime).merging(extra) { _, new in new }),
            input: input)
    }

    /// A scheduled reminder, as `hooray next --json` reports it.
    struct NextEntry: Decodable {
        let plugin: String
        let id: String
        let title: String
        let due: Date
    }

    /// The scheduled reminders, soonest first, as `hooray next --json` reports them; with `all`, those
    /// that will not be shown too (`--all`).
    ///
    /// - Throws: `DecodingError` when it printed no such list, for example because it failed.
    func nextEntries(all: Bool = false) async throws -> [NextEntry] {
        let output = try await hooray(arguments: ["next", "--json"] + (all ? ["--all"] : []))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([NextEntry].self, from: Data(output.standardOutput.utf8))
    }

    /// What `hoorayd` logs once it has handled everything that came due before it started.
    static let caughtUpLine = "caught up;"

    /// Waits until `daemon` has done everything it is going to do for now, so that a test may count
    /// notifications to show that nothing more arrives.
    ///
    /// That is: it logged that it caught up at start; `hooray next` lists no reminder due at or before
    /// `time` (it handled that instant and planned the next one) and satisfies `planned`; and
    /// `hooray inbox` is empty, so every notice it queued has reached the notification server.
    ///
    /// - Parameters:
    ///   - daemon: The running `hoorayd`; `nil` after a command that ran without one, which shows
    ///     its notices itself before it exits.
    ///   - time: A time as given to `startDaemon(fakeTime:)`, such as `2026-11-23 15:00:00` (UTC).
    ///   - timeout: How long to wait.
    ///   - planned: What else the listed reminders must show.
    /// - Returns: Whether it settled before the deadline.
    func waitUntilSettled(
        _ daemon: ChildProcess?, nothingDueBy time: String? = nil, timeout: Duration = .seconds(30),
        planned: ([NextEntry]) -> Bool = { _ in true }
    ) async -> Bool {
        if let daemon,
            await !daemon.waitForOutput(containing: Self.caughtUpLine, in: .standardError, timeout: timeout)
        {
            return false
        }
        let limit = time.map(Self.utc)
        let settled = await pollUntil(timeout: timeout, interval: .milliseconds(100)) { () -> Bool? in
            guard let entries = try? await nextEntries(), planned(entries),
                entries.allSatisfy({ limit == nil || $0.due > limit! }),
                let inbox = try? await hooray("inbox"), inbox.standardOutput.contains("Your inbox is empty")
            else { return nil }
            return true
        }
        return settled ?? false
    }

    /// A time as given to `startDaemon(fakeTime:)`, `yyyy-MM-dd HH:mm:ss` in UTC.
    static func utc(_ time: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.date(from: time)!
    }

    /// Preloads libfaketime so the program's wall clock starts at `time` (UTC) and runs on from there.
    ///
    /// The library is preloaded directly rather than through the `faketime` wrapper, which forks:
    /// signals sent to the wrapper would not reach the daemon.
    static func fakeTimeVariables(_ time: String?) -> [String: String] {
        guard let time else { return [:] }
        return [
            "LD_PRELOAD": libfaketime,
            "FAKETIME": "@\(time)",
            "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            "FAKETIME_NO_CACHE": "1",
        ]
    }

    /// Preloads libfaketime so the program's wall clock reads `time` now and runs on: an offset, so
    /// that every program given these variables keeps one clock, whenever it starts.
    static func fakeTimeVariables(offsetTo time: Date) -> [String: String] {
        let offset = Int(time.timeIntervalSinceNow.rounded())
        return [
            "LD_PRELOAD": libfaketime,
            "FAKETIME": (offset >= 0 ? "+" : "") + String(offset),
            "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            "FAKETIME_NO_CACHE": "1",
        ]
    }

    /// Preloads libfaketime so the program's wall clock is the one `file` names (`@YYYY-MM-DD
    /// hh:mm:ss`, UTC) and runs on from there; the file is read again at every clock reading, so
    /// writing another time into it moves the clock at once (see ``setFakeTime(_:in:)``).
    static func fakeTimeVariables(file: String) -> [String: String] {
        [
            "LD_PRELOAD": libfaketime,
            "FAKETIME_TIMESTAMP_FILE": file,
            "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            "FAKETIME_NO_CACHE": "1",
        ]
    }

    /// Writes the time a ``fakeTimeVariables(file:)`` clock shows from now on: `time` (UTC) plus
    /// the time since the program started.
    static func setFakeTime(_ time: String, in file: String) throws {
        try "@\(time)\n".write(toFile: file, atomically: true, encoding: .utf8)
    }

    static let libfaketime: String = {
        let candidates = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"]
            .map { $0 + "/faketime/libfaketimeMT.so.1" }
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates[0]
    }()

    /// Stops everything the fixture started.
    func tearDown() async {
        await bus.stop()
        home.remove()
    }
}

/// A reminder section for the configuration.
func reminderTOML(title: String, body: String, at time: String, extra: String = "") -> String {
    """
    [[plugins.reminders.reminder]]
    title = "\(title)"
    body = '''\(body)'''
    at = "\(time)"
    \(extra)

    """
}
