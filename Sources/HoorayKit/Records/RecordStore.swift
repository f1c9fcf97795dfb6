import Foundation

/// Where a plugin's records are kept: the host's side of ``RecordBook``.
///
/// Plugins use the typed ``RecordBook`` that ``PluginContext/records(of:)`` returns; hosts
/// implement this protocol over bytes. The engine keeps records in its SQLite database, keyed by
/// (plugin, kind, id), and `HoorayKitTesting` has one in memory. Every method is scoped to one plugin.
///
/// An implementation must make ``update(kind:id:_:)`` atomic against every other writer, in this
/// process or another: a change read and written back must never lose a change made in between.
public protocol RecordStore: Sendable {
    /// Adds a record.
    ///
    /// - Throws: ``RecordBookError/duplicateID(kind:id:)`` when a record of this kind has this id.
    func insert(_ record: StoredRecord) async throws

    /// The record of this kind with this id, or `nil`.
    func record(kind: String, id: String) async throws -> StoredRecord?

    /// Changes one record in a single step that no other writer can interleave with.
    ///
    /// - Parameters:
    ///   - kind: The record's kind.
    ///   - id: The record's id.
    ///   - change: Changes the record and returns a value. It runs once, synchronously, while the
    ///     record is locked; what it throws is rethrown and nothing is written. It must keep the
    ///     record's kind and id.
    /// - Returns: What `change` returned, or `nil` when there is no such record (and `change` did
    ///   not run).
    func update<Value: Sendable>(
        kind: String, id: String, _ change: @escaping @Sendable (inout StoredRecord) throws -> Value
    ) async throws -> Value?

    /// Removes a record.
    ///
    /// - Returns: Whether there was one to remove.
    @discardableResult
    func delete(kind: String, id: String) async throws -> Bool

    /// The records of a kind whose id starts with `idPrefix`, without regard to the case of ASCII
    /// letters; every record of the kind for an empty prefix.
    ///
    /// - Returns: The records, oldest ``StoredRecord/date`` first, then by id.
    func records(kind: String, idPrefix: String) async throws -> [StoredRecord]

    /// The records of a kind filed under a day of `range`: see ``LocalDayRange``.
    ///
    /// - Returns: The records, oldest ``StoredRecord/date`` first, then by id.
    func records(kind: String, during range: LocalDayRange) async throws -> [StoredRecord]

    /// One page of the records of a kind in the order of their ids (byte by byte): at most `limit`
    /// records whose id comes after `id`, from the first when `id` is `nil`.
    ///
    /// It lets ``RecordBook/forEach(as:pageSize:_:)`` read every record of a kind while holding
    /// only one page: a host that keeps many records should answer it without reading them all.
    /// The default reads every record of the kind (``records(kind:idPrefix:)``) and keeps the page.
    ///
    /// - Parameters:
    ///   - kind: The records' kind.
    ///   - id: The last id of the previous page, or `nil` for the first page.
    ///   - limit: The most records to return; at least 1.
    /// - Returns: The records, by id; fewer than `limit` only on the last page.
    func records(kind: String, after id: String?, limit: Int) async throws -> [StoredRecord]

    /// One page of the records of a kind, newest first: at most `limit` records dated within
    /// `range` that come after `cursor` in the order of ``StoredRecord/sortKey``, newest first, then
    /// by id, last first.
    ///
    /// It lets ``RecordBook/forEachNewestFirst(in:pageSize:_:)`` list many records, newest first,
    /// while holding one page: a host that keeps many records should answer it from an index. The
    /// default reads every record of the kind and keeps the page.
    ///
    /// - Parameters:
    ///   - kind: The records' kind.
    ///   - range: Only records whose ``StoredRecord/sortKey`` falls in it; every record for `nil`.
    ///   - cursor: The last record of the previous page, or `nil` for the first page.
    ///   - limit: The most records to return; at least 1.
    /// - Returns: The records; fewer than `limit` only on the last page.
    func records(kind: String, newestFirstIn range: Range<Date>?, after cursor: RecordPosition?, limit: Int)
        async throws -> [StoredRecord]

    /// Moves values of the plugin's key-value ``PluginStore`` into its records, in one step.
    ///
    /// Each value whose key starts with `prefix` is handed to `convert`; each record it returns is
    /// inserted (unless one of that kind and id exists already) and its value removed. Values it
    /// returns `nil` for stay where they are. Moving nothing costs one quick look.
    ///
    /// - Parameters:
    ///   - prefix: The keys to move, such as `moment.`.
    ///   - convert: Makes a record of a value, or `nil` to leave the value alone.
    /// - Returns: How many values were moved.
    @discardableResult
    func adoptValues(withPrefix prefix: String, _ convert: @escaping @Sendable (StoredValue) -> StoredRecord?)
        async throws -> Int
}

extension RecordStore {
    /// Reads every record of the kind and keeps one page: right for a store that holds its records
    /// in memory anyway.
    public func records(kind: String, after id: String?, limit: Int) async throws -> [StoredRecord] {
        let later = try await records(kind: kind, idPrefix: "").filter { record in
            id.map { Self.idOrder($0, record.id) } ?? true
        }
        return Array(later.sorted { Self.idOrder($0.id, $1.id) }.prefix(max(limit, 1)))
    }

    /// Reads every record of the kind and keeps one page, newest first.
    public func records(kind: String, newestFirstIn range: Range<Date>?, after cursor: RecordPosition?, limit: Int)
        async throws -> [StoredRecord]
    {
        let kept = try await records(kind: kind, idPrefix: "").filter { record in
            let date = Date(timeIntervalSince1970: record.sortKey)
            return (range?.contains(date) ?? true) && (cursor.map { $0.precedes(record) } ?? true)
        }
        return Array(kept.sorted { RecordPosition(of: $0).precedes($1) }.prefix(max(limit, 1)))
    }

    /// Whether `lhs` comes before `rhs` in the order of ``records(kind:after:limit:)``: their UTF-8
    /// bytes, as SQLite compares text.
    public static func idOrder(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}

/// Where a page of records listed newest first ended: the last record's ``StoredRecord/sortKey``
/// and id (``RecordStore/records(kind:newestFirstIn:after:limit:)``).
public struct RecordPosition: Sendable, Hashable {
    /// The last record's ``StoredRecord/sortKey``.
    public var sortKey: Double
    /// The last record's id.
    public var id: String

    /// The cursor after `record`.
    public init(of record: StoredRecord) {
        sortKey = record.sortKey
        id = record.id
    }

    /// Whether `record` comes after this cursor, newest first: it is older, or as old with an id
    /// that sorts before.
    public func precedes(_ record: StoredRecord) -> Bool {
        record.sortKey != sortKey ? record.sortKey < sortKey : RecordStoreOrder.idPrecedes(record.id, id)
    }
}

/// The order of ids stores use: UTF-8 bytes, as SQLite compares text.
enum RecordStoreOrder {
    static func idPrecedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}

/// A record as a ``RecordStore`` keeps it: JSON bytes, with the kind, id and date it is found by.
public struct StoredRecord: Sendable, Hashable {
    /// The record's kind, such as `moment`.
    public var kind: String
    /// The record's id, unique within its kind.
    public var id: String
    /// The day or instant it is filed under.
    public var date: RecordDate
    /// The record, as JSON.
    public var data: Data

    /// Creates a stored record.
    ///
    /// - Parameters:
    ///   - kind: The record's kind.
    ///   - id: The record's id, unique within its kind.
    ///   - date: The day or instant it is filed under.
    ///   - data: The record, as JSON.
    public init(kind: String, id: String, date: RecordDate, data: Data) {
        self.kind = kind
        self.id = id
        self.date = date
        self.data = data
    }

    /// Sorts records as stores return them: oldest date first, days at the start of their day in
    /// UTC, then by id.
    public static func precedes(_ lhs: StoredRecord, _ rhs: StoredRecord) -> Bool {
        let (left, right) = (lhs.sortKey, rhs.sortKey)
        return left != right ? left < right : lhs.id < rhs.id
    }

    /// Seconds since 1970: the instant, or the start of the day in UTC.
    public var sortKey: Double {
        switch date {
        case .day(let day): Double(day.daysSinceEpoch) * 86400
        case .instant(let instant): instant.timeIntervalSince1970
        }
    }
}

/// A record book was used in a way it cannot be; a programming error, described for the developer.
public enum RecordBookError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ``RecordStore/insert(_:)`` was given an id that a record of the kind already has.
    case duplicateID(kind: String, id: String)
    /// An update changed the record's id, which is its key.
    case idChanged(kind: String, from: String, to: String)
    /// The context was made without a record store.
    case unavailable(plugin: String)
    /// ``RecordBook/insert(_:announcing:storing:)`` was called on a book made without a notice board.
    case noNoticeBoard(kind: String)

    /// What went wrong and what to do instead, for the plugin's developer.
    public var description: String {
        switch self {
        case .duplicateID(let kind, let id):
            "there is already a \(kind) with the id \(id); give the new record an id of its own"
        case .idChanged(let kind, let from, let to):
            "an update changed the id of the \(kind) \(from) to \(to); a record keeps its id, so insert a new one instead"
        case .unavailable(let plugin):
            "the context of \(plugin) was made without a record store; pass `records:` to PluginContext.init"
        case .noNoticeBoard(let kind):
            "this book of \(kind) records has no notice board to announce one on; get it from PluginContext.records(of:)"
        }
    }
}

/// The record store of a context made without one: every call fails with
/// ``RecordBookError/unavailable(plugin:)``.
public struct UnavailableRecordStore: RecordStore {
    /// The plugin whose context it is, for the message.
    public let plugin: String

    /// Creates it.
    ///
    /// - Parameter plugin: The plugin whose context it is, for the message.
    public init(plugin: String) {
        self.plugin = plugin
    }

    var error: RecordBookError { .unavailable(plugin: plugin) }

    /// Fails: there is no store.
    public func insert(_ record: StoredRecord) async throws { throw error }
    /// Fails: there is no store.
    public func record(kind: String, id: String) async throws -> StoredRecord? { throw error }
    /// Fails: there is no store.
    public func update<Value: Sendable>(
        kind: String, id: String, _ change: @escaping @Sendable (inout StoredRecord) throws -> Value
    ) async throws -> Value? { throw error }
    /// Fails: there is no store.
    public func delete(kind: String, id: String) async throws -> Bool { throw error }
    /// Fails: there is no store.
    public func records(kind: String, idPrefix: String) async throws -> [StoredRecord] { throw error }
    /// Fails: there is no store.
    public func records(kind: String, during range: LocalDayRange) async throws -> [StoredRecord] { throw error }
    /// Fails: there is no store.
    public func adoptValues(withPrefix prefix: String, _ convert: @escaping @Sendable (StoredValue) -> StoredRecord?)
        async throws -> Int
    { throw error }
}
