// What `delete_data` (`hooray delete-my-data`) says it removed.

/// What deleting the user's data removed (`HoorayDatabase.deleteUserData()`, `hooray delete-my-data`).
public struct DeletedData: Sendable, Hashable, Codable {
    /// Notices, shown or waiting.
    public var notices: Int
    /// Plugins whose stored data (key-value pairs or records) was removed.
    public var plugins: [String]
    /// Recorded reminder occurrences.
    public var occurrences: Int
    /// Whether the deleted content was also wiped from the files: the database rewritten and its
    /// write-ahead log emptied. `false` when another connection kept the log busy throughout; the
    /// text is then unreachable but may still be in the files until the next checkpoint.
    public var wipedFromFiles: Bool
    /// Whether sync is on: the other computers delete it too. `nil` from a hoorayd without sync.
    public var synced: Bool?

    /// Creates a summary.
    public init(notices: Int, plugins: [String], occurrences: Int, wipedFromFiles: Bool = true) {
        self.notices = notices
        self.plugins = plugins
        self.occurrences = occurrences
        self.wipedFromFiles = wipedFromFiles
    }

    enum CodingKeys: String, CodingKey {
        case notices, plugins, occurrences
        case wipedFromFiles = "wiped_from_files"
        case synced
    }
}
