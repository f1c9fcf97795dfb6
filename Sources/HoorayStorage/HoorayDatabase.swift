import Foundation
import GRDB
import HoorayKit

/// Hooray's SQLite database: reminder rules, fired occurrences, notices and plugin storage.
///
/// One file, `hooray.sqlite`, opened as a GRDB `DatabasePool` in WAL mode so that the daemon and
/// the CLI can read and write at the same time. The directory is created `0700` and the files
/// `0600`: notices and plugin data are personal.
public final class HoorayDatabase: Sendable {
    /// The path of the database file.
    public let path: String
    let pool: DatabasePool

    /// Opens (creating when needed) the database at `path` and brings its schema up to date.
    ///
    /// - Parameter path: The database file, e.g. `~/.local/share/hooray/hooray.sqlite`.
    /// - Throws: ``StorageError`` saying what is wrong with the file and how to recover.
    public init(path: String) throws(StorageError) {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StorageError(path: path, problem: .cannotCreateDirectory(directory, reason: "\(error)"))
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "hooray"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        // New files get 0600 whatever the umask; the WAL and shared-memory files follow the main file's mode.
        let previousMask = umask(0o077)
        defer { umask(previousMask) }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
        } catch let error as DatabaseError {
            throw StorageError(path: path, databaseError: error)
        } catch {
            throw StorageError(path: path, problem: .other("\(error)"))
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            chmod(path + suffix, 0o600)
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE rule (
                        plugin TEXT NOT NULL,
                        reminderID TEXT NOT NULL,
                        reminder BLOB NOT NULL,
                        scheduleKey TEXT NOT NULL,
                        nextDue DOUBLE,
                        createdAt DOUBLE NOT NULL,
                        PRIMARY KEY (plugin, reminderID)
                    );
                    CREATE INDEX rule_nextDue ON rule(nextDue) WHERE nextDue IS NOT NULL;
                    CREATE TABLE occurrence (
                        plugin TEXT NOT NULL,
                        reminderID TEXT NOT NULL,
                        dueAt DOUBLE NOT NULL,
                        handledAt DOUBLE NOT NULL,
                        outcome TEXT NOT NULL,
                        noticeID INTEGER,
                        PRIMARY KEY (plugin, reminderID, dueAt)
                    );
                    CREATE TABLE notice (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        plugin TEXT NOT NULL,
                        reminderID TEXT,
                        dueAt DOUBLE,
                        payload BLOB NOT NULL,
                        state TEXT NOT NULL,
                        serverID INTEGER,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        lastError TEXT,
                        createdAt DOUBLE NOT NULL,
                        deliveredAt DOUBLE
                    );
                    CREATE INDEX notice_state ON notice(state);
                    CREATE TABLE pluginValue (
                        plugin TEXT NOT NULL,
                        key TEXT NOT NULL,
                        value BLOB NOT NULL,
                        PRIMARY KEY (plugin, key)
                    );
                    """)
        }
        // Counts content changes, so that a hand-over knows whether what it sent is still the latest.
        migrator.registerMigration("v2: notice revision") { db in
            try db.execute(sql: "ALTER TABLE notice ADD COLUMN revision INTEGER NOT NULL DEFAULT 0")
        }
        return migrator
    }
}

/// A problem with the database file, described for a person.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Problem: Sendable {
        /// The data directory could not be created.
        case cannotCreateDirectory(String, reason: String)
        /// The file is not a SQLite database, or is corrupt.
        case damaged(String)
        /// Another process holds a lock for longer than the busy timeout.
        case locked
        /// The file or directory is not readable or writable.
        case permissionDenied
        /// Anything else SQLite reported.
        case other(String)
    }

    /// The database file.
    public let path: String
    /// What went wrong.
    public let problem: Problem

    /// Creates an error.
    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// Classifies a GRDB error.
    public init(path: String, databaseError error: DatabaseError) {
        self.path = path
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: self.problem = .damaged(error.message ?? "\(error.resultCode)")
        case .SQLITE_BUSY, .SQLITE_LOCKED: self.problem = .locked
        case .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_AUTH: self.problem = .permissionDenied
        default: self.problem = .other(error.message ?? "\(error)")
        }
    }

    public var description: String {
        switch problem {
        case .cannotCreateDirectory(let directory, let reason):
            "cannot create the data directory \(directory): \(reason). Check that its parent exists and is writable."
        case .damaged(let detail):
            "the database \(path) is damaged (\(detail)). Move it aside to start afresh, "
                + "e.g. `mv \(path) \(path).damaged`; Hooray then creates a new one (reminders from your "
                + "configuration come back; inbox history does not)."
        case .locked:
            "the database \(path) stayed locked by another process for 10 s. If a `hooray` or `hoorayd` is stuck, "
                + "stop it and try again."
        case .permissionDenied:
            "cannot read or write the database \(path): permission denied. It should belong to you with mode 0600 "
                + "(`chmod 600 \(path)`)."
        case .other(let detail):
            "database error in \(path): \(detail)"
        }
    }
}

extension HoorayDatabase {
    /// Runs a write transaction, turning SQLite errors into ``StorageError``.
    func write<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do {
            return try await pool.write(body)
        } catch let error as DatabaseError {
            throw StorageError(path: path, databaseError: error)
        }
    }

    /// Runs a read, turning SQLite errors into ``StorageError``.
    func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do {
            return try await pool.read(body)
        } catch let error as DatabaseError {
            throw StorageError(path: path, databaseError: error)
        }
    }
}

extension Date {
    var unixSeconds: Double { timeIntervalSince1970 }
    init(unixSeconds: Double) { self.init(timeIntervalSince1970: unixSeconds) }
}

func encodeJSON<T: Encodable>(_ value: T) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .secondsSince1970
    return try encoder.encode(value)
}

func decodeJSON<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return try decoder.decode(type, from: data)
}
