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
    /// - Throws: a ``RecordBookError`` (``RecordBookError/Code/duplicateID``) when a record of this kind has this id.
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

/// A record store that lists pages of records from an index, as the engine's SQLite store does;
/// the pages of any other store are cut from all its records of the kind, in memory.
package protocol PagedRecordStore: RecordStore {
    /// One page of the records of a kind in the order of their ids (byte by byte): at most `limit`
    /// records whose id comes after `id`, from the first when `id` is `nil`.
    ///
    /// It lets ``RecordBook/forEach(as:pageSize:_:)`` read every record of a kind while holding
    /// only one page: a host that keeps many records should answer it without reading them all.
    /// Any other store's page is cut from every record of the kind (``RecordStore/records(kind:idPrefix:)``).
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
    /// while holding one page: a host that keeps many records should answer it from an index.
    ///
    /// - Parameters:
    ///   - kind: The records' kind.
    ///   - range: Only records whose ``StoredRecord/sortKey`` falls in it; every record for `nil`.
    ///   - cursor: The last record of the previous page, or `nil` for the first page.
    ///   - limit: The most records to return; at least 1.
    /// - Returns: The records; fewer than `limit` only on the last page.
    func records(kind: String, newestFirstIn range: Range<Date>?, after cursor: RecordPosition?, limit: Int)
        async throws -> [StoredRecord]
}

extension RecordStore {
    /// One page of the records of a kind, by id: the store's own when it is a ``PagedRecordStore``,
    /// otherwise cut from every record of the kind.
    package func recordsPage(kind: String, after id: String?, limit: Int) async throws -> [StoredRecord] {
        if let paged = self as? any PagedRecordStore {
            return try await paged.records(kind: kind, after: id, limit: limit)
        }
        let later = try await records(kind: kind, idPrefix: "").filter { record in
            id.map { Self.idOrder($0, record.id) } ?? true
        }
        return Array(later.sorted { Self.idOrder($0.id, $1.id) }.prefix(max(limit, 1)))
    }

    /// One page of the records of a kind, newest first: the store's own when it is a
    /// ``PagedRecordStore``, otherwise cut from every record of the kind.
    package func recordsPage(kind: String, newestFirstIn range: Range<Date>?, after cursor: RecordPosition?, limit: Int)
        async throws -> [StoredRecord]
    {
        if let paged = self as? any PagedRecordStore {
            return try await paged.records(kind: kind, newestFirstIn: range, after: cursor, limit: limit)
        }
        let kept = try await records(kind: kind, idPrefix: "").filter { record in
            let date = Date(timeIntervalSince1970: record.sortKey)
            return (range?.contains(date) ?? true) && (cursor.map { $0.precedes(record) } ?? true)
        }
        return Array(kept.sorted { RecordPosition(of: $0).precedes($1) }.prefix(max(limit, 1)))
    }

    /// Whether `lhs` comes before `rhs` in the order of pages by id: their UTF-8 bytes, as SQLite
    /// compares text.
    package static func idOrder(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}

/// Where a page of records listed newest first ended: the last record's ``StoredRecord/sortKey``
/// and id (``RecordStore/records(kind:newestFirstIn:after:limit:)``).
package struct RecordPosition: Sendable, Hashable {
    /// The last record's ``StoredRecord/sortKey``.
    package var sortKey: Double
    /// The last record's id.
    package var id: String

    /// The cursor after `record`.
    package init(of record: StoredRecord) {
        sortKey = record.sortKey
        id = record.id
    }

    /// Whether `record` comes after this cursor, newest first: it is older, or as old with an id
    /// that sorts before.
    package func precedes(_ record: StoredRecord) -> Bool {
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
    package static func precedes(_ lhs: StoredRecord, _ rhs: StoredRecord) -> Bool {
        let (left, right) = (lhs.sortKey, rhs.sortKey)
        return left != right ? left < right : lhs.id < rhs.id
    }

    /// Seconds since 1970: the instant, or the start of the day in UTC.
    package var sortKey: Double {
        switch date {
        case .day(let day): Double(day.daysSinceEpoch) * 86400
        case .instant(let instant): instant.timeIntervalSince1970
        }
    }
}

/// A record book refused a change: its ``description`` says what went wrong and what to do instead,
/// for the plugin's developer, and its ``code`` which refusal it is.
///
/// A struct with an opaque code rather than an enum, so that Hooray may tell new refusals apart
/// without breaking a plugin:
///
/// ```swift
/// } catch let error as RecordBookError where error.code == .duplicateID {
///     // the record is there already
/// }
/// ```
public struct RecordBookError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which refusal it is; more may come.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name, such as `duplicate-id`.
        public let description: String

        /// ``RecordStore/insert(_:)`` was given an id that a record of the kind already has.
        public static let duplicateID = Code(description: "duplicate-id")
        /// An update changed the record's id, which is its key.
        package static let idChanged = Code(description: "id-changed")
        /// The context was made without a record store.
        package static let unavailable = Code(description: "unavailable")
        /// An insert that announces a notice, on a book made without a notice board.
        package static let noNoticeBoard = Code(description: "no-notice-board")
    }

    /// Which refusal it is.
    public let code: Code
    /// What went wrong and what to do instead, for the plugin's developer.
    public let description: String

    /// Creates a refusal.
    package init(code: Code, description: String) {
        self.code = code
        self.description = description
    }

    /// An insert with an id that a record of the kind already has.
    package static func duplicateID(kind: String, id: String) -> RecordBookError {
        RecordBookError(
            code: .duplicateID,
            description: "there is already a \(kind) with the id \(id); give the new record an id of its own")
    }

    /// An update that changed the record's id, which is its key.
    package static func idChanged(kind: String, from: String, to: String) -> RecordBookError {
        RecordBookError(
            code: .idChanged,
            description: "an update changed the id of the \(kind) \(from) to \(to); a record keeps its id, "
                + "so insert a new one instead")
    }

    /// A context made without a record store.
    package static func unavailable(plugin: String) -> RecordBookError {
        RecordBookError(
            code: .unavailable,
            description:
                "the context of \(plugin) was made without a record store; use the context hoorayd or HoorayKitTesting hands the plugin"
        )
    }

    /// ``RecordBook/insert(_:announcing:storing:)`` on a book made without a notice board.
    package static func noNoticeBoard(kind: String) -> RecordBookError {
        RecordBookError(
            code: .noNoticeBoard,
            description: "this book of \(kind) records has no notice board to announce one on; get it from "
                + "PluginContext.records(of:)")
    }
}

/// The record store of a context made without one: every call fails with
/// ``RecordBookError/unavailable(plugin:)``.
package struct UnavailableRecordStore: RecordStore {
    /// The plugin whose context it is, for the message.
    package let plugin: String

    /// Creates it.
    ///
    /// - Parameter plugin: The plugin whose context it is, for the message.
    package init(plugin: String) {
        self.plugin = plugin
    }

    var error: RecordBookError { .unavailable(plugin: plugin) }

    /// Fails: there is no store.
    package func insert(_ record: StoredRecord) async throws { throw error }
    /// Fails: there is no store.
    package func record(kind: String, id: String) async throws -> StoredRecord? { throw error }
    /// Fails: there is no store.
    package func update<Value: Sendable>(
        kind: String, id: String, _ change: @escaping @Sendable (inout StoredRecord) throws -> Value
    ) async throws -> Value? { throw error }
    /// Fails: there is no store.
    package func delete(kind: String, id: String) async throws -> Bool { throw error }
    /// Fails: there is no store.
    package func records(kind: String, idPrefix: String) async throws -> [StoredRecord] { throw error }
    /// Fails: there is no store.
    package func records(kind: String, during range: LocalDayRange) async throws -> [StoredRecord] { throw error }
    /// Fails: there is no store.
    package func adoptValues(withPrefix prefix: String, _ convert: @escaping @Sendable (StoredValue) -> StoredRecord?)
        async throws -> Int
    { throw error }
}
