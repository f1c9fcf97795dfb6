import Foundation
import GRDB
import HoorayKit

/// What ``HoorayDatabase/deleteUserData()`` removed.
public struct DeletedData: Sendable, Hashable {
    /// Notices, shown or waiting.
    public var notices: Int
    /// Plugins whose stored data (key-value pairs or records) was removed.
    public var plugins: [String]
    /// Recorded reminder occurrences.
    public var occurrences: Int

    /// Creates a summary.
    public init(notices: Int, plugins: [String], occurrences: Int) {
        self.notices = notices
        self.plugins = plugins
        self.occurrences = occurrences
    }
}

extension HoorayDatabase {
    /// Removes everything kept about the user: notices, recorded occurrences, every plugin's stored
    /// data (key-value pairs and records), and the reminder rules (plugins schedule their configured reminders again when activated).
    ///
    /// One transaction: either all of it goes or, on an error, none.
    public func deleteUserData() async throws -> DeletedData {
        try await write { db in
            let plugins = try String.fetchAll(
                db, sql: "SELECT plugin FROM pluginValue UNION SELECT plugin FROM record ORDER BY plugin")
            let notices = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM notice") ?? 0
            let occurrences = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM occurrence") ?? 0
            try db.execute(
                sql: """
                    DELETE FROM notice; DELETE FROM occurrence; DELETE FROM pluginValue; DELETE FROM record;
                    DELETE FROM rule;
                    """)
            return DeletedData(notices: notices, plugins: plugins, occurrences: occurrences)
        }
    }
}
