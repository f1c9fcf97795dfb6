/// A table a command asks `hooray` to add to the user's own configuration file
/// (``CommandReply/configurationEntry``): one more `[[plugins.NAME.TABLE]]` of the plugin's own
/// section, which the user can then change by hand.
///
/// ```swift
/// ConfigurationEntry(table: "reminder", keys: [.init("title", "Call mom"), .init("at", "18:00")])
/// ```
///
/// It is added after the file's other `[[plugins.NAME.TABLE]]` tables, with the file's indentation,
/// and checked with the plugin's configuration as every file is; the rest of the file is left as
/// it is.
public struct ConfigurationEntry: Sendable, Hashable, Codable {
    /// One key of the table and its value.
    public struct Key: Sendable, Hashable, Codable {
        /// The key, such as `title`.
        public var name: String
        /// The value: a string, number, boolean, list or object (an inline table); not `null`.
        public var value: JSONValue

        /// Creates a key.
        public init(_ name: String, _ value: JSONValue) {
            self.name = name
            self.value = value
        }
    }

    /// The array of tables within the plugin's section: `reminder` adds a `[[plugins.NAME.reminder]]`.
    public var table: String
    /// The keys, in the order they are written.
    public var keys: [Key]

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - table: The array of tables within the plugin's section.
    ///   - keys: The keys, in the order they are written.
    public init(table: String, keys: [Key]) {
        self.table = table
        self.keys = keys
    }
}
