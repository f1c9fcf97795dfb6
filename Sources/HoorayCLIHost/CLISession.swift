import Foundation
import HoorayAI
import HoorayClient
import HoorayConfig
import HoorayDelivery
import HoorayEngine
import HoorayExternalPlugins
import HoorayIdentity
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
    ///   ``UnsafeRuntimeDirectory`` when the runtime folder is not this user's alone, or the control
    ///   socket in it is another user's: the CLI must not talk to a socket someone else may have put there.
    public init(configFile: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let environment = HoorayPaths.withAbsoluteHome(environment)
        self.paths = try HoorayPaths(environment: environment)
        try paths.checkRuntimeDirectory()
        try paths.checkControlSocket()
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

    /// Opens the database, creating it when there is none; one that cannot be written (a read-only
    /// mount, a folder or file this user may not write) is opened for reading only, so that reading
    /// and exporting still work and only a write fails, saying why
    /// (``HoorayDatabase/readOnlyBecause``).
    public func database() throws -> HoorayDatabase {
        let problem: StorageError
        do {
            return try HoorayDatabase(path: paths.database)
        } catch {
            problem = error
        }
        guard HoorayDatabase.readingMayWork(despite: problem), FileManager.default.fileExists(atPath: paths.database)
        else { throw problem }
        return try HoorayDatabase.openForReading(path: paths.database, because: problem)
    }

    /// Opens the database for a command that only reads it; `nil` when there is none yet, which
    /// is then not created (nothing was logged, so there is nothing to read).
    public func existingDatabase() throws -> HoorayDatabase? {
        FileManager.default.fileExists(atPath: paths.database) ? try database() : nil
    }

    /// Sends a request to the daemon; `nil` when it is not running.
    public func send(_ request: ControlRequest) throws -> ControlResponse? {
        // A reload or restart may stop a plugin in another language (up to 5 s) and wait for its
        // answer to `initialize` (up to 11 s). Otherwise the deadline exceeds every time limit of
        // the daemon's handlers together: status asks the keyring for up to 1 s
        // (`IdentityVault.statusKeyringWait`) and do-not-disturb for up to 2 s. Setting sync up
        // writes down everything logged so far (a year of heavy use: seconds) and reloads.
        let timeout =
            switch request {
            case .reload, .restart, .allow: 25
            case .syncSetup: 120
            default: 5
            }
        return try ControlClient.send(request, socketPath: paths.controlSocket, timeout: timeout)
    }

    /// Whether a daemon is there: it answers on the control socket, or it accepted the connection
    /// and did not answer in time (it is stopped or very busy).
    public var daemonIsRunning: Bool {
        daemonStatus().running
    }

    /// Asks the daemon how it is.
    ///
    /// - Returns: Whether a daemon is there, and its status when it answered; `running` with no
    ///   status means it took the request and did not answer in time, or answered without one.
    public func daemonStatus() -> (running: Bool, status: DaemonStatus?) {
        do {
            guard let response = try send(.status) else { return (false, nil) }
            return (true, response.status)
        } catch {
            return (true, nil)
        }
    }

    /// Where the anonymous identity is kept, as `[identity] store` says; when that section has
    /// errors, the default, `auto`. A mistake in another part of the configuration does not matter.
    public func identityVault(plugins: [any HoorayPlugin]) -> IdentityVault {
        let store = (try? loadConfigurationLeniently(plugins: plugins))?.configuration.identityStore ?? .auto
        return IdentityVault(store: store, paths: paths)
    }

    /// Loads the configuration as the daemon would.
    public func loadConfiguration(plugins: [any HoorayPlugin]) throws -> DaemonConfiguration {
        try ConfigurationLoader(environment: environment, extraFile: configFile, plugins: plugins).load()
    }

    /// The database for a command that plans without saving, such as `hooray next`: the user's, or
    /// a copy of it in a private temporary folder when the plan must not touch it (`copy`), or when
    /// there is none yet an empty one there, so that reading makes no data folder.
    ///
    /// - Parameter copy: Whether to plan in a copy of the user's database, such as while hoorayd
    ///   runs on it, or when part of the configuration is left out.
    /// - Returns: The database, and what removes the temporary one once the command is done with it
    ///   (nothing for the user's).
    public func databaseForPlanning(copy: Bool = false) throws -> (
        database: HoorayDatabase, cleanUp: @Sendable () -> Void
    ) {
        let existing = try existingDatabase()
        // Planning saves the reminders it plans: a database that cannot be written is planned in a copy.
        if let existing, !copy, existing.readOnlyBecause == nil { return (existing, {}) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hooray-plan-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let cleanUp: @Sendable () -> Void = { try? FileManager.default.removeItem(atPath: folder) }
        do {
            let path = folder + "/hooray.sqlite"
            return (try existing?.copy(to: path) ?? HoorayDatabase(path: path), cleanUp)
        } catch {
            cleanUp()
            throw error
        }
    }

    /// Loads what reads well of the configuration, for commands that show what it says (`hooray
    /// next`, `hooray plugins`): broken parts are left out, and each is named once in `ignored`.
    ///
    /// - Parameters:
    ///   - plugins: The plugins whose sections are read.
    ///   - plugin: A plugin whose command runs; errors in its own section still throw.
    /// - Returns: The configuration, and one line per part left out, naming its file and line and
    ///   `hooray config check`, to print on standard error.
    /// - Throws: ``ConfigDiagnostics`` with the errors of `plugin`'s own section.
    public func loadConfigurationLeniently(plugins: [any HoorayPlugin], for plugin: String? = nil) throws
        -> (configuration: DaemonConfiguration, ignored: [String])
    {
        try ConfigurationLoader(environment: environment, extraFile: configFile, plugins: plugins)
            .loadLeniently(for: plugin)
    }

    /// Brings the reminders stored in `database` in line with a configuration, as the daemon does
    /// when it starts: the enabled plugins are activated against it.
    ///
    /// - Parameters:
    ///   - loaded: The configuration.
    ///   - database: The database to plan in: the real one, or a copy (``HoorayDatabase/copy(to:)``).
    public func syncRules(from loaded: DaemonConfiguration, into database: HoorayDatabase) async throws {
        _ = await plannedEngine(
            from: loaded, in: database, timeZone: SystemTimeZone(environment: environment).current(),
            logLevel: .error)
    }

    /// An engine in this process with the enabled built-in plugins activated against `database`, as
    /// the daemon's are when it starts; it delivers nothing.
    ///
    /// Planning asks no AI service, but plugins plan their retries only while AI is on. Plugins in
    /// other languages keep their reminders stored themselves; their programs are started only to
    /// run one of their commands, never to plan.
    func plannedEngine(
        from loaded: DaemonConfiguration, in database: HoorayDatabase, timeZone: TimeZone, logLevel: Logger.Level
    ) async -> Engine {
        let engine = Engine(
            database: database, channels: DeliveryChannels([OfflineChannel()]), settings: loaded.settings,
            timeZone: timeZone,
            makeLogger: { label in
                var quiet = Logger(label: label)
                quiet.logLevel = logLevel
                return quiet
            })
        await engine.setPraiseProvider(
            loaded.ai.provider == .off && !loaded.aiSectionIgnored
                ? NoPraiseProvider() : NoPraiseProvider(error: .unreachable(reason: "not asked while planning")))
        await engine.apply(settings: loaded.settings, plugins: loaded.setups.filter { !($0.plugin is ExternalPlugin) })
        return engine
    }

    /// What a status bar shows, computed in this process while `hoorayd` is not running: the
    /// enabled built-in plugins are activated against the database as `hooray next` does (in a copy
    /// when part of the configuration is left out) and asked for their items.
    ///
    /// - Parameter plugins: The plugins the configuration knows.
    /// - Returns: The snapshot, the user's time zone, and one line per part of the configuration
    ///   left out.
    public func offlineBarSnapshot(plugins: [any HoorayPlugin]) async throws -> (
        snapshot: BarSnapshot, timeZone: TimeZone, ignored: [String]
    ) {
        let (loaded, ignored) = try loadConfigurationLeniently(plugins: plugins)
        let planning = try databaseForPlanning(copy: !ignored.isEmpty)
        defer { planning.cleanUp() }
        let timeZone = SystemTimeZone(environment: environment).current()
        let engine = await plannedEngine(
            from: loaded, in: planning.database, timeZone: timeZone, logLevel: .critical)
        return (await engine.barSnapshot(), timeZone, ignored)
    }

    /// Asks the session bus for the notification server directly.
    public func probeServer() async -> ServerStatus {
        await probeDesktop().server
    }

    /// Asks the session bus for the notification server and its do-not-disturb state directly.
    public func probeDesktop() async -> (server: ServerStatus, doNotDisturb: DoNotDisturb) {
        var logger = Logger(label: "hooray")
        logger.logLevel = .critical
        let channel = LibNotifyChannel(icon: "hooray", serverTimeout: .seconds(3), logger: logger)
        let status = await channel.status()
        let doNotDisturb = status.info == nil ? DoNotDisturb.off : await channel.doNotDisturb()
        await channel.shutdown()
        return (status, doNotDisturb)
    }
}

extension CLISession {
    /// Asks the configured AI service for praise once, with short time limits (3 s to connect,
    /// 8 s in all), to find out whether it answers, as `hooray doctor` does.
    ///
    /// - Parameters:
    ///   - configuration: The `[ai]` section; it must not be off.
    ///   - identityStore: Where the anonymous identity sent as `x-user-id` is kept.
    /// - Returns: The praise, or why there was none (an ``AIRequestError`` says what to do).
    public func askAIOnce(_ configuration: AIConfiguration, identityStore: CoreSettings.Identity.Store) async
        -> Result<AIPraise, any Error>
    {
        var quick = configuration
        quick.connectTimeout = min(configuration.connectTimeout, .seconds(3))
        quick.timeout = min(configuration.timeout, .seconds(8))
        var logger = Logger(label: "ai")
        logger.logLevel = .critical
        let provider = IdentityResolvingPraiseProvider(
            configuration: quick, vault: IdentityVault(store: identityStore, paths: paths), logger: logger)
        let now = Date()
        let moment = MomentForPraise(
            clientID: UUID(), text: "Checked that Hooray works", happenedAt: now, submittedAt: now,
            timeZone: SystemTimeZone(environment: environment).current().identifier, timeAgo: "just now")
        do {
            return .success(try await provider.praise(for: moment))
        } catch {
            return .failure(error)
        }
    }
}
