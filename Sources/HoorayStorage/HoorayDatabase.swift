import Foundation
import GRDB
import GRDBSQLite
import HoorayKit

/// Hooray's SQLite database: reminder rules, fired occurrences, notices and plugin storage (key-value
/// pairs and record books).
///
/// One file, `hooray.sqlite`, opened as a GRDB `DatabasePool` in WAL mode so that the daemon and
/// the CLI can read and write at the same time. The directory is created `0700` and the files
/// `0600`: notices and plugin data are personal.
public final class HoorayDatabase: Sendable {
    /// The path of the database file.
    public let path: String
    let pool: any DatabaseWriter
    /// Why this database is open for reading only (``openForReading(path:)``), `nil` when it is
    /// open for writing: every write then fails with this error, which says why and how to fix it.
    public let readOnlyBecause: StorageError?

    /// Opens (creating when needed) the database at `path` and brings its schema up to date.
    ///
    /// - Parameter path: The database file, e.g. `~/.local/share/hooray/hooray.sqlite`.
    /// - Throws: ``StorageError`` saying what is wrong with the file and how to recover.
    public init(path: String) throws(StorageError) {
        self.path = path
        readOnlyBecause = nil
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try Folders.make(directory)
        } catch {
            throw StorageError(path: path, problem: .cannotCreateDirectory(directory, reason: error.description))
        }
        try DataFolderSafety.check(database: path)
        // On a read-only file system SQLite opens an existing database for reading without a word
        // when its -shm file is there, and only a write would fail: say so before opening.
        var volume = statvfs()
        if FileManager.default.fileExists(atPath: path), statvfs(directory, &volume) == 0,
            volume.f_flag & UInt(ST_RDONLY) != 0
        {
            throw StorageError(path: path, problem: .readOnlyFileSystem)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(StorageError.busyTimeout)
        configuration.label = "hooray"
        // releaseMemory() empties the readers' caches rather than closing them, so the next read
        // does not open a connection again.
        configuration.persistentReadOnlyConnections = true
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // What is deleted is overwritten, not left readable in free pages: "delete" means gone.
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        // New files get 0600 whatever the umask; the WAL and shared-memory files follow the main file's mode.
        let previousMask = umask(0o077)
        defer { umask(previousMask) }
        do {
            let opened = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(opened)
            // SQLite opens a file this user may not write for reading without a word, and neither
            // GRDB nor an up-to-date schema writes anything when the -wal holds changes (left by a
            // program that did not close the database): only a write would fail. Said here instead.
            if opened.writeWithoutTransaction({ db in sqlite3_db_readonly(db.sqliteConnection, "main") }) == 1 {
                throw DatabaseError(resultCode: .SQLITE_READONLY, message: "the database was opened for reading only")
            }
            pool = opened
        } catch let error as DatabaseError {
            throw StorageError(path: path, databaseError: error)
        } catch {
            throw StorageError(path: path, problem: .other("\(error)"))
        }
        // Only takes away: a file the user made read-only stays so, or a write would go through
        // the next time a command opens it (the WAL files that let it open are made writable too).
        for suffix in ["", "-wal", "-shm"] {
            var status = stat()
            guard stat(path + suffix, &status) == 0 else { continue }
            let mode = status.st_mode & 0o7777
            if mode & ~0o600 != 0 { chmod(path + suffix, mode & 0o600) }
        }
    }

    /// Wraps a connection opened for reading only; see ``openForReading(path:because:)``.
    init(path: String, readOnly queue: DatabaseQueue, because reason: StorageError) {
        self.path = path
        pool = queue
        readOnlyBecause = reason
    }

    /// Lets SQLite give back the memory of its caches and prepared statements, on every
    /// connection; blocks until the current accesses end.
    public func releaseMemory() {
        (pool as? DatabasePool)?.releaseMemory()
        (pool as? DatabaseQueue)?.releaseMemory()
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
        // Plugins' record books: typed records found by id, by id prefix and by local day. Records a
        // plugin kept in `pluginValue` before are moved in by its record book when first opened
        // (`PluginRecord.legacyKeyPrefix`), which knows how to read them.
        migrator.registerMigration("v3: record book") { db in
            try db.execute(
                sql: """
                    CREATE TABLE record (
                        plugin TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        id TEXT NOT NULL,
                        day INTEGER,
                        instant DOUBLE,
                        value BLOB NOT NULL,
                        PRIMARY KEY (plugin, kind, id)
                    );
                    CREATE INDEX record_day ON record(plugin, kind, day) WHERE day IS NOT NULL;
                    CREATE INDEX record_instant ON record(plugin, kind, instant) WHERE instant IS NOT NULL;
                    """)
        }
        // A snooze remembers the occurrence it brings back, so that the plugin and the notice's buttons
        // are told about that occurrence rather than the snooze's end. Earlier snoozes have none.
        migrator.registerMigration("v4: snoozed occurrence") { db in
            try db.execute(sql: "ALTER TABLE rule ADD COLUMN snoozedDueAt DOUBLE")
        }
        // Request ids of commands that write, claimed by whoever runs the command: the daemon, or a
        // `hooray` that ran it itself because the daemon did not answer. A retry never runs twice.
        migrator.registerMigration("v5: claimed requests") { db in
            try db.execute(
                sql: """
                    CREATE TABLE request (
                        id TEXT PRIMARY KEY NOT NULL,
                        claimedBy TEXT NOT NULL,
                        claimedAt DOUBLE NOT NULL
                    );
                    CREATE INDEX request_claimedAt ON request(claimedAt);
                    """)
        }
        // Calm delivery: notices held for quiet hours or do-not-disturb say until when and why; notices
        // shown together in one digest point to it; reminders missed while the computer was off or
        // asleep are listed by `hooray missed`.
        migrator.registerMigration("v6: calm delivery") { db in
            try db.execute(
                sql: """
                    ALTER TABLE notice ADD COLUMN heldUntil DOUBLE;
                    ALTER TABLE notice ADD COLUMN heldBecause TEXT;
                    ALTER TABLE notice ADD COLUMN digestID INTEGER;
                    CREATE TABLE missed (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        plugin TEXT NOT NULL,
                        reminderID TEXT NOT NULL,
                        title TEXT NOT NULL,
                        count INTEGER NOT NULL,
                        firstDueAt DOUBLE NOT NULL,
                        lastDueAt DOUBLE NOT NULL,
                        recordedAt DOUBLE NOT NULL
                    );
                    CREATE INDEX missed_recordedAt ON missed(recordedAt);
                    CREATE INDEX occurrence_handledAt ON occurrence(handledAt);
                    """)
        }
        // Each rule a plugin declared with a digest of its source keeps it, so that a restart builds,
        // encodes and writes only the rules whose source changed (`replaceRules(plugin:declaring:…)`).
        migrator.registerMigration("v7: rule source digest") { db in
            try db.execute(sql: "ALTER TABLE rule ADD COLUMN sourceDigest TEXT")
        }
        registerDeclarationKeys(in: &migrator)
        registerDeliveryHandles(in: &migrator)
        registerNoticeShapes(in: &migrator)
        // One writer (docs/protocol.md): a request runs once because hoorayd takes it off the spool,
        // so the request ids hoorayd and `hooray` once raced to claim here are no longer kept.
        migrator.registerMigration("v11: one writer") { db in
            try db.execute(sql: "DROP TABLE IF EXISTS request")
        }
        registerSyncLog(in: &migrator)
        return migrator
    }
}

/// A problem with the database file, described for a person: what is wrong and one command that fixes it.
///
/// Every fix a description suggests is complete and can be pasted into a shell as it is: a damaged
/// database is moved aside together with its `-wal` and `-shm` files, permissions are repaired for the
/// whole data folder (SQLite creates those files next to the database), and a lock names the process
/// holding it.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Problem: Sendable, Hashable {
        /// The data directory could not be created.
        case cannotCreateDirectory(String, reason: String)
        /// The file is not a SQLite database, or is corrupt; holds SQLite's words and the suffixes of the
        /// companion files found next to it (`-wal`, `-shm`, `-journal`), which belong with it.
        case damaged(String, companions: [String])
        /// Another process holds a lock for longer than the busy timeout; holds the processes found
        /// holding it, which may be none when they cannot be seen.
        case locked(by: [LockHolder])
        /// The file or directory is not readable or writable; holds the owner of a file that belongs
        /// to another user, if there is one.
        case permissionDenied(otherOwner: UInt32?)
        /// The file system holding the database is mounted read-only.
        case readOnlyFileSystem
        /// The disk holding the database is full: SQLite said so, or reported an I/O error while
        /// no space was left.
        case diskFull
        /// Anything else SQLite reported.
        case other(String)
        /// The database or its folder is not safe to open (``DataFolderSafety``): a symbolic link, a
        /// folder of another user or one others may write in. Holds what is wrong, naming the path,
        /// and the fix.
        case unsafe(String, fix: String)
    }

    /// The suffixes of the files SQLite keeps next to the database, which must stay with it.
    public static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// How long a write waits for another process's lock before it fails.
    public static let busyTimeout: TimeInterval = 10

    /// The database file.
    public let path: String
    /// What went wrong.
    public let problem: Problem
    /// When it went wrong; names the folder a damaged database is moved to.
    public let time: Date

    /// Creates an error.
    public init(path: String, problem: Problem, time: Date = Date()) {
        self.path = path
        self.problem = problem
        self.time = time
    }

    /// Classifies a GRDB error, looking at the files to find out what a person needs to know.
    ///
    /// A damaged database notes which companion files exist, a lock looks up its holders in
    /// `/proc/locks`, and a permission problem checks for a read-only file system and for files
    /// that belong to another user.
    public init(path: String, databaseError error: DatabaseError, time: Date = Date()) {
        self.path = path
        self.time = time
        let files = [path] + Self.companionSuffixes.map { path + $0 }
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            let companions = Self.companionSuffixes.filter { FileManager.default.fileExists(atPath: path + $0) }
            self.problem = .damaged(error.message ?? "\(error.resultCode)", companions: companions)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self.problem = .locked(by: FileLocks.holders(of: files))
        case .SQLITE_FULL:
            self.problem = .diskFull
        case .SQLITE_IOERR where Self.isFull((path as NSString).deletingLastPathComponent):
            // A write that finds no space is often reported as a "disk I/O error".
            self.problem = .diskFull
        case .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_AUTH:
            let directory = (path as NSString).deletingLastPathComponent
            var volume = statvfs()
            if statvfs(directory, &volume) == 0 && volume.f_flag & UInt(ST_RDONLY) != 0 {
                self.problem = .readOnlyFileSystem
            } else {
                let owners = ([directory] + files).compactMap { file -> UInt32? in
                    var status = stat()
                    return stat(file, &status) == 0 ? status.st_uid : nil
                }
                self.problem = .permissionDenied(otherOwner: owners.first { $0 != geteuid() })
            }
        default: self.problem = .other(error.message ?? "\(error)")
        }
    }

    /// The folder holding the database and its companion files.
    public var directory: String { (path as NSString).deletingLastPathComponent }

    /// The one command that fixes the problem, when there is one.
    public var fix: String? {
        switch problem {
        case .damaged(_, let companions):
            let aside = ShellCommand.quoted(directory + "/damaged-" + Self.stamp(time))
            let files = ([path] + companions.map { path + $0 }).map(ShellCommand.quoted)
            return "mkdir \(aside) && mv \(files.joined(separator: " ")) \(aside)/"
        case .locked(let holders) where !holders.isEmpty:
            return "kill " + holders.map { "\($0.pid)" }.joined(separator: " ")
        case .locked:
            return "systemctl --user stop hooray"
        case .permissionDenied(let otherOwner):
            let makePrivate = ShellCommand.makePrivate(folder: directory)
            guard otherOwner != nil else { return makePrivate }
            return ShellCommand.takeBack(directory, recursive: true) + " && " + makePrivate
        case .unsafe(_, let fix):
            return fix
        case .cannotCreateDirectory, .readOnlyFileSystem, .diskFull, .other:
            return nil
        }
    }

    public var description: String {
        let file = ShellCommand.quoted(path)
        let fix = self.fix.map { "`\($0)`" } ?? ""
        switch problem {
        case .cannotCreateDirectory(let directory, let reason):
            return "cannot create the data directory \(ShellCommand.quoted(directory)): \(reason). "
                + "Check that its parent exists and is writable, or set XDG_DATA_HOME (or HOME) to a folder you can write."
        case .damaged(let detail, let companions):
            let what = companions.isEmpty ? "it" : "it together with its \(companions.joined(separator: " and ")) files"
            return "the database \(file) is damaged (\(detail)). To start afresh, stop hoorayd if it is running and "
                + "move \(what) aside: \(fix). Hooray then creates a new one: reminders from your configuration "
                + "come back; your inbox, moments and habit history stay in the damaged copy."
        case .locked(let holders) where !holders.isEmpty:
            let who = holders.map(\.description).joined(separator: ", ")
            return "the database \(file) stayed locked for \(Int(Self.busyTimeout)) s by \(who). "
                + "If it is stuck, stop it with \(fix) and try again."
        case .locked:
            return "the database \(file) stayed locked for \(Int(Self.busyTimeout)) s by another process, which "
                + "could not be identified (it may belong to another user). If hoorayd is stuck, stop it with \(fix) "
                + "and try again."
        case .permissionDenied(let otherOwner?):
            return "cannot read or write the database \(file): some of Hooray's data files belong to another "
                + "user (uid \(otherOwner)), perhaps from running Hooray with sudo. Take the folder back with \(fix)."
        case .permissionDenied(nil):
            return "cannot read or write the database \(file): permission denied. SQLite needs to write the folder "
                + "and every file in it; make them yours and private with \(fix)."
        case .readOnlyFileSystem:
            return "cannot write the database \(file): the file system holding \(ShellCommand.quoted(directory)) "
                + "is mounted read-only, so nothing can be saved; lists and `hooray export` still work. Remount it "
                + "read-write, or set XDG_DATA_HOME to a writable folder."
        case .diskFull:
            let folder = ShellCommand.quoted(directory)
            return "cannot save to the database \(file): the disk holding \(folder) is full. Nothing saved before "
                + "is lost. Free some space on it (`df -h \(folder)` shows how much is left) and try again, or set "
                + "XDG_DATA_HOME to a folder on another disk."
        case .other(let detail):
            return "database error in \(file): \(detail)"
        case .unsafe(let what, let fix):
            return "cannot open the database: \(what). Nothing was read or saved; \(fix)."
        }
    }

    /// Whether the file system holding `folder` has no space left for this user.
    static func isFull(_ folder: String) -> Bool {
        var volume = statvfs()
        guard statvfs(folder, &volume) == 0 else { return false }
        // A few blocks may be left that SQLite cannot use for a page and its journal.
        return volume.f_bavail < 16
    }

    /// `20261124-095300`, in UTC: sortable, and free of characters a shell would need quoted.
    static func stamp(_ time: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: time)
    }
}

extension HoorayDatabase {
    // GRDB's synchronous API runs the body on the calling thread. Its async API would hop through
    // a Dispatch queue, and any work on Dispatch's worker pool starts libdispatch's workqueue
    // monitor, which then wakes hoorayd once a second for as long as it runs.

    /// Runs a write transaction, turning SQLite errors into ``StorageError``.
    func write<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        try writeOnThisThread(body)
    }

    /// Runs a read, turning SQLite errors into ``StorageError``.
    func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        try readOnThisThread(body)
    }

    private func writeOnThisThread<T>(_ body: (Database) throws -> T) throws -> T {
        if let readOnlyBecause { throw readOnlyBecause }
        do {
            return try pool.write(body)
        } catch let error as DatabaseError {
            throw StorageError(path: path, databaseError: error)
        }
    }

    private func readOnThisThread<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.read(body)
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

extension HoorayDatabase {
    /// Runs SQLite's `PRAGMA quick_check`, as `hooray doctor` does.
    ///
    /// - Throws: ``StorageError`` with ``StorageError/Problem/damaged(_:companions:)`` (and its fix)
    ///   when SQLite finds the file damaged, or whatever else kept it from reading the file.
    public func quickCheck() async throws(StorageError) {
        let findings: [String]
        do {
            findings = try await read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(path: path, problem: .other("\(error)"))
        }
        guard findings != ["ok"] else { return }
        let companions = StorageError.companionSuffixes.filter { FileManager.default.fileExists(atPath: path + $0) }
        let detail = findings.prefix(3).joined(separator: "; ")
        throw StorageError(path: path, problem: .damaged("quick_check: \(detail)", companions: companions))
    }

    /// Copies the whole database into a new file, for work that must not touch the original, such
    /// as `hooray next --config FILE` planning reminders while `hoorayd` runs on the real one.
    ///
    /// - Parameter path: The new file; it must not exist yet.
    /// - Returns: The copy, open.
    /// - Throws: ``StorageError`` when either file cannot be used.
    public func copy(to path: String) throws -> HoorayDatabase {
        let copy = try HoorayDatabase(path: path)
        do {
            try pool.backup(to: copy.pool)
        } catch let error as DatabaseError {
            throw StorageError(path: path, databaseError: error)
        } catch {
            throw StorageError(path: path, problem: .other("\(error)"))
        }
        return copy
    }
}
