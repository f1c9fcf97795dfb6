import Foundation
import GRDB
import HoorayCalendar
import HoorayKit

/// Plugins' record books: the `record` table, keyed by (plugin, kind, id), with the day or instant
/// each record is filed under in indexed columns.
extension HoorayDatabase {
    /// Adds a record of a plugin.
    ///
    /// - Throws: ``RecordBookError/duplicateID(kind:id:)`` when the plugin has a record of that
    ///   kind with that id.
    public func insertRecord(_ record: StoredRecord, plugin: String) async throws {
        try await write { db in try Self.insert(record, plugin: plugin, in: db) }
    }

    /// Inserts one record inside a write transaction.
    static func insert(_ record: StoredRecord, plugin: String, in db: Database) throws {
        let (day, instant) = columns(of: record.date)
        try db.execute(
            sql: """
                INSERT INTO record (plugin, kind, id, day, instant, value) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (plugin, kind, id) DO NOTHING
                """,
            arguments: [plugin, record.kind, record.id, day, instant, record.data])
        if db.changesCount == 0 { throw RecordBookError.duplicateID(kind: record.kind, id: record.id) }
        try recordForSync(plugin: plugin, kind: record.kind, id: record.id, old: nil, new: record, in: db)
    }

    /// One record of a plugin, or `nil`.
    public func record(plugin: String, kind: String, id: String) async throws -> StoredRecord? {
        try await read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM record WHERE plugin = ? AND kind = ? AND id = ?", arguments: [plugin, kind, id]
            ).map(Self.record(from:))
        }
    }

    /// Changes one record of a plugin in one write transaction, which no other connection — in this
    /// process or another — can interleave with.
    ///
    /// - Returns: What `change` returned, or `nil` when there is no such record.
    public func updateRecord<Value: Sendable>(
        plugin: String, kind: String, id: String, _ change: @escaping @Sendable (inout StoredRecord) throws -> Value
    ) async throws -> Value? {
        try await write { db in
            guard
                var record = try Row.fetchOne(
                    db, sql: "SELECT * FROM record WHERE plugin = ? AND kind = ? AND id = ?",
                    arguments: [plugin, kind, id]
                ).map(Self.record(from:))
            else { return nil }
            let old = record
            let value = try change(&record)
            guard record.kind == kind, record.id == id else {
                throw RecordBookError.idChanged(kind: kind, from: id, to: record.id)
            }
            let (day, instant) = Self.columns(of: record.date)
            try db.execute(
                sql: "UPDATE record SET day = ?, instant = ?, value = ? WHERE plugin = ? AND kind = ? AND id = ?",
                arguments: [day, instant, record.data, plugin, kind, id])
            try Self.recordForSync(plugin: plugin, kind: kind, id: id, old: old, new: record, in: db)
            return value
        }
    }

    /// Removes one record of a plugin.
    ///
    /// - Returns: Whether there was one.
    @discardableResult
    public func deleteRecord(plugin: String, kind: String, id: String) async throws -> Bool {
        try await write { db in
            let old = try Row.fetchOne(
                db, sql: "SELECT * FROM record WHERE plugin = ? AND kind = ? AND id = ?", arguments: [plugin, kind, id]
            ).map(Self.record(from:))
            try db.execute(
                sql: "DELETE FROM record WHERE plugin = ? AND kind = ? AND id = ?", arguments: [plugin, kind, id])
            let deleted = db.changesCount > 0
            try Self.recordForSync(plugin: plugin, kind: kind, id: id, old: old, new: nil, in: db)
            return deleted
        }
    }

    /// The records of a kind whose id starts with `idPrefix`, ignoring the case of ASCII letters;
    /// oldest first, then by id.
    public func records(plugin: String, kind: String, idPrefix: String) async throws -> [StoredRecord] {
        // LIKE ignores the case of ASCII letters; its wildcards in the prefix are escaped.
        let pattern =
            idPrefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
        return try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM record WHERE plugin = ? AND kind = ? AND id LIKE ? ESCAPE '\\'
                    ORDER BY coalesce(day * 86400.0, instant), id
                    """,
                arguments: [plugin, kind, pattern]
            ).map(Self.record(from:))
        }
    }

    /// The records of a kind filed under a day of `range`: by their day, or by their instant in the
    /// range's time zone; oldest first, then by id.
    public func records(plugin: String, kind: String, during range: LocalDayRange) async throws -> [StoredRecord] {
        let instants = range.instants
        return try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM (
                        SELECT * FROM record WHERE plugin = ? AND kind = ? AND day BETWEEN ? AND ?
                        UNION ALL
                        SELECT * FROM record WHERE plugin = ? AND kind = ? AND instant >= ? AND instant < ?
                    ) ORDER BY coalesce(day * 86400.0, instant), id
                    """,
                arguments: [
                    plugin, kind, range.first.daysSinceEpoch, range.last.daysSinceEpoch,
                    plugin, kind, instants.lowerBound.unixSeconds, instants.upperBound.unixSeconds,
                ]
            ).map(Self.record(from:))
        }
    }

    /// One page of a plugin's records of a kind, by id: at most `limit` records whose id comes after
    /// `id` (all from the first for `nil`), walking the primary key, so a page costs what it returns.
    public func records(plugin: String, kind: String, after id: String?, limit: Int) async throws -> [StoredRecord] {
        // Without `id`, `id >= ''` takes every id, the empty one too.
        let sql =
            "SELECT * FROM record WHERE plugin = ? AND kind = ? AND id \(id == nil ? ">=" : ">") ? ORDER BY id LIMIT ?"
        return try await read { db in
            try Row.fetchAll(db, sql: sql, arguments: [plugin, kind, id ?? "", max(limit, 1)]).map(Self.record(from:))
        }
    }

    /// One page of a plugin's records of a kind, newest first (by date, a day at its start in UTC,
    /// then by id, last first), dated within `range`, after `cursor`: each of the two kinds of date
    /// is read from its index, so a page costs what it returns.
    package func records(
        plugin: String, kind: String, newestFirstIn range: Range<Date>?, after cursor: RecordPosition?, limit: Int
    ) async throws -> [StoredRecord] {
        let low = range?.lowerBound.unixSeconds ?? -Double.greatestFiniteMagnitude
        let high = range?.upperBound.unixSeconds ?? Double.greatestFiniteMagnitude
        // The cursor's key bounds the index range; ties on it are told apart by id.
        let key = cursor?.sortKey ?? Double.greatestFiniteMagnitude
        let lastID = cursor?.id
        let limit = max(limit, 1)
        let sql = """
            SELECT * FROM (
                SELECT *, instant AS sortKey FROM record WHERE plugin = ? AND kind = ? AND instant IS NOT NULL
                    AND instant >= ? AND instant < ? AND instant <= ? AND (instant < ? OR ? IS NULL OR id < ?)
                ORDER BY instant DESC, id DESC LIMIT ?
            )
            UNION ALL
            SELECT * FROM (
                SELECT *, day * 86400.0 AS sortKey FROM record WHERE plugin = ? AND kind = ? AND day IS NOT NULL
                    AND day * 86400.0 >= ? AND day * 86400.0 < ? AND day * 86400.0 <= ?
                    AND (day * 86400.0 < ? OR ? IS NULL OR id < ?)
                ORDER BY day DESC, id DESC LIMIT ?
            )
            ORDER BY sortKey DESC, id DESC LIMIT ?
            """
        return try await read { db in
            try Row.fetchAll(
                db, sql: sql,
                arguments: [
                    plugin, kind, low, high, key, key, lastID, lastID, limit,
                    plugin, kind, low, high, key, key, lastID, lastID, limit, limit,
                ]
            ).map(Self.record(from:))
        }
    }

    /// Moves a plugin's key-value pairs whose keys start with `prefix` into its records, in one
    /// transaction; see ``HoorayKit/RecordStore/adoptValues(withPrefix:_:)``.
    ///
    /// - Returns: How many values were moved.
    @discardableResult
    public func adoptPluginValues(
        plugin: String, prefix: String, _ convert: @escaping @Sendable (StoredValue) -> StoredRecord?
    ) async throws -> Int {
        // The common case, nothing left to move, costs one read that never waits for a writer.
        guard try await read({ db in try Self.hasValues(plugin: plugin, prefix: prefix, in: db) }) else { return 0 }
        return try await write { db in
            var moved = 0
            for value in try Self.values(plugin: plugin, prefix: prefix, in: db) {
                guard let record = convert(value) else { continue }
                let (day, instant) = Self.columns(of: record.date)
                try db.execute(
                    sql: """
                        INSERT INTO record (plugin, kind, id, day, instant, value) VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (plugin, kind, id) DO NOTHING
                        """,
                    arguments: [plugin, record.kind, record.id, day, instant, record.data])
                if db.changesCount > 0 {
                    try Self.recordForSync(
                        plugin: plugin, kind: record.kind, id: record.id, old: nil, new: record, in: db)
                }
                try Self.store(nil, plugin: plugin, key: value.key, in: db)
                moved += 1
            }
            return moved
        }
    }

    /// The `day` and `instant` columns of a record's date: one of them is `NULL`.
    static func columns(of date: RecordDate) -> (day: Int?, instant: Double?) {
        switch date {
        case .day(let day): (day.daysSinceEpoch, nil)
        case .instant(let instant): (nil, instant.unixSeconds)
        }
    }

    static func record(from row: Row) -> StoredRecord {
        let date: RecordDate =
            if let day = row["day"] as Int? {
                .day(LocalDate(daysSinceEpoch: day))
            } else {
                .instant(Date(unixSeconds: row["instant"] as Double? ?? 0))
            }
        return StoredRecord(kind: row["kind"], id: row["id"], date: date, data: row["value"])
    }
}

extension DatabasePluginStore: PagedRecordStore {
    public func insert(_ record: StoredRecord) async throws {
        try await database.insertRecord(record, plugin: plugin)
    }

    public func record(kind: String, id: String) async throws -> StoredRecord? {
        try await database.record(plugin: plugin, kind: kind, id: id)
    }

    public func update<Value: Sendable>(
        kind: String, id: String, _ change: @escaping @Sendable (inout StoredRecord) throws -> Value
    ) async throws -> Value? {
        try await database.updateRecord(plugin: plugin, kind: kind, id: id, change)
    }

    @discardableResult
    public func delete(kind: String, id: String) async throws -> Bool {
        try await database.deleteRecord(plugin: plugin, kind: kind, id: id)
    }

    public func records(kind: String, idPrefix: String) async throws -> [StoredRecord] {
        try await database.records(plugin: plugin, kind: kind, idPrefix: idPrefix)
    }

    public func records(kind: String, during range: LocalDayRange) async throws -> [StoredRecord] {
        try await database.records(plugin: plugin, kind: kind, during: range)
    }

    public func records(kind: String, after id: String?, limit: Int) async throws -> [StoredRecord] {
        try await database.records(plugin: plugin, kind: kind, after: id, limit: limit)
    }

    package func records(kind: String, newestFirstIn range: Range<Date>?, after cursor: RecordPosition?, limit: Int)
        async throws -> [StoredRecord]
    {
        try await database.records(plugin: plugin, kind: kind, newestFirstIn: range, after: cursor, limit: limit)
    }

    @discardableResult
    public func adoptValues(withPrefix prefix: String, _ convert: @escaping @Sendable (StoredValue) -> StoredRecord?)
        async throws -> Int
    {
        try await database.adoptPluginValues(plugin: plugin, prefix: prefix, convert)
    }
}
