import Foundation
import GRDB
import HoorayKit

/// The user's own data in the database, plugin by plugin: what `hooray export` writes and
/// `hooray import` reads back.
///
/// User data is every plugin's records and key-value pairs. Engine-internal namespaces — plugin
/// names with a dot, such as `hooray.celebrations` — and delivery history (notices, occurrences,
/// rules) are not: they are made again as Hooray runs.
public struct UserData: Sendable, Hashable {
    /// One plugin's data.
    public struct Plugin: Sendable, Hashable {
        /// Its records, by kind and then id.
        public var records: [StoredRecord]
        /// Its key-value pairs, by key.
        public var values: [StoredValue]

        /// Creates a plugin's data; it is kept sorted as ``UserData`` lists it.
        public init(records: [StoredRecord] = [], values: [StoredValue] = []) {
            self.records = records.sorted { ($0.kind, $0.id) < ($1.kind, $1.id) }
            self.values = values.sorted { $0.key < $1.key }
        }

        /// Whether it holds nothing.
        public var isEmpty: Bool { records.isEmpty && values.isEmpty }
    }

    /// The data, by plugin name.
    public var plugins: [String: Plugin]

    /// Creates a set of data.
    public init(plugins: [String: Plugin] = [:]) {
        self.plugins = plugins
    }

    /// Whether a plugin name belongs to the user rather than the engine: engine namespaces have a dot.
    public static func isUserPlugin(_ name: String) -> Bool { !name.contains(".") }

    /// The bytes of a stored value or record in a canonical form: JSON re-written with sorted keys
    /// and no escaped slashes, so that the same content always gives the same bytes; bytes that are
    /// not JSON stay as they are.
    public static func canonical(_ data: Data) -> Data {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: data) else { return data }
        return Data(value.text().utf8)
    }
}

/// What an import adds and finds already there, for one plugin and one kind of record, or for its
/// key-value pairs (``kind`` `nil`).
public struct ImportTally: Sendable, Hashable {
    /// The plugin.
    public var plugin: String
    /// The kind of record; `nil` for the plugin's key-value pairs.
    public var kind: String?
    /// How many are new: added, or to be added.
    public var added = 0
    /// How many are already there with the same content: skipped.
    public var unchanged = 0
    /// How many are already there with other content that the import brings up to date without
    /// calling it a conflict: the file's is taken (see `overwrite` of
    /// ``HoorayDatabase/importUserData(_:apply:replace:overwrite:)``).
    public var updated = 0
    /// Ids (or keys) already there with other content: kept as they are, unless replacing, when
    /// they are overwritten.
    public var conflicts: [String] = []

    /// Creates an empty tally.
    public init(plugin: String, kind: String?) {
        self.plugin = plugin
        self.kind = kind
    }

    /// A conflicting id or key as a preview names it, so that the user can find it: a record's UUID
    /// by its first 8 characters, as the listings show ids (`3f2a9c1e`); a stored value's key, or
    /// any other id, whole, or when longer than 40 characters its start and end around an ellipsis.
    public static func shown(_ id: String) -> String {
        if id.count == 36, UUID(uuidString: id) != nil { return String(id.prefix(8)) }
        guard id.count > 40 else { return id }
        return id.prefix(28) + "…" + id.suffix(11)
    }
}

extension HoorayDatabase {
    /// The user's data: every plugin's records and key-value pairs, or one plugin's, sorted.
    ///
    /// - Parameter plugin: Only this plugin's data; all plugins' when `nil`.
    public func userData(plugin: String? = nil) async throws -> UserData {
        try await read { db in
            var plugins: [String: UserData.Plugin] = [:]
            let filter = plugin == nil ? "" : " WHERE plugin = ?"
            let arguments: StatementArguments = plugin.map { [$0] } ?? []
            let records = try Row.fetchAll(
                db, sql: "SELECT * FROM record\(filter) ORDER BY plugin, kind, id", arguments: arguments)
            for row in records {
                let name: String = row["plugin"]
                guard UserData.isUserPlugin(name) else { continue }
                plugins[name, default: UserData.Plugin()].records.append(Self.record(from: row))
            }
            let values = try Row.fetchAll(
                db, sql: "SELECT plugin, key, value FROM pluginValue\(filter) ORDER BY plugin, key",
                arguments: arguments)
            for row in values {
                let name: String = row["plugin"]
                guard UserData.isUserPlugin(name) else { continue }
                plugins[name, default: UserData.Plugin()].values.append(
                    StoredValue(key: row["key"], data: row["value"]))
            }
            return UserData(plugins: plugins)
        }
    }

    /// Compares data with what is stored and, unless `apply` is false, adds what is new in one
    /// transaction: all of it, or on an error nothing.
    ///
    /// A record (same plugin, kind and id) or value (same plugin and key) already there with the
    /// same content is skipped; with other content it is a conflict, kept as it is unless
    /// `replace` is true, or it is updated when `overwrite` says so. Contents are compared in
    /// their ``UserData/canonical(_:)`` form, and stored in it; a record is also the same when
    /// `same` says so, such as one equal to the file's in its public form (which leaves out this
    /// computer's bookkeeping): it is skipped, and not overwritten even when replacing.
    ///
    /// - Parameters:
    ///   - data: What to import.
    ///   - apply: Whether to write; `false` only counts, for a preview.
    ///   - replace: Whether conflicting records and values are overwritten by the imported ones.
    ///   - overwrite: Whether one record or value is taken from `data` when it differs, counted as
    ///     updated rather than as a conflict: given the plugin, the kind (`nil` for a value) and
    ///     the id or key. Such as a plugin's own bookkeeping, or a record an importer merged.
    ///   - same: Whether a record already stored (the first) holds the same as the imported one
    ///     (the second), given the plugin, when their bytes differ; `false` by default.
    /// - Returns: One tally per plugin and kind, sorted by plugin, then kind (values last).
    public func importUserData(
        _ data: UserData, apply: Bool, replace: Bool = false,
        overwrite: @escaping @Sendable (_ plugin: String, _ kind: String?, _ id: String) -> Bool = { _, _, _ in false },
        same: @escaping @Sendable (_ plugin: String, _ stored: StoredRecord, _ imported: StoredRecord) -> Bool = {
            _, _, _ in false
        }
    ) async throws -> [ImportTally] {
        let body: @Sendable (Database) throws -> [ImportTally] = { db in
            var tallies: [ImportTally] = []
            for (plugin, content) in data.plugins.sorted(by: { $0.key < $1.key }) {
                var byKind: [String: ImportTally] = [:]
                for record in content.records {
                    var tally = byKind[record.kind] ?? ImportTally(plugin: plugin, kind: record.kind)
                    let canonical = UserData.canonical(record.data)
                    let existing = try Row.fetchOne(
                        db, sql: "SELECT * FROM record WHERE plugin = ? AND kind = ? AND id = ?",
                        arguments: [plugin, record.kind, record.id]
                    ).map(Self.record(from:))
                    let (day, instant) = Self.columns(of: record.date)
                    if let existing {
                        if existing.date == record.date && UserData.canonical(existing.data) == canonical
                            || same(plugin, existing, record)
                        {
                            tally.unchanged += 1
                        } else {
                            let update = overwrite(plugin, record.kind, record.id)
                            if update { tally.updated += 1 } else { tally.conflicts.append(record.id) }
                            if apply, replace || update {
                                try db.execute(
                                    sql: """
                                        UPDATE record SET day = ?, instant = ?, value = ?
                                        WHERE plugin = ? AND kind = ? AND id = ?
                                        """,
                                    arguments: [day, instant, canonical, plugin, record.kind, record.id])
                                try Self.recordForSync(
                                    plugin: plugin, kind: record.kind, id: record.id, old: existing,
                                    new: StoredRecord(
                                        kind: record.kind, id: record.id, date: record.date, data: canonical),
                                    in: db)
                            }
                        }
                    } else {
                        tally.added += 1
                        if apply {
                            try db.execute(
                                sql:
                                    "INSERT INTO record (plugin, kind, id, day, instant, value) VALUES (?, ?, ?, ?, ?, ?)",
                                arguments: [plugin, record.kind, record.id, day, instant, canonical])
                            try Self.recordForSync(
                                plugin: plugin, kind: record.kind, id: record.id, old: nil,
                                new: StoredRecord(kind: record.kind, id: record.id, date: record.date, data: canonical),
                                in: db)
                        }
                    }
                    byKind[record.kind] = tally
                }
                tallies += byKind.values.sorted { ($0.kind ?? "") < ($1.kind ?? "") }
                guard !content.values.isEmpty else { continue }
                var tally = ImportTally(plugin: plugin, kind: nil)
                for value in content.values {
                    let canonical = UserData.canonical(value.data)
                    let existing = try Data.fetchOne(
                        db, sql: "SELECT value FROM pluginValue WHERE plugin = ? AND key = ?",
                        arguments: [plugin, value.key])
                    if let existing {
                        if UserData.canonical(existing) == canonical {
                            tally.unchanged += 1
                            continue
                        }
                        if overwrite(plugin, nil, value.key) {
                            tally.updated += 1
                        } else {
                            tally.conflicts.append(value.key)
                            guard replace else { continue }
                        }
                    } else {
                        tally.added += 1
                    }
                    if apply { try Self.store(canonical, plugin: plugin, key: value.key, in: db) }
                }
                tallies.append(tally)
            }
            return tallies
        }
        return try await apply ? write(body) : read(body)
    }
}
