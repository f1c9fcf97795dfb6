import Foundation
import HoorayKit
import Logging

/// A clock that moves only when told to, for fast tests with no real sleeping.
public final class ManualClock: HoorayClock, @unchecked Sendable {
    // @unchecked: `current` and `sleepers` are only touched while holding `lock`.
    private let lock = NSLock()
    private var current: Date
    private var sleepers: [(deadline: Date, continuation: CheckedContinuation<Void, Never>)] = []

    /// Creates a clock showing `now`.
    public init(now: Date) {
        current = now
    }

    public var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Moves the clock to `instant` (forward or backward) and wakes sleepers whose deadline passed.
    public func set(to instant: Date) {
        lock.lock()
        current = instant
        let ready = sleepers.filter { $0.deadline <= instant }
        sleepers.removeAll { $0.deadline <= instant }
        lock.unlock()
        for sleeper in ready { sleeper.continuation.resume() }
    }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        set(to: now.addingTimeInterval(seconds))
    }

    public func sleep(until deadline: Date) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if deadline <= current {
                lock.unlock()
                continuation.resume()
                return
            }
            sleepers.append((deadline, continuation))
            lock.unlock()
        }
        try Task.checkCancellation()
    }
}

/// Reminders kept in memory, with next due instants computed by a function you supply.
///
/// Snoozes behave as the engine's do: ``snooze(_:until:)`` keeps a one-off reminder named
/// `Snooze.reminderID(snoozing:)` in ``reminders``, which ``list()`` leaves out, ``replaceAll(with:)``
/// keeps while its reminder stays, and ``cancel(id:)`` removes with its reminder.
/// ``snoozedDue(_:)`` is what the engine hands the plugin when one comes back.
public actor InMemoryReminderBook: ReminderBook {
    /// The reminders by id, snoozes included.
    public private(set) var reminders: [String: Reminder] = [:]
    /// The due instants of the occurrences the snoozes bring back, by snooze id.
    var snoozedOccurrences: [String: Date] = [:]
    let nextDue: @Sendable (Schedule) -> Date?

    /// Creates an empty book.
    ///
    /// - Parameter nextDue: Computes a schedule's next due instant; by default `once` schedules
    ///   report their instant and repeating ones `nil`.
    public init(
        nextDue: @escaping @Sendable (Schedule) -> Date? = { schedule in
            if case .once(let date) = schedule { return date }
            return nil
        }
    ) {
        self.nextDue = nextDue
    }

    public func schedule(_ reminder: Reminder) async throws -> ScheduledReminder {
        guard Snooze.reservedPrefix(of: reminder.id) == nil else { throw SnoozeError.reservedID(reminder.id) }
        reminders[reminder.id] = reminder
        return ScheduledReminder(reminder: reminder, nextDue: nextDue(reminder.schedule))
    }

    public func cancel(id: String) async throws {
        reminders[id] = nil
        reminders[Snooze.reminderID(snoozing: id)] = nil
        snoozedOccurrences[Snooze.reminderID(snoozing: id)] = nil
    }

    public func list() async throws -> [ScheduledReminder] {
        reminders.values.filter { Snooze.snoozedID(of: $0.id) == nil }.sorted { $0.id < $1.id }
            .map { ScheduledReminder(reminder: $0, nextDue: nextDue($0.schedule)) }
    }

    public func replaceAll(with wanted: [Reminder]) async throws {
        if let reserved = wanted.first(where: { Snooze.reservedPrefix(of: $0.id) != nil }) {
            throw SnoozeError.reservedID(reserved.id)
        }
        let ids = Set(wanted.map(\.id))
        reminders = reminders.filter { id, _ in
            guard let snoozed = Snooze.snoozedID(of: id) else { return false }
            return ids.contains(snoozed) || snoozed.hasPrefix(Snooze.noticeKeyPrefix)
        }
        snoozedOccurrences = snoozedOccurrences.filter { id, _ in reminders[id] != nil }
        for reminder in wanted { reminders[reminder.id] = reminder }
    }

    /// Snoozes a reminder as the engine does; this book records no occurrences, so when it comes back
    /// its ``HoorayKit/DueReminder/dueAt`` is the snooze's end where the engine's is the reminder's
    /// latest occurrence.
    public func snooze(_ id: String, until: Date) async throws {
        guard let reminder = reminders[id], Snooze.snoozedID(of: id) == nil else {
            throw SnoozeError.noSuchReminder(id)
        }
        snooze(key: id, until: until, notice: reminder.notice)
    }

    /// The snooze of a reminder, as the engine reports it; this book shows nothing, so no notice is
    /// ever held back or queued.
    public func waitingNotice(of id: String) async throws -> WaitingNotice? {
        guard case .once(let until) = reminders[Snooze.reminderID(snoozing: id)]?.schedule else { return nil }
        return .snoozed(until: until)
    }

    /// Keeps a snooze, as the engine does when a snooze button is pressed.
    ///
    /// - Parameters:
    ///   - key: The snoozed reminder's id, or `notice.` and the notice's id for one from no reminder.
    ///   - until: When the notice comes back.
    ///   - notice: The notice that comes back.
    ///   - dueAt: The due instant of the occurrence the notice showed, when a reminder's.
    public func snooze(key: String, until: Date, notice: Notice, dueAt: Date? = nil) {
        let id = Snooze.reminderID(snoozing: key)
        reminders[id] = Reminder(
            id: id, schedule: .once(at: until), notice: notice, payload: reminders[key]?.payload ?? notice.payload)
        snoozedOccurrences[id] = dueAt
    }

    /// What the engine hands the plugin's `reminderDue(_:context:)` when the snooze of a reminder
    /// comes back: the reminder's id with the snoozed notice and its payload, the due instant of the
    /// occurrence that was snoozed, and the snooze's end as ``HoorayKit/DueReminder/snoozedUntil``.
    ///
    /// - Parameter id: The snoozed reminder's id.
    /// - Returns: The due occurrence, or `nil` when the reminder has no snooze.
    public func snoozedDue(_ id: String) -> DueReminder? {
        let snoozeID = Snooze.reminderID(snoozing: id)
        guard let snooze = reminders[snoozeID], case .once(let until) = snooze.schedule else { return nil }
        var reminder = snooze
        reminder.id = id
        return DueReminder(reminder: reminder, dueAt: snoozedOccurrences[snoozeID] ?? until, snoozedUntil: until)
    }

    /// The snoozes kept, by the id of the reminder (or `notice.ID`) they bring back.
    public var snoozes: [String: Reminder] {
        Dictionary(
            uniqueKeysWithValues: reminders.compactMap { id, reminder in
                Snooze.snoozedID(of: id).map { ($0, reminder) }
            })
    }
}

/// Records posted and updated notices instead of showing them.
public actor RecordingNoticeBoard: NoticeBoard {
    /// A notice as recorded, with every version it went through.
    public struct Entry: Sendable, Hashable {
        /// Its id.
        public var id: NoticeID
        /// Each version, the first as posted, then each update.
        public var versions: [Notice]
        /// The latest version.
        public var current: Notice { versions[versions.count - 1] }
    }

    /// Every notice, in posting order.
    public private(set) var entries: [Entry] = []

    /// Where ``post(_:storing:inserting:)`` saves its values.
    let storage: (any PluginStore)?
    /// Where ``post(_:storing:inserting:)`` saves its records.
    let records: (any RecordStore)?

    /// Creates an empty board.
    ///
    /// - Parameters:
    ///   - storage: The plugin's storage, where ``post(_:storing:inserting:)`` saves its values;
    ///     without one, that method throws when given values.
    ///   - records: Where ``post(_:storing:inserting:)`` saves its records; by default `storage`,
    ///     when it keeps records (an ``InMemoryPluginStore`` does).
    public init(storage: (any PluginStore)? = nil, records: (any RecordStore)? = nil) {
        self.storage = storage
        self.records = records ?? storage as? any RecordStore
    }

    public func post(_ notice: Notice) async throws -> NoticeID {
        let id = NoticeID(rawValue: Int64(entries.count + 1))
        entries.append(Entry(id: id, versions: [notice]))
        return id
    }

    public func post(_ notice: Notice, storing values: [String: Data], inserting records: [StoredRecord])
        async throws -> NoticeID
    {
        if !values.isEmpty, storage == nil { throw NoStorageForValues() }
        if !records.isEmpty, self.records == nil { throw NoStorageForValues() }
        // Records first: a duplicate id stops the post before anything is saved.
        for record in records {
            guard try await self.records?.record(kind: record.kind, id: record.id) == nil else {
                throw RecordBookError.duplicateID(kind: record.kind, id: record.id)
            }
        }
        for record in records { try await self.records?.insert(record) }
        for (key, value) in values { try await storage?.setData(value, forKey: key) }
        return try await post(notice)
    }

    public func update(_ id: NoticeID, to notice: Notice) async throws {
        guard let index = entries.firstIndex(where: { $0.id == id }) else {
            throw UnknownNotice(id: id)
        }
        entries[index].versions.append(notice)
    }

    /// The latest version of every notice, in posting order.
    public var notices: [Notice] { entries.map(\.current) }
}

/// ``RecordingNoticeBoard/post(_:storing:inserting:)`` was called on a board made without storage.
public struct NoStorageForValues: Error, Sendable, CustomStringConvertible {
    public var description: String {
        "this RecordingNoticeBoard has no storage for post(_:storing:inserting:); make it with RecordingNoticeBoard(storage:)"
    }
}

/// An answer the engine would refuse before pressing the button: one for a button that asks no
/// question, or one the engine finds wrong (a control character, or too long). The plugin was not called.
public struct AnswerRefused: Error, Sendable, CustomStringConvertible {
    /// Why, in the words `hooray act` prints.
    public let message: String
    public var description: String { message }
}

/// ``RecordingNoticeBoard/update(_:to:)`` was given an id it never handed out.
public struct UnknownNotice: Error, Sendable, CustomStringConvertible {
    /// The id.
    public let id: NoticeID
    public var description: String { "no notice \(id) was posted" }
}

/// Plugin storage in memory: key-value pairs and records, for plugin authors' unit tests.
///
/// As a ``RecordStore`` it behaves as the engine's SQLite record books do — duplicate ids refused,
/// updates atomic, prefixes matched without regard to ASCII case, day ranges in a time zone — so a
/// plugin tested against it works against the real one.
public actor InMemoryPluginStore: PluginStore, RecordStore {
    /// The stored bytes, by key.
    public private(set) var values: [String: Data] = [:]
    /// The stored records, by kind and then by id.
    public private(set) var storedRecords: [String: [String: StoredRecord]] = [:]

    /// Creates an empty store.
    public init() {}

    public func data(forKey key: String) async throws -> Data? { values[key] }

    public func setData(_ data: Data?, forKey key: String) async throws { values[key] = data }

    public func keys() async throws -> [String] { values.keys.sorted() }

    @discardableResult
    public func modify(forKey key: String, _ transform: @escaping @Sendable (Data?) throws -> Data?) async throws
        -> Data?
    {
        // An actor method with no suspension point: atomic.
        let new = try transform(values[key])
        values[key] = new
        return new
    }

    // MARK: Records

    public func insert(_ record: StoredRecord) async throws {
        guard storedRecords[record.kind]?[record.id] == nil else {
            throw RecordBookError.duplicateID(kind: record.kind, id: record.id)
        }
        storedRecords[record.kind, default: [:]][record.id] = record
    }

    public func record(kind: String, id: String) async throws -> StoredRecord? {
        storedRecords[kind]?[id]
    }

    public func update<Value: Sendable>(
        kind: String, id: String, _ change: @escaping @Sendable (inout StoredRecord) throws -> Value
    ) async throws -> Value? {
        // An actor method with no suspension point: atomic.
        guard var record = storedRecords[kind]?[id] else { return nil }
        let value = try change(&record)
        guard record.kind == kind, record.id == id else {
            throw RecordBookError.idChanged(kind: kind, from: id, to: record.id)
        }
        storedRecords[kind]?[id] = record
        return value
    }

    @discardableResult
    public func delete(kind: String, id: String) async throws -> Bool {
        storedRecords[kind]?.removeValue(forKey: id) != nil
    }

    public func records(kind: String, idPrefix: String) async throws -> [StoredRecord] {
        // Like SQLite's LIKE: only ASCII letters match without regard to case.
        func folded(_ text: String) -> [UInt8] { text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 } }
        let prefix = folded(idPrefix)
        return (storedRecords[kind] ?? [:]).values.filter { folded($0.id).starts(with: prefix) }
            .sorted(by: StoredRecord.precedes)
    }

    public func records(kind: String, during range: LocalDayRange) async throws -> [StoredRecord] {
        (storedRecords[kind] ?? [:]).values.filter { range.contains($0.date) }.sorted(by: StoredRecord.precedes)
    }

    @discardableResult
    public func adoptValues(withPrefix prefix: String, _ convert: @escaping @Sendable (StoredValue) -> StoredRecord?)
        async throws -> Int
    {
        var moved = 0
        for (key, data) in values.sorted(by: { $0.key < $1.key }) where key.hasPrefix(prefix) {
            guard let record = convert(StoredValue(key: key, data: data)) else { continue }
            if storedRecords[record.kind]?[record.id] == nil {
                storedRecords[record.kind, default: [:]][record.id] = record
            }
            values[key] = nil
            moved += 1
        }
        return moved
    }
}

/// Background work for tests: runs it as tasks and lets the test wait until all of it is done.
public final class RecordingBackgroundWork: BackgroundWork, @unchecked Sendable {
    // @unchecked: `running`, `labels` and `errors` are only touched while holding `lock`.
    private let lock = NSLock()
    private var running: [Task<Void, Never>] = []
    private var startedLabels: [String] = []
    private var thrown: [String] = []

    /// Creates it.
    public init() {}

    public func start(_ label: String, _ work: @escaping @Sendable () async throws -> Void) {
        let task = Task {
            do { try await work() } catch { self.lock.withLock { self.thrown.append("\(label): \(error)") } }
        }
        lock.withLock {
            startedLabels.append(label)
            running.append(task)
        }
    }

    /// The labels of all work started, in order.
    public var labels: [String] { lock.withLock { startedLabels } }

    /// What the work threw, as `label: error`, in the order it finished.
    public var errors: [String] { lock.withLock { thrown } }

    /// Waits until every piece of work started so far (and any it started in turn) has finished.
    public func waitUntilIdle() async {
        while true {
            let batch: [Task<Void, Never>] = lock.withLock {
                defer { running.removeAll() }
                return running
            }
            guard !batch.isEmpty else { return }
            for task in batch { await task.value }
        }
    }
}

/// Everything a plugin test needs: a context wired to in-memory fakes you can inspect.
public struct PluginTestHarness: Sendable {
    /// The clock.
    public let clock: ManualClock
    /// The reminders the plugin scheduled.
    public let reminders: InMemoryReminderBook
    /// The notices the plugin posted.
    public let notices: RecordingNoticeBoard
    /// The plugin's storage.
    public let storage: InMemoryPluginStore
    /// The AI praise the plugin gets.
    public let ai: any PraiseProvider
    /// The plugin's background work; `await harness.background.waitUntilIdle()` before checking its effects.
    public let background: RecordingBackgroundWork
    /// The plugin's celebrations: what it celebrated and what came of it. Their notices are in ``notices``.
    public let celebrations: RecordingCelebrationCenter
    /// The context to hand to the plugin.
    public let context: PluginContext
    let configuration: (any Sendable)?

    /// Creates a harness.
    ///
    /// - Parameters:
    ///   - pluginName: The plugin's name.
    ///   - now: The clock's starting time.
    ///   - timeZone: The user's time zone.
    ///   - nextDue: How the fake reminder book computes next due instants.
    ///   - ai: The AI praise provider; `nil`, by default, for one that is not configured, like a
    ///     fresh install.
    ///   - celebrationStyle: The style the user chose for the plugin's celebrations; calm by default,
    ///     like a fresh install.
    ///   - configuration: The plugin's configuration, as `context.configuration(of:)` returns it;
    ///     by default that of an empty section.
    public init(
        pluginName: String, now: Date, timeZone: TimeZone = TimeZone(identifier: "UTC")!,
        nextDue: @escaping @Sendable (Schedule) -> Date? = PluginTestHarness.onceOnly,
        ai: (any PraiseProvider)? = nil,
        celebrationStyle: CelebrationStyle = .calm,
        configuration: (any Sendable)? = nil
    ) {
        self.init(
            pluginName: pluginName, now: now, timeZone: timeZone, nextDue: nextDue, ai: ai ?? NoPraiseProvider(),
            celebrationStyle: celebrationStyle, celebrationPhrases: .builtIn, configuration: configuration)
    }

    /// Creates a harness whose celebrations pick from `celebrationPhrases` (Hooray's own tests).
    package init(
        pluginName: String, now: Date, timeZone: TimeZone = TimeZone(identifier: "UTC")!,
        nextDue: @escaping @Sendable (Schedule) -> Date? = PluginTestHarness.onceOnly,
        ai: any PraiseProvider = NoPraiseProvider(),
        celebrationStyle: CelebrationStyle = .calm,
        celebrationPhrases: CelebrationPhrases,
        configuration: (any Sendable)? = nil
    ) {
        self.ai = ai
        self.configuration = configuration
        clock = ManualClock(now: now)
        reminders = InMemoryReminderBook(nextDue: nextDue)
        storage = InMemoryPluginStore()
        notices = RecordingNoticeBoard(storage: storage)
        background = RecordingBackgroundWork()
        celebrations = RecordingCelebrationCenter(
            style: celebrationStyle, notices: notices, phrases: celebrationPhrases)
        var logger = Logger(label: pluginName)
        logger.logLevel = .critical
        context = PluginContext(
            pluginName: pluginName, reminders: reminders, notices: notices, storage: storage, records: storage,
            clock: clock, timeZone: timeZone, logger: logger, ai: ai, background: background,
            celebrations: celebrations, configuration: configuration)
    }

    /// The fake reminder book's next due instants by default: a one-off's instant, and none for a
    /// repeating schedule (give `nextDue` to compute those).
    public static let onceOnly: @Sendable (Schedule) -> Date? = { schedule in
        if case .once(let date) = schedule { return date }
        return nil
    }

    /// The harness's context with another celebration center, such as one that fails, to test what
    /// the plugin does when a celebration cannot be shown.
    ///
    /// - Parameter celebrations: The celebration center the plugin gets instead of ``celebrations``.
    /// - Returns: A context with the harness's clock, reminders, notices, storage and configuration.
    public func context(celebrations: any CelebrationCenter) -> PluginContext {
        PluginContext(
            pluginName: context.pluginName, reminders: reminders, notices: notices, storage: storage, records: storage,
            clock: clock, timeZone: context.timeZone, logger: context.logger, ai: ai, background: background,
            celebrations: celebrations, configuration: configuration)
    }

    /// Presses a button of a notice as the engine does: a standard snooze button
    /// (`NoticeAction.snooze(for:)`) is kept in ``reminders`` as the engine would keep it, and the
    /// plugin is not called; any other button goes to the plugin's `actionInvoked(_:context:)` with
    /// the reminder's id, the occurrence's due instant and the payload the engine would hand it.
    ///
    /// ```swift
    /// let notice = try #require(try await plugin.reminderDue(due, context: harness.context))
    /// try await harness.press("snooze", on: notice, from: due, of: plugin)
    /// let back = try #require(await harness.reminders.snoozedDue(due.reminder.id))
    /// try await harness.press("done", on: notice, from: back, of: plugin)
    /// ```
    ///
    /// - Parameters:
    ///   - actionID: The button's id.
    ///   - notice: The notice it is on, as the plugin made it; like the engine's, it carries the
    ///     reminder's payload when it has none of its own.
    ///   - id: The notice's id.
    ///   - due: The occurrence of a reminder that produced the notice, as the plugin's
    ///     `reminderDue(_:context:)` was given it (for a snoozed notice coming back,
    ///     ``InMemoryReminderBook/snoozedDue(_:)``); `nil` for a notice that came from no reminder.
    ///   - plugin: The plugin that posted the notice.
    ///   - answer: The answer to the button's question (``NoticeAction/prompt``), as `hooray act`
    ///     hands it over; `nil` for none, as a click on the notification gives. As the engine, the
    ///     harness refuses an answer for a button that asks no question (or is not on the notice),
    ///     and one with a control character or over 1,000 characters.
    /// - Throws: ``AnswerRefused``, without calling the plugin, for an answer the engine refuses;
    ///   otherwise what the plugin's `actionInvoked(_:context:)` threw.
    public func press(
        _ actionID: String, on notice: Notice, id: NoticeID = NoticeID(rawValue: 1), from due: DueReminder?,
        of plugin: some HoorayPlugin, answer: String? = nil
    ) async throws {
        if let answer {
            let button = notice.actions.first { $0.id == actionID }
            guard button?.prompt != nil else {
                throw AnswerRefused(
                    message:
                        "“\(button?.label ?? actionID)” asks no question, so it takes no answer; press it without one")
            }
            if let problem = ButtonAnswer.problem(answer) {
                throw AnswerRefused(message: "nothing was pressed: " + problem)
            }
        }
        var shown = notice
        if shown.payload == nil { shown.payload = due?.reminder.payload }
        let reminderID = due.map { Snooze.snoozedID(of: $0.reminder.id) ?? $0.reminder.id }
        if let delay = Snooze.delay(ofAction: actionID) {
            var key = Snooze.noticeKeyPrefix + "\(id)"
            if let reminderID, await reminders.reminders[reminderID] != nil { key = reminderID }
            let until = clock.now.addingTimeInterval(Double(delay.components.seconds))
            await reminders.snooze(key: key, until: until, notice: shown, dueAt: due?.dueAt)
            return
        }
        let invoked = InvokedAction(
            notice: id, actionID: actionID, reminderID: reminderID, dueAt: due?.dueAt, payload: shown.payload,
            answer: answer)
        try await plugin.actionInvoked(invoked, context: context)
    }
}
