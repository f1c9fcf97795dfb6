import CLinux
import Foundation
import HoorayAI
import HoorayClient
import HoorayCommandLine
import HoorayCommands
import HoorayConfig
import HoorayDelivery
import HoorayEngine
import HoorayExternalPlugins
import HoorayIdentity
import HoorayKeyring
import HoorayKit
import HoorayStorage
import HoorayTOML
import HoorayThreads
import Logging
import ServiceLifecycle

/// How `hoorayd` was started.
public struct DaemonOptions: Sendable {
    /// An extra configuration file that overrides all others (`--config FILE`).
    public var configFile: String?
    /// The process environment.
    public var environment: [String: String]

    /// Creates options.
    public init(configFile: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.configFile = configFile
        self.environment = environment
    }
}

/// Exit codes of `hoorayd`: the values of ``ExitStatus``, the one table of `hooray` and `hoorayd`.
public enum DaemonExit: Int32, Sendable {
    /// Stopped cleanly.
    case ok = 0
    /// Another `hoorayd` for the same data folder is running: ``ExitStatus/busy``, as the lock is free
    /// again once that one stops.
    case alreadyRunning = 75  // EX_TEMPFAIL
    /// The configuration has errors, or the environment does not say safely where files go (no
    /// absolute home folder, an unsafe runtime folder): ``ExitStatus/configuration``.
    case badConfiguration = 78  // EX_CONFIG
    /// The database or the runtime directory cannot be used (``ExitStatus/unavailable``).
    case cannotStart = 69  // EX_UNAVAILABLE
    /// Anything else.
    case failure = 1
}

/// The whole `hoorayd` process: configuration, lock, database, delivery, plugins, signals.
public enum Daemon {
    /// Runs the daemon until SIGTERM or SIGINT.
    ///
    /// - Parameters:
    ///   - options: How it was started.
    ///   - plugins: The built-in plugins, registered explicitly.
    ///   - version: The version to report.
    /// - Returns: The process exit code.
    public static func run(options: DaemonOptions, plugins: [any HoorayPlugin], version: String) async -> DaemonExit {
        // A reminder that comes due while hoorayd starts (seconds on a busy computer) is planned from
        // here, and shown at once, rather than tomorrow.
        let launched = Date()
        MemoryRelease.configureAllocator()
        // hoorayd holds the AI key and reads the keyring: no core dump of it, and no debugger of another
        // process of the user (a plugin's, say) may read its memory; /proc/PID files become root's.
        _ = hooray_forbid_core_dumps()
        // A relative HOME would put the configuration and data in whatever folder hoorayd started in.
        let options = DaemonOptions(
            configFile: options.configFile, environment: HoorayPaths.withAbsoluteHome(options.environment))
        do {
            _ = try CommandTree(plugins: plugins)
        } catch {
            printError(
                "hoorayd: the plugins' commands cannot be offered as declared, so hoorayd did not start: \(error)")
            return .badConfiguration
        }
        // The built-in plugins and those in other languages found in the plugin folders; the
        // catalog looks again at each reload.
        let catalog = PluginCatalog(builtIns: plugins, environment: options.environment, hostVersion: version)
        let loader = ConfigurationLoader(
            environment: options.environment, extraFile: options.configFile, plugins: catalog.plugins
        ).leavingKnownListsUnread()
        let loaded: DaemonConfiguration
        do {
            loaded = try loader.load()
        } catch {
            printError("hoorayd: the configuration has errors, so hoorayd did not start:\n\(error)")
            printError("Fix them (check with `hooray config check`) and start hoorayd again.")
            return .badConfiguration
        }
        let logLevel = SharedLogLevel(loaded.logLevel)
        LoggingSystem.bootstrap { label in
            StderrLogHandler(label: label, level: logLevel, environment: options.environment)
        }
        let logger = Logger(label: "hoorayd")
        for warning in loaded.warnings { logger.warning("\(warning)") }
        announceRefused(catalog, logger: logger)

        let paths: HoorayPaths
        do {
            paths = try HoorayPaths(environment: options.environment)
        } catch {
            printError("hoorayd: \(error)")
            return .badConfiguration
        }
        // One lock in the data folder, whatever the runtime folder, so that two daemons never share
        // a database; one next to the control socket, so that a daemon never takes over another's.
        let locks: [InstanceLock]
        do {
            try paths.makeRuntimeDirectory()
            try Folders.make(paths.dataDirectory)
            locks = [try InstanceLock(path: paths.dataLockFile), try InstanceLock(path: paths.lockFile)]
        } catch let error as AlreadyRunning {
            printError("hoorayd: \(error)")
            return .alreadyRunning
        } catch let error as UnsafeRuntimeDirectory {
            printError("hoorayd: \(error)")
            return .badConfiguration
        } catch let error as LockFileError {
            printError("hoorayd: \(error)")
            return .cannotStart
        } catch let error as Folders.NotMade {
            printError(
                "hoorayd: cannot create \(error.path): \(error). Check that its parent exists and is writable, or set "
                    + "XDG_DATA_HOME and XDG_RUNTIME_DIR (or HOME) to folders you can write.")
            return .cannotStart
        } catch {
            printError("hoorayd: cannot create \(paths.runtimeDirectory) or \(paths.dataDirectory): \(error)")
            return .cannotStart
        }
        let systemTimeZone = SystemTimeZone(environment: options.environment)
        let database: HoorayDatabase
        do {
            database = try HoorayDatabase(path: paths.database)
        } catch {
            printError("hoorayd: \(error)")
            return .cannotStart
        }
        let alarm: WallClockAlarm
        let control: ControlServer
        do {
            alarm = try WallClockAlarm(
                watchingTimeZoneIn: systemTimeZone.isPinnedByEnvironment ? nil : systemTimeZone.watchedDirectory,
                names: systemTimeZone.watchedNames)
            control = try ControlServer(path: paths.controlSocket)
        } catch {
            printError("hoorayd: \(error)")
            return .cannotStart
        }
        if let problem = alarm.watchProblem {
            logger.warning(
                "cannot watch \(systemTimeZone.watchedDirectory) for time zone changes (\(problem)); a new time zone is picked up at the next `hooray reload` or restart. If it says too many open files, raise fs.inotify.max_user_instances."
            )
        }

        let channels = DeliveryChannels.standard(
            icon: loaded.icon, serverTimeout: loaded.serverTimeout, logger: Logger(label: "delivery"))
        let engine = Engine(
            database: database, channels: channels, settings: loaded.settings, timeZone: systemTimeZone.current(),
            systemTimeZone: systemTimeZone, makeLogger: { Logger(label: $0) })
        let startedAt = Date()
        let state = DaemonState(configuration: loaded, catalog: catalog, extraFile: options.configFile)

        logger.info("hoorayd \(version) starting; data in \(paths.dataDirectory)")
        if loaded.files.isEmpty {
            logger.info("no configuration files; running on built-in defaults")
        } else {
            logger.info("configuration: \(loaded.files.joined(separator: ", "))")
        }
        await engine.setPraiseProvider(
            IdentityResolvingPraiseProvider.make(
                loaded.ai, identity: loaded.identityStore, paths: paths, logger: logger))
        await engine.apply(settings: loaded.settings, plugins: loaded.setups, startedAt: launched)
        await announceUpcoming(database: database, logger: logger)
        await announceServer(channels: channels, logger: logger)
        // What planning every plugin's reminders took is given back before hoorayd settles.
        MemoryRelease.releaseAfterBurst(database)

        // What the start wrote is copied from the write-ahead log into the database file off the
        // path of the first answers.
        Thread.detachNewThread { database.checkpoint() }
        Thread.detachNewThread { writeListCache(of: loaded, logger: logger) }
        let barFeed = StatusBarFeed(engine: engine)
        let sync = SyncRunner.start(database: database, engine: engine, paths: paths, state: state, logger: logger)
        let spool = RequestSpool(paths: paths)
        let taken = TakenRequests()
        let handle: @Sendable (ControlRequest) async -> ControlResponse = { request in
            switch request {
            case .bar:
                return ControlResponse(ok: true, bar: await engine.barSnapshot())
            case .changes:
                // Always followed (above); never answered once.
                return ControlResponse(ok: true, change: 0)
            case .status:
                // The configuration in force says where the identity is kept; the keyring is asked
                // off the task threads, for at most a second: a hanging keyring is said, not waited for.
                // The notification server is asked meanwhile.
                let vault = IdentityVault(store: state.configuration.identityStore, paths: paths)
                async let identity = vault.promptWhereabouts()
                // A server with no change signal (mako) is asked now, as the bar's snapshot does: the
                // state last heard may be stale.
                await engine.refreshDoNotDisturb()
                let status = await DaemonStatus(
                    pid: getpid(), version: version, startedAt: startedAt,
                    server: engine.serverStatus.info, serverProblem: engine.serverStatus.problem,
                    waitingNotices: (try? database.pendingNotices().count) ?? 0,
                    plugins: engine.activePlugins, configFiles: state.configuration.files, nextDue: engine.nextDue,
                    identity: identity, doNotDisturb: engine.doNotDisturbState, takesAnswers: true,
                    pausedUntil: engine.pausedUntilNow)
                return ControlResponse(ok: true, status: status)
            case .reload:
                let result = await reload(engine: engine, state: state, logLevel: logLevel, logger: logger)
                return ControlResponse(ok: result == nil, message: result)
            case .settings(let keys):
                return SettingsRequests.read(keys, state: state)
            case .setSetting(let key, let value):
                return await SettingsRequests.set(key, to: value, state: state) {
                    await reloadNow(engine: engine, state: state, logLevel: logLevel, logger: logger)
                }
            case .deleteData:
                // The one writer deletes: what waits in the spool first (it would run into the
                // emptied database), then the database. `hooray delete-my-data` then deletes the
                // identity and asks for a reload, which brings the configured reminders back.
                spool.removeAll()
                let deleted: DeletedData
                do {
                    deleted = try await database.deleteUserData()
                } catch {
                    return ControlResponse(
                        ok: false,
                        message:
                            "the database was left as it was (\(error)); only what waited in the spool was removed")
                }
                logger.info("deleted the user's data at their request (hooray delete-my-data)")
                // A pause of notifications was among it.
                _ = try? await engine.pause(until: nil)
                // This computer's segments in the sync folder held the words: a snapshot without them
                // takes their place once the deletions are sent.
                if deleted.synced == true { await sync.compactAfterSending() }
                return ControlResponse(ok: true, deleted: deleted)
            case .plugins:
                let reports = await PluginReport.reports(
                    catalog: state.catalog, enabled: state.configuration.enabledPlugins, engine: engine)
                return ControlResponse(ok: true, plugins: reports)
            case .restart(let name):
                guard let plugin = await engine.externalPlugins[name] else {
                    let known = state.catalog.external.map(\.name)
                    if let refused = state.catalog.refused.first(where: { $0.name == name }) {
                        return ControlResponse(
                            ok: false,
                            message:
                                "the \(name) plugin in \(refused.folder) is not loaded: \(refused.reason); fix it, then `hooray reload`"
                        )
                    }
                    if let reason = state.catalog.external.first(where: { $0.name == name })?.heldReason,
                        state.configuration.enabledPlugins.contains(name)
                    {
                        return ControlResponse(ok: false, message: "the \(name) plugin is \(reason)")
                    }
                    let message =
                        known.contains(name)
                        ? "the \(name) plugin is turned off; `[plugins.\(name)] enabled = true` turns it on"
                        : state.catalog.builtIns.contains(where: { $0.name == name })
                            ? "\(name) is a built-in plugin, part of hoorayd; only plugins in other languages are restarted"
                            : "there is no plugin \(name); `hooray plugins` lists them"
                    return ControlResponse(ok: false, message: message)
                }
                await plugin.supervisor.restart()
                return await plugin.supervisor.readiness(
                    running: { "restarted \(name) (pid \($0))" },
                    notRunning: { "\(name) was started again but is not running: \($0)" })
            case .allow(let name):
                return await allow(name, engine: engine, state: state, logger: logger)
            case .refresh:
                await engine.reloadRules()
                return ControlResponse(ok: true)
            case .pause(let until):
                return await engine.pauseAnswer(until: until)
            case .syncSetup(let folder, let phrase, let newDevice):
                return await sync.setup(folder: folder, phrase: phrase, newDevice: newDevice) { written in
                    await SettingsRequests.set("sync.folder", to: TOMLLiteral.string(written).text, state: state) {
                        await reloadNow(engine: engine, state: state, logLevel: logLevel, logger: logger)
                    }
                }
            case .syncStatus(let phrase):
                let home = state.environment["HOME"] ?? ""
                return await sync.status(phrase: phrase, configured: state.configuration.sync.folderPath(home: home))
            case .act(let notice, let action, let answer, let requestID):
                if let duplicate = SpoolTaking.take(requestID, spool: spool, memory: taken, logger: logger) {
                    return duplicate
                }
                let outcome = await engine.press(
                    action: action, on: NoticeID(rawValue: notice), declaredOnly: true, answer: answer)
                switch outcome {
                case .snoozed(let until):
                    return ControlResponse(ok: true, message: outcome.message, snoozedUntil: until)
                case .alreadySnoozed(let until):
                    return ControlResponse(ok: false, message: outcome.message, snoozedUntil: until)
                case .answerRefused:
                    return ControlResponse(ok: false, message: outcome.message, invalidValue: "--answer")
                default:
                    return ControlResponse(ok: outcome.didSomething, message: outcome.message)
                }
            case .command(let name, let invocation, let requestID):
                if let duplicate = SpoolTaking.take(requestID, spool: spool, memory: taken, logger: logger) {
                    return duplicate
                }
                return await runCommand(invocation, plugin: name, engine: engine)
            case .run(let arguments, let caller, let requestID):
                // The front door's command line, read as `hooray` reads it; anything but a plain
                // command of a built-in plugin goes back to the full program, untouched. The front
                // door's spooled copy is taken either way: whoever takes it first (this, or the
                // front door withdrawing it after waiting in vain) decides whether it runs here.
                // A line not taken here is never handed back: it ran already (from the spool, while
                // its front door was stopped), or may have (before a restart).
                if var notTaken = SpoolTaking.take(requestID, spool: spool, memory: taken, logger: logger) {
                    // Handed back when a sweep took it: the full program's still.
                    if notTaken.handOver == true { return notTaken }
                    let line =
                        notTaken.duplicate == true
                        ? "hooray: hoorayd ran this command already (it was kept while it could not answer), so it was not run again.\n"
                        : "hooray: \(notTaken.message ?? "hoorayd did not run this command"); it was not run now.\n"
                    notTaken.output = CommandOutput(
                        writes: [.init(to: 2, text: line)],
                        status: notTaken.duplicate == true ? 0 : ExitStatus.busy.rawValue)
                    return notTaken
                }
                guard
                    let tree = state.commandTree,
                    let prepared = FrontDoor.prepare(
                        arguments: arguments, caller: caller, tree: tree,
                        builtIns: Set(state.catalog.builtIns.map(\.name)), hostVersion: version)
                else {
                    if let requestID { taken.handedOver(requestID) }
                    return ControlResponse(ok: true, handOver: true)
                }
                var answer = await runCommand(prepared.invocation, plugin: prepared.plugin, engine: engine)
                answer.output = FrontDoor.output(for: answer, of: prepared)
                return answer
            }
        }
        // Requests left in the spool while no hoorayd read them run now, once each, and again after
        // connections (below).
        let sweeper = LeftoverSweeper(spool: spool, logger: logger, handle: handle)
        sweeper.poke()
        control.start(
            follow: { request in
                switch request {
                case .bar(follow: true): return { barFeed.follow() }
                case .changes: return { ChangeFeed.follow(engine.changes) }
                default: return nil
                }
            },
            // Once a request has been answered, what it took (a long list, say) is given back, and
            // what waits in the spool is looked at.
            answered: {
                MemoryRelease.releaseAfterBurst(database)
                sweeper.poke()
            },
            refused: { pid, uid in
                logger.warning(
                    "refused a connection to the control socket from \(pid.map { "pid \($0)" } ?? "a process") of another user (uid \(uid.map(String.init) ?? "unknown")); nothing of it was read. Check that \(paths.controlSocket) and \(paths.runtimeDirectory) are mode 600 and 700"
                )
            },
            // A client turned away may have left its request kept: it runs once it is old enough.
            turnedAway: { sweeper.poke() },
            handler: handle)

        // Signals come through a thread that blocks in read(2), not through Dispatch signal sources
        // (service-lifecycle's UnixSignals), which would start Dispatch's worker pool and its 1 Hz
        // monitor: SIGTERM and SIGINT stop the service group gracefully, SIGHUP reloads.
        let signals: SignalRelay
        do {
            signals = try SignalRelay(catching: [SIGTERM, SIGINT, SIGHUP])
        } catch {
            printError("hoorayd: cannot catch SIGTERM, SIGINT and SIGHUP (\(error)); start it again")
            return .cannotStart
        }
        // The desktop's launchers (GNOME Shell's search, KRunner) find hoorayd on the session bus.
        let desktopBus = DaemonLauncherHost.startDesktopBus(
            handle: handle, engine: engine, state: state, feed: barFeed, timeZone: systemTimeZone, paths: paths,
            version: version, logger: logger)
        let (hangups, hangup) = AsyncStream<Void>.makeStream()
        let service = EngineService(engine: engine, alarm: alarm, logger: logger)
        let reloader = ReloadService(
            engine: engine, state: state, logLevel: logLevel, hangups: hangups, logger: logger)
        var configuration = ServiceGroupConfiguration(
            services: [
                .init(service: service),
                .init(service: reloader),
                .init(service: StatusBarService(feed: barFeed, logger: logger)),
            ],
            logger: logger)
        configuration.maximumGracefulShutdownDuration = .milliseconds(1500)
        let group = ServiceGroup(configuration: configuration)
        let router = Task {
            for await signal in signals.signals {
                if signal == SIGHUP {
                    hangup.yield()
                } else {
                    logger.debug("\(signal == SIGTERM ? "SIGTERM" : "SIGINT"): stopping")
                    await group.triggerGracefulShutdown()
                }
            }
        }
        do {
            try await group.run()
        } catch {
            logger.error("hoorayd stopped with an error: \(error)")
        }
        router.cancel()
        // What waits in the spool now is the next hoorayd's: nothing more is taken while stopping.
        sweeper.stop()
        control.shutdown()
        await desktopBus.stop()
        await engine.stopExternalPlugins()
        alarm.shutdown()
        await channels.shutdown()
        logger.info("hoorayd stopped")
        withExtendedLifetime(locks) {}
        return .ok
    }

    /// Runs a plugin's command for `hooray` (its request taken off the spool already).
    static func runCommand(_ invocation: CommandInvocation, plugin name: String, engine: Engine) async
        -> ControlResponse
    {
        do {
            // A follow-up is for a hooray that hosted the plugin itself; the daemon's work goes on here.
            var reply = try await engine.run(invocation, plugin: name)
            reply.followUp = nil
            // Only what will be printed travels: the text, or with --json the JSON.
            if invocation.json { reply.text = "" } else { reply.json = nil }
            return ControlResponse(ok: true, reply: reply)
        } catch let error as PluginCommandError {
            return ControlResponse(
                ok: false, message: error.message, invalidValue: error.invalidOption,
                exitCode: error.exitCode == 1 || error.invalidOption != nil ? nil : error.exitCode)
        } catch {
            return ControlResponse(ok: false, message: "\(error)")
        }
    }

    /// Logs the next few reminders in local time, so a user starting hoorayd sees what it will do.
    static func announceUpcoming(database: HoorayDatabase, logger: Logger, limit: Int = 5) async {
        guard let (rules, total) = try? await database.upcomingRules(limit: limit) else { return }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE d MMM HH:mm"
        for rule in rules {
            logger.info(
                "next: \(rule.reminder.notice.title) at \(formatter.string(from: rule.nextDue!)) (\(rule.plugin))")
        }
        if total > limit {
            logger.info("… and \(total - limit) more; `hooray next` lists them")
        }
    }

    static func announceServer(channels: DeliveryChannels, logger: Logger) async {
        let status = await channels.status()
        switch status {
        case .available(let server):
            logger.info(
                "delivering to \(server.name) \(server.version) (capabilities: \(server.capabilities.joined(separator: ", ")))"
            )
        case .unavailable, .timedOut:
            let reason = status.problem ?? "unknown"
            let message =
                "no notification server (\(reason)). Notifications go to the inbox — read them with `hooray inbox` — "
                + "and are shown as soon as a notification server appears."
            logger.warning("\(message)")
        }
    }

    /// Says which plugin folders are not loaded, and why.
    static func announceRefused(_ catalog: PluginCatalog, logger: Logger) {
        for refused in catalog.refused {
            logger.warning("the plugin in \(refused.folder) is not loaded: \(refused.reason)")
        }
    }

    /// Looks in the plugin folders again and reloads the configuration; on errors keeps the
    /// running one and returns a message.
    static func reload(engine: Engine, state: DaemonState, logLevel: SharedLogLevel, logger: Logger) async -> String? {
        await state.configurationGate.run {
            await reloadNow(engine: engine, state: state, logLevel: logLevel, logger: logger)
        }
    }

    /// Reloads, once ``DaemonState/configurationGate`` is held: as ``reload(engine:state:logLevel:logger:)``.
    static func reloadNow(engine: Engine, state: DaemonState, logLevel: SharedLogLevel, logger: Logger) async
        -> String?
    {
        state.catalog.refresh()
        announceRefused(state.catalog, logger: logger)
        let loader = ConfigurationLoader(
            environment: state.environment, extraFile: state.extraFile, plugins: state.catalog.plugins
        ).leavingKnownListsUnread()
        do {
            let loaded = try loader.load()
            logLevel.level = loaded.logLevel
            for warning in loaded.warnings { logger.warning("\(warning)") }
            await engine.setPraiseProvider(
                IdentityResolvingPraiseProvider.make(
                    loaded.ai, identity: loaded.identityStore, paths: try HoorayPaths(environment: loader.environment),
                    logger: logger))
            await engine.apply(settings: loaded.settings, plugins: loaded.setups)
            state.configuration = loaded
            logger.info("configuration reloaded")
            await announceUpcoming(database: engine.database, logger: logger)
            writeListCache(of: loaded, logger: logger)
            return nil
        } catch {
            let message = "the new configuration has errors; still running on the last good one:\n\(error)"
            logger.error("\(message)")
            return message
        }
    }

    /// Notes the configuration files that hold nothing but a plugin's list, so that the next start
    /// can leave them unread; the note is only an aid, so a failure is logged and forgotten.
    static func writeListCache(of configuration: DaemonConfiguration, logger: Logger) {
        do {
            let wrote = try configuration.loaded.lists.writeCache()
            logger.debug(
                wrote
                    ? "noted the configuration files that hold nothing but a list, for the next start"
                    : "the configuration files that hold nothing but a list are noted already")
        } catch {
            logger.debug("cannot note which configuration files hold only a list: \(error)")
        }
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

struct EngineService: Service, CustomStringConvertible {
    // Service lifecycle logs services by their description; the default one would print every
    // field, the environment (and any API key in it) included.
    var description: String { "EngineService" }

    let engine: Engine
    let alarm: WallClockAlarm
    let logger: Logger

    func run() async throws {
        // The service group traps its signals before it starts services, so from here on SIGTERM
        // and SIGHUP are handled; say so only now.
        logger.info("hoorayd is running (pid \(getpid())); SIGHUP reloads the configuration, SIGTERM stops")
        await withGracefulShutdownHandler {
            await engine.run(alarm: alarm)
        } onGracefulShutdown: {
            Task { await engine.stop() }
        }
    }
}

struct ReloadService: Service, CustomStringConvertible {
    var description: String { "ReloadService" }

    let engine: Engine
    let state: DaemonState
    let logLevel: SharedLogLevel
    /// One element per SIGHUP.
    let hangups: AsyncStream<Void>
    let logger: Logger

    func run() async throws {
        for await _ in hangups.cancelOnGracefulShutdown() {
            logger.info("SIGHUP: reloading the configuration")
            _ = await Daemon.reload(engine: engine, state: state, logLevel: logLevel, logger: logger)
        }
    }
}
