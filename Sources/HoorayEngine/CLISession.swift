import Foundation
import HoorayDelivery
import HoorayKit
import HoorayStorage
import Logging

/// What a `hooray` command needs: paths, the database, the daemon's control socket, the configuration.
public struct CLISession: Sendable {
    /// Where files live.
    public let paths: HoorayPaths
    /// The process environment.
    public let environment: [String: String]
    /// `--config FILE`, when given.
    public let configFile: String?

    /// Creates a session from the process environment.
    ///
    /// - Throws: ``HomeFolderUnknown`` when there is no absolute home folder to keep data in, and
    ///   ``UnsafeRuntimeDirectory`` when the fallback runtime folder is not this user's alone: the
    ///   CLI must not talk to a socket someone else may have put there.
    public init(configFile: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let environment = HoorayPaths.withAbsoluteHome(environment)
        self.paths = try HoorayPaths(environment: environment)
        try paths.checkRuntimeDirectory()
        self.environment = environment
        self.configFile = configFile
    }

    /// Checks that the environment says safely where files are, as ``init(configFile:environment:)``
    /// does, without opening anything.
    ///
    /// - Throws: ``HomeFolderUnknown`` or ``UnsafeRuntimeDirectory``, both meaning
    ///   ``ExitStatus/configuration``.
    public static func checkEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        _ = try CLISession(configFile: nil, environment: environment)
    }

    /// Opens the database, creating it when there is none.
    public func database() throws -> HoorayDatabase {
        try HoorayDatabase(path: paths.database)
    }

    /// Opens the database for a command that only reads it; `nil` when there is none yet, which
    /// is then not created (nothing was logged, so there is nothing to read).
    public func existingDatabase() throws -> HoorayDatabase? {
        FileManager.default.fileExists(atPath: paths.database) ? try database() : nil
    }

    /// Sends a request to the daemon; `nil` when it is not running.
    public func send(_ request: ControlRequest) throws -> ControlResponse? {
        try ControlClient.send(request, socketPath: paths.controlSocket)
    }

    /// Whether a daemon answers on the control socket.
    public var daemonIsRunning: Bool {
        ((try? send(.status)) ?? nil) != nil
    }

    /// Where the anonymous identity is kept, as `[identity] store` says; a configuration with
    /// errors counts as the default, `auto`.
    public func identityVault(plugins: [any HoorayPlugin]) -> IdentityVault {
        let store = (try? loadConfiguration(plugins: plugins))?.identityStore ?? .auto
        return IdentityVault(store: store, paths: paths)
    }

    /// Loads the configuration as the daemon would.
    public func loadConfiguration(plugins: [any HoorayPlugin]) throws -> DaemonConfiguration {
        try ConfigurationLoader(environment: environment, extraFile: configFile, plugins: plugins).load()
    }

    /// The database for a command that plans without saving, such as `hooray next` with no
    /// daemon running: the user's, or when there is none yet an empty one in a private temporary
    /// folder, so that reading makes no data folder.
    ///
    /// - Returns: The database, and what removes the temporary one once the command is done with it
    ///   (nothing for the user's).
    public func databaseForPlanning() throws -> (database: HoorayDatabase, cleanUp: @Sendable () -> Void) {
        if let existing = try existingDatabase() { return (existing, {}) }
        var template = Array((NSTemporaryDirectory() + "/hooray-plan-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            return (try database(), {})
        }
        let folder = String(cString: made)
        return (
            try HoorayDatabase(path: folder + "/hooray.sqlite"), { try? FileManager.default.removeItem(atPath: folder) }
        )
    }

    /// With no daemon running, brings the stored reminders in line with the configuration, as the
    /// daemon does when it starts, so that `hooray next` shows what will happen.
    public func syncRulesFromConfiguration(plugins: [any HoorayPlugin]) async throws {
        try await syncRules(from: try loadConfiguration(plugins: plugins), into: try database())
    }

    /// Brings the reminders stored in `database` in line with a configuration, as the daemon does
    /// when it starts: the enabled plugins are activated against it.
    ///
    /// - Parameters:
    ///   - loaded: The configuration.
    ///   - database: The database to plan in: the real one, or a copy (``HoorayDatabase/copy(to:)``).
    public func syncRules(from loaded: DaemonConfiguration, into database: HoorayDatabase) async throws {
        var logger = Logger(label: "hooray")
        logger.logLevel = .critical
        let engine = Engine(
            database: database, sink: OfflineSink(), settings: loaded.settings,
            timeZone: SystemTimeZone(environment: environment).current(),
            makeLogger: { label in
                var quiet = Logger(label: label)
                quiet.logLevel = .error
                return quiet
            })
        await engine.apply(settings: loaded.settings, plugins: loaded.setups)
    }

    /// Asks the session bus for the notification server directly.
    public func probeServer() async -> ServerStatus {
        var logger = Logger(label: "hooray")
        logger.logLevel = .critical
        let sink = LibNotifySink(icon: "hooray", serverTimeout: .seconds(3), logger: logger)
        let status = await sink.serverStatus()
        await sink.shutdown()
        return status
    }
}

/// A sink for CLI-side engines that never delivers (the daemon does that).
struct OfflineSink: NotificationSink {
    func start(onEvent: @escaping @Sendable (SinkEvent) -> Void) {}
    func serverStatus() async -> ServerStatus { .unavailable(reason: "not checked by the CLI") }
    func show(_ notice: Notice, id: NoticeID, replacing: UInt32?) async -> DeliveryOutcome {
        .unavailable(reason: "the CLI does not deliver notices")
    }
    func shutdown() async {}
}
