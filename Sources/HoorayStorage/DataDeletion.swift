import Foundation
import GRDB
import HoorayClient
import HoorayKit
import HooraySync

extension HoorayDatabase {
    /// Removes everything kept about the user: notices, recorded occurrences, every plugin's stored
    /// data (key-value pairs and records), the reminder rules (plugins schedule their configured reminders again when
    /// activated), and the reminders missed while the computer was off (the `missed` table, which
    /// keeps their titles).
    ///
    /// One transaction: either all of it goes or, on an error, none. Then the deleted text is wiped
    /// from the files too, also while `hoorayd` has the database open: every connection overwrites
    /// what it deletes (`secure_delete`), `VACUUM` rewrites the file without the free space older
    /// deletions may have left, and a `TRUNCATE` checkpoint empties the write-ahead log, whose old
    /// frames still held the rows.
    public func deleteUserData() async throws -> DeletedData {
        var deleted = try await write { db in
            // The host's own values (a pause of notifications) are no plugin's.
            let plugins = try String.fetchAll(
                db,
                sql: "SELECT plugin FROM pluginValue WHERE plugin != ? UNION SELECT plugin FROM record ORDER BY plugin",
                arguments: [Self.pauseKey.plugin])
            // With sync on, every record's deletion reaches the other computers too; the changes not
            // sent yet go first, with the words they hold.
            let synced = try Self.syncDevice(in: db) != nil
            if synced {
                try db.execute(sql: "DELETE FROM syncChange")
                // Every record sync knows of is deleted anew: those here, those only merged, and
                // those whose deletion had not been sent yet (just dropped with the rest).
                let keys = try Row.fetchAll(
                    db, sql: "SELECT plugin, kind, id FROM syncRecord ORDER BY plugin, kind, id")
                for row in keys {
                    let key = SyncRecordKey(plugin: row["plugin"], kind: row["kind"], id: row["id"])
                    _ = try Self.record(key, from: .object([:]), to: nil, in: db)
                }
            }
            let notices = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM notice") ?? 0
            let occurrences = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM occurrence") ?? 0
            try db.execute(
                sql: """
                    DELETE FROM notice; DELETE FROM occurrence; DELETE FROM pluginValue; DELETE FROM record;
                    DELETE FROM rule; DELETE FROM missed; DELETE FROM declaration;
                    DELETE FROM noticeShape;
                    """)
            var deleted = DeletedData(notices: notices, plugins: plugins, occurrences: occurrences)
            if synced { deleted.synced = true }
            return deleted
        }
        do {
            try wipeFreedPages()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        {
            deleted.wipedFromFiles = false
        }
        return deleted
    }

    /// `VACUUM`, then a `TRUNCATE` checkpoint, with GRDB's synchronous API (on this thread, not
    /// through Dispatch's worker pool).
    private func wipeFreedPages() throws {
        try pool.vacuum()
        try pool.writeWithoutTransaction { db in
            _ = try db.checkpoint(.truncate)
        }
    }
}
