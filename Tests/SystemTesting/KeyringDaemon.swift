import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real GNOME Keyring (`gnome-keyring-daemon`) serving the Secret Service on a test's bus.
///
/// It runs `gnome-keyring-daemon --foreground --unlock --components=secrets` with the home, data
/// and runtime directories you give it, writes the password on its standard input, and is ready
/// once the `login` collection answers that it is unlocked: the daemon creates that collection on
/// first start, so a fresh home gets an empty, unlocked `login` collection, which is also the
/// default one.
///
/// ``lock()`` locks it the way a screen lock or a timeout would, ``restartUnlocked()`` starts a
/// new daemon in its place (`--replace`) that unlocks it again with the password, and
/// ``lookup(attributes:)``, ``search(attributes:)`` and ``store(label:attributes:value:)`` go
/// through `secret-tool`, so tests can check what Hooray wrote, and make items behind its back,
/// independently of Hooray's own code.
///
/// ```swift
/// let bus = try await PrivateSessionBus()
/// let home = try TemporaryDirectory(prefix: "hooray-home")
/// let keyring = try await KeyringDaemon(busAddress: bus.address, home: home.path)
/// // ... run the code under test with bus.environment() ...
/// #expect(try await keyring.lookup(attributes: ["kind": "identity"]) == "...")
/// await keyring.stop()
/// ```
///
/// Needs the Debian packages `gnome-keyring`, `libsecret-tools` (`secret-tool`) and
/// `libglib2.0-bin` (`gdbus`), which `make test` installs. No display is involved: a prompt
/// (unlocking a locked collection, for instance) fails at once, as on a headless machine. The
/// daemon exits by itself when its bus goes away.
public final class KeyringDaemon: @unchecked Sendable {
    /// The object path of the collection the daemon creates and unlocks with the password.
    public static let loginCollection = "/org/freedesktop/secrets/collection/login"

    /// The bus the daemon serves on.
    public let busAddress: String
    /// The daemon's `HOME`.
    public let home: String
    /// The daemon's `XDG_DATA_HOME`; its keyrings are in `keyrings/` inside.
    public let dataHome: String
    /// The daemon's `XDG_RUNTIME_DIR` (mode 0700); its control socket is in `keyring/` inside.
    public let runtimeDirectory: String
    /// The password of the `login` collection.
    public let password: String
    /// The uid the daemon, `secret-tool` and `gdbus` run as; this process's when `nil`.
    public let user: UInt32?

    // `daemon` is replaced by restartUnlocked() and cleared by stop(); `lock` guards it.
    private let lock = NSLock()
    private var daemon: ChildProcess?
    private let ownRuntimeDirectory: TemporaryDirectory?

    /// Starts a daemon and waits until its `login` collection answers, unlocked.
    ///
    /// - Parameters:
    ///   - busAddress: The bus to serve on, such as ``PrivateSessionBus/address``.
    ///   - home: The daemon's `HOME`; end-to-end tests give their fixture's home.
    ///   - dataHome: Its `XDG_DATA_HOME`; `HOME/.local/share` by default.
    ///   - runtimeDirectory: Its `XDG_RUNTIME_DIR`, created with mode 0700 when missing; a new
    ///     temporary directory by default (kept short: it holds a socket).
    ///   - password: The password the `login` collection is created and unlocked with.
    ///   - user: The uid to run as, for a bus of that user's (``PrivateSessionBus/init(user:timeout:)``);
    ///     the three folders are given to it.
    ///   - timeout: How long the daemon may take to be ready.
    /// - Throws: ``SystemTestingError`` when the daemon is missing or does not become ready.
    public init(
        busAddress: String,
        home: String,
        dataHome: String? = nil,
        runtimeDirectory: String? = nil,
        password: String = "hooray-test-password",
        user: UInt32? = nil,
        timeout: Duration = .seconds(10)
    ) async throws {
        self.busAddress = busAddress
        self.user = user
        self.home = home
        self.dataHome = dataHome ?? (home as NSString).appendingPathComponent(".local/share")
        self.password = password
        if let runtimeDirectory {
            ownRuntimeDirectory = nil
            self.runtimeDirectory = runtimeDirectory
        } else {
            let directory = try TemporaryDirectory(prefix: "hooray-xdg")
            ownRuntimeDirectory = directory
            self.runtimeDirectory = directory.path
        }
        for directory in [home, self.dataHome, self.runtimeDirectory] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        chmod(self.runtimeDirectory, 0o700)
        if let user {
            for directory in [home, self.dataHome, self.runtimeDirectory] { try SecondUser.give(directory, to: user) }
        }
        try await launch(replacing: false, timeout: timeout)
    }

    deinit {
        daemon?.send(SIGKILL, toProcessGroup: true)
    }

    /// Whether the daemon is running.
    public var isRunning: Bool { lock.withLock { daemon?.isRunning ?? false } }

    /// The environment for `secret-tool`, `gdbus` and the daemon: this bus and these directories,
    /// and no display, so nothing can put a window on screen.
    ///
    /// - Parameter overriding: More variables to set.
    public func environment(overriding: [String: String] = [:]) -> ProcessEnvironment {
        let variables = [
            "DBUS_SESSION_BUS_ADDRESS": busAddress,
            "HOME": home,
            "XDG_DATA_HOME": dataHome,
            "XDG_RUNTIME_DIR": runtimeDirectory,
        ]
        return .inherited(
            overriding: variables.merging(overriding) { _, new in new },
            removing: ["DISPLAY", "WAYLAND_DISPLAY", "GNOME_KEYRING_CONTROL", "SECRET_SERVICE_BUS_NAME"]
        )
    }

    /// Locks the `login` collection, as a screen lock would, and waits until it reports locked.
    ///
    /// - Throws: ``SystemTestingError`` when `gdbus` fails or the collection stays unlocked.
    public func lock() async throws {
        _ = try await gdbus(
            objectPath: "/org/freedesktop/secrets",
            method: "org.freedesktop.Secret.Service.Lock",
            arguments: ["['\(Self.loginCollection)']"]
        )
        guard await pollUntil(timeout: .seconds(5), { try? await self.isLocked() == true ? true : nil }) != nil else {
            throw SystemTestingError.timedOut(waitingFor: "the login collection to lock")
        }
    }

    /// Whether the `login` collection is locked, as the daemon says over D-Bus.
    ///
    /// - Throws: ``SystemTestingError`` when the daemon does not answer.
    public func isLocked() async throws -> Bool {
        let reply = try await gdbus(
            objectPath: Self.loginCollection,
            method: "org.freedesktop.DBus.Properties.Get",
            arguments: ["org.freedesktop.Secret.Collection", "Locked"]
        )
        return reply.contains("true")
    }

    /// Replaces the daemon with a new one that unlocks the `login` collection with the password.
    ///
    /// Waits until the old daemon has exited and the new one answers that the collection is unlocked.
    ///
    /// - Parameter timeout: How long the new daemon may take to be ready.
    /// - Throws: ``SystemTestingError`` when it does not become ready.
    public func restartUnlocked(timeout: Duration = .seconds(10)) async throws {
        try await launch(replacing: true, timeout: timeout)
    }

    /// Reads a secret back with `secret-tool lookup`, which never prompts here (there is no display).
    ///
    /// - Parameter attributes: Attributes the item must have, such as `["kind": "identity"]`.
    /// - Returns: The secret, or `nil` when no unlocked item matches.
    /// - Throws: ``SystemTestingError`` when `secret-tool` cannot be run.
    public func lookup(attributes: [String: String]) async throws -> String? {
        let output = try await run("secret-tool", ["lookup"] + Self.flatten(attributes))
        return output.status.isSuccess ? output.standardOutput : nil
    }

    /// An item as `secret-tool search` shows it.
    public struct StoredItem: Sendable, Hashable {
        /// The item's label.
        public var label: String
        /// Its `xdg:schema` attribute, or `nil` when it has none.
        public var schema: String?
        /// Its secret, or `nil` when it is locked.
        public var secret: String?

        /// An item, to compare with what ``KeyringDaemon/search(attributes:)`` found.
        ///
        /// - Parameters:
        ///   - label: The item's label.
        ///   - schema: Its `xdg:schema` attribute.
        ///   - secret: Its secret.
        public init(label: String, schema: String? = nil, secret: String? = nil) {
            self.label = label
            self.schema = schema
            self.secret = secret
        }
    }

    /// Every item that matches, locked or not, with `secret-tool search --all`.
    ///
    /// - Parameter attributes: Attributes the items must have.
    /// - Returns: The items, in the daemon's order.
    /// - Throws: ``SystemTestingError`` when `secret-tool` cannot be run.
    public func search(attributes: [String: String]) async throws -> [StoredItem] {
        let output = try await run("secret-tool", ["search", "--all"] + Self.flatten(attributes))
        // One block per item on standard output: "[/path]", then "name = value" lines
        // (attributes go to standard error, which is not read here).
        var items: [StoredItem] = []
        for line in output.standardOutput.split(separator: "\n") {
            if line.hasPrefix("[") {
                items.append(StoredItem(label: "", schema: nil, secret: nil))
                continue
            }
            guard !items.isEmpty, let separator = line.range(of: " = ") else { continue }
            let value = String(line[separator.upperBound...])
            switch line[..<separator.lowerBound] {
            case "label": items[items.count - 1].label = value
            case "schema": items[items.count - 1].schema = value
            case "secret": items[items.count - 1].secret = value
            default: break
            }
        }
        return items
    }

    /// Stores an item with `secret-tool store`, as another program would, into the default collection.
    ///
    /// `secret-tool` replaces an item with exactly the same attributes, so give each item you want
    /// to keep an attribute of its own.
    ///
    /// - Parameters:
    ///   - label: The item's label.
    ///   - attributes: Its attributes; include `xdg:schema` to make it look like an application's item.
    ///   - value: The secret.
    /// - Throws: ``SystemTestingError/commandFailed(command:status:standardError:)`` when it fails.
    public func store(label: String, attributes: [String: String], value: String) async throws {
        let arguments = ["store", "--label=\(label)"] + Self.flatten(attributes)
        let output = try await run("secret-tool", arguments, input: value)
        guard output.status.isSuccess else {
            throw SystemTestingError.commandFailed(
                command: "secret-tool " + arguments.joined(separator: " "),
                status: output.status,
                standardError: output.standardError
            )
        }
    }

    /// Ends the daemon; calling it again does nothing.
    public func stop() async {
        let running = lock.withLock {
            let running = daemon
            daemon = nil
            return running
        }
        await running?.stop(gracePeriod: .seconds(2))
    }

    /// Starts a daemon (replacing the running one) and waits for it to be ready.
    private func launch(replacing: Bool, timeout: Duration) async throws {
        var arguments = ["--foreground", "--unlock", "--components=secrets"]
        if replacing { arguments.append("--replace") }
        let command = SecondUser.commandLine("gnome-keyring-daemon", arguments, as: user)
        let process = try ChildProcess(
            command.executable, arguments: command.arguments, environment: environment(), keepsStandardInputOpen: true)
        // The daemon reads the password up to end-of-file.
        try process.write(toStandardInput: password)
        process.closeStandardInput()
        let previous = lock.withLock {
            let previous = daemon
            daemon = process
            return previous
        }
        // A replaced daemon exits once the new one owns the name; until then it may still answer.
        if let previous, await previous.waitForExit(timeout: timeout) == nil {
            await previous.stop(gracePeriod: .seconds(1))
            throw SystemTestingError.notReady(
                what: "gnome-keyring-daemon --replace (the old daemon did not exit)",
                output: process.standardOutput + process.standardError)
        }
        let ready = await pollUntil(timeout: timeout, interval: .milliseconds(50)) {
            if !process.isRunning { return false }
            return try? await self.isLocked() == false ? true : nil
        }
        guard ready == true else {
            await process.stop(gracePeriod: .seconds(1))
            throw SystemTestingError.notReady(
                what: "gnome-keyring-daemon on \(busAddress)",
                output: process.standardOutput + process.standardError)
        }
    }

    /// Calls a method of the daemon with `gdbus` and returns its printed reply.
    private func gdbus(objectPath: String, method: String, arguments: [String]) async throws -> String {
        let command = [
            "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path", objectPath, "--method", method,
        ]
        let output = try await run("gdbus", command + arguments)
        guard output.status.isSuccess else {
            throw SystemTestingError.commandFailed(
                command: "gdbus " + (command + arguments).joined(separator: " "),
                status: output.status,
                standardError: output.standardError
            )
        }
        return output.standardOutput
    }

    /// Runs `secret-tool` or `gdbus` in the daemon's environment, as its user.
    private func run(_ program: String, _ arguments: [String], input: String? = nil) async throws -> ProcessOutput {
        let command = SecondUser.commandLine(program, arguments, as: user)
        return try await ProcessRunner.run(
            command.executable, arguments: command.arguments, environment: environment(), input: input,
            timeout: .seconds(10))
    }

    private static func flatten(_ attributes: [String: String]) -> [String] {
        attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
    }
}

extension KeyringDaemon {
    /// Runs `body` with a real GNOME Keyring on a private session bus of its own, and stops both
    /// afterwards, also when `body` throws.
    ///
    /// - Parameters:
    ///   - homePrefix: The start of the name of the daemon's temporary home folder.
    ///   - body: The test, given the bus and the daemon.
    /// - Returns: What `body` returned.
    public static func withPrivateKeyring<Value>(
        homePrefix: String = "hooray-home", _ body: (PrivateSessionBus, KeyringDaemon) async throws -> Value
    ) async throws -> Value {
        let bus = try await PrivateSessionBus()
        let home = try TemporaryDirectory(prefix: homePrefix)
        let daemon: KeyringDaemon
        do {
            daemon = try await KeyringDaemon(busAddress: bus.address, home: home.path)
        } catch {
            await bus.stop()
            throw error
        }
        do {
            let value = try await body(bus, daemon)
            await daemon.stop()
            await bus.stop()
            return value
        } catch {
            await daemon.stop()
            await bus.stop()
            throw error
        }
    }
}
