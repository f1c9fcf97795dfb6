import Foundation
import GRDB
import HoorayKit

/// Reminders whose occurrences were missed while the computer was off or asleep, as
/// `hooray missed` lists them.
public struct MissedReminder: Sendable, Hashable, Codable {
    /// The plugin of the reminder.
    public var plugin: String
    /// The reminder's id.
    public var reminderID: String
    /// The reminder's title.
    public var title: String
    /// How many of its occurrences were missed.
    public var count: Int
    /// The first missed occurrence.
    public var firstDueAt: Date
    /// The last missed occurrence.
    public var lastDueAt: Date
    /// When hoorayd found them missed.
    public var recordedAt: Date

    /// Creates a record of missed occurrences.
    public init(
        plugin: String, reminderID: String, title: String, count: Int, firstDueAt: Date, lastDueAt: Date,
        recordedAt: Date
    ) {
        self.plugin = plugin
        self.reminderID = reminderID
        self.title = title
        self.count = count
        self.firstDueAt = firstDueAt
        self.lastDueAt = lastDueAt
        self.recordedAt = recordedAt
    }
}

/// How many delivery records one pruning removed.
public struct PrunedDeliveryRecords: Sendable, Hashable {
    /// Shown notices (and notices shown in digests).
    public var notices: Int
    /// Records of reminder occurrences handled.
    public var occurrences: Int
    /// Records of missed reminders.
    public var missed: Int

    /// Whether anything was removed.
    public var isEmpty: Bool { notices + occurrences + missed == 0 }
}

extension HoorayDatabase {
    /// Marks waiting notices as held back, with why and until when.
    ///
    /// Only notices still pending whose marks differ are written, so that holding them again while
    /// nothing changes writes nothing.
    ///
    /// - Parameters:
    ///   - ids: The notices.
    ///   - reason: Why they wait, for a person, such as "quiet hours until 07:30".
    ///   - until: When they will be shown, when that is known.
    public func holdNotices(_ ids: [NoticeID], because reason: String, until: Date?) async throws {
        try await write { db in
            for id in ids {
                try db.execute(
                    sql: """
                        UPDATE notice SET heldBecause = ?, heldUntil = ?
                        WHERE id = ? AND state = ? AND (heldBecause IS NOT ? OR heldUntil IS NOT ?)
                        """,
                    arguments: [
                        reason, until?.unixSeconds, id.rawValue, NoticeState.pending.rawValue, reason,
                        until?.unixSeconds,
                    ])
            }
        }
    }

    /// Notices held back now, soonest first (those held until an unknown end last).
    public func heldNotices() async throws -> [StoredNotice] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(StoredNotice.columns) FROM notice WHERE state = ? AND heldBecause IS NOT NULL
                    ORDER BY heldUntil IS NULL, heldUntil, id
                    """,
                arguments: [NoticeState.pending.rawValue]
            ).map(StoredNotice.init(row:))
        }
    }

    /// Replaces pending notices by one digest notice that lists them, in one transaction.
    ///
    /// Notices with buttons become ``NoticeState/digested``, so that `hooray inbox` keeps them until a
    /// button is pressed or their reminder is gathered into a digest again; the others are delivered,
    /// as a line of the digest.
    ///
    /// - Parameters:
    ///   - ids: The notices to gather; those no longer pending are left as they are.
    ///   - withButtons: Those of them that have buttons.
    ///   - digest: The digest notice.
    ///   - plugin: Who posts the digest (the host).
    ///   - now: When.
    /// - Returns: The digest's id, or `nil` when none of the notices was still pending.
    public func gatherIntoDigest(
        _ ids: [NoticeID], withButtons: Set<NoticeID>, digest: Notice, plugin: String, now: Date
    ) async throws -> NoticeID? {
        let payload = try encodeJSON(digest)
        return try await write { db in
            try db.execute(
                sql: "INSERT INTO notice (plugin, payload, state, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [plugin, payload, NoticeState.pending.rawValue, now.unixSeconds])
            let digestID = db.lastInsertedRowID
            var gathered = 0
            // Prepared once for every notice gathered.
            let gather = try db.cachedStatement(
                sql: """
                    UPDATE notice SET state = ?, digestID = ?, deliveredAt = ?, lastError = NULL,
                        heldUntil = NULL, heldBecause = NULL
                    WHERE id = ? AND state = ?
                    """)
            let retire = try db.cachedStatement(
                sql: """
                    UPDATE notice SET state = ?
                    WHERE state = ? AND id <> ? AND reminderID IS NOT NULL
                        AND (plugin, reminderID) = (SELECT plugin, reminderID FROM notice WHERE id = ?)
                    """)
            for id in ids {
                try gather.execute(
                    arguments: [
                        (withButtons.contains(id) ? NoticeState.digested : .delivered).rawValue, digestID,
                        now.unixSeconds, id.rawValue, NoticeState.pending.rawValue,
                    ])
                gathered += db.changesCount
                // An earlier digest's line of the same reminder has had its day: it leaves the inbox.
                try retire.execute(
                    arguments: [
                        NoticeState.delivered.rawValue, NoticeState.digested.rawValue, id.rawValue, id.rawValue,
                    ])
            }
            if gathered == 0 {
                try db.execute(sql: "DELETE FROM notice WHERE id = ?", arguments: [digestID])
                return nil
            }
            return NoticeID(rawValue: digestID)
        }
    }

    /// How many notices reached the screen since an instant, on their own or as a digest.
    public func deliveredCount(since: Date) async throws -> Int {
        try await read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM notice WHERE state = ? AND digestID IS NULL AND deliveredAt >= ?",
                arguments: [NoticeState.delivered.rawValue, since.unixSeconds]) ?? 0
        }
    }

    /// A button of a notice shown in a digest was pressed: it leaves the inbox.
    public func settleDigested(_ id: NoticeID) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE notice SET state = ? WHERE id = ? AND state = ?",
                arguments: [NoticeState.delivered.rawValue, id.rawValue, NoticeState.digested.rawValue])
        }
    }

    /// The notices shown in a digest, oldest first.
    public func notices(inDigest id: NoticeID) async throws -> [StoredNotice] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(StoredNotice.columns) FROM notice WHERE digestID = ? ORDER BY id",
                arguments: [id.rawValue]
            ).map(StoredNotice.init(row:))
        }
    }

    /// Records missed occurrences of reminders.
    public func recordMissed(_ entries: [MissedReminder]) async throws {
        guard !entries.isEmpty else { return }
        try await write { db in
            for entry in entries {
                try db.execute(
                    sql: """
                        INSERT INTO missed (plugin, reminderID, title, count, firstDueAt, lastDueAt, recordedAt)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        entry.plugin, entry.reminderID, entry.title, entry.count, entry.firstDueAt.unixSeconds,
                        entry.lastDueAt.unixSeconds, entry.recordedAt.unixSeconds,
                    ])
            }
        }
    }

    /// Missed reminders whose last missed occurrence is at or after an instant, newest first.
    public func missedReminders(since: Date) async throws -> [MissedReminder] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM missed WHERE lastDueAt >= ? ORDER BY lastDueAt DESC, id DESC",
                arguments: [since.unixSeconds]
            ).map { row in
                MissedReminder(
                    plugin: row["plugin"], reminderID: row["reminderID"], title: row["title"], count: row["count"],
                    firstDueAt: Date(unixSeconds: row["firstDueAt"]), lastDueAt: Date(unixSeconds: row["lastDueAt"]),
                    recordedAt: Date(unixSeconds: row["recordedAt"]))
            }
        }
    }

    /// Removes delivery records older than an instant: shown notices, notices shown in digests,
    /// records of handled occurrences and of missed reminders. User data is never touched, nor
    /// anything still waiting to be shown, nor the latest occurrence of each reminder (which says
    /// what was shown last, so that nothing is shown twice).
    ///
    /// - Parameter cutoff: Records from before this instant go.
    /// - Returns: How many of each went.
    @discardableResult
    public func pruneDeliveryRecords(before cutoff: Date) async throws -> PrunedDeliveryRecords {
        try await write { db in
            let seconds = cutoff.unixSeconds
            try db.execute(
                sql: """
                    DELETE FROM notice WHERE state IN (?, ?) AND COALESCE(deliveredAt, createdAt) < ?
                        AND id NOT IN (SELECT digestID FROM notice WHERE digestID IS NOT NULL AND state = ?)
                    """,
                arguments: [
                    NoticeState.delivered.rawValue, NoticeState.digested.rawValue, seconds,
                    NoticeState.digested.rawValue,
                ])
            let notices = db.changesCount
            try db.execute(
                sql: """
                    DELETE FROM occurrence WHERE handledAt < ? AND dueAt < (
                        SELECT MAX(latest.dueAt) FROM occurrence AS latest
                        WHERE latest.plugin = occurrence.plugin AND latest.reminderID = occurrence.reminderID)
                    """,
                arguments: [seconds])
            let occurrences = db.changesCount
            try db.execute(sql: "DELETE FROM missed WHERE recordedAt < ?", arguments: [seconds])
            return PrunedDeliveryRecords(notices: notices, occurrences: occurrences, missed: db.changesCount)
        }
    }
}

extension HoorayDatabase {
    /// Where a pause of notifications (`hooray pause`) is kept: under the host's name, which no
    /// plugin can have, so that it outlasts a restart of hoorayd.
    static let pauseKey = (plugin: "hooray", key: "pausedUntil")

    /// Until when notifications of reminders are paused, as last set; `nil` when no pause was set
    /// (one that ended is returned too: compare it with the clock).
    public func pausedUntil() async throws -> Date? {
        guard let data = try await pluginValue(plugin: Self.pauseKey.plugin, key: Self.pauseKey.key),
            let seconds = Double(String(decoding: data, as: UTF8.self))
        else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Keeps until when notifications of reminders are paused; `nil` forgets the pause.
    public func setPausedUntil(_ until: Date?) async throws {
        try await setPluginValue(
            until.map { Data(String($0.timeIntervalSince1970).utf8) }, plugin: Self.pauseKey.plugin,
            key: Self.pauseKey.key)
    }
}
