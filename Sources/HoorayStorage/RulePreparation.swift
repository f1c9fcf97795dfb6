import Foundation
import HoorayKit

/// A declared rule made ready to be written: built, its schedule's key found, its payload encoded.
struct PreparedRule {
    /// The reminder's schedule.
    var schedule: Schedule
    /// ``HoorayDatabase/scheduleKey(of:encoder:)``.
    var scheduleKey: String
    /// The reminder as stored.
    var payload: [UInt8]
    /// Its notice's shape, when that is new and must be written first (``NoticeShapes``).
    var newShape: NewNoticeShape?
    /// The digest stored beside it (with Hooray's version), `nil` for a rule declared without one.
    var digest: String?
    /// Its next due instant when it was asked for (a rule with nothing stored): `.some(nil)` when it
    /// will not be due again, `nil` when not asked for.
    var nextDue: Date??
}

/// What ``RulePreparer`` makes once for each schedule.
struct ScheduleFacts {
    /// ``HoorayDatabase/scheduleKey(of:encoder:)``.
    var key: String
    /// Its next due instant, once found: `.some(nil)` when it will not be due again.
    var nextDue: Date?? = nil
}

/// Builds and encodes declared rules one after the other, each schedule's key and next due
/// instant made once.
struct RulePreparer {
    let declared: [DeclaredRule]
    /// Hooray's version and a space, put before each digest.
    let prefix: String
    let computeNextDue: @Sendable (Schedule) -> Date?
    private let encoder: JSONEncoder
    private var payloads: ReminderPayloads
    // Rules that share a schedule (every weekday at 09:00 in one zone) share its key and its next
    // due instant.
    private var schedules: [Schedule: ScheduleFacts] = [:]
    private var lastSchedule: (schedule: Schedule, facts: ScheduleFacts)?

    init(
        declared: [DeclaredRule], prefix: String, shapes: NoticeShapes,
        computeNextDue: @escaping @Sendable (Schedule) -> Date?
    ) {
        self.declared = declared
        self.prefix = prefix
        self.computeNextDue = computeNextDue
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        payloads = ReminderPayloads(encoder: encoder, shapes: shapes)
    }

    /// Builds the rule at `place` and encodes it; finds its next due instant when `needsNextDue`.
    mutating func prepare(_ place: Int, needsNextDue: Bool) throws -> PreparedRule {
        let rule = declared[place]
        let digest = rule.sourceDigest.map { prefix + $0 }
        let reminder = try rule.build()
        guard reminder.id == rule.id else { throw DeclaredRuleMismatch(declared: rule.id, built: reminder.id) }
        var schedule: ScheduleFacts
        // Most rules have the schedule of the one before: compared, not hashed.
        if let lastSchedule, lastSchedule.schedule == reminder.schedule {
            schedule = lastSchedule.facts
        } else if let known = schedules[reminder.schedule] {
            schedule = known
        } else {
            schedule = ScheduleFacts(key: try HoorayDatabase.scheduleKey(of: reminder.schedule, encoder: encoder))
            schedules[reminder.schedule] = schedule
        }
        if needsNextDue, schedule.nextDue == nil {
            schedule.nextDue = .some(computeNextDue(reminder.schedule))
            schedules[reminder.schedule] = schedule
        }
        lastSchedule = (reminder.schedule, schedule)
        // A rule declared without a digest is compared with the stored one byte for byte, as
        // `JSONEncoder` wrote it; the others are written the fast way.
        let (payload, newShape) =
            try digest == nil
            ? (Array(encoder.encode(reminder)), nil) : payloads.encode(reminder)
        return PreparedRule(
            schedule: reminder.schedule, scheduleKey: schedule.key, payload: payload, newShape: newShape,
            digest: digest, nextDue: needsNextDue ? schedule.nextDue : nil)
    }
}

/// Declared rules made ready (``RulePreparer``) in the order they are written: with many, on a
/// thread of their own, a batch ahead of the writing, so that building and encoding the reminders
/// and SQLite's writing of those before them take a core each.
///
/// Each rule is built once, in the order given, as without a thread; a rule that cannot be built
/// throws when its turn comes, and none after it is built.
final class PreparedRules: @unchecked Sendable {
    /// With fewer rules than this to make ready, they are made on the writing thread.
    static let threadedCount = 8_192
    /// Rules made ready at a time.
    static let batchSize = 2_048
    /// Batches made ready and not yet taken, at most.
    static let batchesAhead = 4

    private let places: [Int]
    private let needsNextDue: [Bool]
    /// On the writing thread (``next()``) without a thread of their own.
    private var inline: RulePreparer?
    private var taken = 0

    // Shared with the thread, under `condition`.
    private let condition = NSCondition()
    private var ready: [(rules: [PreparedRule], failure: (any Error)?)] = []
    /// Batches written, handed back so that their memory is freed on the thread that made it: freed
    /// on the writing thread, each payload took a lock of the other thread's heap, and the two threads
    /// waited on each other for a fifth of the write.
    private var spent: [[PreparedRule]] = []
    private var stopped = false
    private var running = false

    // The writing thread's batch.
    private var current: [PreparedRule] = []
    private var currentAt = 0
    private var currentFailure: (any Error)?

    /// Makes the rules at `places` ready, in that order, as ``RulePreparer`` does.
    ///
    /// - Parameters:
    ///   - declared: The rules declared.
    ///   - prefix: Hooray's version and a space, put before each digest.
    ///   - shapes: The notice shapes stored.
    ///   - computeNextDue: Finds a schedule's next due instant.
    ///   - places: The places in `declared` of the rules to make ready.
    ///   - needsNextDue: For each place, whether its next due instant is to be found.
    init(
        declared: [DeclaredRule], prefix: String, shapes: NoticeShapes,
        computeNextDue: @escaping @Sendable (Schedule) -> Date?, places: [Int], needsNextDue: [Bool]
    ) {
        self.places = places
        self.needsNextDue = needsNextDue
        guard places.count >= Self.threadedCount else {
            inline = RulePreparer(declared: declared, prefix: prefix, shapes: shapes, computeNextDue: computeNextDue)
            return
        }
        running = true
        Thread.detachNewThread { [self] in
            prepareAll(RulePreparer(declared: declared, prefix: prefix, shapes: shapes, computeNextDue: computeNextDue))
        }
    }

    /// The next rule, in the order of the places given.
    func next() throws -> PreparedRule {
        defer { taken += 1 }
        if inline != nil { return try inline!.prepare(places[taken], needsNextDue: needsNextDue[taken]) }
        if currentAt == current.count {
            if let currentFailure { throw currentFailure }
            condition.lock()
            if !current.isEmpty { spent.append(current) }
            current = []
            while ready.isEmpty { condition.wait() }
            (current, currentFailure) = ready.removeFirst()
            condition.broadcast()
            condition.unlock()
            currentAt = 0
            if current.isEmpty, let currentFailure { throw currentFailure }
        }
        defer { currentAt += 1 }
        return current[currentAt]
    }

    /// Stops making rules ready and waits until the thread has ended: call it when done, or when
    /// the writing failed.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
    }

    private func prepareAll(_ preparer: consuming RulePreparer) {
        var preparer = preparer
        var start = 0
        while start < places.count {
            let end = min(start + Self.batchSize, places.count)
            var batch: [PreparedRule] = []
            batch.reserveCapacity(end - start)
            var failure: (any Error)?
            for index in start..<end {
                do {
                    batch.append(try preparer.prepare(places[index], needsNextDue: needsNextDue[index]))
                } catch {
                    failure = error
                    break
                }
            }
            condition.lock()
            while ready.count >= Self.batchesAhead && !stopped { condition.wait() }
            let goesOn = !stopped && failure == nil
            ready.append((batch, failure))
            let written = spent
            spent = []
            condition.broadcast()
            condition.unlock()
            // Freed here, outside the lock.
            _ = consume written
            guard goesOn else { break }
            start = end
        }
        condition.lock()
        running = false
        condition.broadcast()
        condition.unlock()
    }
}
