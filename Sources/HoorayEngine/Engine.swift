import Foundation
import HoorayCalendar
import HoorayClient
import HoorayCommandLine
import HoorayDelivery
import HoorayExternalPlugins
import HoorayKit
import HoorayMessages
import HoorayScheduling
import HoorayStorage
import HoorayThreads
import Logging

/// Settings of the engine itself, from the `[scheduler]`, `[delivery]` and `[celebrations]` sections.
public struct EngineSettings: Sendable, Equatable {
    /// How late a missed occurrence may still be shown.
    public var catchUpWithin: Duration
    /// How often undelivered notices are retried while no server is reachable.
    public var retryEvery: Duration
    /// How long a plugin's `reminderDue` or `actionInvoked` may take before the daemon moves on without it.
    public var pluginTimeLimit: Double
    /// How long a plugin's `activate` may take; it may do more work, such as scheduling many reminders.
    public var activationTimeLimit: Double
    /// The celebration style of plugins without one of their own (`[celebrations] style`).
    public var celebrationStyle: CelebrationStyle
    /// When notices that are not urgent wait (`[delivery] quiet_hours`).
    package var quietHours: QuietHours
    /// How many notices due within a minute are shown one by one (`[delivery] burst_limit`).
    public var burstLimit: Int
    /// How long delivery records are kept (`[storage] keep_delivered`).
    public var keepDelivered: Duration
    /// The user's configuration file, which plugins name when they say how to change a setting
    /// (``PluginContext/configurationFile``); `nil` when unknown.
    public var userConfigurationFile: String?
    /// The delivery channels the user turned off, by name: they are not handed notices.
    public var channelsTurnedOff: Set<String>

    /// Creates settings.
    package init(
        catchUpWithin: Duration = .seconds(7200), retryEvery: Duration = .seconds(30), pluginTimeLimit: Double = 10,
        activationTimeLimit: Double = 60, celebrationStyle: CelebrationStyle = .calm, quietHours: QuietHours = .none,
        burstLimit: Int = 3, keepDelivered: Duration = .seconds(90 * 86400), userConfigurationFile: String? = nil,
        channelsTurnedOff: Set<String> = []
    ) {
        self.channelsTurnedOff = channelsTurnedOff
        self.userConfigurationFile = userConfigurationFile
        self.quietHours = quietHours
        self.burstLimit = burstLimit
        self.keepDelivered = keepDelivered
        self.catchUpWithin = catchUpWithin
        self.retryEvery = retryEvery
        self.pluginTimeLimit = pluginTimeLimit
        self.activationTimeLimit = activationTimeLimit
        self.celebrationStyle = celebrationStyle
    }
}

/// A plugin with its decoded configuration, ready to activate.
public struct PluginSetup: Sendable {
    /// The plugin.
    public var plugin: any HoorayPlugin
    /// Whether it is enabled (`[plugins.NAME] enabled`).
    public var enabled: Bool
    /// Its decoded `Configuration`.
    public var configuration: any Sendable
    /// Its own celebration style (`[plugins.NAME] celebrations`); `nil` follows the engine's
    /// ``EngineSettings/celebrationStyle``.
    public var celebrationStyle: CelebrationStyle?
    /// Where its configuration came from (``HoorayKit/PluginContext/configurationSource``); `nil`
    /// when unknown.
    public var source: ConfigurationSource?

    /// Creates a setup.
    ///
    /// - Parameters:
    ///   - plugin: The plugin.
    ///   - enabled: Whether it is enabled.
    ///   - configuration: Its decoded `Configuration`.
    ///   - celebrationStyle: Its own celebration style, if it has one.
    ///   - source: Where its configuration came from, if known.
    public init(
        plugin: any HoorayPlugin, enabled: Bool, configuration: any Sendable,
        celebrationStyle: CelebrationStyle? = nil, source: ConfigurationSource? = nil
    ) {
        self.source = source
        self.plugin = plugin
        self.enabled = enabled
        self.configuration = configuration
        self.celebrationStyle = celebrationStyle
    }
}

/// What pressing a notice's button did, as `hooray act` reports it.
public enum ActionOutcome: Sendable, Equatable {
    /// The notice comes back at this instant.
    case snoozed(until: Date)
    /// The notice was snoozed already, from this same notice, until this instant; nothing changed.
    case alreadySnoozed(until: Date)
    /// The plugin handled the button (its label, or its id when it has none).
    case handled(button: String, plugin: String)
    /// The plugin said the button does nothing now, and why.
    case declined(String)
    /// An answer came with a button that asks no question, or one ``ButtonAnswer`` refuses (a
    /// control character, too long); nothing was pressed.
    case answerRefused(String)
    /// There is no such notice or button, or its plugin is not running.
    case refused(String)
    /// Handling the button failed.
    case failed(String)

    /// Whether the press did something.
    public var didSomething: Bool {
        switch self {
        case .snoozed, .handled: true
        case .alreadySnoozed, .declined, .answerRefused, .refused, .failed: false
        }
    }

    /// What happened, in a sentence for a log or a script; `hooray act` words times in local time itself.
    public var message: String {
        switch self {
        case .snoozed(let until): "snoozed until \(until.formatted(.iso8601))"
        case .alreadySnoozed(let until):
            "this notice is already snoozed until \(until.formatted(.iso8601)); nothing changed"
        case .handled(let button, let plugin): "pressed “\(button)”; the \(plugin) plugin handled it"
        case .declined(let reason), .answerRefused(let reason), .refused(let reason), .failed(let reason): reason
        }
    }
}

/// The heart of `hoorayd`: runs plugins, fires reminders exactly once, and delivers notices.
///
/// The engine is an actor. Its scheduler loop asks ``SchedulerState`` what to do next — fire due
/// rules, or sleep until an instant — and sleeps on a ``WallClockAlarm``, so an idle engine has
/// no timer running at all. Delivery runs in its own loop so that a slow or hung notification
/// server never holds up the schedule.
public actor Engine {
    package let database: HoorayDatabase
    let channels: DeliveryChannels
    let clock: any HoorayClock
    var timeZone: TimeZone
    let systemTimeZone: SystemTimeZone?
    var lastSetups: [PluginSetup] = []
    var celebrationStyles: [String: CelebrationStyle] = [:]
    let celebrationPhrases: CelebrationPhrases
    var praise: any PraiseProvider = NoPraiseProvider()
    let logger: Logger
    let makeLogger: @Sendable (String) -> Logger
    var settings: EngineSettings
    var plugins: [String: any HoorayPlugin] = [:]
    var state = SchedulerState()
    /// The plugins whose rules in `state` are those stored: all replaced at once since the plugins
    /// were last activated, and not dropped since. Their rules are not read again after activation.
    var plannedAsStored: Set<String> = []
    /// While the first ``apply(settings:plugins:startedAt:)`` of a start runs, when the process
    /// started: reminders planned then are planned from that moment, not from the clock's.
    var planningFrom: Date?
    /// Why each enabled plugin the last activation left out failed to start, by name.
    var startFailures: [String: String] = [:]
    /// Whether ``startChannels()`` ran.
    var channelsStarted = false
    var server: ServerStatus = Engine.serverNotChecked
    /// The server as known before anyone asked: a first hand-over needs no question before it.
    static let serverNotChecked = ServerStatus.unavailable(reason: "not checked yet")
    var retryTask: Task<Void, Never>?
    let loopEvents: AsyncStream<LoopEvent>
    let loopContinuation: AsyncStream<LoopEvent>.Continuation
    let deliveryEvents: AsyncStream<Void>
    let deliveryContinuation: AsyncStream<Void>.Continuation
    /// Plugins' background work; each piece that ends may have changed what a client shows (AI
    /// praise arrived, say), which ``changes`` announces.
    lazy var background = BackgroundTracker(changes: changes)
    /// The notification server's do-not-disturb state, as last heard or asked.
    public internal(set) var doNotDisturbState = DoNotDisturb.off
    /// Whether a pass of the scheduler is firing reminders; delivery waits for its end.
    var firing = false
    /// When notices held for quiet hours or a pause go out.
    var deliveryWake: Date?
    /// The end of the last pause set (``pause(until:)``), once read from the database.
    var pausedUntil: Date?
    var pauseLoaded = false
    /// How many pauses were asked for, so that only the latest sets ``pausedUntil``.
    var pauseChanges = 0
    /// When delivery records are pruned next.
    var nextPruning: Date?
    /// Reminders found missed in the current pass, told in one "While you were away" notice at its end.
    var missedThisPass: [MissedReminder] = []
    /// Tells subscribers (such as `hooray bar --follow`) that what they show may have changed.
    public nonisolated let changes = ChangeBroadcast()

    enum LoopEvent: Sendable {
        case alarm(WallClockAlarm.Event)
        case changed
    }

    /// Creates an engine.
    ///
    /// - Parameters:
    ///   - database: The store.
    ///   - channels: Where notices go (``DeliveryChannels/standard(icon:serverTimeout:logger:)`` in hoorayd).
    ///   - settings: Engine settings.
    ///   - clock: The clock; the system clock in the daemon.
    ///   - timeZone: The user's local time zone.
    ///   - systemTimeZone: Where to re-read the time zone when it may have changed; `nil` keeps `timeZone`.
    ///   - makeLogger: Makes a logger for a label (the engine's own, and each plugin's).
    ///   - celebrationPhrases: The phrases of plugins' celebrations, by pool (`calm.small`, ...);
    ///     the compiled-in `Config/pools/celebrations.txt` by default.
    public init(
        database: HoorayDatabase, channels: DeliveryChannels, settings: EngineSettings,
        clock: any HoorayClock = SystemClock(), timeZone: TimeZone = .current, systemTimeZone: SystemTimeZone? = nil,
        makeLogger: @escaping @Sendable (String) -> Logger = { Logger(label: $0) },
        celebrationPhrases: [String: [String]] = MessagePools.celebrations
    ) {
        self.celebrationPhrases = CelebrationPhrases(pools: celebrationPhrases)
        self.database = database
        self.channels = channels
        self.settings = settings
        self.clock = clock
        self.timeZone = timeZone
        self.systemTimeZone = systemTimeZone
        self.makeLogger = makeLogger
        self.logger = makeLogger("hoorayd")
        (loopEvents, loopContinuation) = AsyncStream.makeStream(
            of: LoopEvent.self, bufferingPolicy: .bufferingNewest(64))
        (deliveryEvents, deliveryContinuation) = AsyncStream.makeStream(
            of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    // MARK: Plugins

    /// Activates the enabled plugins with their configuration, and forgets disabled ones.
    ///
    /// A plugin that throws or takes too long is logged and left inactive; the others go on.
    ///
    /// - Parameters:
    ///   - settings: The engine's settings.
    ///   - setups: Every plugin, with whether it is enabled and its configuration.
    ///   - startedAt: At hoorayd's start, when its process started: a reminder first planned by this
    ///     activation that came due since then (while hoorayd was starting, seconds on a busy
    ///     computer) is shown at once, late by the start, rather than at its next time tomorrow.
    ///     `nil` (a reload) plans from now.
    public func apply(settings: EngineSettings, plugins setups: [PluginSetup], startedAt: Date? = nil) async {
        // Plugins turned on or off, settings changed: clients read again once this is done.
        defer { changes.publish() }
        planningFrom = startedAt
        defer { planningFrom = nil }
        self.settings = settings
        lastSetups = setups
        celebrationStyles = Dictionary(
            setups.compactMap { setup in setup.celebrationStyle.map { (setup.plugin.name, $0) } },
            uniquingKeysWith: { _, last in last })
        // A plugin in another language that is gone or turned off is stopped; one that stays keeps running.
        let staying = Set(
            setups.filter { $0.enabled && $0.heldReason == nil }.compactMap {
                ($0.plugin as? ExternalPlugin)?.supervisor
            }.map(
                ObjectIdentifier.init))
        for case let external as ExternalPlugin in plugins.values
        where !staying.contains(ObjectIdentifier(external.supervisor)) {
            await external.supervisor.deactivate()
        }
        plugins = [:]
        plannedAsStored = []
        startFailures = [:]
        for setup in setups where setup.enabled {
            let name = setup.plugin.name
            if let reason = setup.heldReason {
                logger.warning("plugin \(name) is not started: \(reason)")
                continue
            }
            if let external = setup.plugin as? ExternalPlugin {
                // Its reminders wait until its program answers `initialize` (see `isHeld`).
                await external.supervisor.whenRunningChanges { [weak self] in await self?.pluginRunningChanged() }
            }
            let context = makeContext(for: name)
            do {
                try await withTimeLimit(settings.activationTimeLimit) { [setup] in
                    try await setup.plugin.activate(context: context, erasedConfiguration: setup.configuration)
                }
                plugins[name] = setup.plugin
            } catch {
                logger.error("plugin \(name) failed to start and is left out: \(error)")
                startFailures[name] = "\(error)"
            }
        }
        await reloadRulesAfterActivation()
    }

    /// Sets the AI praise provider plugins get as ``PluginContext/ai`` from now on.
    public func setPraiseProvider(_ provider: any PraiseProvider) {
        praise = provider
    }

    /// The names of the active plugins, sorted.
    public var activePlugins: [String] { plugins.keys.sorted() }

    /// The storage namespace where recent celebration phrases are remembered, shared by every plugin
    /// so that two plugins do not repeat each other either. A dot can never be in a plugin's name, so
    /// it never collides with one, and plugins' own storage stays free of keys they did not write.
    public static let celebrationMemoryNamespace = "hooray.celebrations"

    /// The celebration style of a plugin: its own, or else the engine's.
    func celebrationStyle(of plugin: String) -> CelebrationStyle {
        celebrationStyles[plugin] ?? settings.celebrationStyle
    }

    /// A plugin's context; `timeZone` overrides the engine's for a command given in another zone.
    func makeContext(for plugin: String, timeZone zone: TimeZone? = nil) -> PluginContext {
        let notices = EngineNoticeBoard(engine: self, plugin: plugin)
        let setup = lastSetups.first { $0.plugin.name == plugin }
        let storage = DatabasePluginStore(database: database, plugin: plugin) { [setup] key in
            setup?.plugin.isDeviceCache(valueKey: key) ?? false
        }
        return PluginContext(
            pluginName: plugin,
            reminders: EngineReminderBook(engine: self, plugin: plugin),
            notices: notices,
            storage: storage,
            records: storage,
            clock: clock,
            timeZone: zone ?? timeZone,
            logger: makeLogger(plugin),
            ai: praise,
            background: EngineBackgroundWork(tracker: background, plugin: plugin, logger: logger),
            celebrations: StandardCelebrationCenter(
                style: celebrationStyle(of: plugin), notices: notices,
                memory: DatabasePluginStore(database: database, plugin: Self.celebrationMemoryNamespace),
                phrases: celebrationPhrases),
            configuration: setup?.configuration,
            configurationFile: settings.userConfigurationFile, configurationSource: setup?.source)
    }

    // MARK: Commands

    /// Runs a command the user gave a plugin from the command line.
    ///
    /// - Parameters:
    ///   - command: The command, parsed.
    ///   - plugin: The plugin's name.
    /// - Returns: The plugin's reply.
    /// - Throws: ``PluginCommandError`` when the plugin is not active or refuses the command; the
    ///   plugin's own errors otherwise.
    public func run(_ command: CommandInvocation, plugin name: String) async throws -> CommandReply {
        guard let plugin = plugins[name], let setup = lastSetups.first(where: { $0.plugin.name == name }) else {
            if let reason = lastSetups.first(where: { $0.plugin.name == name && $0.enabled })?.heldReason {
                throw PluginCommandError("the \(name) plugin is not running: it is \(reason)")
            }
            // Enabled, but its start failed: why, which names the fix (a database that cannot be written).
            if let failure = startFailures[name] {
                throw PluginCommandError("the \(name) plugin could not start: \(failure)")
            }
            throw PluginCommandError(
                "the \(name) plugin is not enabled; enable it with `[plugins.\(name)] enabled = true` in "
                    + (settings.userConfigurationFile ?? "your hooray.toml"))
        }
        // The command's days and times are the user's, whose zone may differ from the daemon's.
        let context = makeContext(for: name, timeZone: command.environment.timeZone)
        // Whatever the command did may change what a status bar or a window shows. A command that
        // only reads changes nothing: announced, it would have a window that reads again at each
        // change read forever.
        let writes = plugin.offeredCommands.first { $0.name == command.command }?.writes(command) ?? true
        defer { if writes { changes.publish() } }
        // A plugin in another language has time limits of its own, which name it when they run out.
        return try await withTimeLimit(plugin is ExternalPlugin ? 60 : settings.pluginTimeLimit) {
            try await plugin.run(command, context: context, erasedConfiguration: setup.configuration)
        }
    }

    /// Waits until the plugins' background work, such as AI requests, has finished.
    public func waitForBackgroundWork() async {
        await background.waitUntilIdle()
    }

    // MARK: Rules

    /// The moment a reminder stored or changed now is planned from: when hoorayd's process started,
    /// while its first activation runs (``planningFrom``), so that one that came due while it
    /// started is due now; else `now`.
    func planningStart(now: Date) -> Date {
        planningFrom.map { min($0, now) } ?? now
    }

    func schedule(_ reminder: Reminder, plugin: String) async throws -> ScheduledReminder {
        guard Snooze.reservedPrefix(of: reminder.id) == nil else { throw SnoozeError.reservedID(reminder.id) }
        return try await store(reminder, plugin: plugin)
    }

    /// Stores a rule, the plugin's or a snooze (with the due instant of the occurrence it brings
    /// back), and plans it.
    @discardableResult
    func store(_ reminder: Reminder, snoozedDueAt: Date? = nil, plugin: String) async throws -> ScheduledReminder {
        let now = clock.now
        let from = planningStart(now: now)
        let stored = try await database.upsertRule(
            plugin: plugin, reminder: reminder, snoozedDueAt: snoozedDueAt, now: now
        ) { schedule in
            NextDue.next(after: from, for: schedule)
        }
        state.upsert(RuleKey(plugin: plugin, reminder: reminder.id), nextDue: stored.nextDue)
        loopContinuation.yield(.changed)
        changes.publish()
        return ScheduledReminder(reminder: reminder, nextDue: stored.nextDue)
    }

    func replaceAll(_ reminders: [Reminder], plugin: String) async throws {
        if let reserved = reminders.first(where: { Snooze.reservedPrefix(of: $0.id) != nil }) {
            throw SnoozeError.reservedID(reserved.id)
        }
        let now = clock.now
        let from = planningStart(now: now)
        let stored = try await database.replaceRules(plugin: plugin, with: reminders, now: now) { schedule in
            NextDue.next(after: from, for: schedule)
        }
        // The snoozes of reminders that stay are kept too (`stored` has them).
        state.replaceRules(of: plugin, with: stored.lazy.map { (reminder: $0.reminder.id, nextDue: $0.nextDue) })
        plannedAsStored.insert(plugin)
        loopContinuation.yield(.changed)
        changes.publish()
    }

    func cancel(reminderID: String, plugin: String) async throws {
        for id in [reminderID, Snooze.reminderID(snoozing: reminderID)] {
            try await database.removeRule(plugin: plugin, reminderID: id)
            state.remove(RuleKey(plugin: plugin, reminder: id))
        }
        loopContinuation.yield(.changed)
        changes.publish()
    }

    // MARK: Snoozes

    /// Brings a notice back once at `until`: the engine's snooze, a one-off rule of the plugin
    /// named ``Snooze/reminderID(snoozing:)`` of `key`. Snoozing the same key again moves it.
    ///
    /// The snooze keeps the reminder's payload and the due instant of the occurrence it puts off, so
    /// that when it comes back the plugin and the notice's buttons are told about that occurrence.
    ///
    /// - Parameters:
    ///   - key: The reminder the notice came from, or ``Snooze/noticeKeyPrefix`` and the notice's id
    ///     for one that came from no reminder.
    ///   - plugin: The plugin.
    ///   - until: When the notice comes back.
    ///   - shown: The notice to bring back, and the due instant of the occurrence it showed; when
    ///     `nil`, the reminder's own notice and its latest occurrence.
    /// - Throws: ``SnoozeError/noSuchReminder(_:)`` when `shown` is `nil` and there is no such reminder.
    func snooze(_ key: String, plugin: String, until: Date, shown: (notice: Notice, dueAt: Date?)? = nil)
        async throws
    {
        let rule = try await database.rule(plugin: plugin, reminderID: key)
        guard let notice = shown?.notice ?? rule?.reminder.notice else { throw SnoozeError.noSuchReminder(key) }
        let dueAt =
            if let shown { shown.dueAt } else { try await database.latestOccurrence(plugin: plugin, reminderID: key) }
        try await store(
            Reminder(
                id: Snooze.reminderID(snoozing: key), schedule: .once(at: until), notice: notice,
                payload: rule?.reminder.payload ?? notice.payload),
            snoozedDueAt: dueAt, plugin: plugin)
        logger.info("\(plugin)/\(key) snoozed until \(until)")
    }

    /// What a press of a snooze button on a stored notice snoozes: the reminder it came from
    /// (also through an earlier snooze of it), or the notice itself.
    func snoozeKey(of stored: StoredNotice) async throws -> String {
        let own = Snooze.noticeKeyPrefix + "\(stored.id)"
        guard let reminderID = stored.reminderID else { return own }
        let key = Snooze.snoozedID(of: reminderID) ?? reminderID
        if key.hasPrefix(Snooze.noticeKeyPrefix) { return key }
        return try await database.rule(plugin: stored.plugin, reminderID: key) != nil ? key : own
    }

    /// Re-reads every rule of the active plugins from the database, e.g. after the CLI changed some.
    public func reloadRules() async {
        do {
            let rules = try await database.ruleTimes()
            // Which plugins are planned is decided after the read: a plugin may have started or
            // stopped meanwhile (another reload may have run), and this reload's state is the last.
            let planned = Set(plugins.keys.filter { !isHeld($0) })
            let times = rules.compactMap { rule in
                planned.contains(rule.plugin)
                    ? (key: RuleKey(plugin: rule.plugin, reminder: rule.reminderID), nextDue: rule.nextDue) : nil
            }
            state = SchedulerState(times)
            plannedAsStored = []
        } catch {
            logger.error("cannot read reminders: \(error)")
        }
        loopContinuation.yield(.changed)
        deliveryContinuation.yield()
    }

    /// The earliest due instant of any active rule.
    public var nextDue: Date? { state.earliestDue }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    package var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension HoorayPlugin {
    /// Activates the plugin with a configuration whose type was erased on its way through the host.
    func activate(context: PluginContext, erasedConfiguration: any Sendable) async throws {
        try await activate(context: context, configuration: typedConfiguration(erasedConfiguration))
    }
}

struct EngineReminderBook: ReminderBook {
    let engine: Engine
    let plugin: String

    func schedule(_ reminder: Reminder) async throws -> ScheduledReminder {
        try await engine.schedule(reminder, plugin: plugin)
    }

    func cancel(id: String) async throws {
        try await engine.cancel(reminderID: id, plugin: plugin)
    }

    func replaceAll(with reminders: [Reminder]) async throws {
        try await engine.replaceAll(reminders, plugin: plugin)
    }

    func replaceAll(declaring reminders: [DeclaredReminder]) async throws {
        try await engine.replaceAll(declaring: reminders, plugin: plugin)
    }

    func replaceAll(declaring reminders: [DeclaredReminder], key: String?) async throws {
        try await engine.replaceAll(declaring: reminders, plugin: plugin, key: key)
    }

    func keepDeclared(key: String) async throws -> Int? {
        try await engine.keepDeclared(plugin: plugin, key: key)
    }

    func list() async throws -> [ScheduledReminder] {
        // Snoozes are the engine's.
        try await engine.database.rules(plugin: plugin).filter { Snooze.snoozedID(of: $0.reminder.id) == nil }.map {
            ScheduledReminder(reminder: $0.reminder, nextDue: $0.nextDue)
        }
    }

    func snooze(_ id: String, until: Date) async throws {
        try await engine.snooze(id, plugin: plugin, until: until)
    }

    func waitingNotice(of id: String) async throws -> WaitingNotice? {
        let snooze = Snooze.reminderID(snoozing: id)
        if let until = try await engine.database.rule(plugin: plugin, reminderID: snooze)?.nextDue {
            return .snoozed(until: until)
        }
        let waiting = try await engine.database.pendingNotices().last {
            $0.plugin == plugin && ($0.reminderID == id || $0.reminderID == snooze)
        }
        guard let waiting else { return nil }
        if let reason = waiting.heldBecause { return .held(reason: reason, until: waiting.heldUntil) }
        return .queued
    }
}

struct EngineNoticeBoard: NoticeBoard {
    let engine: Engine
    let plugin: String

    func post(_ notice: Notice) async throws -> NoticeID {
        try await engine.post(notice, plugin: plugin)
    }

    func post(_ notice: Notice, storing values: [String: Data], inserting records: [StoredRecord]) async throws
        -> NoticeID
    {
        try await engine.post(notice, plugin: plugin, storing: values, inserting: records)
    }

    func update(_ id: NoticeID, to notice: Notice) async throws {
        try await engine.update(id, to: notice, plugin: plugin)
    }
}

extension Engine {
    /// The notice board a plugin's context gets, for tests and for plugins hosted outside `activate`.
    public func noticeBoard(for plugin: String) -> any NoticeBoard {
        EngineNoticeBoard(engine: self, plugin: plugin)
    }
}
