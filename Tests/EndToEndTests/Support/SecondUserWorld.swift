import Foundation
import HooraySystemTesting
import Testing

/// A whole user's world run as another, ordinary user, as a desktop is: a
/// home with its own XDG folders, a private session bus, a notification server and a keyring on it,
/// `hoorayd` and `hooray`, every one of them that user's. The test itself stays root, so it can look
/// at all of it from outside.
///
/// The user is `nobody` (65534), not ``SecondUser/uid``: `dbus-daemon` refuses every connection of a
/// uid the password database does not know, its own included. It is not ``HoorayFixture`` run as
/// another user because the process-count limit is what some tests check, and the kernel exempts
/// root from it.
final class SecondUserWorld: Sendable {
    let home: TemporaryDirectory
    let bus: PrivateSessionBus
    /// `nobody`: an ordinary user the password database knows.
    let uid: UInt32 = 65534
    /// `hoorayd` and `hooray`, where the second user can run them.
    let hoorayd: String
    let hooray: String

    /// Runs `body` with a fresh world and tears it down afterwards, also when `body` throws.
    static func with<Result>(_ body: (SecondUserWorld) async throws -> Result) async throws -> Result {
        let world = try await SecondUserWorld()
        do {
            let result = try await body(world)
            await world.tearDown()
            return result
        } catch {
            await world.tearDown()
            throw error
        }
    }

    init() async throws {
        hoorayd = try SecondUser.executable(named: "hoorayd")
        hooray = try SecondUser.executable(named: "hooray")
        home = try TemporaryDirectory(prefix: "hooray-2nd")
        for folder in ["config/hooray", "data/hooray/plugins", "runtime", "etc/conf.d", "system-plugins"] {
            try FileManager.default.createDirectory(
                atPath: home.appending(folder), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        // Nothing shown but what a test asks for (as HoorayFixture's drop-in).
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
        try SecondUser.give(home.path, to: uid)
        bus = try await PrivateSessionBus(user: uid)
    }

    /// The environment of the user's programs: the world's folders and bus, a fixed time zone.
    func environment(overriding: [String: String] = [:]) -> ProcessEnvironment {
        let values = [
            "HOME": home.path,
            "XDG_CONFIG_HOME": home.appending("config"),
            "XDG_DATA_HOME": home.appending("data"),
            "XDG_RUNTIME_DIR": home.appending("runtime"),
            "HOORAY_SYSCONFDIR": home.appending("etc"),
            "HOORAY_SYSTEM_PLUGIN_DIR": home.appending("system-plugins"),
            "TZ": "UTC",
            "LANG": "C.UTF-8",
            "DBUS_SESSION_BUS_ADDRESS": bus.address,
        ]
        return .inherited(
            overriding: values.merging(overriding) { _, new in new },
            removing: ["DISPLAY", "WAYLAND_DISPLAY", "JOURNAL_STREAM", "FAKETIME", "LD_PRELOAD"])
    }

    /// Writes a file of the user's, such as `config/hooray/hooray.toml`, and gives it, and any
    /// folder made for it, to them.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        let path = try home.write(text, to: name)
        try SecondUser.give(home.path, to: uid)
        return path
    }

    /// A notification server on the user's bus, run as the user.
    func startServer() async throws -> TestNotificationServer {
        try await TestNotificationServer(busAddress: bus.address, user: uid)
    }

    /// A GNOME Keyring on the user's bus, run as the user, unlocked.
    func startKeyring() async throws -> KeyringDaemon {
        try await KeyringDaemon(
            busAddress: bus.address, home: home.path, runtimeDirectory: home.appending("runtime"), user: uid)
    }

    /// Starts `hoorayd` as the user and waits until it says it is running.
    func startDaemon(environment extra: [String: String] = [:]) async throws -> ChildProcess {
        let command = SecondUser.commandLine(hoorayd, [], as: uid)
        let child = try ChildProcess(
            command.executable, arguments: command.arguments, environment: environment(overriding: extra),
            workingDirectory: home.path)
        if await !child.waitForOutput(containing: "hoorayd is running", in: .standardError, timeout: .seconds(30)) {
            Issue.record(
                "hoorayd did not start: \(child.exitStatus.map { "\($0)" } ?? "still running")\n\(child.standardError)")
        }
        return child
    }

    /// Runs `hooray` as the user and waits for it.
    func hooray(_ arguments: [String]) async throws -> ProcessOutput {
        let command = SecondUser.commandLine(hooray, arguments, as: uid)
        return try await ProcessRunner.run(
            command.executable, arguments: command.arguments, environment: environment(),
            workingDirectory: home.path)
    }

    func tearDown() async {
        await bus.stop()
        home.remove()
    }
}
