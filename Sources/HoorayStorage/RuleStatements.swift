import Foundation
import GRDB
import GRDBSQLite

/// Writes declared rules one after the other through one prepared statement, its values bound with
/// SQLite's own calls.
///
/// GRDB's `execute(arguments:)` makes a `StatementArguments` of each row's values, each a
/// `DatabaseValue` holding a copy, and checks them against the statement: at the first start with
/// 100,000 reminders in the configuration that was most of the time spent writing them. Here the
/// bytes are bound in place, for the length of the one step that writes them.
struct RuleUpsert {
    private let statement: Statement
    private let connection: SQLiteConnection?

    static let sql = """
        INSERT INTO rule (plugin, reminderID, reminder, scheduleKey, nextDue, createdAt, sourceDigest)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (plugin, reminderID) DO UPDATE SET
            reminder = excluded.reminder, scheduleKey = excluded.scheduleKey, nextDue = excluded.nextDue,
            sourceDigest = excluded.sourceDigest
        """

    init(_ db: Database) throws {
        statement = try db.makeStatement(sql: Self.sql)
        connection = db.sqliteConnection
    }

    /// Adds the rule, or replaces the one with its plugin and id.
    func write(
        plugin: String, id: String, payload: [UInt8], scheduleKey: String, nextDue: Double?, createdAt: Double,
        digest: String?
    ) throws {
        let handle = statement.sqliteStatement
        defer {
            // No binding is left pointing at bytes that are gone.
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        let code = Self.bind(plugin, at: 1, of: handle) {
            Self.bind(id, at: 2, of: handle) {
                payload.withUnsafeBytes { bytes in
                    // A blob of no bytes has no address; it is still a blob, not NULL.
                    let bound =
                        if let address = bytes.baseAddress {
                            sqlite3_bind_blob(handle, 3, address, CInt(bytes.count), nil)
                        } else {
                            sqlite3_bind_zeroblob(handle, 3, 0)
                        }
                    guard bound == SQLITE_OK else { return bound }
                    return Self.bind(scheduleKey, at: 4, of: handle) {
                        let bound =
                            if let nextDue { sqlite3_bind_double(handle, 5, nextDue) } else {
                                sqlite3_bind_null(handle, 5)
                            }
                        guard bound == SQLITE_OK else { return bound }
                        let created = sqlite3_bind_double(handle, 6, createdAt)
                        guard created == SQLITE_OK else { return created }
                        guard let digest else {
                            let bound = sqlite3_bind_null(handle, 7)
                            return bound == SQLITE_OK ? sqlite3_step(handle) : bound
                        }
                        return Self.bind(digest, at: 7, of: handle) { sqlite3_step(handle) }
                    }
                }
            }
        }
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: connection.map { String(cString: sqlite3_errmsg($0)) }, sql: Self.sql)
        }
    }

    /// SQLite's `SQLITE_TRANSIENT`: it copies the bytes before the call returns.
    static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Binds a text in place, then runs `next` while it is bound.
    private static func bind(
        _ text: String, at index: CInt, of handle: OpaquePointer, then next: () -> CInt
    ) -> CInt {
        var text = text
        return text.withUTF8 { bytes in
            // An empty text has no address: SQLite copies "" then, rather than binding NULL.
            let bound =
                if let address = bytes.baseAddress {
                    address.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        sqlite3_bind_text(handle, index, $0, CInt(bytes.count), nil)
                    }
                } else {
                    sqlite3_bind_text(handle, index, "", 0, transient)
                }
            return bound == SQLITE_OK ? next() : bound
        }
    }
}

/// Reads a plugin's stored rules as ``HoorayDatabase/replaceRules(plugin:declaring:version:now:key:computeNextDue:)``
/// needs them, in place: no `Row` and no string for each stored digest.
enum StoredRuleRows {
    /// One stored rule, valid only during the call it is handed to.
    struct Row {
        /// The reminder's id.
        var id: String
        /// The next due instant, in seconds since 1970.
        var nextDue: Double?
        /// The stored digest's bytes, `nil` when it has none.
        fileprivate var digest: UnsafeRawBufferPointer?

        /// Whether the rule is stored with a digest.
        var hasDigest: Bool { digest != nil }

        /// Whether the stored digest is `prefix` followed by `digest`.
        func isDigest(prefix: String, _ digest: String) -> Bool {
            guard let stored = self.digest else { return false }
            var (prefix, digest) = (prefix, digest)
            return prefix.withUTF8 { prefix in
                digest.withUTF8 { digest in
                    stored.count == prefix.count + digest.count
                        && stored[..<prefix.count].elementsEqual(UnsafeRawBufferPointer(prefix))
                        && stored[prefix.count...].elementsEqual(UnsafeRawBufferPointer(digest))
                }
            }
        }
    }

    static let sql = "SELECT reminderID, sourceDigest, nextDue FROM rule WHERE plugin = ?"

    /// Whether any rule of `plugin` is stored.
    static func exist(in db: Database, plugin: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM rule WHERE plugin = ?)", arguments: [plugin]) ?? false
    }

    /// Calls `body` with each stored rule of `plugin`.
    static func forEach(in db: Database, plugin: String, _ body: (Row) throws -> Void) throws {
        let statement = try db.makeStatement(sql: sql)
        // GRDB finalizes the statement when it goes: it must outlive every use of its handle.
        try withExtendedLifetime(statement) {
            try forEach(in: db, handle: statement.sqliteStatement, plugin: plugin, body)
        }
    }

    private static func forEach(
        in db: Database, handle: SQLiteStatement, plugin: String, _ body: (Row) throws -> Void
    ) throws {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        var code = sqlite3_bind_text(handle, 1, plugin, -1, RuleUpsert.transient)
        if code == SQLITE_OK {
            code = sqlite3_step(handle)
            while code == SQLITE_ROW {
                let id = String(
                    decoding: UnsafeRawBufferPointer(
                        start: sqlite3_column_text(handle, 0), count: Int(sqlite3_column_bytes(handle, 0))),
                    as: UTF8.self)
                var digest: UnsafeRawBufferPointer?
                if sqlite3_column_type(handle, 1) != SQLITE_NULL {
                    // The text first, then its length, as SQLite asks.
                    let start = sqlite3_column_text(handle, 1)
                    digest = UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(handle, 1)))
                }
                let nextDue = sqlite3_column_type(handle, 2) == SQLITE_NULL ? nil : sqlite3_column_double(handle, 2)
                try body(Row(id: id, nextDue: nextDue, digest: digest))
                code = sqlite3_step(handle)
            }
        }
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) }, sql: sql)
        }
    }
}

extension HoorayDatabase {
    /// Runs a write transaction, as ``write(_:)`` does, leaving what it wrote in the write-ahead log
    /// for ``checkpoint()``.
    ///
    /// SQLite copies the log into the database file when a transaction that grew it past 1,000
    /// pages commits: after 100,000 reminders written at a first start, 50 MB copied and synced
    /// before hoorayd could answer. Readers find everything in the log meanwhile.
    func writeLeavingCheckpoint<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        try writeLeavingCheckpointOnThisThread(body)
    }

    /// GRDB's synchronous API, on the calling thread, as ``write(_:)`` uses it.
    private func writeLeavingCheckpointOnThisThread<T>(_ body: (Database) throws -> T) throws -> T {
        if let readOnlyBecause { throw readOnlyBecause }
        do {
            return try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
                defer { try? db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.autocheckpointPages)") }
                var result: T?
                try db.inTransaction {
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw DatabaseError(message: "the write returned nothing") }
                return result
            }
        } catch let error as DatabaseError {
            throw StorageError(path: path, databaseError: error)
        }
    }

    /// SQLite's own number of pages in the log after which a commit copies it into the database file.
    static let autocheckpointPages = 1000

    /// Copies what the write-ahead log holds into the database file as far as no reader needs it,
    /// without waiting for any: what ``writeLeavingCheckpoint(_:)`` left, once the start is over.
    public func checkpoint() {
        guard readOnlyBecause == nil else { return }
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.passive) }
    }
}

/// The `rule_nextDue` index, by which the rules next due are found (`hooray next`, the start's
/// announcement), taken away during a bulk write and made again after it.
///
/// Keeping the index in order row by row costs a search of it for each rule written, in the order
/// the rules come, not the order of their instants; SQLite builds it from the rows sorted at once in
/// less time. Both happen in the write's transaction: nothing ever reads the table without it.
enum NextDueIndex {
    /// As the first migration made it.
    static let createSQL = "CREATE INDEX rule_nextDue ON rule(nextDue) WHERE nextDue IS NOT NULL"

    /// Below this many rows written the index is kept as it is.
    static let bulkRows = 10_000

    /// Drops the index when `count` rows are to be written and they are at least half the table's;
    /// returns whether it did, so that ``create(in:)`` makes it again before the transaction ends.
    static func dropForBulkWrite(in db: Database, writing count: Int) throws -> Bool {
        guard count >= bulkRows else { return false }
        let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM rule") ?? 0
        guard count * 2 >= rows else { return false }
        try db.execute(sql: "DROP INDEX IF EXISTS rule_nextDue")
        return true
    }

    /// Makes the index again.
    static func create(in db: Database) throws {
        try db.execute(sql: createSQL)
    }
}
