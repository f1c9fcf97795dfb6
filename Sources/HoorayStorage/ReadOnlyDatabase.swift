import Foundation
import GRDB

extension HoorayDatabase {
    /// Whether a problem opening the database for writing leaves reading possible: the file system
    /// is read-only, or the folder or file is not writable to this user.
    public static func readingMayWork(despite error: StorageError) -> Bool {
        switch error.problem {
        case .readOnlyFileSystem, .permissionDenied, .cannotCreateDirectory: true
        case .damaged, .locked, .diskFull, .other, .unsafe: false
        }
    }

    /// Opens an existing database for reading only, because it cannot be written (`reason`): a
    /// read-only mount, or a folder or file this user may not write.
    ///
    /// Every write then throws `reason`, which says why and how to fix it; reading commands
    /// (`hooray moments`, `hooray export`) work as usual. The database is in WAL mode, which needs its
    /// `-shm` file to read: when that is missing and cannot be created, SQLite reads the file as
    /// `immutable`, or, when a `-wal` file holds changes not yet in the main file, a private copy of
    /// both in a temporary folder, so that nothing saved last is missed.
    ///
    /// - Parameters:
    ///   - path: The database file; it must exist.
    ///   - reason: Why it cannot be opened for writing.
    /// - Throws: `reason` when the file cannot be read either, or ``StorageError`` about the file.
    public static func openForReading(path: String, because reason: StorageError) throws(StorageError)
        -> HoorayDatabase
    {
        try DataFolderSafety.check(database: path)
        guard access(path, R_OK) == 0 else { throw reason }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "hooray"
        configuration.busyMode = .timeout(StorageError.busyTimeout)
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // Reading the schema shows whether SQLite could open the WAL index.
            _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return HoorayDatabase(path: path, readOnly: queue, because: reason)
        } catch {
            // Without a writable folder SQLite cannot make the -shm file a WAL database needs.
        }
        var walSize = stat()
        let walHasChanges = stat(path + "-wal", &walSize) == 0 && walSize.st_size > 0
        do {
            if !walHasChanges {
                let uri = "file:" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
                let queue = try DatabaseQueue(path: uri + "?immutable=1", configuration: configuration)
                _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
                return HoorayDatabase(path: path, readOnly: queue, because: reason)
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "hooray-read-\(UUID().uuidString)"
            ).path
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            let copy = folder + "/hooray.sqlite"
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
            var writable = configuration
            writable.readonly = false
            let queue = try DatabaseQueue(path: copy, configuration: writable)
            // Folds the -wal into the copy, which then needs no companion file; the copy goes away at once.
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            try queue.close()
            let reader = try DatabaseQueue(path: copy, configuration: configuration)
            _ = try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            // An open file stays readable once unlinked; nothing is left behind in the temporary folder.
            unlink(copy)
            rmdir(folder)
            return HoorayDatabase(path: path, readOnly: reader, because: reason)
        } catch let error as DatabaseError {
            throw StorageError(path: path, databaseError: error)
        } catch {
            throw StorageError(path: path, problem: .other("\(error)"))
        }
    }
}
