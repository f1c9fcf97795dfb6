import Foundation
import HoorayCelebrations
import HoorayDelivery
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
    public var quietHours: QuietHours
    /// How many notices due within a minute are shown one by one (`[delivery] burst_limit`).
    public var burstLimit: Int
    /// How long delivery records are kept (`[storage] keep_delivered`).
    public var keepDelivered: Duration
    /// The user's configuration file, which plugins name when they say how to change a setting
    /// (``PluginContext/configurationFile``); `nil` when unknown.
    public var userConfigurationFile: String?

    /// Creates settings.
    public init(
        catchUpWithin: Duration = .seconds(7200), retryEvery: Duration = .seconds(30), pluginTimeLimit: Double = 10,
        activationTimeLimit: Double = 60, celebrationStyle: CelebrationStyle = .calm, quietHours: QuietHours = .none,
        burstLimit: Int = 3, keepDelivered: Duration = .seconds(90 * 86400), userConfigurationFile: String? = nil
    ) {
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

    /// Creates a setup.
    ///
    /// - Parameters:
    ///   - plugin: The plugin.
    ///   - enabled: Whether it is enabled.
    ///   - configuration: Its decoded `Configuration`.
    ///   - celebrationStyle: Its own celebration style, if it has one.
    public init(
        plugin: any HoorayPlugin, enabled: Bool, configuration: any Sendable,
        celebrationStyle: CelebrationStyle? = nil
    ) {
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
    let database: HoorayDatabase
    let sink: any NotificationSink
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
    var server: ServerStatus = Engine.serverNotChecked
    /// The server as known before anyone asked: a first hand-over needs no question before it.
    static let serverNotChecked = ServerStatus.unavailable(reason: "not checked yet")
    var retryTask: Task<Void, Never>?
    let loopEvents: AsyncStream<LoopEvent>
    let loopContinuation: AsyncStream<LoopEvent>.Continuation
    let deliveryEvents: AsyncStream<Void>
    let deliveryContinuation: AsyncStream<Void>.Continuation
    let background = BackgroundTracker()
    /// The notification server's do-not-disturb state, as last heard or asked.
    public internal(set) var doNotDisturbState = DoNotDisturb.off
    /// Whether a pass of the scheduler is firing reminders; delivery waits for its end.
    var firing = false
    /// When notices held for quiet hours go out.
    var deliveryWake: Date?
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
    ///   - sink: Where notices go.
    ///   - settings: Engine settings.
    ///   - clock: The clock; the system clock in the daemon.
    ///   - timeZone: The user's local time zone.
    ///   - systemTimeZone: Where to re-read the time zone when it may have changed; `nil` keeps `timeZone`.
    ///   - makeLogger: Makes a logger for a label (the engine's own, and each plugin's).
    ///   - celebrationPhrases: The phrases of plugins' celebrations, by pool (`calm.small`, ...);
    ///     the compiled-in `Config/pools/celebrations.txt` by default.
    public init(
        database: HoorayDatabase, sink: any NotificationSink, settings: EngineSettings,
        clock: any HoorayClock = SystemClock(), timeZone: TimeZone = .current, systemTimeZone: SystemTimeZone? = nil,
        makeLogger: @escaping @Sendable (String) -> Logger = { Logger(label: $0) },
        celebrationPhrases: [String: [String]] = MessagePools.celebrations
    ) {
        self.celebrationPhrases = CelebrationPhrases(pools: celebrationPhrases)
        self.database = database
        self.sink = sink
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
    public func apply(settings: EngineSettings, plugins setups: [PluginSetup]) async {
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
        for setup in setups where setup.enabled {
            let name = setup.plugin.name
            if let reason = setup.heldReason {
                logger.warning("plugin \(name) is not started: \(reason)")
                continue
            }
            if let external = setup.plugin as? ExternalPlugin {
                // Its reminders wait until its program answers `initialize` (see `isHeld`).
                await external.supervisor.attach(engine: self)
            }
            let context = makeContext(for: name)
            do {
                try await withTimeLimit(settings.activationTimeLimit) { [setup] in
                    try await setup.plugin.activate(context: context, erasedConfiguration: setup.configuration)
                }
                plugins[name] = setup.plugin
            } catch {
                logger.error("plugin \(name) failed to start and is left out: \(error)")
            }
        }
        await reloadRules()
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
        let storage = DatabasePluginStore(database: database, plugin: plugin)
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
            configuration: lastSetups.first { $0.plugin.name == plugin }?.configuration,
            configurationFile: settings.userConfigurationFile)
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
            throw PluginCommandError(
                "the \(name) plugin is not enabled; enable it with `[plugins.\(name)] enabled = true` in "
                    + (settings.userConfigurationFile ?? "your hooray.toml"))
        }
        // The command's days and times are the user's, whose zone may differ from the daemon's.
        let context = makeContext(for: name, timeZone: command.environment.timeZone)
        // Whatever the command did may change what a status bar shows.
        defer { changes.publish() }
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

    func schedule(_ reminder: Reminder, plugin: String) async throws -> ScheduledReminder {
        guard Snooze.reservedPrefix(of: reminder.id) == nil else { throw SnoozeError.reservedID(reminder.id) }
        return try await store(reminder, plugin: plugin)
    }

    /// Stores a rule, the plugin's or a snooze (with the due instant of the occurrence it brings
    /// back), and plans it.
    @discardableResult
    func store(_ reminder: Reminder, snoozedDueAt: Date? = nil, plugin: String) async throws -> ScheduledReminder {
        let now = clock.now
        let stored = try await database.upsertRule(
            plugin: plugin, reminder: reminder, snoozedDueAt: snoozedDueAt, now: now
        ) { schedule in
            NextDue.next(after: now, for: schedule)
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
        let stored = try await database.replaceRules(plugin: plugin, with: reminders, now: now) { schedule in
            NextDue.next(after: now, for: schedule)
        }
        // The snoozes of reminders that stay are kept too.
        let kept = Set(stored.map(\.reminder.id))
        for key in state.keys(plugin: plugin) where !kept.contains(key.reminder) {
            state.remove(key)
        }
        for rule in stored {
            state.upsert(RuleKey(plugin: plugin, reminder: rule.reminder.id), nextDue: rule.nextDue)
        }
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
            var fresh = SchedulerState()
            for rule in try await database.ruleTimes() where plugins[rule.plugin] != nil && !isHeld(rule.plugin) {
                fresh.upsert(RuleKey(plugin: rule.plugin, reminder: rule.reminderID), nextDue: rule.nextDue)
            }
            state = fresh
        } catch {
            logger.error("cannot read reminders: \(error)")
        }
        loopContinuation.yield(.changed)
        deliveryContinuation.yield()
    }

    /// The earliest due instant of any active rule.
    public var nextDue: Date? { state.earliestDue }

    // MARK: Running

    /// Runs the scheduler and delivery loops until the task is cancelled.
    public func run(alarm: WallClockAlarm) async {
        sink.start { [weak self] event in
            guard let self else { return }
            Task { await self.handle(event) }
        }
        let forward = Task { [loopContinuation] in
            for await event in alarm.stream { loopContinuation.yield(.alarm(event)) }
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.schedulerLoop(alarm: alarm) }
            group.addTask { await self.deliveryLoop() }
            await group.waitForAll()
        }
        forward.cancel()
        retryTask?.cancel()
        background.cancelAll()
    }

    /// Asks the loops to finish; `run` returns soon after.
    public func stop() {
        loopContinuation.finish()
        deliveryContinuation.finish()
    }

    func schedulerLoop(alarm: WallClockAlarm) async {
        var events = loopEvents.makeAsyncIterator()
        var caughtUp = false
        while !Task.isCancelled {
            let action = await processDue()
            // Besides the next reminder: the end of quiet hours, when held notices go out, and the
            // daily pruning of delivery records.
            let calmDeadlines = [deliveryWake, nextPruning].compactMap { $0 }
            switch action {
            case .sleep(let until):
                alarm.set(deadline: ([until] + calmDeadlines).min())
            case .idle, .fire:
                alarm.set(deadline: calmDeadlines.min())
            }
            if !caughtUp {
                // What came due while hoorayd was stopped has now been shown, skipped or queued.
                logCaughtUp(action)
                caughtUp = true
            }
            guard let event = await events.next() else { return }
            switch event {
            case .alarm(.clockChanged):
                logger.notice("the wall clock was set; checking what is due")
            case .alarm(.timeZoneChanged):
                await timeZoneMayHaveChanged()
            case .alarm(.deadline), .changed:
                break
            }
        }
    }

    /// Says, once at the start, that everything due while hoorayd was not running has been handled,
    /// and what is due next: from here on, a reminder is shown only when it comes due.
    func logCaughtUp(_ action: SchedulerAction) {
        guard case .sleep(let until) = action else {
            logger.info("caught up; no reminders are planned")
            return
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "EEE d MMM HH:mm"
        logger.info("caught up; \(state.count) reminder(s) planned, the next at \(formatter.string(from: until))")
    }

    /// Handles every rule due at the clock's current time, and says what to wait for next.
    ///
    /// - Returns: `.sleep(until:)` the next due instant, or `.idle` when nothing will be due.
    @discardableResult
    public func processDue() async -> SchedulerAction {
        await housekeeping()
        defer { deliveryContinuation.yield() }
        while true {
            let now = clock.now
            let action = state.nextAction(now: now)
            guard case .fire(let keys) = action else {
                await tellMissed(now: now)
                return action
            }
            // Built-in plugins' reminders first, delivered together once all of them are queued (so
            // that a burst becomes one digest): a plugin in another language with many reminders due
            // at once never holds them up. Its notices come later anyway, when it posts them.
            let external = Set(plugins.filter { $0.value is ExternalPlugin }.keys)
            firing = true
            await fireTogether(keys.filter { !external.contains($0.plugin) }, now: now)
            firing = false
            deliveryContinuation.yield()
            for key in keys where external.contains(key.plugin) {
                await fire(key, now: now)
            }
            // Whatever came due, shown or not, moved its reminder on: a status bar shows the next one.
            changes.publish()
        }
    }

    /// Fires reminders due together with three database round trips in all (their rules read at
    /// once, their occurrences looked up at once, recorded in one transaction) rather than four each,
    /// so that a burst of reminders reaches the screen without waiting on the database. Each comes out
    /// as ``fire(_:now:)`` would make it; a rule in an uncommon state (a one-off past its limit, a
    /// catch-up that shows nothing, a read that failed) goes through ``fire(_:now:)`` itself.
    func fireTogether(_ keys: [RuleKey], now: Date) async {
        guard keys.count > 1 else {
            for key in keys { await fire(key, now: now) }
            return
        }
        let rules: [StoredRule?]
        do {
            rules = try await database.rules(keys.map { ($0.plugin, $0.reminder) })
        } catch {
            logger.error("cannot read the due reminders at once: \(error); reading them one by one")
            for key in keys { await fire(key, now: now) }
            return
        }
        struct Firing {
            var key: RuleKey
            var rule: StoredRule
            var plugin: any HoorayPlugin
            var plan: CatchUpPlan
            var dueAt: Date
        }
        var firings: [Firing] = []
        var oneByOne: [RuleKey] = []
        for (key, rule) in zip(keys, rules) {
            guard let plugin = plugins[key.plugin], !isHeld(key.plugin), let rule, let due = rule.nextDue else {
                state.remove(key)
                continue
            }
            let reminder = rule.reminder
            let plan = catchUpPlan(for: reminder, nextDue: due, now: now)
            guard plan.skipped == 0, let dueAt = plan.fire else {
                oneByOne.append(key)
                continue
            }
            firings.append(Firing(key: key, rule: rule, plugin: plugin, plan: plan, dueAt: dueAt))
        }
        for key in oneByOne { await fire(key, now: now) }
        guard !firings.isEmpty else { return }
        let handled: [Bool]
        do {
            handled = try await database.hasOccurrences(firings.map { ($0.key.plugin, $0.key.reminder, $0.dueAt) })
        } catch {
            logger.error("cannot look up the due reminders at once: \(error); handling them one by one")
            for firing in firings { await fire(firing.key, now: now) }
            return
        }
        var occurrences: [HandledOccurrence] = []
        var recorded: [Firing] = []
        for (firing, isHandled) in zip(firings, handled) {
            guard !isHandled else {
                // Shown before a restart or a clock rewind: only the rule moves on, as fire(_:now:) does.
                await fire(firing.key, now: now)
                continue
            }
            let reminder = firing.rule.reminder
            let notice: Notice?
            do {
                notice = try await noticeCarryingPayload(
                    DueReminder(reminder: reminder, dueAt: firing.dueAt, isCatchUp: firing.plan.isCatchUp),
                    rule: firing.rule, plugin: firing.plugin)
            } catch {
                logger.error(
                    "cannot handle \(firing.key.plugin)/\(firing.key.reminder): \(error); retrying in 1 minute")
                state.upsert(firing.key, nextDue: now.addingTimeInterval(60))
                continue
            }
            occurrences.append(
                HandledOccurrence(
                    plugin: firing.key.plugin, reminderID: firing.key.reminder, dueAt: firing.dueAt,
                    snoozedDueAt: firing.rule.snoozedDueAt, notice: notice,
                    outcome: notice == nil ? .suppressed : .shown,
                    nextDue: firing.plan.nextDue))
            recorded.append(firing)
        }
        guard !occurrences.isEmpty else { return }
        do {
            let ids = try await database.recordOccurrences(occurrences, now: now)
            for (firing, id) in zip(recorded, ids) {
                if let id { logger.info("\(firing.key.plugin)/\(firing.key.reminder) is due; queued notice \(id)") }
                state.upsert(firing.key, nextDue: firing.plan.nextDue)
            }
            changes.publish()
        } catch {
            // Nothing of the pass was written: each is tried again in a minute, as one alone would be.
            logger.error("cannot record \(occurrences.count) due reminder(s): \(error); retrying in 1 minute")
            for firing in recorded { state.upsert(firing.key, nextDue: now.addingTimeInterval(60)) }
        }
    }

    func fire(_ key: RuleKey, now: Date) async {
        do {
            guard let plugin = plugins[key.plugin], !isHeld(key.plugin),
                let rule = try await database.rule(plugin: key.plugin, reminderID: key.reminder),
                let due = rule.nextDue
            else {
                state.remove(key)
                return
            }
            let reminder = rule.reminder
            let plan = catchUpPlan(for: reminder, nextDue: due, now: now)
            if plan.skipped > 0 {
                logger.notice(
                    "\(key.plugin)/\(key.reminder): skipped \(plan.skipped) missed occurrence(s), too late to show")
                // A one-off is noted below, when it is not shown at all. A plugin in another language
                // is told of its own reminders' skips, and its program may have been stopped rather
                // than the computer: those are not "while you were away".
                let isOneOff: Bool = if case .once = reminder.schedule { true } else { false }
                if reminder.notShownReason(at: due) == nil, !(plugin is ExternalPlugin), !isOneOff {
                    missedThisPass.append(
                        MissedReminder(
                            plugin: key.plugin, reminderID: key.reminder, title: reminder.notice.title,
                            count: plan.skipped, firstDueAt: due, lastDueAt: plan.lastSkipped ?? due, recordedAt: now))
                }
            }
            if let dueAt = plan.fire,
                try await !database.hasOccurrence(plugin: key.plugin, reminderID: key.reminder, dueAt: dueAt)
            {
                let notice = try await noticeCarryingPayload(
                    DueReminder(reminder: reminder, dueAt: dueAt, isCatchUp: plan.isCatchUp), rule: rule,
                    plugin: plugin)
                let id = try await database.recordOccurrence(
                    plugin: key.plugin, reminderID: key.reminder, dueAt: dueAt, snoozedDueAt: rule.snoozedDueAt,
                    notice: notice, outcome: notice == nil ? .suppressed : .shown, nextDue: plan.nextDue, now: now)
                if let id {
                    // Delivery is told once the whole pass is done, so that notices due together can
                    // be gathered into one digest.
                    logger.info("\(key.plugin)/\(key.reminder) is due; queued notice \(id)")
                    changes.publish()
                }
            } else if plan.fire == nil, case .once = reminder.schedule,
                try await !database.hasOccurrence(plugin: key.plugin, reminderID: key.reminder, dueAt: due)
            {
                // A one-off later than its own limit would vanish without a word; its plugin is told,
                // then the skip is recorded so that a restart does not tell it again.
                await tellSkipped(SkippedReminder(reminder: reminder, dueAt: due), plugin: plugin)
                if reminder.notShownReason(at: due) == nil, !(plugin is ExternalPlugin) {
                    missedThisPass.append(
                        MissedReminder(
                            plugin: key.plugin, reminderID: key.reminder, title: reminder.notice.title, count: 1,
                            firstDueAt: due, lastDueAt: due, recordedAt: now))
                }
                _ = try await database.recordOccurrence(
                    plugin: key.plugin, reminderID: key.reminder, dueAt: due, notice: nil, outcome: .skipped,
                    nextDue: plan.nextDue, now: now)
            } else {
                try await database.setNextDue(plugin: key.plugin, reminderID: key.reminder, nextDue: plan.nextDue)
            }
            state.upsert(key, nextDue: plan.nextDue)
        } catch {
            // Keep the loop alive; try again in a minute rather than spinning on a persistent error.
            logger.error("cannot handle \(key.plugin)/\(key.reminder): \(error); retrying in 1 minute")
            state.upsert(key, nextDue: now.addingTimeInterval(60))
        }
    }

    /// What to do with a rule due at `nextDue`, by the catch-up rule of its reminder.
    func catchUpPlan(for reminder: Reminder, nextDue: Date, now: Date) -> CatchUpPlan {
        CatchUpPlan.plan(
            nextDue: nextDue, schedule: reminder.schedule, now: now,
            catchUpWithin: CatchUpPlan.catchUpLimit(for: reminder, default: settings.catchUpWithin))
    }

    /// The notice for a due rule, carrying the reminder's payload when the plugin gave none, so that
    /// a button pressed on it can tell which of the plugin's things it is about.
    func noticeCarryingPayload(_ due: DueReminder, rule: StoredRule, plugin: any HoorayPlugin) async throws -> Notice? {
        try await noticeForDue(due, rule: rule, plugin: plugin).map { shown in
            var notice = shown
            if notice.payload == nil { notice.payload = due.reminder.payload }
            return notice
        }
    }

    func tellSkipped(_ skipped: SkippedReminder, plugin: any HoorayPlugin) async {
        let context = makeContext(for: plugin.name)
        do {
            try await withTimeLimit(settings.pluginTimeLimit) {
                try await plugin.reminderSkipped(skipped, context: context)
            }
        } catch {
            logger.error("plugin \(plugin.name) failed on skipped \(skipped.reminder.id): \(error)")
        }
    }

    /// The notice for a due rule: the plugin's answer, or for a snooze, the snoozed notice — which
    /// the plugin is asked about again when it came from one of its reminders, as the occurrence
    /// that was snoozed.
    func noticeForDue(_ due: DueReminder, rule: StoredRule, plugin: any HoorayPlugin) async throws -> Notice? {
        guard let snoozed = Snooze.snoozedID(of: rule.reminder.id) else {
            return await noticeForDue(due, plugin: plugin)
        }
        guard try await database.rule(plugin: rule.plugin, reminderID: snoozed) != nil else {
            return due.reminder.notice
        }
        var original = due
        original.reminder.id = snoozed
        // A snooze from before snoozes kept their occurrence knows only its own end.
        original.dueAt = rule.snoozedDueAt ?? due.dueAt
        original.snoozedUntil = due.dueAt
        return await noticeForDue(original, plugin: plugin)
    }

    func noticeForDue(_ due: DueReminder, plugin: any HoorayPlugin) async -> Notice? {
        let context = makeContext(for: plugin.name)
        do {
            return try await withTimeLimit(settings.pluginTimeLimit) {
                try await plugin.reminderDue(due, context: context)
            }
        } catch {
            logger.error("plugin \(plugin.name) failed on \(due.reminder.id): \(error); showing the reminder as it is")
            return due.reminder.notice
        }
    }

    /// Re-plans reminders that follow the system's time zone when it changed.
    ///
    /// Plugins are activated again with the new zone in their context, so a reminder "at 08:30"
    /// without a zone of its own moves to 08:30 in the new zone.
    public func timeZoneMayHaveChanged() async {
        guard let systemTimeZone, !systemTimeZone.isPinnedByEnvironment else { return }
        let zone = systemTimeZone.current()
        guard zone.identifier != timeZone.identifier else { return }
        logger.notice("the time zone changed from \(timeZone.identifier) to \(zone.identifier); re-planning reminders")
        timeZone = zone
        await apply(settings: settings, plugins: lastSetups)
    }

    // MARK: Notices

    func post(
        _ notice: Notice, plugin: String, storing values: [String: Data] = [:], inserting records: [StoredRecord] = []
    ) async throws -> NoticeID {
        let id = try await database.insertNotice(
            notice, plugin: plugin, now: clock.now, storing: values, inserting: records)
        deliveryContinuation.yield()
        changes.publish()
        return id
    }

    func update(_ id: NoticeID, to notice: Notice, plugin: String) async throws {
        try await database.updateNotice(id, plugin: plugin, to: notice)
        deliveryContinuation.yield()
    }

    func deliveryLoop() async {
        do {
            let interrupted = try await database.settleInterruptedDeliveries()
            if interrupted > 0 {
                logger.warning("\(interrupted) notice(s) were being shown when hoorayd stopped; see `hooray inbox`")
            }
        } catch {
            logger.error("cannot read the notice queue: \(error)")
        }
        await refreshServerStatus()
        for await _ in deliveryEvents {
            await deliverPending()
        }
    }

    /// Hands every pending notice to the sink, stopping at the first that cannot be delivered.
    ///
    /// A notice updated while it was being handed over is handed over again, so the update
    /// replaces it on screen before this returns.
    ///
    /// - Parameter plugin: Deliver only this plugin's notices; all by default.
    public func deliverPending(plugin: String? = nil) async {
        var again = true
        while again {
            again = await deliverPendingOnce(plugin: plugin)
        }
    }

    /// One pass over the queue.
    ///
    /// - Returns: Whether a notice went back to the queue because it was updated while being sent.
    func deliverPendingOnce(plugin: String?) async -> Bool {
        let pending: [StoredNotice]
        do {
            pending = try await database.pendingNotices().filter { plugin == nil || $0.plugin == plugin }
        } catch {
            logger.error("cannot read the notice queue: \(error)")
            scheduleRetry()
            return false
        }
        // A pass of the scheduler is firing reminders: it asks for delivery once it is done.
        if firing { return false }
        if server.info == nil, server != Self.serverNotChecked, !pending.isEmpty,
            await !serverIsBack(waiting: pending)
        {
            scheduleRetry()
            return false
        }
        let ready: [StoredNotice]
        do {
            // A command run while hoorayd is stopped shows only its own plugin's notices: it gathers
            // nothing into a digest it would not show.
            guard let calm = try await calmDelivery(pending, gathering: plugin == nil) else { return true }
            ready = calm
        } catch {
            logger.error("cannot hold or gather notices: \(error)")
            ready = pending
        }
        var updatedWhileSending = false
        for item in ready {
            do {
                guard let current = try await database.markSending(item.id) else { continue }
                let outcome = await sink.show(current.notice, id: current.id, replacing: current.serverID)
                switch outcome {
                case .delivered(let serverID):
                    let done = try await database.markDelivered(
                        item.id, serverID: serverID, now: clock.now, revision: current.revision)
                    if !done { updatedWhileSending = true }
                    if server.info == nil { await refreshServerStatus() }
                case .unavailable(let reason):
                    try await database.markUndelivered(item.id, reason: reason)
                    if server != .unavailable(reason: reason) {
                        logger.warning("no notification server (\(reason)); notices wait in `hooray inbox`")
                        server = .unavailable(reason: reason)
                    }
                    scheduleRetry()
                    return false
                case .timedOut:
                    let reason = "the notification server did not answer in time"
                    try await database.markUndelivered(item.id, reason: reason)
                    logger.warning("\(reason); notice \(item.id) waits in `hooray inbox`")
                    server = .timedOut
                    scheduleRetry()
                    return false
                }
            } catch {
                logger.error("cannot deliver notice \(item.id): \(error)")
                scheduleRetry()
                return false
            }
        }
        return updatedWhileSending
    }

    /// While no notification server was reachable: asks the bus whether one is there now, before
    /// any notice is handed over.
    ///
    /// Handing each waiting notice over only to hear "no server" again would write its attempt
    /// and reason to the database on every retry; asking first writes nothing while nothing changes.
    /// Notices that do not carry the current reason yet get it, so `hooray inbox` says why they wait.
    ///
    /// - Returns: Whether a server answered, so that the notices are handed over now.
    func serverIsBack(waiting pending: [StoredNotice]) async -> Bool {
        await refreshServerStatus()
        let reason: String
        switch server {
        case .available: return true
        case .unavailable(let why): reason = why
        case .timedOut: reason = "the notification server did not answer in time"
        }
        let unexplained = pending.filter { $0.lastError != reason }.map(\.id)
        if !unexplained.isEmpty {
            do {
                try await database.noteWaiting(unexplained, reason: reason)
            } catch {
                logger.error("cannot note why notices wait: \(error)")
            }
        }
        logger.debug("still no notification server (\(reason)); \(pending.count) notice(s) wait in `hooray inbox`")
        return false
    }

    /// Tries undelivered notices again after `retryEvery`; a timer runs only while something waits.
    func scheduleRetry() {
        retryTask?.cancel()
        let delay = settings.retryEvery
        retryTask = Task { [deliveryContinuation] in
            try? await TaskTimer.sleep(for: delay)
            if !Task.isCancelled { deliveryContinuation.yield() }
        }
    }

    func refreshServerStatus() async {
        server = await sink.serverStatus()
    }

    func handle(_ event: SinkEvent) async {
        switch event {
        case .serverAppeared:
            logger.info("a notification server appeared; delivering waiting notices")
            await refreshServerStatus()
            deliveryContinuation.yield()
        case .action(let id, let action):
            _ = await press(action: action, on: id)
        case .doNotDisturbChanged(let state):
            guard state != doNotDisturbState else { return }
            logger.info("do not disturb: \(state)")
            doNotDisturbState = state
            deliveryContinuation.yield()
            changes.publish()
        }
    }

    /// Presses a notice's button: hands the action to the plugin that posted the notice.
    ///
    /// - Parameters:
    ///   - action: The button's id.
    ///   - id: The notice.
    ///   - answer: The user's answer to the button's question, if any.
    /// - Returns: A message for the user when the press did nothing; `nil` when it did something.
    public func invoke(action: String, on id: NoticeID, answer: String? = nil) async -> String? {
        let outcome = await press(action: action, on: id, answer: answer)
        return outcome.didSomething ? nil : outcome.message
    }

    /// Presses a notice's button: the engine's snooze, or the plugin that posted the notice handles it.
    ///
    /// - Parameters:
    ///   - action: The button's id; `default` is the click on the notification itself.
    ///   - id: The notice.
    ///   - declaredOnly: Whether only the notice's own buttons may be pressed, as for `hooray act`;
    ///     otherwise a click on the notification (`default`) is handed to the plugin too.
    ///   - answer: The user's answer to the button's question (``NoticeAction/prompt``), handed to
    ///     the plugin; a button without a question refuses one and is not pressed.
    /// - Returns: What the press did, or why it did nothing.
    public func press(action: String, on id: NoticeID, declaredOnly: Bool = false, answer: String? = nil) async
        -> ActionOutcome
    {
        do {
            guard let stored = try await database.notice(id) else {
                return .refused("there is no notice \(id); `hooray inbox --all` lists the notices and their buttons")
            }
            guard (action == "default" && !declaredOnly) || stored.notice.actions.contains(where: { $0.id == action })
            else {
                let known = stored.notice.actions.map(\.id).joined(separator: ", ")
                return .refused(
                    "notice \(id) has no action \"\(action)\""
                        + (known.isEmpty ? "; it has no buttons" : "; its actions: \(known)"))
            }
            let button = stored.notice.actions.first { $0.id == action }
            if answer != nil, button?.prompt == nil {
                return .answerRefused(
                    "“\(button?.label ?? action)” asks no question, so it takes no answer; press it without --answer: "
                        + "hooray act \(id) \(action)")
            }
            if let answer, let problem = ButtonAnswer.problem(answer) {
                return .answerRefused("nothing was pressed: " + problem)
            }
            if stored.plugin == Self.hostPlugin {
                return .refused(
                    "notice \(id) is Hooray's own summary; the buttons of the notices it lists are in `hooray inbox`")
            }
            guard let plugin = plugins[stored.plugin] else {
                return .refused(
                    "the \(stored.plugin) plugin that posted notice \(id) is not enabled, so its buttons do nothing")
            }
            if let delay = Snooze.delay(ofAction: action) {
                // The engine's own button: the plugin writes no code for it.
                let key = try await snoozeKey(of: stored)
                if let pending = try await database.rule(
                    plugin: stored.plugin, reminderID: Snooze.reminderID(snoozing: key)),
                    let until = pending.nextDue, until > clock.now, pending.snoozedDueAt == stored.dueAt
                {
                    return .alreadySnoozed(until: until)
                }
                let until = clock.now.addingTimeInterval(delay.timeInterval)
                try await snooze(key, plugin: stored.plugin, until: until, shown: (stored.notice, dueAt: stored.dueAt))
                if stored.state == .digested { try await database.settleDigested(id) }
                return .snoozed(until: until)
            }
            let context = makeContext(for: stored.plugin)
            // A snoozed notice's buttons belong to the reminder it came from, and to the occurrence
            // that was snoozed: the notice keeps that occurrence's due instant.
            let reminderID = stored.reminderID.map { Snooze.snoozedID(of: $0) ?? $0 }
                .flatMap { $0.hasPrefix(Snooze.noticeKeyPrefix) ? nil : $0 }
            let invoked = InvokedAction(
                notice: id, actionID: action, reminderID: reminderID, dueAt: reminderID == nil ? nil : stored.dueAt,
                payload: stored.notice.payload, answer: answer)
            try await withTimeLimit(plugin is ExternalPlugin ? 60 : settings.pluginTimeLimit) {
                try await plugin.actionInvoked(invoked, context: context)
            }
            logger.info("\(stored.plugin): action \(action) on notice \(id)")
            if stored.state == .digested { try await database.settleDigested(id) }
            changes.publish()
            return .handled(button: button?.label ?? action, plugin: stored.plugin)
        } catch let declined as ActionDeclined {
            logger.info("action \(action) on notice \(id) did nothing: \(declined.reason)")
            return .declined(declined.reason)
        } catch {
            logger.error("action \(action) on notice \(id) failed: \(error)")
            return .failed("the button could not be handled: \(error)")
        }
    }

    /// The notification server as last seen.
    public var serverStatus: ServerStatus { server }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension HoorayPlugin {
    /// Activates the plugin with a configuration whose type was erased on its way through the host.
    func activate(context: PluginContext, erasedConfiguration: any Sendable) async throws {
        guard let typed = erasedConfiguration as? Configuration else {
            throw ConfigurationMismatch(plugin: name)
        }
        try await activate(context: context, configuration: typed)
    }

    /// Runs a command with a configuration whose type was erased on its way through the host.
    func run(_ command: CommandInvocation, context: PluginContext, erasedConfiguration: any Sendable) async throws
        -> CommandReply
    {
        guard let typed = erasedConfiguration as? Configuration else {
            throw ConfigurationMismatch(plugin: name)
        }
        return try await run(command, context: context, configuration: typed)
    }
}

/// A plugin's decoded configuration was not of its own `Configuration` type (a host bug).
struct ConfigurationMismatch: Error, CustomStringConvertible {
    let plugin: String
    var description: String { "internal error: the configuration handed to \(plugin) has the wrong type" }
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

extension Engine {
    /// Whether a plugin's reminders are kept but do not come due: a plugin in another language
    /// whose program is not running (starting, restarting or given up).
    func isHeld(_ plugin: String) -> Bool {
        guard let external = plugins[plugin] as? ExternalPlugin else { return false }
        return !external.supervisor.running.value
    }

    /// A plugin's program started or stopped: its reminders come due again (those due meanwhile as
    /// after a restart), or wait.
    func pluginRunningChanged() async {
        await reloadRules()
    }

    /// The plugins in other languages that are running or trying to, by name.
    public var externalPlugins: [String: ExternalPlugin] {
        plugins.compactMapValues { $0 as? ExternalPlugin }
    }

    /// Stops every plugin in another language: `shutdown`, then signals.
    public func stopExternalPlugins() async {
        await withTaskGroup(of: Void.self) { group in
            for external in externalPlugins.values {
                group.addTask { await external.supervisor.deactivate() }
            }
        }
    }
}
