import Foundation
import GRDB
import HoorayCalendar
import HoorayClient
import HoorayKit
import HooraySync

/// What sync keeps in the database (docs/sync.md): while sync is on, every write of a record is also
/// written down as changes (`syncChange`, until a segment carries them away), and each record's merged
/// state (`syncRecord`) lets changes from the other computers be folded in.
///
/// Recording is on once ``startSyncRecording(device:)`` gave the database its device id; until then a
/// write of a record costs one lookup more and nothing else.
extension HoorayDatabase {
    static func registerSyncLog(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v12: sync log") { db in
            try db.execute(
                sql: """
                    CREATE TABLE syncMeta (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
                    CREATE TABLE syncChange (position INTEGER PRIMARY KEY AUTOINCREMENT, change BLOB NOT NULL);
                    CREATE TABLE syncRecord (
                        plugin TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, state BLOB NOT NULL,
                        PRIMARY KEY (plugin, kind, id)
                    );
                    """)
        }
    }

    /// The kind under which a plugin's stored value (`pluginValue`) travels, its key as the id.
    public static let valueKind = "_value"

    /// Whether a plugin's stored values are the user's, and sync: not the host's own (a pause of
    /// notifications is this computer's) nor a shared namespace with a dot in its name (the
    /// celebration phrases said lately).
    static func syncsValue(plugin: String) -> Bool {
        plugin != pauseKey.plugin && !plugin.contains(".")
    }

    /// The fields of a change that carry the record's `day` and `instant` columns.
    static let dayField = "_day"
    static let instantField = "_instant"

    // MARK: Turning it on

    /// Turns recording on for this computer, and records every record there is as new, so that the
    /// other computers receive what was logged before.
    ///
    /// - Parameter keepsHere: Whether a plugin's stored value is this computer's own cache, left out.
    /// - Returns: How many changes were recorded.
    @discardableResult
    public func startSyncRecording(
        device: SyncDeviceID,
        keepsHere: @escaping @Sendable (_ plugin: String, _ key: String) -> Bool = { _, _ in false }
    ) async throws -> Int {
        try await write { db in
            try Self.setMeta("device", Data(device.rawValue.utf8), in: db)
            var count = 0
            for row in try Row.fetchAll(db, sql: "SELECT plugin, key, value FROM pluginValue ORDER BY plugin, key") {
                let plugin: String = row["plugin"]
                guard Self.syncsValue(plugin: plugin), !keepsHere(plugin, row["key"]) else { continue }
                count += try Self.recordValueForSync(
                    plugin: plugin, key: row["key"], old: nil, new: row["value"], in: db)
            }
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM record ORDER BY plugin, kind, id")
            for row in rows {
                let record = Self.record(from: row)
                count += try Self.recordForSync(
                    plugin: row["plugin"], kind: record.kind, id: record.id, old: nil, new: record, in: db)
            }
            return count
        }
    }

    /// Gives this computer a new device id (a computer copied from another, that uses its id too):
    /// the changes not sent yet are stamped with it, so that they go out in its segments.
    public func changeSyncDevice(to device: SyncDeviceID) async throws {
        try await write { db in
            try Self.setMeta("device", Data(device.rawValue.utf8), in: db)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for row in try Row.fetchAll(db, sql: "SELECT position, change FROM syncChange") {
                var change = try JSONDecoder().decode(SyncChange.self, from: row["change"] as Data)
                change.stamp.device = device
                try db.execute(
                    sql: "UPDATE syncChange SET change = ? WHERE position = ?",
                    arguments: [try encoder.encode(change), row["position"] as Int64])
            }
        }
    }

    /// This computer's device id, when sync records changes.
    public func syncDevice() async throws -> SyncDeviceID? {
        try await read { db in try Self.syncDevice(in: db) }
    }

    static func syncDevice(in db: Database) throws -> SyncDeviceID? {
        try Data.fetchOne(db, sql: "SELECT value FROM syncMeta WHERE key = 'device'")
            .flatMap { SyncDeviceID(String(decoding: $0, as: UTF8.self)) }
    }

    static func setMeta(_ key: String, _ value: Data, in db: Database) throws {
        try db.execute(
            sql:
                "INSERT INTO syncMeta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            arguments: [key, value])
    }

    // MARK: Recording

    /// Writes down the changes from `old` to `new` of one record, inside the write that changes it;
    /// nothing while sync is off.
    ///
    /// - Returns: How many changes were recorded.
    @discardableResult
    static func recordForSync(
        plugin: String, kind: String, id: String, old: StoredRecord?, new: StoredRecord?, in db: Database
    ) throws -> Int {
        try record(
            SyncRecordKey(plugin: plugin, kind: kind, id: id), from: old.flatMap(syncValue), to: new.flatMap(syncValue),
            in: db)
    }

    /// Writes down the change of one of a plugin's stored values, as ``recordForSync(plugin:kind:id:old:new:in:)``
    /// does for a record.
    @discardableResult
    static func recordValueForSync(plugin: String, key: String, old: Data?, new: Data?, in db: Database) throws -> Int {
        try record(
            SyncRecordKey(plugin: plugin, kind: valueKind, id: key), from: old.map(syncValue), to: new.map(syncValue),
            in: db)
    }

    /// A stored value as sync sees it: `{"value": JSON}`, or `{"bytes": BASE64}` when it is no JSON.
    static func syncValue(of data: Data) -> JSONValue {
        // A JSON null travels as its bytes: merged, a null field is no field.
        if let value = try? JSONDecoder().decode(JSONValue.self, from: data), value != .null {
            return .object(["value": value])
        }
        return .object(["bytes": .string(data.base64EncodedString())])
    }

    /// The bytes a merged stored value stands for.
    static func storedValue(from value: JSONValue) -> Data? {
        if let json = value["value"] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return try? encoder.encode(json)
        }
        return value["bytes"]?.stringValue.flatMap { Data(base64Encoded: $0) }
    }

    /// Writes down the changes from `old` to `new` of one record key; nothing while sync is off.
    static func record(_ key: SyncRecordKey, from old: JSONValue?, to new: JSONValue?, in db: Database) throws -> Int {
        guard let device = try syncDevice(in: db) else { return 0 }
        var clock = try clock(of: device, in: db)
        let changes = SyncDiff.changes(
            from: old, to: new, record: key, clock: &clock,
            wall: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
        guard !changes.isEmpty else { return 0 }
        var state = try syncState(of: key, in: db)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for change in changes {
            try db.execute(sql: "INSERT INTO syncChange (change) VALUES (?)", arguments: [try encoder.encode(change)])
            state.apply(change.operation, stamp: change.stamp)
        }
        try save(state, of: key, in: db)
        try writeMerged(state, of: key, in: db)
        try setMeta("clock", try encoder.encode(clock.latest), in: db)
        return changes.count
    }

    /// The device's clock, going on from the latest stamp it made or saw.
    static func clock(of device: SyncDeviceID, in db: Database) throws -> HybridClock {
        guard let data = try Data.fetchOne(db, sql: "SELECT value FROM syncMeta WHERE key = 'clock'"),
            let latest = try? JSONDecoder().decode(SyncStamp.self, from: data)
        else { return HybridClock(device: device) }
        return HybridClock(device: device, after: latest)
    }

    static func syncState(of key: SyncRecordKey, in db: Database) throws -> SyncReplica.Record {
        guard
            let data = try Data.fetchOne(
                db, sql: "SELECT state FROM syncRecord WHERE plugin = ? AND kind = ? AND id = ?",
                arguments: [key.plugin, key.kind, key.id])
        else { return SyncReplica.Record() }
        return try JSONDecoder().decode(SyncReplica.Record.self, from: data)
    }

    static func save(_ state: SyncReplica.Record, of key: SyncRecordKey, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO syncRecord (plugin, kind, id, state) VALUES (?, ?, ?, ?)
                ON CONFLICT (plugin, kind, id) DO UPDATE SET state = excluded.state
                """,
            arguments: [key.plugin, key.kind, key.id, try JSONEncoder().encode(state)])
    }

    /// A record as sync sees it: its JSON, with the day or instant it is filed under as two fields.
    static func syncValue(of record: StoredRecord) -> JSONValue? {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: record.data) else { return nil }
        var members: [String: JSONValue] =
            if case .object(let members) = value { members } else { ["": value] }
        let (day, instant) = columns(of: record.date)
        if let day { members[dayField] = .number(Double(day)) }
        if let instant { members[instantField] = .number(instant) }
        return .object(members)
    }

    /// The record sync's merged value stands for; `nil` when it has no day or instant.
    static func storedRecord(kind: String, id: String, from value: JSONValue) -> StoredRecord? {
        guard case .object(var members) = value else { return nil }
        let date: RecordDate
        if case .number(let day)? = members.removeValue(forKey: dayField) {
            guard let whole = Int(exactly: day), SyncSchema.dayRange.contains(whole) else { return nil }
            date = .day(LocalDate(daysSinceEpoch: whole))
        } else if case .number(let instant)? = members.removeValue(forKey: instantField), instant.isFinite {
            date = .instant(Date(unixSeconds: instant))
        } else {
            return nil
        }
        members.removeValue(forKey: instantField)
        let json: JSONValue = members.count == 1 && members[""] != nil ? members[""]! : .object(members)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(json) else { return nil }
        return StoredRecord(kind: kind, id: id, date: date, data: data)
    }

    // MARK: Folding in

    /// Folds in changes the other computers made, in one transaction: each record they touch is
    /// written as the merge makes it, or deleted.
    ///
    /// - Returns: The records that changed.
    @discardableResult
    public func applySyncChanges(_ changes: [SyncChange]) async throws -> [SyncRecordKey] {
        try await write { db in
            guard let device = try Self.syncDevice(in: db) else { return [] }
            var clock = try Self.clock(of: device, in: db)
            var changed: Set<SyncRecordKey> = []
            var states: [SyncRecordKey: SyncReplica.Record] = [:]
            for change in changes {
                clock.observe(change.stamp)
                var state = try states[change.record] ?? Self.syncState(of: change.record, in: db)
                if state.apply(change.operation, stamp: change.stamp) { changed.insert(change.record) }
                states[change.record] = state
            }
            for key in changed.sorted() {
                let state = states[key]!
                try Self.save(state, of: key, in: db)
                try Self.writeMerged(state, of: key, in: db)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try Self.setMeta("clock", try encoder.encode(clock.latest), in: db)
            return changed.sorted()
        }
    }

    /// Writes a record, or a plugin's stored value, as its merged state makes it, or deletes it.
    ///
    /// After a change made here too: every computer then holds the same bytes, whatever order the
    /// plugin wrote a set's elements in or however a number was written. A record whose merged
    /// state cannot be read back (a day outside the calendar) is left as it is unless it was deleted.
    static func writeMerged(_ state: SyncReplica.Record, of key: SyncRecordKey, in db: Database) throws {
        if key.kind == valueKind {
            if let value = state.value(setFields: [:]).flatMap(storedValue) {
                try db.execute(
                    sql: """
                        INSERT INTO pluginValue (plugin, key, value) VALUES (?, ?, ?)
                        ON CONFLICT (plugin, key) DO UPDATE SET value = excluded.value
                        """,
                    arguments: [key.plugin, key.id, value])
            } else if state.isDeleted {
                try db.execute(
                    sql: "DELETE FROM pluginValue WHERE plugin = ? AND key = ?", arguments: [key.plugin, key.id])
            }
            return
        }
        let merged = state.value(setFields: SyncSchema.builtIn.setFields(of: key)).flatMap {
            storedRecord(kind: key.kind, id: key.id, from: $0)
        }
        if let merged {
            let (day, instant) = columns(of: merged.date)
            try db.execute(
                sql: """
                    INSERT INTO record (plugin, kind, id, day, instant, value) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (plugin, kind, id) DO UPDATE SET day = excluded.day,
                        instant = excluded.instant, value = excluded.value
                    """,
                arguments: [key.plugin, key.kind, key.id, day, instant, merged.data])
        } else if state.isDeleted {
            try db.execute(
                sql: "DELETE FROM record WHERE plugin = ? AND kind = ? AND id = ?",
                arguments: [key.plugin, key.kind, key.id])
        }
    }

    // MARK: Sending

    /// The changes recorded here and not yet in a segment, oldest first, with their positions.
    public func unsentSyncChanges(limit: Int = 10_000) async throws -> [(position: Int64, change: SyncChange)] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT position, change FROM syncChange ORDER BY position LIMIT ?", arguments: [limit]
            ).map { row in
                (row["position"], try JSONDecoder().decode(SyncChange.self, from: row["change"] as Data))
            }
        }
    }

    /// Forgets the changes up to `position`, now that a segment carries them.
    public func forgetSentSyncChanges(through position: Int64) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM syncChange WHERE position <= ?", arguments: [position])
        }
    }
}

extension HoorayDatabase {
    /// A value sync keeps for itself (the segments read, the last number written), or `nil`.
    public func syncMetaValue(_ key: String) async throws -> Data? {
        try await read { db in try Data.fetchOne(db, sql: "SELECT value FROM syncMeta WHERE key = ?", arguments: [key])
        }
    }

    /// Keeps a value of sync's own.
    public func setSyncMetaValue(_ value: Data, for key: String) async throws {
        try await write { db in try Self.setMeta(key, value, in: db) }
    }

    /// How many changes recorded here wait for a segment.
    public func unsentSyncChangeCount() async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM syncChange") ?? 0 }
    }
}
