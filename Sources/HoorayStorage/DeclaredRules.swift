import Foundation
import GRDB
import HoorayKit

/// A plugin's reminder as declared to ``HoorayDatabase/replaceRules(plugin:declaring:version:now:computeNextDue:)``:
/// its id, a digest of its source, and how to build it.
public struct DeclaredRule: Sendable {
    /// The reminder's id.
    public var id: String
    /// A digest of what the reminder is built from, or `nil` when it is built every time.
    public var sourceDigest: String?
    /// Builds the reminder.
    public var build: @Sendable () throws -> Reminder

    /// Creates a declared rule.
    public init(id: String, sourceDigest: String?, build: @escaping @Sendable () throws -> Reminder) {
        self.id = id
        self.sourceDigest = sourceDigest
        self.build = build
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
    /// - Returns: The id and next due instant of each declared rule, in the order given, then of the
    ///   snoozes kept.
    @discardableResult
    public func replaceRules(
        plugin: String, declaring declared: [DeclaredRule], version: String, now: Date,
        computeNextDue: @Sendable @escaping (Schedule) -> Date?
    ) async throws -> [RuleTime] {
        try await write { db in
            var existing: [String: (digest: String?, scheduleKey: String, nextDue: Date?)] = [:]
            existing.reserveCapacity(declared.count)
            let rows = try Row.fetchCursor(
                db, sql: "SELECT reminderID, sourceDigest, scheduleKey, nextDue FROM rule WHERE plugin = ?",
                arguments: [plugin])
            while let row = try rows.next() {
                existing[row[0]] = (row[1], row[2], (row[3] as Double?).map(Date.init(unixSeconds:)))
            }
            var wanted = Set<String>()
            wanted.reserveCapacity(declared.count)
            for rule in declared { wanted.insert(rule.id) }
            var snoozes: [String] = []
            let remove = try db.makeStatement(sql: "DELETE FROM rule WHERE plugin = ? AND reminderID = ?")
            for (id, rule) in existing where !wanted.contains(id) {
                if let base = Snooze.snoozedID(of: id), rule.nextDue != nil,
                    wanted.contains(base) || existing[base] == nil
                {
                    snoozes.append(id)
                } else {
                    try remove.execute(arguments: [plugin, id])
                }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.dateEncodingStrategy = .secondsSince1970
            var scheduleKeys: [Schedule: String] = [:]
            var payloads = ReminderPayloads(encoder: encoder)
            let payloadOf = try db.makeStatement(sql: "SELECT reminder FROM rule WHERE plugin = ? AND reminderID = ?")
            let upsert = try db.makeStatement(
                sql: """
                    INSERT INTO rule (plugin, reminderID, reminder, scheduleKey, nextDue, createdAt, sourceDigest)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (plugin, reminderID) DO UPDATE SET
                        reminder = excluded.reminder, scheduleKey = excluded.scheduleKey, nextDue = excluded.nextDue,
                        sourceDigest = excluded.sourceDigest
                    """)
            var times: [RuleTime] = []
            times.reserveCapacity(declared.count + snoozes.count)
            for rule in declared {
                let digest = rule.sourceDigest.map { "\(version) \($0)" }
                let old = existing[rule.id]
                if let digest, let old, old.digest == digest {
                    times.append(RuleTime(reminderID: rule.id, nextDue: old.nextDue))
                    continue
                }
                let reminder = try rule.build()
                guard reminder.id == rule.id else { throw DeclaredRuleMismatch(declared: rule.id, built: reminder.id) }
                let scheduleKey: String
                if let known = scheduleKeys[reminder.schedule] {
                    scheduleKey = known
                } else {
                    scheduleKey = try Self.scheduleKey(of: reminder.schedule, encoder: encoder)
                    scheduleKeys[reminder.schedule] = scheduleKey
                }
                // A rule declared without a digest is compared with the stored one byte for byte, as
                // `JSONEncoder` wrote it; the others are written the fast way.
                let payload = try digest == nil ? encoder.encode(reminder) : payloads.encode(reminder)
                let nextDue: Date?
                if let old, old.scheduleKey == scheduleKey {
                    nextDue = old.nextDue
                    // Stored exactly so already, and with the same digest: nothing to write.
                    if old.digest == digest, try Data.fetchOne(payloadOf, arguments: [plugin, rule.id]) == payload {
                        times.append(RuleTime(reminderID: rule.id, nextDue: nextDue))
                        continue
                    }
                } else {
                    nextDue = computeNextDue(reminder.schedule)
                }
                try upsert.execute(
                    arguments: [plugin, rule.id, payload, scheduleKey, nextDue?.unixSeconds, now.unixSeconds, digest])
                times.append(RuleTime(reminderID: rule.id, nextDue: nextDue))
            }
            for id in snoozes.sorted() {
                times.append(RuleTime(reminderID: id, nextDue: existing[id]?.nextDue ?? nil))
            }
            return times
        }
    }
}
