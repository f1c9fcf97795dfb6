import Foundation
import GRDB
import HoorayKit

/// Where a notice is on its way to the screen.
public enum NoticeState: String, Sendable, Codable, CaseIterable {
    /// Waiting to be shown: new, updated, or kept because no notification server was reachable.
    case pending
    /// Being handed to the notification server right now.
    case sending
    /// The notification server accepted it.
    case delivered
    /// A hand-over was under way when the daemon stopped unexpectedly; it may or may not have
    /// appeared. It is not sent again, so that nothing is shown twice; `hooray inbox` keeps it.
    case unconfirmed
    /// Shown as a line of a digest notice (``StoredNotice/digestID``) rather than on its own; its
    /// buttons are reachable through `hooray inbox` and `hooray act`.
    case digested
}

/// A notice as stored, with its delivery state.
public struct StoredNotice: Sendable, Hashable, Identifiable {
    /// The notice's id.
    public var id: NoticeID
    /// The plugin that posted it.
    public var plugin: String
    /// The reminder it came from, if any.
    public var reminderID: String?
    /// The due instant of the reminder occurrence it came from, if any.
    public var dueAt: Date?
    /// The notice itself.
    public var notice: Notice
    /// Its delivery state.
    public var state: NoticeState
    /// Each delivery channel's handle for it, by channel name, once shown (used to update it in place).
    public var handles: [String: String]
    /// How many times delivery was tried.
    public var attempts: Int
    /// Why the last delivery attempt failed, if it did.
    public var lastError: String?
    /// When it was posted.
    public var createdAt: Date
    /// When the server accepted it.
    public var deliveredAt: Date?
    /// How many times its content was updated; pass it back to ``HoorayDatabase/markDelivered(_:handles:now:revision:)``.
    public var revision: Int
    /// While it is held back (quiet hours), when it will be shown; `nil` when it is not held or
    /// held until something ends whose end is not known (do-not-disturb).
    public var heldUntil: Date?
    /// Why it is held back, for a person, while it is.
    public var heldBecause: String?
    /// The digest notice it was shown in, when it was.
    public var digestID: NoticeID?

    init(row: Row) throws {
        id = NoticeID(rawValue: row["id"])
        plugin = row["plugin"]
        reminderID = row["reminderID"]
        dueAt = (row["dueAt"] as Double?).map(Date.init(unixSeconds:))
        notice = try decodeJSON(Notice.self, row["payload"])
        state = NoticeState(rawValue: row["state"]) ?? .pending
        handles = try Self.handles(in: row)
        attempts = row["attempts"]
        lastError = row["lastError"]
        createdAt = Date(unixSeconds: row["createdAt"])
        deliveredAt = (row["deliveredAt"] as Double?).map(Date.init(unixSeconds:))
        revision = row["revision"]
        heldUntil = (row["heldUntil"] as Double?).map(Date.init(unixSeconds:))
        heldBecause = row["heldBecause"]
        digestID = (row["digestID"] as Int64?).map(NoticeID.init(rawValue:))
    }
}

extension HoorayDatabase {
    /// Stores a new notice, pending delivery, together with values and records of the posting plugin.
    ///
    /// The values, the records and the notice are written in one transaction: should the process
    /// die, either all are saved or none is. A record is then never saved without the notice
    /// announcing it.
    ///
    /// - Parameters:
    ///   - notice: The notice.
    ///   - plugin: The plugin posting it.
    ///   - now: When it was posted.
    ///   - values: Keys of the plugin's storage and the bytes to store under them; none by default.
    ///   - records: Records to add to the plugin's record books; none by default.
    /// - Returns: Its id.
    /// - Throws: ``HoorayKit/RecordBookError/duplicateID(kind:id:)`` when a record's id is taken;
    ///   nothing is stored then.
    public func insertNotice(
        _ notice: Notice, plugin: String, now: Date, storing values: [String: Data] = [:],
        inserting records: [StoredRecord] = []
    ) async throws -> NoticeID {
        let payload = try encodeJSON(notice)
        return try await write { db in
            for record in records {
                try Self.insert(record, plugin: plugin, in: db)
            }
            for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                try Self.store(value, plugin: plugin, key: key, in: db)
            }
            try db.execute(
                sql: "INSERT INTO notice (plugin, payload, state, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [plugin, payload, NoticeState.pending.rawValue, now.unixSeconds])
            return NoticeID(rawValue: db.lastInsertedRowID)
        }
    }

    /// Replaces a notice's content and queues it for delivery again; once shown, the server's
    /// notification is updated in place.
    ///
    /// A notice being handed over right now stays with the process handing it over, which sends
    /// the new content next (see ``markDelivered(_:handles:now:revision:)``): were it queued at
    /// once, another process could send it before the server's id is known, as a second
    /// notification. An unconfirmed notice whose server id is unknown stays unconfirmed, with the
    /// new content, in `hooray inbox`, for the same reason.
    ///
    /// - Throws: ``NoticeNotFound`` when there is no such notice for this plugin.
    public func updateNotice(_ id: NoticeID, plugin: String, to notice: Notice) async throws {
        let payload = try encodeJSON(notice)
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE notice SET payload = ?, revision = revision + 1,
                        state = CASE
                            WHEN state = ? THEN state
                            WHEN state = ? AND NOT EXISTS (SELECT 1 FROM delivery WHERE noticeID = notice.id) THEN state
                            ELSE ? END
                    WHERE id = ? AND plugin = ?
                    """,
                arguments: [
                    payload, NoticeState.sending.rawValue, NoticeState.unconfirmed.rawValue,
                    NoticeState.pending.rawValue, id.rawValue, plugin,
                ])
            if db.changesCount == 0 { throw NoticeNotFound(id: id) }
        }
    }

    /// One notice, or `nil`.
    public func notice(_ id: NoticeID) async throws -> StoredNotice? {
        try await read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(StoredNotice.columns) FROM notice WHERE id = ?", arguments: [id.rawValue]
            )
            .map(StoredNotice.init(row:))
        }
    }

    /// The notices of `reminderIDs` due since `since` that a channel showed, oldest first, and that
    /// are still to be taken off the screen (``forgetHandles(of:)`` not called).
    public func shownNotices(plugin: String, reminderIDs: Set<String>, dueSince since: Date) async throws
        -> [StoredNotice]
    {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(StoredNotice.columns) FROM notice
                    WHERE plugin = ? AND state = ? AND dueAt >= ? AND reminderID IS NOT NULL
                        AND EXISTS (SELECT 1 FROM delivery WHERE noticeID = notice.id)
                    ORDER BY id
                    """,
                arguments: [plugin, NoticeState.delivered.rawValue, since.timeIntervalSince1970]
            ).map(StoredNotice.init(row:)).filter { $0.reminderID.map(reminderIDs.contains) ?? false }
        }
    }

    /// Forgets the channels' handles of a notice taken off the screen: it is not replaced or taken
    /// off again.
    public func forgetHandles(of id: NoticeID) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM delivery WHERE noticeID = ?", arguments: [id.rawValue])
        }
    }

    /// Notices waiting for delivery, oldest first.
    public func pendingNotices() async throws -> [StoredNotice] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(StoredNotice.columns) FROM notice WHERE state = ? ORDER BY id",
                arguments: [NoticeState.pending.rawValue]
            ).map(StoredNotice.init(row:))
        }
    }

    /// The inbox: notices not yet shown (and those whose showing is unconfirmed), and with
    /// `includeDelivered` the most recent delivered ones too. Newest first.
    public func inbox(includeDelivered: Bool, limit: Int = 50) async throws -> [StoredNotice] {
        try await read { db in
            let filter = includeDelivered ? "" : "WHERE state <> '\(NoticeState.delivered.rawValue)'"
            return try Row.fetchAll(
                db, sql: "SELECT \(StoredNotice.columns) FROM notice \(filter) ORDER BY id DESC LIMIT ?",
                arguments: [limit]
            ).map(StoredNotice.init(row:))
        }
    }

    /// How many notices ``inbox(includeDelivered:limit:)`` would list without a limit.
    public func inboxCount(includeDelivered: Bool) async throws -> Int {
        try await read { db in
            let filter = includeDelivered ? "" : "WHERE state <> '\(NoticeState.delivered.rawValue)'"
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM notice \(filter)") ?? 0
        }
    }

    /// Marks a pending notice as being handed to the server, and returns it as it is now.
    ///
    /// Reading the notice in the same transaction means an update that landed after the queue was
    /// read is the version sent; one that lands later puts the notice back in the queue when it is
    /// marked delivered (see ``markDelivered(_:handles:now:revision:)``), so it is sent next.
    ///
    /// - Returns: The notice to send, or `nil` when it is no longer pending.
    @discardableResult
    public func markSending(_ id: NoticeID) async throws -> StoredNotice? {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE notice SET state = ?, attempts = attempts + 1, heldUntil = NULL, heldBecause = NULL
                    WHERE id = ? AND state = ?
                    """,
                arguments: [NoticeState.sending.rawValue, id.rawValue, NoticeState.pending.rawValue])
            guard db.changesCount > 0 else { return nil }
            return try Row.fetchOne(
                db, sql: "SELECT \(StoredNotice.columns) FROM notice WHERE id = ?", arguments: [id.rawValue]
            )
            .map(StoredNotice.init(row:))
        }
    }

    /// Marks a notice as shown, with the server's id for it.
    ///
    /// Only the process that marked it sending calls this. Should the notice be unconfirmed by now,
    /// a `hoorayd` starting meanwhile took that hand-over for one interrupted by a crash (see
    /// ``settleInterruptedDeliveries()``); the process making it knows better, and its answer counts.
    ///
    /// - Parameters:
    ///   - id: The notice.
    ///   - handles: Each channel's handle for it, by channel name.
    ///   - now: When it was shown.
    ///   - revision: The ``StoredNotice/revision`` that was sent, as ``markSending(_:)`` returned it.
    /// - Returns: Whether it is delivered now; `false` when it was updated while being sent, and
    ///   is pending again so that the update replaces it on screen.
    @discardableResult
    public func markDelivered(_ id: NoticeID, handles: [String: String], now: Date, revision: Int) async throws
        -> Bool
    {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE notice SET
                        state = CASE
                            WHEN state IN (?, ?) AND revision = ? THEN ?
                            WHEN state IN (?, ?) THEN ?
                            ELSE state END,
                        deliveredAt = ?, lastError = NULL
                    WHERE id = ?
                    """,
                arguments: [
                    NoticeState.sending.rawValue, NoticeState.unconfirmed.rawValue, revision,
                    NoticeState.delivered.rawValue, NoticeState.sending.rawValue, NoticeState.unconfirmed.rawValue,
                    NoticeState.pending.rawValue, now.unixSeconds, id.rawValue,
                ])
            try HoorayDatabase.storeHandles(handles, of: id, in: db)
            let state = try String.fetchOne(db, sql: "SELECT state FROM notice WHERE id = ?", arguments: [id.rawValue])
            return state != NoticeState.pending.rawValue
        }
    }

    /// Puts a notice back in the queue after a failed attempt, with the reason.
    ///
    /// Like ``markDelivered(_:handles:now:revision:)``, it also settles a hand-over that a starting
    /// `hoorayd` marked unconfirmed while this process was still making it.
    public func markUndelivered(_ id: NoticeID, reason: String, handles: [String: String] = [:]) async throws {
        try await write { db in
            try HoorayDatabase.storeHandles(handles, of: id, in: db)
            try db.execute(
                sql: "UPDATE notice SET state = ?, lastError = ? WHERE id = ? AND state IN (?, ?)",
                arguments: [
                    NoticeState.pending.rawValue, reason, id.rawValue, NoticeState.sending.rawValue,
                    NoticeState.unconfirmed.rawValue,
                ])
        }
    }

    /// Records why waiting notices were not handed over, without counting an attempt.
    ///
    /// Only notices still waiting whose reason differs are written, so that asking again while
    /// nothing changes writes nothing.
    ///
    /// - Parameters:
    ///   - ids: The notices.
    ///   - reason: Why they wait, for a person.
    public func noteWaiting(_ ids: [NoticeID], reason: String) async throws {
        try await write { db in
            for id in ids {
                try db.execute(
                    sql: "UPDATE notice SET lastError = ? WHERE id = ? AND state = ? AND lastError IS NOT ?",
                    arguments: [reason, id.rawValue, NoticeState.pending.rawValue, reason])
            }
        }
    }

    /// After a crash: notices caught mid-hand-over become unconfirmed.
    ///
    /// A `hooray` hosting a plugin may be handing one over right now; its own answer settles it later.
    ///
    /// - Returns: How many there were.
    @discardableResult
    public func settleInterruptedDeliveries() async throws -> Int {
        try await write { db in
            try db.execute(
                sql: "UPDATE notice SET state = ? WHERE state = ?",
                arguments: [NoticeState.unconfirmed.rawValue, NoticeState.sending.rawValue])
            return db.changesCount
        }
    }
}

/// There is no notice with this id.
public struct NoticeNotFound: Error, Sendable, CustomStringConvertible {
    /// The id that was asked for.
    public let id: NoticeID

    public var description: String { "there is no notice \(id); `hooray inbox --all` lists them" }
}
