import Foundation
import GRDB
import HoorayKit

extension HoorayDatabase {
    /// The bytes a plugin stored under a key, or `nil`.
    public func pluginValue(plugin: String, key: String) async throws -> Data? {
        try await read { db in
            try Data.fetchOne(
                db, sql: "SELECT value FROM pluginValue WHERE plugin = ? AND key = ?", arguments: [plugin, key])
        }
    }

    /// Stores bytes under a plugin's key; `nil` removes the key.
    ///
    /// - Parameter syncs: Whether it reaches the user's other computers with sync on; `false` for a
    ///   value that is this computer's own (``HoorayKit/HoorayPlugin/isDeviceCache(valueKey:)``).
    public func setPluginValue(_ value: Data?, plugin: String, key: String, syncs: Bool = true) async throws {
        try await write { db in try Self.store(value, plugin: plugin, key: key, syncs: syncs, in: db) }
    }

    /// Writes or removes one value inside a write transaction.
    static func store(_ value: Data?, plugin: String, key: String, syncs: Bool = true, in db: Database) throws {
        // With sync on, the value before is what the change is made from.
        let syncing = try syncs && syncsValue(plugin: plugin) && syncDevice(in: db) != nil
        let old =
            syncing
            ? try Data.fetchOne(
                db, sql: "SELECT value FROM pluginValue WHERE plugin = ? AND key = ?", arguments: [plugin, key]) : nil
        if let value {
            try db.execute(
                sql: """
                    INSERT INTO pluginValue (plugin, key, value) VALUES (?, ?, ?)
                    ON CONFLICT (plugin, key) DO UPDATE SET value = excluded.value
                    """,
                arguments: [plugin, key, value])
        } else {
            try db.execute(sql: "DELETE FROM pluginValue WHERE plugin = ? AND key = ?", arguments: [plugin, key])
        }
        if syncing { try recordValueForSync(plugin: plugin, key: key, old: old, new: value, in: db) }
    }

    /// Every key of a plugin starting with `prefix`, with its bytes, sorted by key.
    public func pluginValues(plugin: String, prefix: String) async throws -> [StoredValue] {
        try await read { db in try Self.values(plugin: plugin, prefix: prefix, in: db) }
    }

    /// Every key of a plugin starting with `prefix`, with its bytes, sorted by key, inside a transaction.
    static func values(plugin: String, prefix: String, in db: Database) throws -> [StoredValue] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT key, value FROM pluginValue
                WHERE plugin = ? AND substr(key, 1, length(?)) = ? ORDER BY key
                """,
            arguments: [plugin, prefix, prefix]
        ).map { StoredValue(key: $0["key"], data: $0["value"]) }
    }

    /// Whether a plugin has a key starting with `prefix`, inside a transaction.
    static func hasValues(plugin: String, prefix: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: "SELECT EXISTS (SELECT 1 FROM pluginValue WHERE plugin = ? AND substr(key, 1, length(?)) = ?)",
            arguments: [plugin, prefix, prefix]) ?? false
    }

    /// Reads, transforms and writes one key of a plugin in one transaction.
    public func modifyPluginValue(
        plugin: String, key: String, syncs: Bool = true, _ transform: @escaping @Sendable (Data?) throws -> Data?
    ) async throws -> Data? {
        try await write { db in
            let old = try Data.fetchOne(
                db, sql: "SELECT value FROM pluginValue WHERE plugin = ? AND key = ?", arguments: [plugin, key])
            let new = try transform(old)
            try Self.store(new, plugin: plugin, key: key, syncs: syncs, in: db)
            return new
        }
    }

    /// Every key a plugin stored, sorted.
    public func pluginKeys(plugin: String) async throws -> [String] {
        try await read { db in
            try String.fetchAll(
                db, sql: "SELECT key FROM pluginValue WHERE plugin = ? ORDER BY key", arguments: [plugin])
        }
    }
}

/// A plugin's storage backed by the database: its key-value pairs (``HoorayKit/PluginStore``) and
/// its records (``HoorayKit/RecordStore``).
public struct DatabasePluginStore: PluginStore {
    let database: HoorayDatabase
    let plugin: String
    /// Whether a value's key is this computer's own, never synced.
    let keepsHere: @Sendable (String) -> Bool

    /// Creates the store of one plugin.
    ///
    /// - Parameter keepsHere: Whether a value's key is this computer's own cache, which sync leaves
    ///   out (``HoorayKit/HoorayPlugin/isDeviceCache(valueKey:)``).
    public init(
        database: HoorayDatabase, plugin: String, keepsHere: @escaping @Sendable (String) -> Bool = { _ in false }
    ) {
        self.database = database
        self.plugin = plugin
        self.keepsHere = keepsHere
    }

    public func data(forKey key: String) async throws -> Data? {
        try await database.pluginValue(plugin: plugin, key: key)
    }

    public func setData(_ data: Data?, forKey key: String) async throws {
        try await database.setPluginValue(data, plugin: plugin, key: key, syncs: !keepsHere(key))
    }

    public func keys() async throws -> [String] {
        try await database.pluginKeys(plugin: plugin)
    }

    public func values(withPrefix prefix: String) async throws -> [StoredValue] {
        try await database.pluginValues(plugin: plugin, prefix: prefix)
    }

    @discardableResult
    public func modify(forKey key: String, _ transform: @escaping @Sendable (Data?) throws -> Data?) async throws
        -> Data?
    {
        try await database.modifyPluginValue(plugin: plugin, key: key, syncs: !keepsHere(key), transform)
    }
}
