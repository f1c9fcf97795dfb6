import Foundation
import GRDB
import HoorayKit

/// A plugin's reminder as declared to ``HoorayDatabase/replaceRules(plugin:declaring:version:now:key:computeNextDue:)``:
/// its id, a digest of its source, and how to build it. The plugin's own declaration, handed on as it
/// is: 100,000 of them are not copied into another type.
public typealias DeclaredRule = DeclaredReminder

extension DeclaredReminder {
    /// Declares a rule with a digest of its source, or with none when it is built every time.
    public init(id: String, sourceDigest: String?, build: @escaping @Sendable () throws -> Reminder) {
        self.init(id: id, sourceDigest: "", build: build)
        self.sourceDigest = sourceDigest
    }
}

/// A rule's id and next due instant, as the scheduler needs them.
public struct RuleTime: Sendable, Hashable {
    /// The reminder's id.
    public var reminderID: String
    /// The next due instant, or `nil` when it will not be due again.
    public var nextDue: Date?
}

/// A declared reminder whose built id is not the one it was declared with (a plugin's mistake).
public struct DeclaredRuleMismatch: Error, CustomStringConvertible {
    /// The id it was declared with.
    public var declared: String
    /// The id of the reminder built for it.
    public var built: String
    public var description: String {
        "internal error: the reminder declared as \(declared) was built as \(built)"
    }
}

extension HoorayDatabase {
    /// Makes a plugin's reminders exactly those declared, in one transaction, as
    /// ``replaceRules(plugin:with:now:computeNextDue:)`` does — building, encoding and writing only
    /// the reminders whose source changed.
    ///
    /// Each rule keeps the digest of its source beside it (with `version`, Hooray's, so that a newer
    /// Hooray builds each once again). A declared rule whose stored digest is the same is left as it
    /// is, next due instant and all: at a restart with 100,000 unchanged reminders nothing is built,
    /// encoded or written. A rule declared without a digest is built and stored as
    /// ``replaceRules(plugin:with:now:computeNextDue:)`` stores it (written only when it changed).
    ///
    /// The plugin's declaration key (``declaredRuleTimes(plugin:key:version:)``) is stored with the
    /// rules, or forgotten when `key` is `nil`.
    ///
    /// - Returns: The id and next due instant of each declared rule, in the order given, then of the
    ///   snoozes kept.
    @discardableResult
    public func replaceRules(
        plugin: String, declaring declared: [DeclaredRule], version: String, now: Date, key: String? = nil,
        computeNextDue: @Sendable @escaping (Schedule) -> Date?
    ) async throws -> [RuleTime] {
        try await replaceRules(
            plugin: plugin, declaring: declared, version: version, now: now, key: key, computeNextDue: computeNextDue
        ) { $0 }
    }

    /// ``replaceRules(plugin:declaring:version:now:key:computeNextDue:)``, handing the times to
    /// `planning` as soon as they are known: with many, on a thread of its own while SQLite makes
    /// the next-due index and commits.
    ///
    /// - Returns: What `planning` made of the times.
    public func replaceRules<Plan: Sendable>(
        plugin: String, declaring declared: [DeclaredRule], version: String, now: Date, key: String? = nil,
        computeNextDue: @Sendable @escaping (Schedule) -> Date?,
        planning: @Sendable @escaping ([RuleTime]) -> Plan
    ) async throws -> Plan {
        // At a first start with many reminders the log grows past 50 MB: it is copied into the
        // database file after the start (`checkpoint()`), not before hoorayd answers.
        try await writeLeavingCheckpoint { db in
            // Each declared id's place, then what is stored of each in one pass over the plugin's rules,
            // read in place: a stored digest is compared where SQLite keeps it, and a rule whose
            // digest differs has its schedule's key and its payload read later, alone. With none
            // stored (a first start) there is nothing to find, and no places are needed: an id
            // declared twice is written twice, the last one last, as below.
            let prefix = "\(version) "
            var stored = [StoredSource?](repeating: nil, count: declared.count)
            var undeclared: [(id: String, nextDue: Double?)] = []
            var places: [String: Int] = [:]
            var repeated: [Int] = []
            if try StoredRuleRows.exist(in: db, plugin: plugin) {
                places.reserveCapacity(declared.count)
                for (place, rule) in declared.enumerated() {
                    if let earlier = places.updateValue(place, forKey: rule.id) { repeated.append(earlier) }
                }
            }
            try StoredRuleRows.forEach(in: db, plugin: plugin) { row in
                guard let place = places[row.id] else {
                    undeclared.append((row.id, row.nextDue))
                    return
                }
                let digest = declared[place].sourceDigest
                stored[place] = StoredSource(
                    hasDigest: row.hasDigest, isSameDigest: digest.map { row.isDigest(prefix: prefix, $0) } ?? false,
                    nextDue: row.nextDue)
            }
            // An id declared twice: the earlier ones find what is stored of it too. Unless all have one
            // digest, each is built and written, the last one last, so that it is the one stored.
            for place in repeated {
                let last = places[declared[place].id]!
                stored[place] = stored[last]
                if declared[place].sourceDigest != declared[last].sourceDigest {
                    stored[place]?.isSameDigest = false
                    stored[last]?.isSameDigest = false
                }
            }
            // Each rule to write is built and encoded by `RulePreparer`: with many, on a thread of its
            // own while SQLite writes those before it.
            var toWrite: [Int] = []
            var needsNextDue: [Bool] = []
            for place in declared.indices where stored[place]?.isSameDigest != true {
                toWrite.append(place)
                needsNextDue.append(stored[place] == nil)
            }
            let prepared = PreparedRules(
                declared: declared, prefix: prefix, shapes: try NoticeShapes.read(in: db),
                computeNextDue: computeNextDue, places: toWrite, needsNextDue: needsNextDue)
            defer { prepared.stop() }
            // Many rules to write (a first start, a new Hooray): the next-due index is made once
            // afterwards rather than kept in order row by row.
            let indexAfter = try NextDueIndex.dropForBulkWrite(in: db, writing: toWrite.count)
            // A stored rule whose schedule changed is planned anew, once for each schedule.
            var planned: [Schedule: Date?] = [:]
            let storedOf = try db.makeStatement(
                sql: "SELECT scheduleKey, reminder FROM rule WHERE plugin = ? AND reminderID = ?")
            let upsert = try RuleUpsert(db)
            var times: [RuleTime] = []
            times.reserveCapacity(declared.count)
            for place in declared.indices {
                let id = declared[place].id
                let old = stored[place]
                if old?.isSameDigest == true {
                    times.append(RuleTime(reminderID: id, nextDue: old?.date))
                    continue
                }
                let ready = try prepared.next()
                if let shape = ready.newShape { try NoticeShapes.write(shape, in: db) }
                let nextDue: Date?
                if let old {
                    if let row = try Row.fetchOne(storedOf, arguments: [plugin, id]), row[0] == ready.scheduleKey {
                        nextDue = old.date
                        // Stored exactly so already, and with no digest either: nothing to write.
                        if ready.digest == nil, !old.hasDigest, (row[1] as Data).elementsEqual(ready.payload) {
                            times.append(RuleTime(reminderID: id, nextDue: nextDue))
                            continue
                        }
                    } else if let known = planned[ready.schedule] {
                        nextDue = known
                    } else {
                        nextDue = computeNextDue(ready.schedule)
                        planned[ready.schedule] = .some(nextDue)
                    }
                } else {
                    nextDue = ready.nextDue ?? computeNextDue(ready.schedule)
                }
                try upsert.write(
                    plugin: plugin, id: id, payload: ready.payload, scheduleKey: ready.scheduleKey,
                    nextDue: nextDue?.unixSeconds, createdAt: now.unixSeconds, digest: ready.digest)
                times.append(RuleTime(reminderID: id, nextDue: nextDue))
            }
            // The rules no longer declared are removed, but for snoozes still to come of a reminder
            // that stays, or of a notice that came from no reminder.
            let gone = Set(undeclared.map(\.id))
            var snoozes: [(id: String, nextDue: Double?)] = []
            let remove = try db.makeStatement(sql: "DELETE FROM rule WHERE plugin = ? AND reminderID = ?")
            for rule in undeclared {
                if let base = Snooze.snoozedID(of: rule.id), rule.nextDue != nil, !gone.contains(base) {
                    snoozes.append(rule)
                } else {
                    try remove.execute(arguments: [plugin, rule.id])
                }
            }
            for snooze in snoozes.sorted(by: { $0.id < $1.id }) {
                times.append(RuleTime(reminderID: snooze.id, nextDue: snooze.nextDue.map(Date.init(unixSeconds:))))
            }
            let plan = PlannedAside(times, count: times.count, planning)
            if indexAfter { try NextDueIndex.create(in: db) }
            try Self.storeDeclarationKey(
                key.map { "\(version) \($0)" }, plugin: plugin, reminders: declared.count, in: db)
            return plan
        }.take()
    }
}

/// What ``HoorayDatabase/replaceRules(plugin:declaring:version:now:key:computeNextDue:)`` reads of each
/// stored rule up front.
private struct StoredSource {
    /// Whether the rule is stored with a digest at all.
    var hasDigest: Bool
    /// Whether it is stored with the digest it is declared with now.
    var isSameDigest: Bool
    /// The next due instant, in seconds since 1970.
    var nextDue: Double?

    var date: Date? { nextDue.map(Date.init(unixSeconds:)) }
}

/// What `planning` makes of the times: with many, made on a thread of its own (``value`` waits for
/// it), with few made here.
private final class PlannedAside<Times: Sendable, Plan: Sendable>: @unchecked Sendable {
    /// From this many times on, they are planned on a thread of their own.
    static var threadedCount: Int { 10_000 }

    private let condition = NSCondition()
    private var plan: Plan?

    init(_ times: Times, count: Int, _ planning: @Sendable @escaping (Times) -> Plan) {
        guard count >= Self.threadedCount else {
            plan = planning(times)
            return
        }
        Thread.detachNewThread { [self] in
            let made = planning(times)
            condition.lock()
            plan = made
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The plan, once made, taken away: what it holds is the caller's alone, not shared with this.
    func take() -> Plan {
        condition.lock()
        defer { condition.unlock() }
        while plan == nil { condition.wait() }
        return plan.take()!
    }
}
