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
            // What is needed to tell an unchanged rule, read in place: its schedule's key and its
            // payload are read only for a rule whose digest differs.
            var existing: [String: StoredSource] = [:]
            existing.reserveCapacity(declared.count)
            let rows = try Row.fetchCursor(
                db, sql: "SELECT reminderID, sourceDigest, nextDue FROM rule WHERE plugin = ?", arguments: [plugin])
            while let row = try rows.next() {
                existing[row[0]] = StoredSource(digest: row[1], nextDue: row[2])
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.dateEncodingStrategy = .secondsSince1970
            // Rules that share a schedule (every weekday at 09:00 in one zone) share its key, its
            // JSON and its next due instant, each made once.
            var schedules: [Schedule: ScheduleFacts] = [:]
            var payloads = ReminderPayloads(encoder: encoder)
            let storedOf = try db.makeStatement(
                sql: "SELECT scheduleKey, reminder FROM rule WHERE plugin = ? AND reminderID = ?")
            let upsert = try db.makeStatement(
                sql: """
                    INSERT INTO rule (plugin, reminderID, reminder, scheduleKey, nextDue, createdAt, sourceDigest)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (plugin, reminderID) DO UPDATE SET
                        reminder = excluded.reminder, scheduleKey = excluded.scheduleKey, nextDue = excluded.nextDue,
                        sourceDigest = excluded.sourceDigest
                    """)
            var times: [RuleTime] = []
            times.reserveCapacity(declared.count)
            let prefix = "\(version) "
            for rule in declared {
                // One lookup marks it declared and reads what is stored.
                var old: StoredSource?
                if let index = existing.index(forKey: rule.id) {
                    existing.values[index].isDeclared = true
                    old = existing.values[index]
                }
                if let given = rule.sourceDigest, let stored = old?.digest,
                    Self.isDigest(stored, of: given, prefix: prefix)
                {
                    times.append(RuleTime(reminderID: rule.id, nextDue: old?.date))
                    continue
                }
                let digest = rule.sourceDigest.map { prefix + $0 }
                let reminder = try rule.build()
                guard reminder.id == rule.id else { throw DeclaredRuleMismatch(declared: rule.id, built: reminder.id) }
                var schedule: ScheduleFacts
                if let known = schedules[reminder.schedule] {
                    schedule = known
                } else {
                    schedule = ScheduleFacts(
                        key: try Self.scheduleKey(of: reminder.schedule, encoder: encoder),
                        json: Array(try encoder.encode(reminder.schedule)))
                    schedules[reminder.schedule] = schedule
                }
                // A rule declared without a digest is compared with the stored one byte for byte, as
                // `JSONEncoder` wrote it; the others are written the fast way.
                let payload =
                    try digest == nil ? encoder.encode(reminder) : payloads.encode(reminder, schedule: schedule.json)
                let nextDue: Date?
                if let old, let stored = try Row.fetchOne(storedOf, arguments: [plugin, rule.id]),
                    stored[0] == schedule.key
                {
                    nextDue = old.date
                    // Stored exactly so already, and with the same digest: nothing to write.
                    if old.digest == digest, stored[1] == payload {
                        times.append(RuleTime(reminderID: rule.id, nextDue: nextDue))
                        continue
                    }
                } else if let known = schedule.nextDue {
                    nextDue = known
                } else {
                    nextDue = computeNextDue(reminder.schedule)
                    schedule.nextDue = .some(nextDue)
                    schedules[reminder.schedule] = schedule
                }
                try upsert.execute(
                    arguments: [
                        plugin, rule.id, payload, schedule.key, nextDue?.unixSeconds, now.unixSeconds, digest,
                    ])
                times.append(RuleTime(reminderID: rule.id, nextDue: nextDue))
            }
            // The rules no longer declared are removed, but for snoozes still to come of a reminder
            // that stays, or of a notice that came from no reminder.
            var snoozes: [String] = []
            let remove = try db.makeStatement(sql: "DELETE FROM rule WHERE plugin = ? AND reminderID = ?")
            for (id, rule) in existing where !rule.isDeclared {
                if let base = Snooze.snoozedID(of: id), rule.nextDue != nil, existing[base]?.isDeclared ?? true {
                    snoozes.append(id)
                } else {
                    try remove.execute(arguments: [plugin, id])
                }
            }
            for id in snoozes.sorted() {
                times.append(RuleTime(reminderID: id, nextDue: existing[id]?.date))
            }
            return times
        }
    }
}

/// What ``HoorayDatabase/replaceRules(plugin:declaring:version:now:computeNextDue:)`` makes once for
/// each schedule.
private struct ScheduleFacts {
    /// ``HoorayDatabase/scheduleKey(of:encoder:)``.
    var key: String
    /// The schedule as `JSONEncoder` writes it.
    var json: [UInt8]
    /// Its next due instant, once found: `.some(nil)` when it will not be due again.
    var nextDue: Date?? = nil
}

/// What ``HoorayDatabase/replaceRules(plugin:declaring:version:now:computeNextDue:)`` reads of each
/// stored rule up front.
private struct StoredSource {
    var digest: String?
    /// The next due instant, in seconds since 1970.
    var nextDue: Double?
    /// Whether a rule with its id is declared.
    var isDeclared = false

    var date: Date? { nextDue.map(Date.init(unixSeconds:)) }
}

extension HoorayDatabase {
    /// Whether a stored digest is `prefix` followed by `digest`, compared without making the string.
    fileprivate static func isDigest(_ stored: String, of digest: String, prefix: String) -> Bool {
        var (stored, digest, prefix) = (stored, digest, prefix)
        return stored.withUTF8 { whole in
            prefix.withUTF8 { prefix in
                digest.withUTF8 { digest in
                    whole.count == prefix.count + digest.count && whole[..<prefix.count].elementsEqual(prefix)
                        && whole[prefix.count...].elementsEqual(digest)
                }
            }
        }
    }
}
