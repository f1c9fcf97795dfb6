import Foundation
import HoorayClient
import HoorayCommandLine
import HoorayCommands
import HoorayDelivery
import HoorayEngine
import HoorayKit
import HoorayKitTesting
import HoorayStorage
import Logging

/// A plugin running on Hooray's real engine — its scheduler, storage and notice queue — with a
/// manual clock and a recording notification server: what a user would see over hours and days,
/// in a test that takes milliseconds.
///
/// Where ``PluginTestHarness`` hands a plugin fakes and leaves the calls to the test, a world plays
/// `hoorayd`: it activates the plugin, fires its reminders at their due instants, catches up after
/// the computer slept, survives restarts on the same database, delivers notices and passes button
/// presses back to the plugin.
///
/// ```swift
/// let world = try await PluginWorld(plugin: WaterPlugin(), configuration: WaterConfiguration(), now: monday)
/// await world.advance(by: .seconds(24 * 3600))
/// let first = try #require(await world.shown.first)
/// try await world.press("drank", on: first)
/// let reply = try await world.run("today")
/// ```
///
/// Time moves only when the test says so:
/// - ``advance(to:)`` keeps the computer awake: every occurrence is handled at its own due instant.
/// - ``suspend(until:)`` puts the computer to sleep: nothing happens meanwhile, and on waking the
///   engine catches up as `hoorayd` does — at most one occurrence per reminder, within its limit.
/// - ``restart(after:configuration:)`` stops the engine, and starts a new one on the same database.
///
/// The database lives in a temporary folder that is removed with the world.
public actor PluginWorld<Plugin: HoorayPlugin> {
    /// The plugin.
    public nonisolated let plugin: Plugin
    /// The clock every engine of this world reads; move it with the world's methods rather than
    /// directly, so that due reminders are handled.
    public nonisolated let clock: ManualClock
    /// The user's time zone: the plugin's context has it, and commands are given in it.
    public nonisolated let timeZone: TimeZone
    /// The configuration the plugin was last activated with.
    public private(set) var configuration: Plugin.Configuration

    let settings: EngineSettings
    let celebrationStyle: CelebrationStyle
    let directory: String
    let database: HoorayDatabase
    let sink: RecordingChannel
    /// The recorder first, then the channels registered beside it.
    let channels: DeliveryChannels
    let logs = LogRecorder()
    var engine: Engine

    /// Starts the engine with the plugin activated, as `hoorayd` does.
    ///
    /// - Parameters:
    ///   - plugin: The plugin.
    ///   - configuration: Its configuration, as decoded from its `[plugins.NAME]` section.
    ///   - now: The clock's starting time.
    ///   - timeZone: The user's time zone; UTC by default.
    ///   - catchUpWithin: `[scheduler] catch_up_within`: how late a missed occurrence of a repeating
    ///     reminder may still be shown; two hours by default, as in a fresh install.
    ///   - celebrationStyle: The style of the plugin's celebrations; calm by default.
    ///   - channels: Delivery channels registered beside the world's recorder, each shown every
    ///     notice and started, so that its button presses reach the plugin; none by default.
    /// - Throws: ``PluginWorldError`` when the database cannot be made or the plugin fails to activate.
    public init(
        plugin: Plugin, configuration: Plugin.Configuration, now: Date,
        timeZone: TimeZone = TimeZone(identifier: "UTC")!, catchUpWithin: Duration = .seconds(7200),
        celebrationStyle: CelebrationStyle = .calm, channels: [any DeliveryChannel] = []
    ) async throws {
        self.plugin = plugin
        self.configuration = configuration
        self.timeZone = timeZone
        self.celebrationStyle = celebrationStyle
        settings = EngineSettings(catchUpWithin: catchUpWithin, celebrationStyle: celebrationStyle)
        clock = ManualClock(now: now)
        sink = RecordingChannel(clock: clock)
        self.channels = DeliveryChannels([sink] + channels)
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "hooray-world-\(UUID().uuidString)"
            ).path
        do {
            database = try HoorayDatabase(path: directory + "/hooray.sqlite")
        } catch {
            throw PluginWorldError("cannot make the world's database: \(error)")
        }
        engine = Self.makeEngine(
            database: database, channels: self.channels, settings: settings, clock: clock, timeZone: timeZone,
            logs: logs)
        await engine.startChannels()
        try await start()
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: What the user saw

    /// The current time.
    public var now: Date { clock.now }

    /// Every notification shown so far, in order, updates in place included.
    public var shown: [ShownNotice] { sink.shown }

    /// What a status bar shows now (`hooray bar`): the next reminder and the plugin's items.
    public func barSnapshot() async -> BarSnapshot {
        await engine.barSnapshot()
    }

    /// The plugin's reminders and their next due instants, soonest first.
    public func reminders() async throws -> [ScheduledReminder] {
        try await database.rules(plugin: plugin.name).map {
            ScheduledReminder(reminder: $0.reminder, nextDue: $0.nextDue)
        }
    }

    /// The next instant a reminder of the plugin is due, or `nil` when none will be.
    public var nextDue: Date? {
        get async { await engine.nextDue }
    }

    /// The plugin's storage, as its context sees it.
    public nonisolated var storage: any PluginStore {
        DatabasePluginStore(database: database, plugin: plugin.name)
    }

    /// What the engine and the plugin logged, at level info and above: a plugin's failures show here.
    public var log: [LogLine] { logs.lines }

    // MARK: Moving time

    /// Moves the clock to `instant` with the computer awake: each reminder due on the way is handled
    /// at its own due instant, and its notice shown then.
    ///
    /// An instant before the current time sets the clock back, as when the user corrects it.
    public func advance(to instant: Date) async {
        while let due = await engine.nextDue, due <= instant {
            clock.set(to: max(due, clock.now))
            await settle()
        }
        clock.set(to: instant)
        await settle()
    }

    /// Moves the clock forward by `duration` with the computer awake; see ``advance(to:)``.
    public func advance(by duration: Duration) async {
        await advance(to: clock.now.addingTimeInterval(duration.timeInterval))
    }

    /// Puts the computer to sleep (or switches it off) until `instant`: nothing is handled
    /// meanwhile, and on waking the engine catches up as `hoorayd` does.
    ///
    /// Of the occurrences a repeating reminder missed, only the latest is shown, and only when it is
    /// within its lateness limit; a missed one-off is shown however late, unless it has a limit of
    /// its own. ``HoorayPlugin/reminderDue(_:context:)`` sees ``DueReminder/isCatchUp`` set.
    public func suspend(until instant: Date) async {
        clock.set(to: instant)
        await settle()
    }

    /// Puts the computer to sleep for `duration`; see ``suspend(until:)``.
    public func suspend(for duration: Duration) async {
        await suspend(until: clock.now.addingTimeInterval(duration.timeInterval))
    }

    /// Stops the engine and starts a new one on the same database, as when `hoorayd` restarts.
    ///
    /// The new engine activates the plugin again and handles what came due while it was stopped,
    /// like ``suspend(until:)``.
    ///
    /// - Parameters:
    ///   - downtime: How long the engine is stopped; none by default.
    ///   - configuration: The configuration it starts with; the current one by default.
    /// - Throws: ``PluginWorldError`` when the plugin fails to activate.
    public func restart(after downtime: Duration = .zero, configuration: Plugin.Configuration? = nil) async throws {
        await engine.waitForBackgroundWork()
        await engine.stop()
        clock.set(to: clock.now.addingTimeInterval(downtime.timeInterval))
        if let configuration { self.configuration = configuration }
        engine = Self.makeEngine(
            database: database, channels: channels, settings: settings, clock: clock, timeZone: timeZone,
            logs: logs)
        await engine.startChannels()
        try await start()
    }

    /// Activates the plugin again with a new configuration, as after `SIGHUP`.
    ///
    /// - Throws: ``PluginWorldError`` when the plugin fails to activate.
    public func reload(configuration: Plugin.Configuration) async throws {
        self.configuration = configuration
        try await start()
    }

    /// Removes everything kept about the user, as `hooray delete-my-data` does, and activates the
    /// plugin again, as the running `hoorayd` does after it.
    ///
    /// - Throws: ``PluginWorldError`` when the plugin fails to activate; the database's error when
    ///   it cannot delete.
    public func deleteUserData() async throws {
        await engine.waitForBackgroundWork()
        _ = try await database.deleteUserData()
        try await start()
    }

    // MARK: What the user does

    /// Presses a button of a shown notice, as on the notification or with `hooray act`.
    ///
    /// - Parameters:
    ///   - actionID: The button's ``NoticeAction/id``.
    ///   - notice: The notice.
    ///   - answer: The answer to the button's question (``NoticeAction/prompt``), as typed at
    ///     `hooray act` on a terminal or given with `--answer`; `nil` for none, as a click gives.
    /// - Throws: ``PluginWorldError`` with the message `hooray act` would print when the notice has
    ///   no such button, the button asks no question and an answer was given, the answer holds a
    ///   control character or is too long (``ButtonAnswer/problem(_:)``), or the plugin's
    ///   ``HoorayPlugin/actionInvoked(_:context:)`` failed.
    public func press(_ actionID: String, on notice: ShownNotice, answer: String? = nil) async throws {
        try await press(actionID, on: notice.id, answer: answer)
    }

    /// Presses a button of the notice with this id, as the other `press(_:on:answer:)` does.
    public func press(_ actionID: String, on id: NoticeID, answer: String? = nil) async throws {
        if let problem = await engine.invoke(action: actionID, on: id, answer: answer) {
            throw PluginWorldError(problem)
        }
        await engine.waitForBackgroundWork()
        await settle()
    }

    /// Runs one of the plugin's commands as the user types it after `hooray PLUGIN`.
    ///
    /// The words are parsed against the plugin's ``CommandSpec`` as `hooray` parses them, then the
    /// command runs in the engine, as in a running `hoorayd`.
    ///
    /// ```swift
    /// let reply = try await world.run("drink", "--glasses", "2", "--json")
    /// ```
    ///
    /// - Parameters:
    ///   - command: The command's name.
    ///   - words: Its arguments, options and flags.
    /// - Returns: The plugin's reply; its help text for `--help`.
    /// - Throws: ``PluginWorldError`` for an unknown command or words `hooray` would refuse;
    ///   what the plugin threw, such as ``PluginCommandError``, otherwise.
    @discardableResult
    public func run(_ command: String, _ words: String...) async throws -> CommandReply {
        guard let spec = plugin.offeredCommands.first(where: { $0.name == command }) else {
            let names = plugin.offeredCommands.map(\.name).joined(separator: ", ")
            throw PluginWorldError("the \(plugin.name) plugin has no command \"\(command)\"; it has \(names)")
        }
        let parsed: ParsedCommandLine
        do {
            parsed = try CommandLineParser.parse(
                words, spec: spec, environment: CommandEnvironment(timeZoneIdentifier: timeZone.identifier))
        } catch {
            throw PluginWorldError("hooray \(plugin.name) \(command): \(error)")
        }
        if parsed.wantsHelp { return .text(CommandHelp.text(path: [plugin.name, command], spec: spec)) }
        return try await run(parsed.invocation)
    }

    /// Runs a command given as an invocation, with its values by name.
    ///
    /// - Returns: The plugin's reply.
    /// - Throws: What the plugin threw, such as ``PluginCommandError``.
    @discardableResult
    public func run(_ invocation: CommandInvocation) async throws -> CommandReply {
        let reply = try await engine.run(invocation, plugin: plugin.name)
        await engine.waitForBackgroundWork()
        await settle()
        return reply
    }

    // MARK: The engine

    static func makeEngine(
        database: HoorayDatabase, channels: DeliveryChannels, settings: EngineSettings, clock: ManualClock,
        timeZone: TimeZone, logs: LogRecorder
    ) -> Engine {
        Engine(
            database: database, channels: channels, settings: settings, clock: clock, timeZone: timeZone,
            makeLogger: { label in Logger(label: label) { _ in RecordingLogHandler(label: label, recorder: logs) } })
    }

    /// Activates the plugin and handles what is due, as `hoorayd` does when it starts.
    func start() async throws {
        let setup = PluginSetup(
            plugin: plugin, enabled: true, configuration: configuration, celebrationStyle: celebrationStyle)
        await engine.apply(settings: settings, plugins: [setup])
        guard await engine.activePlugins.contains(plugin.name) else {
            let reason = logs.lines.last { $0.level >= .error }?.message ?? "it failed to activate"
            throw PluginWorldError(reason)
        }
        await settle()
    }

    /// Handles everything due now and shows every notice waiting.
    func settle() async {
        await engine.processDue()
        await engine.deliverPending()
    }
}

/// A notification as the world's notification server showed it.
public struct ShownNotice: Sendable, Hashable {
    /// The engine's id of the notice, for `PluginWorld.press(_:on:)`.
    public var id: NoticeID
    /// What was shown.
    public var notice: Notice
    /// When it was shown, by the world's clock.
    public var shownAt: Date
    /// Whether it replaced an earlier notification in place (``NoticeBoard/update(_:to:)``).
    public var isUpdate: Bool

    /// Creates a shown notice.
    public init(id: NoticeID, notice: Notice, shownAt: Date, isUpdate: Bool = false) {
        self.id = id
        self.notice = notice
        self.shownAt = shownAt
        self.isUpdate = isUpdate
    }

    /// The notice's title.
    public var title: String { notice.title }
    /// The notice's body.
    public var body: String { notice.body }
    /// The ids of its buttons.
    public var actionIDs: [String] { notice.actions.map(\.id) }
}

/// A line the engine or the plugin logged.
public struct LogLine: Sendable, Hashable, CustomStringConvertible {
    /// Who logged it: the plugin's name, or `hoorayd` for the engine.
    public var label: String
    /// Its level.
    public var level: Logger.Level
    /// The message.
    public var message: String

    /// Creates a line.
    public init(label: String, level: Logger.Level, message: String) {
        self.label = label
        self.level = level
        self.message = message
    }

    /// `error hoorayd: plugin water failed on glass-09:00: …`
    public var description: String { "\(level) \(label): \(message)" }
}

/// Something the world could not do, with the message `hooray` would show.
public struct PluginWorldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

extension Duration {
    /// The duration in seconds.
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
