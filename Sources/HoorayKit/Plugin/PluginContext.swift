import Foundation
import HoorayCalendar
import Logging

/// A plugin's view of the engine, handed to every plugin call.
///
/// Everything in a context is scoped to one plugin: its reminders, its notices, its storage,
/// its logger. Contexts are cheap values; do not keep one beyond the call that received it
/// unless you need to post notices later from your own task.
public struct PluginContext: Sendable {
    /// The plugin's name, such as `reminders`.
    package let pluginName: String
    /// Schedule and cancel this plugin's reminders.
    public let reminders: any ReminderBook
    /// Post notices now and update them in place.
    public let notices: any NoticeBoard
    /// Persistent key-value storage private to this plugin: flags, settings, small state.
    ///
    /// Keep records — moments, habits, anything with an id that grows in number — in a record book
    /// (``records(of:)``) instead.
    public let storage: any PluginStore
    /// Where the plugin's records are kept; use ``records(of:)`` for a typed book.
    package let recordStore: any RecordStore
    /// The clock: the current time, and sleeping until a wall-clock instant.
    public let clock: any HoorayClock
    /// Warmer praise from the configured AI service; fails with ``AIRequestError/notConfigured``
    /// until the user sets up the `[ai]` section, so keep an offline answer ready.
    public let ai: any PraiseProvider
    /// The user's local time zone, for schedules that do not name one.
    public let timeZone: TimeZone
    /// A logger labelled with the plugin's name.
    public let logger: Logger
    /// Starts work that outlives the current call, such as an AI request after a command answered.
    public let background: any BackgroundWork
    /// Celebrates in the style the user chose for this plugin (`[celebrations] style`, or the
    /// plugin's own `[plugins.NAME] celebrations`): calm, playful or off.
    ///
    /// Celebrate with this, never with a notice of your own, so every celebration respects the
    /// user's choice and never repeats the phrase of the last few — through ``celebrate(_:)``,
    /// which logs a celebration that cannot be shown instead of failing what earned it.
    public let celebrations: any CelebrationCenter
    /// The user's configuration file, where the plugin's `[plugins.NAME]` section goes, such as
    /// `/home/me/.config/hooray/hooray.toml`, for messages that say how to change a setting; `nil`
    /// when the host does not say.
    public let configurationFile: String?
    /// The user's configuration file as a message should name it: ``configurationFile``, or
    /// `your hooray.toml` when the host does not say. Never a guessed path: with
    /// `$XDG_CONFIG_HOME` set, `~/.config/hooray/hooray.toml` would send the user to the wrong file.
    public var settingsFile: String { configurationFile ?? "your hooray.toml" }
    /// The plugin's decoded `[plugins.NAME]` section; read it typed with ``configuration(of:)``.
    let configurationValue: (any Sendable)?
    /// Where the configuration came from, for a plugin with a ``HoorayPlugin/deferrableList``; `nil`
    /// when the host does not say (then the configuration is complete).
    public let configurationSource: ConfigurationSource?

    /// Creates a context. The engine and `HoorayKitTesting` make these; plugins receive them (Hooray's
    /// own).
    ///
    /// - Parameters:
    ///   - pluginName: The plugin's name.
    ///   - reminders: The plugin's reminders.
    ///   - notices: The plugin's notice board.
    ///   - storage: The plugin's storage.
    ///   - records: Where the plugin's records are kept; by default `storage`, when it keeps records
    ///     too (the engine's and `HoorayKitTesting`'s stores do).
    ///   - clock: The clock.
    ///   - timeZone: The user's local time zone.
    ///   - logger: A logger labelled with the plugin's name.
    ///   - ai: The AI praise provider; not configured by default.
    ///   - background: Where work that outlives a call runs; detached tasks by default.
    ///   - celebrations: The plugin's celebration center, in the style the user chose for the
    ///     plugin; `HoorayKitTesting`'s `RecordingCelebrationCenter` in tests.
    ///   - configuration: The plugin's decoded configuration, for ``configuration(of:)``.
    ///   - configurationFile: The user's configuration file, for messages; `nil` when unknown.
    ///   - configurationSource: Where the configuration came from; `nil` when unknown.
    package init(
        pluginName: String,
        reminders: any ReminderBook,
        notices: any NoticeBoard,
        storage: any PluginStore,
        records: (any RecordStore)? = nil,
        clock: any HoorayClock,
        timeZone: TimeZone,
        logger: Logger,
        ai: any PraiseProvider = NoPraiseProvider(),
        background: any BackgroundWork = DetachedBackgroundWork(),
        celebrations: any CelebrationCenter,
        configuration: (any Sendable)? = nil,
        configurationFile: String? = nil,
        configurationSource: ConfigurationSource? = nil
    ) {
        self.configurationSource = configurationSource
        self.configurationValue = configuration
        self.configurationFile = configurationFile
        self.celebrations = celebrations
        self.ai = ai
        self.background = background
        self.pluginName = pluginName
        self.reminders = reminders
        self.notices = notices
        self.storage = storage
        self.recordStore = records ?? (storage as? any RecordStore) ?? UnavailableRecordStore(plugin: pluginName)
        self.clock = clock
        self.timeZone = timeZone
        self.logger = logger
    }

    /// The current time.
    public var now: Date { clock.now }

    /// The plugin's own configuration, typed: its `[plugins.NAME]` section as the engine decoded
    /// it for the latest ``HoorayPlugin/activate(context:configuration:)``.
    ///
    /// Use it where the configuration is not a parameter — a reminder that came due, a button —
    /// instead of keeping a copy from `activate`:
    ///
    /// ```swift
    /// let goal = try context.configuration(of: self).goal
    /// ```
    ///
    /// - Parameter plugin: The plugin asking, which names the type.
    /// - Returns: The configuration; when the context carries none (a context made by hand), the
    ///   configuration of an empty section.
    /// - Throws: ``PluginCommandError`` when there is none and the type has no empty form.
    public func configuration<Plugin: HoorayPlugin>(of plugin: Plugin) throws -> Plugin.Configuration {
        if let typed = configurationValue as? Plugin.Configuration { return typed }
        do {
            return try JSONDecoder().decode(Plugin.Configuration.self, from: Data("{}".utf8))
        } catch {
            throw PluginCommandError(
                "the \(plugin.name) plugin's configuration is not available here, and it has no defaults for every key")
        }
    }

    /// The current day in the user's time zone.
    public var today: LocalDate { LocalDate(instant: now, in: timeZone) }

    /// The plugin's records of one type, in a book kept by the engine.
    ///
    /// ```swift
    /// let habits = context.records(of: Habit.self)
    /// let habit = try await habits.find(idPrefix: "3f2a")
    /// ```
    ///
    /// - Parameter type: The record type; its ``PluginRecord/recordKind`` names its table.
    /// - Returns: A book over the plugin's record store that announces records on ``notices``.
    public func records<Record: PluginRecord>(of type: Record.Type) -> RecordBook<Record> {
        RecordBook(store: recordStore, notices: notices)
    }
}

/// A plugin's reminders, as kept by the engine.
public protocol ReminderBook: Sendable {
    /// Adds a reminder, or replaces the plugin's reminder with the same id.
    ///
    /// Replacing a reminder with an identical schedule keeps its next due instant, so
    /// re-activating a plugin never re-fires or skips an occurrence.
    ///
    /// - Returns: The reminder with its next due instant.
    @discardableResult
    func schedule(_ reminder: Reminder) async throws -> ScheduledReminder

    /// Removes the plugin's reminder with this id, and its snooze if it has one. Removing an
    /// unknown id does nothing.
    func cancel(id: String) async throws

    /// The plugin's reminders, soonest first; reminders that will not be due again come last.
    ///
    /// Snoozes (see ``snooze(_:until:)``) are the engine's and are not listed.
    func list() async throws -> [ScheduledReminder]

    /// Makes the plugin's reminders exactly `reminders`: schedules each and cancels every other.
    ///
    /// Each reminder keeps its next due instant when its schedule is unchanged, as with
    /// ``schedule(_:)``, and its snooze when it has one. The engine does it all in one step,
    /// however many reminders there are.
    ///
    /// - Parameter reminders: The complete set of reminders the plugin wants.
    func replaceAll(with reminders: [Reminder]) async throws

    /// Makes the plugin's reminders exactly those declared, as ``replaceAll(with:)`` does, building
    /// only the ones whose source changed since they were stored.
    ///
    /// A reminder declared with a digest of its source (``DeclaredReminder/init(id:sourceDigest:build:)``)
    /// that is stored with the same digest is kept as it is, next due instant and all, without being
    /// built: a plugin that declares thousands of reminders from its configuration pays at a restart
    /// for those that changed only.
    ///
    /// - Parameter reminders: The complete set of reminders the plugin wants.
    func replaceAll(declaring reminders: [DeclaredReminder]) async throws

    /// Makes the plugin's reminders exactly those declared, as ``replaceAll(declaring:)`` does, and
    /// remembers `key` with them, so that a later ``keepDeclared(key:)`` with the same key can keep
    /// them without their being declared again.
    ///
    /// - Parameters:
    ///   - reminders: The complete set of reminders the plugin wants.
    ///   - key: A digest of everything the declaration depends on: the configuration
    ///     (``ConfigurationSource/digest``), the time zone it falls back on, records it reads.
    ///     `nil` forgets any key.
    func replaceAll(declaring reminders: [DeclaredReminder], key: String?) async throws

    /// Keeps and plans the plugin's reminders as they are stored, when they were declared with `key`
    /// (``replaceAll(declaring:key:)``) by this version of Hooray and nothing changed them since but
    /// their coming due and snoozes.
    ///
    /// - Parameter key: The key the plugin would declare with now.
    /// - Returns: How many reminders were declared with the key, or `nil` when it is not the stored
    ///   one: then nothing changed, and the plugin declares its reminders.
    func keepDeclared(key: String) async throws -> Int?

    /// Puts a reminder off: its notice comes back once at `until`, as when the user presses a
    /// ``NoticeAction/snooze(for:label:)`` button.
    ///
    /// The engine keeps the snooze as a one-off reminder with an id of its own — listed by
    /// `hooray next`, kept across restarts and reloads, removed with the reminder. A reminder has at most one snooze: snoozing it again
    /// moves it. When it comes due, ``HoorayPlugin/reminderDue(_:context:)`` sees the reminder with
    /// ``DueReminder/isSnoozed`` set, so a plugin can still decide that it is no longer needed; its
    /// ``DueReminder/dueAt`` is the reminder's latest occurrence, the one being put off (the
    /// snooze's end when it has none yet).
    ///
    /// - Parameters:
    ///   - id: The id of one of the plugin's reminders.
    ///   - until: When its notice comes back.
    /// - Throws: An error naming the id when the plugin has no reminder with this id.
    func snooze(_ id: String, until: Date) async throws

    /// Where the notice of one of the plugin's reminders is when it came due and has not reached the
    /// screen yet: snoozed, held back (such as for quiet hours) or waiting for the notification server.
    ///
    /// A plugin tells the user with it what became of a reminder, such as when it is removed.
    ///
    /// - Parameter id: The id of one of the plugin's reminders.
    /// - Returns: `nil` when no notice of it is waiting: it was shown, or it has not come due.
    func waitingNotice(of id: String) async throws -> WaitingNotice?
}

/// Where a reminder's notice waits before it reaches the screen (``ReminderBook/waitingNotice(of:)``).
public enum WaitingNotice: Sendable, Hashable {
    /// The user snoozed it: it comes back at `until`.
    case snoozed(until: Date)
    /// It is held back, and shown when that ends: `reason` in a few words for a person, such as
    /// `quiet hours until 07:30`, and `until`, when the end is known.
    case held(reason: String, until: Date?)
    /// It is on its way, waiting for the notification server.
    case queued
}

extension ReminderBook {
    /// Knows of no waiting notice; the engine's book does.
    public func waitingNotice(of id: String) async throws -> WaitingNotice? { nil }

    /// Builds every reminder and replaces all with them; books that keep digests build only what changed.
    ///
    /// - Parameter reminders: The complete set of reminders the plugin wants.
    public func replaceAll(declaring reminders: [DeclaredReminder]) async throws {
        try await replaceAll(with: reminders.map { try $0.build() })
    }

    /// Declares the reminders; books that keep no keys forget `key`.
    ///
    /// - Parameters:
    ///   - reminders: The complete set of reminders the plugin wants.
    ///   - key: Not kept.
    public func replaceAll(declaring reminders: [DeclaredReminder], key: String?) async throws {
        try await replaceAll(declaring: reminders)
    }

    /// Keeps nothing: books that keep no keys have the plugin declare every time.
    public func keepDeclared(key: String) async throws -> Int? { nil }

    /// Schedules each reminder and cancels every other, one call at a time; books that can do it
    /// in one step should.
    ///
    /// - Parameter reminders: The complete set of reminders the plugin wants.
    public func replaceAll(with reminders: [Reminder]) async throws {
        let wanted = Set(reminders.map(\.id))
        for existing in try await list() where !wanted.contains(existing.reminder.id) {
            try await cancel(id: existing.reminder.id)
        }
        for reminder in reminders {
            try await schedule(reminder)
        }
    }
}

/// Posting notices: shown at once where a notification server is available, kept in the inbox
/// otherwise.
public protocol NoticeBoard: Sendable {
    /// Shows a notice now.
    ///
    /// The notice is stored before this returns; if no notification server is reachable it waits
    /// in `hooray inbox` and is delivered when one appears.
    ///
    /// - Returns: The notice's id, for ``update(_:to:)``.
    @discardableResult
    func post(_ notice: Notice) async throws -> NoticeID

    /// Shows a notice now and saves values and records of the plugin with it, in one step.
    ///
    /// Either the values, the records and the notice are all stored, or — when this throws, or the
    /// process is killed — none is. Use it when saving a record and announcing it must not come apart:
    /// a record saved on its own, by a process that was then killed, would never be announced,
    /// and the user, told that the command failed, would log it again.
    ///
    /// - Parameters:
    ///   - notice: The notice.
    ///   - values: Keys of the plugin's storage (``PluginContext/storage``) and the bytes to store
    ///     under them, replacing what is there.
    ///   - records: Records to add to the plugin's records (the context's record store); usually
    ///     given through ``RecordBook/insert(_:announcing:storing:)``.
    /// - Returns: The notice's id, for ``update(_:to:)``.
    /// - Throws: a ``RecordBookError`` (``RecordBookError/Code/duplicateID``) when a record's id is taken; nothing is
    ///   stored then.
    @discardableResult
    func post(_ notice: Notice, storing values: [String: Data], inserting records: [StoredRecord]) async throws
        -> NoticeID

    /// Replaces a posted notice in place: the same notification on screen changes its text.
    func update(_ id: NoticeID, to notice: Notice) async throws
}

extension NoticeBoard {
    /// Shows a notice now and saves values in the plugin's own storage with it, in one step.
    ///
    /// ``post(_:storing:inserting:)`` without records.
    ///
    /// - Parameters:
    ///   - notice: The notice.
    ///   - values: Keys of the plugin's storage and the bytes to store under them.
    /// - Returns: The notice's id, for ``update(_:to:)``.
    @discardableResult
    public func post(_ notice: Notice, storing values: [String: Data]) async throws -> NoticeID {
        try await post(notice, storing: values, inserting: [])
    }
}

/// Persistent storage private to one plugin.
///
/// Values survive restarts. Keys are the plugin's own; two plugins never see each other's keys.
public protocol PluginStore: Sendable {
    /// The bytes stored under `key`, or `nil`.
    func data(forKey key: String) async throws -> Data?
    /// Stores bytes under `key`; `nil` removes the key.
    func setData(_ data: Data?, forKey key: String) async throws
    /// Every key the plugin has stored, sorted.
    func keys() async throws -> [String]
    /// Every key starting with `prefix`, with its bytes, sorted by key.
    func values(withPrefix prefix: String) async throws -> [StoredValue]
    /// Reads, changes and writes one key as a single step that no other writer can interleave
    /// with, even one in another process.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - transform: Gets the current bytes (`nil` when there are none) and returns the new ones
    ///     (`nil` removes the key). What it throws is rethrown and nothing is written.
    /// - Returns: The bytes now stored.
    @discardableResult
    func modify(forKey key: String, _ transform: @escaping @Sendable (Data?) throws -> Data?) async throws -> Data?
}

/// A key and the bytes stored under it.
public struct StoredValue: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The bytes.
    public var data: Data

    /// Creates a stored value.
    public init(key: String, data: Data) {
        self.key = key
        self.data = data
    }
}

extension PluginStore {
    /// Reads every key and keeps those starting with `prefix`. Stores that can do better should.
    public func values(withPrefix prefix: String) async throws -> [StoredValue] {
        var found: [StoredValue] = []
        for key in try await keys() where key.hasPrefix(prefix) {
            if let data = try await data(forKey: key) { found.append(StoredValue(key: key, data: data)) }
        }
        return found
    }

    /// Reads, then writes. Not atomic: stores shared between tasks or processes must do better.
    @discardableResult
    public func modify(forKey key: String, _ transform: @escaping @Sendable (Data?) throws -> Data?) async throws
        -> Data?
    {
        let new = try transform(try await data(forKey: key))
        try await setData(new, forKey: key)
        return new
    }

    /// The value stored under `key`, decoded from JSON, or `nil` when there is none.
    public func value<Value: Decodable>(forKey key: String, as type: Value.Type = Value.self) async throws -> Value? {
        guard let data = try await data(forKey: key) else { return nil }
        return try JSONDecoder().decode(Value.self, from: data)
    }

    /// Stores a value under `key` as JSON.
    public func set<Value: Encodable>(_ value: Value, forKey key: String) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try await setData(try encoder.encode(value), forKey: key)
    }

    /// Removes the value under `key`.
    public func removeValue(forKey key: String) async throws {
        try await setData(nil, forKey: key)
    }

    /// Reads, changes and writes one key as a single step, like ``modify(forKey:_:)``, and returns
    /// what the change returned.
    ///
    /// ```swift
    /// let wasShown = try await storage.update(forKey: "flag.welcomeShown") { data in
    ///     defer { data = Data("true".utf8) }
    ///     return data == Data("true".utf8)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - change: Changes the bytes (`nil` when there are none; set `nil` to remove the key) and
    ///     returns a value. It runs synchronously inside the store's step; what it throws is
    ///     rethrown and nothing is written.
    /// - Returns: What `change` returned.
    public func update<Value: Sendable>(
        forKey key: String, _ change: @escaping @Sendable (inout Data?) throws -> Value
    ) async throws -> Value {
        let result = TransformResult<Value>()
        try await modify(forKey: key) { old in
            var data = old
            result.set(try change(&data))
            return data
        }
        return try result.get()
    }
}

/// Carries a value out of a transform that runs synchronously inside a store's step.
final class TransformResult<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value: Value?

    func set(_ value: Value) { lock.withLock { self.value = value } }

    func get() throws -> Value {
        guard let value = lock.withLock({ value }) else { throw TransformDidNotRun() }
        return value
    }
}

/// A store returned from ``PluginStore/modify(forKey:_:)`` without running the transform; a store bug.
struct TransformDidNotRun: Error, CustomStringConvertible {
    var description: String { "the plugin store did not run the change it was given" }
}

/// The time as the engine sees it.
///
/// The daemon's clock follows the wall clock (it notices when the clock is set); tests use
/// `ManualClock` from `HoorayKitTesting`.
public protocol HoorayClock: Sendable {
    /// The current instant.
    var now: Date { get }
    /// Suspends until the wall clock reaches `deadline`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    func sleep(until deadline: Date) async throws
}
