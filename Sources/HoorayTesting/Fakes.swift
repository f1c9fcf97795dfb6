import Foundation
import HoorayCelebrations
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
public actor InMemoryReminderBook: ReminderBook {
    /// The reminders, by id.
    public private(set) var reminders: [String: Reminder] = [:]
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
        reminders[reminder.id] = reminder
        return ScheduledReminder(reminder: reminder, nextDue: nextDue(reminder.schedule))
    }

    public func cancel(id: String) async throws {
        reminders[id] = nil
    }

    public func list() async throws -> [ScheduledReminder] {
        reminders.values.sorted { $0.id < $1.id }.map { ScheduledReminder(reminder: $0, nextDue: nextDue($0.schedule)) }
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

    /// Where ``post(_:storing:)`` saves its values.
    let storage: (any PluginStore)?

    /// Creates an empty board.
    ///
    /// - Parameter storage: The plugin's storage, where ``post(_:storing:)`` saves its values;
    ///   without one, that method throws.
    public init(storage: (any PluginStore)? = nil) {
        self.storage = storage
    }

    public func post(_ notice: Notice) async throws -> NoticeID {
        let id = NoticeID(rawValue: Int64(entries.count + 1))
        entries.append(Entry(id: id, versions: [notice]))
        return id
    }

    public func post(_ notice: Notice, storing values: [String: Data]) async throws -> NoticeID {
        guard let storage else { throw NoStorageForValues() }
        for (key, value) in values { try await storage.setData(value, forKey: key) }
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

/// ``RecordingNoticeBoard/post(_:storing:)`` was called on a board made without storage.
public struct NoStorageForValues: Error, Sendable, CustomStringConvertible {
    public var description: String {
        "this RecordingNoticeBoard has no storage for post(_:storing:); make it with RecordingNoticeBoard(storage:)"
    }
}

/// ``RecordingNoticeBoard/update(_:to:)`` was given an id it never handed out.
public struct UnknownNotice: Error, Sendable, CustomStringConvertible {
    /// The id.
    public let id: NoticeID
    public var description: String { "no notice \(id) was posted" }
}

/// Plugin storage in memory.
public actor InMemoryPluginStore: PluginStore {
    /// The stored bytes, by key.
    public private(set) var values: [String: Data] = [:]

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

    /// Creates a harness.
    ///
    /// - Parameters:
    ///   - pluginName: The plugin's name.
    ///   - now: The clock's starting time.
    ///   - timeZone: The user's time zone.
    ///   - nextDue: How the fake reminder book computes next due instants.
    ///   - ai: The AI praise provider; not configured by default, like a fresh install.
    ///   - celebrationStyle: The style the user chose for the plugin's celebrations; calm by default,
    ///     like a fresh install.
    ///   - celebrationPhrases: The phrases celebrations pick from; HoorayKit's few built-in ones by default.
    public init(
        pluginName: String, now: Date, timeZone: TimeZone = TimeZone(identifier: "UTC")!,
        nextDue: @escaping @Sendable (Schedule) -> Date? = { schedule in
            if case .once(let date) = schedule { return date }
            return nil
        },
        ai: any PraiseProvider = NoPraiseProvider(),
        celebrationStyle: CelebrationStyle = .calm,
        celebrationPhrases: CelebrationPhrases = .builtIn
    ) {
        self.ai = ai
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
            pluginName: pluginName, reminders: reminders, notices: notices, storage: storage, clock: clock,
            timeZone: timeZone, logger: logger, ai: ai, background: background, celebrations: celebrations)
    }
}

/// Celebrates exactly as the engine does, in one style, and records every celebration.
///
/// It is a `StandardCelebrationCenter` that posts to the notice board you give it (the
/// harness's ``RecordingNoticeBoard``) and remembers recent phrases in an ``InMemoryPluginStore``.
public actor RecordingCelebrationCenter: CelebrationCenter {
    /// A celebration and what came of it.
    public struct Entry: Sendable, Hashable {
        /// What the plugin celebrated.
        public var celebration: Celebration
        /// The notice posted (and the line for the terminal), or only the line.
        public var outcome: CelebrationOutcome
    }

    /// Every celebration that succeeded, in order.
    public private(set) var entries: [Entry] = []
    /// The style of every celebration.
    public nonisolated let style: CelebrationStyle
    /// Where recent phrases are remembered, under `StandardCelebrationCenter.memoryKey(style:size:)`.
    public nonisolated let memory: InMemoryPluginStore
    private let center: StandardCelebrationCenter

    /// Creates a center.
    ///
    /// - Parameters:
    ///   - style: The style of every celebration.
    ///   - notices: Where celebration notices are posted.
    ///   - phrases: The phrases celebrations pick from.
    public init(style: CelebrationStyle, notices: any NoticeBoard, phrases: CelebrationPhrases = .builtIn) {
        self.style = style
        let memory = InMemoryPluginStore()
        self.memory = memory
        center = StandardCelebrationCenter(style: style, notices: notices, memory: memory, phrases: phrases)
    }

    public func celebrate(_ celebration: Celebration) async throws -> CelebrationOutcome {
        let outcome = try await center.celebrate(celebration)
        entries.append(Entry(celebration: celebration, outcome: outcome))
        return outcome
    }

    /// What was celebrated, in order.
    public var celebrations: [Celebration] { entries.map(\.celebration) }

    /// What came of each celebration, in order.
    public var outcomes: [CelebrationOutcome] { entries.map(\.outcome) }

    /// The lines a command would have printed, in order.
    public var lines: [String] { entries.map(\.outcome.line) }
}

/// AI praise for tests: answers from a script, and records what it was asked.
public actor ScriptedPraiseProvider: PraiseProvider {
    /// The moments asked about, in order.
    public private(set) var requests: [MomentForPraise] = []
    private var script: [Result<AIPraise, AIRequestError>]

    /// Creates a provider that gives these answers in turn; when they run out it fails with
    /// ``AIRequestError/timedOut``.
    ///
    /// - Parameter answers: The answers, first to last.
    public init(_ answers: [Result<AIPraise, AIRequestError>]) {
        script = answers
    }

    public func praise(for moment: MomentForPraise) async throws -> AIPraise {
        requests.append(moment)
        guard !script.isEmpty else { throw AIRequestError.timedOut }
        return try script.removeFirst().get()
    }
}
