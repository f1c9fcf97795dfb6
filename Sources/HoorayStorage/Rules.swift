import Foundation
import GRDB
import HoorayCalendar
import HoorayKit

/// A reminder rule as stored: which plugin owns it, the reminder, and its next due instant.
public struct StoredRule: Sendable, Hashable {
    /// The owning plugin's name.
    public var plugin: String
    /// The reminder.
    public var reminder: Reminder
    /// The next due instant (UTC), or `nil` when it will not be due again.
    public var nextDue: Date?
    /// For a snooze (``HoorayKit/Snooze``), the due instant of the occurrence it brings back; `nil`
    /// for a plugin's own reminder, and for a snooze of a notice that came from no reminder.
    public var snoozedDueAt: Date?

    /// Creates a stored rule.
    public init(plugin: String, reminder: Reminder, nextDue: Date?, snoozedDueAt: Date? = nil) {
        self.plugin = plugin
        self.reminder = reminder
        self.nextDue = nextDue
        self.snoozedDueAt = snoozedDueAt
    }
}

/// One occurrence of a reminder as handled: what ``HoorayDatabase/recordOccurrences(_:now:)`` records.
public struct HandledOccurrence: Sendable {
    /// The owning plugin.
    public var plugin: String
    /// The reminder's id.
    public var reminderID: String
    /// The occurrence's due instant.
    public var dueAt: Date
    /// For a snooze, the due instant of the occurrence it brings back: the queued notice is about
    /// that one, and its buttons are told so.
    public var snoozedDueAt: Date?
    /// The notice to queue, or `nil` when the occurrence is suppressed or skipped.
    public var notice: Notice?
    /// What happened to it.
    public var outcome: OccurrenceOutcome
    /// The rule's next due instant after this occurrence.
    public var nextDue: Date?

    /// Creates a handled occurrence.
    public init(
        plugin: String, reminderID: String, dueAt: Date, snoozedDueAt: Date? = nil, notice: Notice?,
        outcome: OccurrenceOutcome, nextDue: Date?
    ) {
        self.plugin = plugin
        self.reminderID = reminderID
        self.dueAt = dueAt
        self.snoozedDueAt = snoozedDueAt
        self.notice = notice
        self.outcome = outcome
        self.nextDue = nextDue
    }
}

/// What happened to one occurrence of a reminder.
public enum OccurrenceOutcome: String, Sendable, Codable {
    /// A notice was queued for delivery.
    case shown
    /// The plugin chose to show nothing this time.
    case suppressed
    /// It was missed while the computer was off or asleep, beyond the catch-up limit.
    case skipped
}

extension HoorayDatabase {
    /// Adds or replaces a plugin's reminder.
    ///
    /// When the stored reminder has the same schedule its next due instant is kept, so that
    /// re-activating a plugin never re-fires or skips an occurrence; otherwise `nextDue` is
    /// computed afresh by `computeNextDue`.
    ///
    /// - Parameters:
    ///   - plugin: The owning plugin.
    ///   - reminder: The reminder.
    ///   - snoozedDueAt: For a snooze, the due instant of the occurrence it brings back.
    ///   - now: The current time.
    ///   - computeNextDue: Computes the next due instant of a new or changed schedule.
    /// - Returns: The rule as stored.
    @discardableResult
    public func upsertRule(
        plugin: String, reminder: Reminder, snoozedDueAt: Date? = nil, now: Date,
        computeNextDue: @Sendable @escaping (Schedule) -> Date?
    ) async throws -> StoredRule {
        let payload = try encodeJSON(reminder)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        let scheduleKey = try Self.scheduleKey(of: reminder.schedule, encoder: encoder)
        return try await write { db in
            let existing = try Row.fetchOne(
                db, sql: "SELECT scheduleKey, nextDue FROM rule WHERE plugin = ? AND reminderID = ?",
                arguments: [plugin, reminder.id])
            let nextDue: Date?
            if let existing, existing["scheduleKey"] as String == scheduleKey {
                nextDue = (existing["nextDue"] as Double?).map(Date.init(unixSeconds:))
            } else {
                nextDue = computeNextDue(reminder.schedule)
            }
            try db.execute(
                sql: """
                    INSERT INTO rule (plugin, reminderID, reminder, scheduleKey, nextDue, createdAt, snoozedDueAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (plugin, reminderID) DO UPDATE SET
                        reminder = excluded.reminder, scheduleKey = excluded.scheduleKey, nextDue = excluded.nextDue,
                        snoozedDueAt = excluded.snoozedDueAt, sourceDigest = NULL
                    """,
                arguments: [
                    plugin, reminder.id, payload, scheduleKey, nextDue?.unixSeconds, now.unixSeconds,
                    snoozedDueAt?.unixSeconds,
                ])
            // A snooze moves on with the plan; any other rule is not what the plugin declared.
            if Snooze.snoozedID(of: reminder.id) == nil { try Self.forgetDeclaration(of: plugin, in: db) }
            return StoredRule(plugin: plugin, reminder: reminder, nextDue: nextDue, snoozedDueAt: snoozedDueAt)
        }
    }

    /// Makes a plugin's reminders exactly `reminders`, in one transaction: each is added or
    /// replaced as ``upsertRule(plugin:reminder:now:computeNextDue:)`` would, and every other rule of
    /// the plugin is removed — except snoozes still to come (``HoorayKit/Snooze``) of a reminder
    /// that stays, or of a notice that came from no reminder.
    ///
    /// A plugin declaring thousands of reminders at start costs one transaction, not one each, and
    /// a reminder stored exactly so already (the same payload and schedule) is not written again:
    /// only what changed is re-planned and rewritten.
    ///
    /// - Returns: The plugin's rules as stored, in the order given, then the snoozes kept.
    @discardableResult
    public func replaceRules(
        plugin: String, with reminders: [Reminder], now: Date,
        computeNextDue: @Sendable @escaping (Schedule) -> Date?
    ) async throws -> [StoredRule] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        // Encoding is most of the cost of declaring many rules; rules that share a schedule (every
        // weekday at 09:00 in one zone) share its key, encoded once.
        var scheduleKeys: [Schedule: String] = [:]
        let encoded = try reminders.map { reminder in
            let scheduleKey: String
            if let known = scheduleKeys[reminder.schedule] {
                scheduleKey = known
            } else {
                scheduleKey = try Self.scheduleKey(of: reminder.schedule, encoder: encoder)
                scheduleKeys[reminder.schedule] = scheduleKey
            }
            return (reminder, try encoder.encode(reminder), scheduleKey)
        }
        return try await write { db in
            var existing: [String: (payload: Data, scheduleKey: String, nextDue: Date?)] = [:]
            existing.reserveCapacity(reminders.count)
            let rows = try Row.fetchCursor(
                db, sql: "SELECT reminderID, reminder, scheduleKey, nextDue FROM rule WHERE plugin = ?",
                arguments: [plugin])
            while let row = try rows.next() {
                existing[row[0]] = (row[1], row[2], (row[3] as Double?).map(Date.init(unixSeconds:)))
            }
            let wanted = Set(reminders.map(\.id))
            let remove = try db.makeStatement(sql: "DELETE FROM rule WHERE plugin = ? AND reminderID = ?")
            var snoozes: [String] = []
            for (id, rule) in existing where !wanted.contains(id) {
                if let base = Snooze.snoozedID(of: id), rule.nextDue != nil,
                    wanted.contains(base) || existing[base] == nil
                {
                    snoozes.append(id)
                } else {
                    try remove.execute(arguments: [plugin, id])
                }
            }
            let upsert = try db.makeStatement(
                sql: """
                    INSERT INTO rule (plugin, reminderID, reminder, scheduleKey, nextDue, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (plugin, reminderID) DO UPDATE SET
                        reminder = excluded.reminder, scheduleKey = excluded.scheduleKey, nextDue = excluded.nextDue,
                        sourceDigest = NULL
                    """)
            let stored = try encoded.map { reminder, payload, scheduleKey in
                let nextDue: Date?
                if let old = existing[reminder.id], old.scheduleKey == scheduleKey {
                    nextDue = old.nextDue
                    // Stored exactly so already: writing it again would change nothing but cost a
                    // write per rule on every start.
                    if old.payload == payload {
                        return StoredRule(plugin: plugin, reminder: reminder, nextDue: nextDue)
                    }
                } else {
                    nextDue = computeNextDue(reminder.schedule)
                }
                try upsert.execute(
                    arguments: [plugin, reminder.id, payload, scheduleKey, nextDue?.unixSeconds, now.unixSeconds])
                return StoredRule(plugin: plugin, reminder: reminder, nextDue: nextDue)
            }
            // Whatever it changed, these are not rules the plugin declared.
            try Self.forgetDeclaration(of: plugin, in: db)
            var reader = StoredRuleReader(db)
            let kept = try snoozes.sorted().compactMap { id in
                try Row.fetchOne(
                    db, sql: "SELECT * FROM rule WHERE plugin = ? AND reminderID = ?", arguments: [plugin, id]
                ).map { try reader.rule(from: $0) }
            }
            return stored + kept
        }
    }

    /// What tells whether a stored rule's schedule changed: the schedule's JSON, with the days of a
    /// weekly schedule in order.
    ///
    /// A `Set` is encoded in its iteration order, which changes from one process to the next (each
    /// seeds its hashing at random), so the plain JSON of the same weekly schedule differed from one
    /// start to the next, and the rule was planned again as if it had changed.
    static func scheduleKey(of schedule: Schedule, encoder: JSONEncoder) throws -> String {
        let data: Data
        if case .weekly(let days, let time, let zone) = schedule {
            data = try encoder.encode(WeeklyScheduleKey(weekly: .init(on: days.sorted(), at: time, zone: zone)))
        } else {
            data = try encoder.encode(schedule)
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A weekly ``HoorayKit/Schedule`` as its synthesized `Encodable` conformance writes it, with
    /// its days in order.
    private struct WeeklyScheduleKey: Encodable {
        struct Fields: Encodable {
            var on: [Weekday]
            var at: TimeOfDay
            var zone: TimeZone
        }
        var weekly: Fields
    }

    /// Removes a plugin's reminder. Its fired occurrences stay recorded.
    public func removeRule(plugin: String, reminderID: String) async throws {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM rule WHERE plugin = ? AND reminderID = ?", arguments: [plugin, reminderID])
        }
    }

    /// Every rule, or one plugin's, ordered by next due instant (rules never due again last).
    public func rules(plugin: String? = nil) async throws -> [StoredRule] {
        try await read { db in
            let rows: [Row]
            let order = "ORDER BY nextDue IS NULL, nextDue, plugin, reminderID"
            if let plugin {
                rows = try Row.fetchAll(db, sql: "SELECT * FROM rule WHERE plugin = ? \(order)", arguments: [plugin])
            } else {
                rows = try Row.fetchAll(db, sql: "SELECT * FROM rule \(order)")
            }
            var reader = StoredRuleReader(db)
            return try rows.map { try reader.rule(from: $0) }
        }
    }

    /// Every rule's key and next due instant, without decoding the reminders: what the scheduler
    /// needs to plan, however many rules there are.
    public func ruleTimes() async throws -> [(plugin: String, reminderID: String, nextDue: Date?)] {
        try await read { db in
            // Read in place, by column index: no copy of each row, no lookup of each column's name.
            var times: [(plugin: String, reminderID: String, nextDue: Date?)] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT plugin, reminderID, nextDue FROM rule")
            while let row = try rows.next() {
                times.append((row[0], row[1], (row[2] as Double?).map(Date.init(unixSeconds:))))
            }
            return times
        }
    }

    /// The key and next due instant of each rule of these plugins, as ``ruleTimes()`` reads them.
    ///
    /// - Parameter plugins: The plugins' names; none reads nothing.
    public func ruleTimes(plugins: Set<String>) async throws -> [(plugin: String, reminderID: String, nextDue: Date?)] {
        guard !plugins.isEmpty else { return [] }
        return try await read { db in
            var times: [(plugin: String, reminderID: String, nextDue: Date?)] = []
            let statement = try db.cachedStatement(
                sql: "SELECT plugin, reminderID, nextDue FROM rule WHERE plugin = ?")
            for plugin in plugins.sorted() {
                let rows = try Row.fetchCursor(statement, arguments: [plugin])
                while let row = try rows.next() {
                    times.append((row[0], row[1], (row[2] as Double?).map(Date.init(unixSeconds:))))
                }
            }
            return times
        }
    }

    /// The rules due soonest, and how many rules will be due at all.
    ///
    /// - Parameter limit: How many to return at most.
    /// - Returns: Up to `limit` rules, soonest first, and the count of rules with a next due instant.
    public func upcomingRules(limit: Int) async throws -> (rules: [StoredRule], total: Int) {
        try await read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM rule WHERE nextDue IS NOT NULL ORDER BY nextDue, plugin, reminderID LIMIT ?",
                arguments: [limit])
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM rule WHERE nextDue IS NOT NULL") ?? 0
            var reader = StoredRuleReader(db)
            return (try rows.map { try reader.rule(from: $0) }, total)
        }
    }

    /// One rule, or `nil`.
    public func rule(plugin: String, reminderID: String) async throws -> StoredRule? {
        try await read { db in
            var reader = StoredRuleReader(db)
            return try Row.fetchOne(
                db, sql: "SELECT * FROM rule WHERE plugin = ? AND reminderID = ?", arguments: [plugin, reminderID]
            ).map { try reader.rule(from: $0) }
        }
    }

    /// Records the handling of one occurrence and moves the rule on, in one transaction.
    ///
    /// The occurrence key is (plugin, reminder, due instant). When that key was already recorded —
    /// after a restart, a crash or a clock rewind — nothing new is queued, so no occurrence is ever
    /// shown twice. When a notice is given and the key is new, the notice is queued for delivery
    /// in the same transaction, so no occurrence is ever lost either.
    ///
    /// - Parameters:
    ///   - plugin: The owning plugin.
    ///   - reminderID: The reminder's id.
    ///   - dueAt: The occurrence's due instant.
    ///   - snoozedDueAt: For a snooze, the due instant of the occurrence it brings back: the queued
    ///     notice is about that one, and its buttons are told so.
    ///   - notice: The notice to queue, or `nil` when the occurrence is suppressed or skipped.
    ///   - outcome: What happened to it.
    ///   - nextDue: The rule's next due instant after this occurrence.
    ///   - now: The current time.
    /// - Returns: The queued notice's id, or `nil` when nothing was queued (including a repeat).
    @discardableResult
    public func recordOccurrence(
        plugin: String, reminderID: String, dueAt: Date, snoozedDueAt: Date? = nil, notice: Notice?,
        outcome: OccurrenceOutcome, nextDue: Date?, now: Date
    ) async throws -> NoticeID? {
        let occurrence = HandledOccurrence(
            plugin: plugin, reminderID: reminderID, dueAt: dueAt, snoozedDueAt: snoozedDueAt, notice: notice,
            outcome: outcome, nextDue: nextDue)
        return try await recordOccurrences([occurrence], now: now)[0]
    }

    /// Records the handling of several occurrences and moves their rules on, in one transaction: as
    /// ``recordOccurrence(plugin:reminderID:dueAt:snoozedDueAt:notice:outcome:nextDue:now:)`` does for
    /// each, so that reminders due together cost one write.
    ///
    /// - Returns: For each occurrence, in order, its queued notice's id, or `nil` when nothing was queued.
    public func recordOccurrences(_ occurrences: [HandledOccurrence], now: Date) async throws -> [NoticeID?] {
        let payloads = try occurrences.map { try $0.notice.map(encodeJSON) }
        return try await write { db in
            try zip(occurrences, payloads).map { occurrence, payload in
                try Self.record(occurrence, payload: payload, now: now, in: db)
            }
        }
    }

    static func record(_ occurrence: HandledOccurrence, payload: Data?, now: Date, in db: Database) throws -> NoticeID?
    {
        let key: StatementArguments = [occurrence.plugin, occurrence.reminderID]
        try db.cachedStatement(sql: "UPDATE rule SET nextDue = ? WHERE plugin = ? AND reminderID = ?")
            .execute(arguments: [occurrence.nextDue?.unixSeconds] + key)
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO occurrence (plugin, reminderID, dueAt, handledAt, outcome)
                VALUES (?, ?, ?, ?, ?)
                """
        ).execute(arguments: key + [occurrence.dueAt.unixSeconds, now.unixSeconds, occurrence.outcome.rawValue])
        guard db.changesCount == 1, let payload else { return nil }
        try db.cachedStatement(
            sql: """
                INSERT INTO notice (plugin, reminderID, dueAt, payload, state, createdAt)
                VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: key + [
                (occurrence.snoozedDueAt ?? occurrence.dueAt).unixSeconds, payload, NoticeState.pending.rawValue,
                now.unixSeconds,
            ])
        let id = db.lastInsertedRowID
        try db.cachedStatement(
            sql: "UPDATE occurrence SET noticeID = ? WHERE plugin = ? AND reminderID = ? AND dueAt = ?"
        ).execute(arguments: [id] + key + [occurrence.dueAt.unixSeconds])
        return NoticeID(rawValue: id)
    }

    /// The stored rules of several reminders, read at once.
    ///
    /// - Returns: For each (plugin, reminder id), in order, its rule, or `nil` when there is none.
    public func rules(_ keys: [(plugin: String, reminderID: String)]) async throws -> [StoredRule?] {
        try await read { db in
            let statement = try db.cachedStatement(sql: "SELECT * FROM rule WHERE plugin = ? AND reminderID = ?")
            var reader = StoredRuleReader(db)
            return try keys.map { key in
                try Row.fetchOne(statement, arguments: [key.plugin, key.reminderID]).map { try reader.rule(from: $0) }
            }
        }
    }

    /// Whether each of several occurrences has been handled already, read at once.
    public func hasOccurrences(_ occurrences: [(plugin: String, reminderID: String, dueAt: Date)]) async throws
        -> [Bool]
    {
        try await read { db in
            let statement = try db.cachedStatement(
                sql: "SELECT EXISTS (SELECT 1 FROM occurrence WHERE plugin = ? AND reminderID = ? AND dueAt = ?)")
            return try occurrences.map { occurrence in
                try Bool.fetchOne(
                    statement, arguments: [occurrence.plugin, occurrence.reminderID, occurrence.dueAt.unixSeconds])
                    ?? false
            }
        }
    }

    /// Whether an occurrence has been handled already.
    public func hasOccurrence(plugin: String, reminderID: String, dueAt: Date) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(
                db,
                sql: "SELECT EXISTS (SELECT 1 FROM occurrence WHERE plugin = ? AND reminderID = ? AND dueAt = ?)",
                arguments: [plugin, reminderID, dueAt.unixSeconds]) ?? false
        }
    }

    /// The due instant of a reminder's latest recorded occurrence, or `nil` when none was recorded.
    public func latestOccurrence(plugin: String, reminderID: String) async throws -> Date? {
        try await read { db in
            try Double.fetchOne(
                db, sql: "SELECT MAX(dueAt) FROM occurrence WHERE plugin = ? AND reminderID = ?",
                arguments: [plugin, reminderID]
            ).map(Date.init(unixSeconds:))
        }
    }

    /// How many occurrences have been recorded, for one reminder or all.
    public func occurrenceCount(plugin: String? = nil, reminderID: String? = nil) async throws -> Int {
        try await read { db in
            if let plugin, let reminderID {
                return try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM occurrence WHERE plugin = ? AND reminderID = ?",
                    arguments: [plugin, reminderID]) ?? 0
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM occurrence") ?? 0
        }
    }
}

extension HoorayDatabase {
    /// Moves a rule's next due instant without recording an occurrence.
    public func setNextDue(plugin: String, reminderID: String, nextDue: Date?) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE rule SET nextDue = ? WHERE plugin = ? AND reminderID = ?",
                arguments: [nextDue?.unixSeconds, plugin, reminderID])
        }
    }
}
