import Foundation
import GRDB
import HoorayKit

// Each delivery channel's own handle of a notice it showed (libnotify: the server's id), so that
// an update replaces the notice in place on every channel.
extension HoorayDatabase {
    /// Creates the `delivery` table, and gives the server ids of notices shown before channels
    /// existed (the `notice.serverID` column, no longer written) to the libnotify channel.
    static func registerDeliveryHandles(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9: delivery handles") { db in
            try db.execute(
                sql: """
                    CREATE TABLE delivery (
                        noticeID INTEGER NOT NULL REFERENCES notice(id) ON DELETE CASCADE,
                        channel TEXT NOT NULL,
                        handle TEXT NOT NULL,
                        PRIMARY KEY (noticeID, channel)
                    );
                    INSERT INTO delivery (noticeID, channel, handle)
                        SELECT id, 'libnotify', CAST(serverID AS TEXT) FROM notice WHERE serverID IS NOT NULL;
                    """)
        }
    }

    /// Keeps the channels' handles of a notice just shown, replacing the ones they had.
    static func storeHandles(_ handles: [String: String], of id: NoticeID, in db: Database) throws {
        for (channel, handle) in handles {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO delivery (noticeID, channel, handle)
                        SELECT id, ?, ? FROM notice WHERE id = ?
                    """,
                arguments: [channel, handle, id.rawValue])
        }
    }
}

extension StoredNotice {
    /// The columns a notice is read with: its own, and its channels' handles as a JSON object.
    static let columns =
        "notice.*, (SELECT json_group_object(channel, handle) FROM delivery WHERE noticeID = notice.id) AS handles"

    /// The channels' handles in a row read with ``columns``.
    static func handles(in row: Row) throws -> [String: String] {
        guard let text = row["handles"] as String? else { return [:] }
        return try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
    }
}
