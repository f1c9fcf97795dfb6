import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A D-Bus session bus of a test's own: a `dbus-daemon` listening on a socket in a temporary directory.
///
/// Give its ``address`` to child processes as `DBUS_SESSION_BUS_ADDRESS`; each test can have its own
/// bus, so tests never see each other's notifications and can run in parallel.
///
/// The bus has no service directories, so nothing is ever D-Bus-activated on it: a name is owned
/// only when a test started a program that owns it. That makes "no notification server" a
/// dependable state, unlike on a desktop where the server may be started on demand. A test of
/// D-Bus activation gives it a folder of its own service files (`serviceDirectory`).
///
/// ``stop()`` ends the daemon, and ``start()`` brings a fresh one up at the same address, which
/// tests use to simulate a session bus that went away and came back. The daemon runs under a small
/// shell whose standard input is a pipe from this process: if the test process dies without
/// cleaning up, the pipe closes and the shell ends the daemon, so no bus outlives its tests.
///
/// Given a `user`, the daemon runs as that user (``SecondUser``), in a folder of theirs: only that
/// user's programs may then connect, as on a real desktop.
public final class PrivateSessionBus: @unchecked Sendable {
    // `daemon` and `daemonPID` are replaced by start() and stop(); `lock` guards them. The
    // directory and the address never change.
    private let lock = NSLock()
    private var daemon: ChildProcess?
    private var daemonPID: Int32 = 0
    private let directory: TemporaryDirectory
    private let user: UInt32?
    private let serviceDirectory: String?

    /// The bus address, such as `unix:path=/tmp/hooray-bus-Ab12Cd/bus`, for `DBUS_SESSION_BUS_ADDRESS`.
    public let address: String

    /// Starts a new bus and waits until it accepts connections.
    ///
    /// - Parameters:
    ///   - user: The uid to run the daemon as; this process's by default.
    ///   - serviceDirectory: A folder of D-Bus service files the bus starts programs from on
    ///     demand; none by default.
    ///   - timeout: How long the daemon may take to start.
    /// - Throws: ``SystemTestingError`` when `dbus-daemon` is missing or does not start.
    public init(user: UInt32? = nil, serviceDirectory: String? = nil, timeout: Duration = .seconds(10)) async throws {
        self.user = user
        self.serviceDirectory = serviceDirectory
        directory = try TemporaryDirectory(prefix: "hooray-bus")
        address = "unix:path=\(directory.appending("bus"))"
        try await start(timeout: timeout)
    }

    deinit {
        if daemonPID > 0 { kill(daemonPID, SIGKILL) }
    }

    /// Whether the daemon is running.
    public var isRunning: Bool { lock.withLock { daemon?.isRunning ?? false } }

    /// Starts the daemon again at the same address after ``stop()``; does nothing while it runs.
    ///
    /// - Parameter timeout: How long the daemon may take to start.
    /// - Throws: ``SystemTestingError`` when it does not start.
    public func start(timeout: Duration = .seconds(10)) async throws {
        if isRunning { return }
        // The shell of the previous daemon removed the directory.
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        unlink(directory.appending("bus"))
        try directory.write(
            Self.configuration(listeningOn: address, serviceDirectory: serviceDirectory), to: "session.conf")
        if let user { try SecondUser.give(directory.path, to: user) }
        // `cat` returns when our end of its standard input closes, on stop() or when this process
        // dies; then the shell ends the daemon and removes the directory, which a process that
        // died could not do itself.
        let script = """
            dbus-daemon --config-file="$1/session.conf" --nofork --print-address=1 </dev/null &
            echo "daemon-pid=$!"
            cat >/dev/null
            kill -TERM "$!" 2>/dev/null
            wait
            rm -rf "$1"
            """
        let command = SecondUser.commandLine("/bin/sh", ["-c", script, "hooray-bus", directory.path], as: user)
        let shell = try ChildProcess(command.executable, arguments: command.arguments, keepsStandardInputOpen: true)
        // The daemon's address and the shell's pid line may come in either order.
        guard await shell.waitForOutput(containing: address, timeout: timeout),
            let pid = await pollUntil(timeout: timeout, { Self.daemonPID(in: shell.standardOutput) })
        else {
            shell.closeStandardInput()
            await shell.stop(gracePeriod: .seconds(2))
            throw SystemTestingError.notReady(
                what: "dbus-daemon at \(address)",
                output: shell.standardOutput + shell.standardError
            )
        }
        lock.withLock {
            daemon = shell
            daemonPID = pid
        }
    }

    /// Ends the daemon; every connection to the bus closes. Calling it again does nothing.
    public func stop() async {
        let (shell, pid) = lock.withLock {
            let running = (daemon, daemonPID)
            daemon = nil
            daemonPID = 0
            return running
        }
        guard let shell else { return }
        kill(pid, SIGTERM)
        shell.closeStandardInput()
        if await shell.waitForExit(timeout: .seconds(5)) == nil {
            await shell.stop(gracePeriod: .seconds(1))
        }
    }

    /// The environment for a child process that should use this bus and no other.
    ///
    /// - Parameter overriding: More variables to set.
    /// - Returns: The inherited environment with `DBUS_SESSION_BUS_ADDRESS` set to ``address``.
    public func environment(overriding: [String: String] = [:]) -> ProcessEnvironment {
        .inherited(overriding: overriding.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { _, bus in bus })
    }

    /// The pid from a complete `daemon-pid=` line.
    private static func daemonPID(in output: String) -> Int32? {
        output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().lazy.compactMap { line in
            line.hasPrefix("daemon-pid=") ? Int32(line.dropFirst("daemon-pid=".count)) : nil
        }.first
    }

    private static func configuration(listeningOn address: String, serviceDirectory: String?) -> String {
        let services = serviceDirectory.map { "<servicedir>\($0)</servicedir>" } ?? ""
        return """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              \(services)
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
    }
}
