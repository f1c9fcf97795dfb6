import Foundation
import HoorayCalendar

/// A plugin's records of one type: a table of `Codable` values kept by the host, found by id, by
/// the first characters of an id, and by local day.
///
/// Get one from the context, and keep using it for the call:
///
/// ```swift
/// let moments = context.records(of: Moment.self)
/// try await moments.insert(moment)
/// let favourite = try await moments.update(moment.recordID) { moment in
///     moment.isFavorite.toggle()
///     return moment.isFavorite
/// }
/// let found = try await moments.find(idPrefix: "3f2a", listedBy: "`hooray moments`")
/// ```
///
/// Changes go through ``update(_:_:)`` in one step that no other writer can interleave with — not
/// another task, not the CLI in another process — so a click on a notification and a command in the
/// terminal never overwrite each other's changes. Records are JSON, dates as seconds since 1970; a
/// record that no longer decodes is left out of lists rather than hiding every other one.
public struct RecordBook<Record: PluginRecord>: Sendable {
    /// Where the records are kept.
    package let store: any RecordStore
    /// Where ``insert(_:announcing:storing:)`` posts its notice; `nil` for a book made without one.
    package let notices: (any NoticeBoard)?

    /// Creates a book over a store.
    ///
    /// - Parameters:
    ///   - store: Where the records are kept.
    ///   - notices: Where ``insert(_:announcing:storing:)`` posts its notice.
    public init(store: any RecordStore, notices: (any NoticeBoard)? = nil) {
        self.store = store
        self.notices = notices
    }

    private var kind: String { Record.recordKind }

    // MARK: Changing records

    /// Adds a record.
    ///
    /// - Throws: a ``RecordBookError`` (``RecordBookError/Code/duplicateID``) when a record of this kind has its id.
    public func insert(_ record: Record) async throws {
        try await adoptLegacyValues()
        try await store.insert(try Self.stored(record))
    }

    /// Adds a record and shows a notice about it, in one step: either both are saved or, when this
    /// throws or the process is killed, neither is.
    ///
    /// Use it when the notice is how the user learns the record was saved — "Moment logged" — so
    /// that a record is never saved without being announced.
    ///
    /// - Parameters:
    ///   - record: The record.
    ///   - notice: The notice announcing it.
    ///   - values: Keys of the plugin's key-value storage and the bytes to store under them, saved
    ///     in the same step, such as a "first record logged" flag.
    /// - Returns: The notice's id, for ``NoticeBoard/update(_:to:)``.
    /// - Throws: a ``RecordBookError`` (``RecordBookError/Code/duplicateID``) when a record of this kind has its id, and
    ///   a ``RecordBookError`` for a book made without a notice board.
    @discardableResult
    public func insert(_ record: Record, announcing notice: Notice, storing values: [String: Data] = [:])
        async throws -> NoticeID
    {
        guard let notices else { throw RecordBookError.noNoticeBoard(kind: Record.recordKind) }
        try await adoptLegacyValues()
        return try await notices.post(notice, storing: values, inserting: [try Self.stored(record)])
    }

    /// Changes a record in one step that no other writer can interleave with, and returns what the
    /// change returns.
    ///
    /// ```swift
    /// let milestone = try await habits.update(id) { habit in
    ///     habit.complete(day, today: today, milestones: milestones)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - id: The record's id.
    ///   - change: Changes the record and returns a value. It runs once, synchronously, while the
    ///     record is locked, so keep it quick and do no I/O; what it throws is rethrown and nothing
    ///     is saved. It must keep the record's id.
    /// - Returns: What `change` returned, or `nil` when there is no record with this id.
    /// - Throws: a ``RecordBookError`` when `change` changed the id.
    @discardableResult
    public func update<Value: Sendable>(_ id: String, _ change: @escaping @Sendable (inout Record) throws -> Value)
        async throws -> Value?
    {
        try await adoptLegacyValues()
        return try await store.update(kind: kind, id: id) { stored in
            var record = try Self.decode(stored.data)
            let value = try change(&record)
            guard record.recordID == stored.id else {
                throw RecordBookError.idChanged(kind: Record.recordKind, from: stored.id, to: record.recordID)
            }
            stored = try Self.stored(record)
            return value
        }
    }

    /// Removes a record.
    ///
    /// - Returns: Whether there was one with this id.
    @discardableResult
    public func delete(_ id: String) async throws -> Bool {
        try await adoptLegacyValues()
        return try await store.delete(kind: kind, id: id)
    }

    // MARK: Reading records

    /// The record with this id, or `nil`.
    ///
    /// - Throws: `DecodingError` when the stored record no longer decodes.
    public func record(_ id: String) async throws -> Record? {
        try await adoptLegacyValues()
        return try await store.record(kind: kind, id: id).map { try Self.decode($0.data) }
    }

    /// Every record, oldest date first.
    public func all() async throws -> [Record] {
        try await records(withIDPrefix: "")
    }

    /// The default number of records ``forEach(pageSize:_:)`` and ``forEach(as:pageSize:_:)``
    /// decode at once.
    public static var defaultPageSize: Int { 256 }

    /// Goes through every record a page at a time, in the order of their ids, holding at most one
    /// page of decoded records: for a plugin with many records that needs each only for a moment,
    /// such as to plan a reminder per record or to count them.
    ///
    /// ```swift
    /// var due = 0
    /// try await context.records(of: Habit.self).forEach { habit in
    ///     if habit.isDue(on: today) { due += 1 }
    /// }
    /// ```
    ///
    /// A record that no longer decodes is skipped, as ``all()`` leaves it out. Records inserted or
    /// deleted meanwhile may or may not be seen; none is seen twice.
    ///
    /// - Parameters:
    ///   - pageSize: How many records to read and decode at once.
    ///   - body: Called with each record; what it throws ends the walk and is rethrown.
    public func forEach(pageSize: Int = defaultPageSize, _ body: (Record) async throws -> Void) async throws {
        try await forEach(as: Record.self, pageSize: pageSize, body)
    }

    /// Goes through every record a page at a time, each decoded as `Projection`: a `Decodable` type
    /// with only the fields the caller needs, so the others are never built.
    ///
    /// ```swift
    /// struct HabitName: Decodable { var id: UUID; var name: String }
    /// var names: [String] = []
    /// try await habits.forEach(as: HabitName.self) { names.append($0.name) }
    /// ```
    ///
    /// The projection is decoded from the stored JSON as the book decodes the record (dates as
    /// seconds since 1970); fields it does not declare are skipped. A record that does not decode
    /// as the projection is skipped.
    ///
    /// - Parameters:
    ///   - projection: The type to decode each record as.
    ///   - pageSize: How many records to read and decode at once.
    ///   - body: Called with each projection, in the order of the records' ids; what it throws
    ///     ends the walk and is rethrown.
    public func forEach<Projection: Decodable>(
        as projection: Projection.Type, pageSize: Int = defaultPageSize, _ body: (Projection) async throws -> Void
    ) async throws {
        try await adoptLegacyValues()
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        var last: String?
        while true {
            let page = try await store.recordsPage(kind: kind, after: last, limit: max(pageSize, 1))
            for stored in page {
                guard let value = try? decoder.decode(Projection.self, from: stored.data) else { continue }
                try await body(value)
            }
            guard page.count >= max(pageSize, 1), let end = page.last?.id else { return }
            last = end
        }
    }

    /// Goes through the records dated within `range`, newest first, a page at a time, holding at
    /// most one page of decoded records: for a listing of many records that writes each as it reads
    /// it, such as `hooray moments`.
    ///
    /// Records are ordered by their date (a day counts from its start in UTC), then by id, last
    /// first. A record that no longer decodes is skipped.
    ///
    /// - Parameters:
    ///   - range: Only the records dated within it; all of them for `nil`.
    ///   - pageSize: How many records to read and decode at once.
    ///   - body: Called with each record; it returns `false` to stop there (a listing that has shown
    ///     enough), and what it throws ends the walk and is rethrown.
    public func forEachNewestFirst(
        in range: Range<Date>? = nil, pageSize: Int = defaultPageSize, _ body: (Record) async throws -> Bool
    ) async throws {
        try await adoptLegacyValues()
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        var cursor: RecordPosition?
        while true {
            let page = try await store.recordsPage(
                kind: kind, newestFirstIn: range, after: cursor, limit: max(pageSize, 1))
            for stored in page {
                guard let value = try? decoder.decode(Record.self, from: stored.data) else { continue }
                guard try await body(value) else { return }
            }
            guard page.count >= max(pageSize, 1), let last = page.last else { return }
            cursor = RecordPosition(of: last)
        }
    }

    /// The records whose id starts with `prefix` (without regard to the case of ASCII letters),
    /// oldest date first.
    public func records(withIDPrefix prefix: String) async throws -> [Record] {
        try await adoptLegacyValues()
        return try await store.records(kind: kind, idPrefix: prefix).compactMap { try? Self.decode($0.data) }
    }

    /// The records filed under a day from `first` through `last` in `timeZone`, oldest date first.
    ///
    /// A record filed under an instant is in the range when the instant falls on one of these days
    /// in `timeZone`; one filed under a day when its day is one of them.
    public func records(from first: LocalDate, through last: LocalDate, in timeZone: TimeZone) async throws
        -> [Record]
    {
        let range = LocalDayRange(from: first, through: last, in: timeZone)
        guard !range.isEmpty else { return [] }
        try await adoptLegacyValues()
        return try await store.records(kind: kind, during: range).compactMap { try? Self.decode($0.data) }
    }

    /// The records filed under one day in `timeZone`, oldest date first.
    public func records(on day: LocalDate, in timeZone: TimeZone) async throws -> [Record] {
        try await records(from: day, through: day, in: timeZone)
    }

    /// The shortest id prefix a user may type to name a record.
    package static var minimumPrefixLength: Int { 4 }

    /// Finds the one record whose id starts with what the user typed, as ids are shown shortened.
    ///
    /// Spaces around the text are ignored, and so is the case of ASCII letters.
    ///
    /// - Parameters:
    ///   - idPrefix: What the user typed: at least the first 4 characters of an id.
    ///   - listedBy: The command that lists the records with their ids, for the messages, as it
    ///     should read there: `hooray moments` in backquotes, say; `nil` to name none.
    /// - Returns: The record.
    /// - Throws: ``PluginCommandError`` when the text is too short, when no record matches, and when
    ///   several do (the message says how many, and to type more of the id).
    public func find(idPrefix: String, listedBy: String? = nil) async throws -> Record {
        let wanted = idPrefix.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = Record.recordName
        guard wanted.count >= Self.minimumPrefixLength else {
            let shown = listedBy.map { ", as \($0) shows them" } ?? ""
            throw PluginCommandError(
                "\"\(idPrefix)\" is not a \(name) id; give at least its first \(Self.minimumPrefixLength) characters\(shown)"
            )
        }
        let matches = try await records(withIDPrefix: wanted)
        switch matches.count {
        case 0:
            let hint = listedBy.map { "; \($0) lists them" } ?? ""
            throw PluginCommandError("no \(name) has an id starting with \(wanted)\(hint)")
        case 1:
            return matches[0]
        default:
            throw PluginCommandError(
                "\(matches.count) \(Record.recordNamePlural) have ids starting with \(wanted); give more characters of the id"
            )
        }
    }

    // MARK: Encoding

    /// The record as stored: JSON with sorted keys, dates as seconds since 1970.
    package static func stored(_ record: Record) throws -> StoredRecord {
        StoredRecord(kind: Record.recordKind, id: record.recordID, date: record.recordDate, data: try encode(record))
    }

    /// Encodes a record as it is stored.
    package static func encode(_ record: Record) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(record)
    }

    /// Decodes a stored record.
    package static func decode(_ data: Data) throws -> Record {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(Record.self, from: data)
    }

    /// Moves records the plugin kept in its key-value storage into the book (see
    /// ``PluginRecord/legacyKeyPrefix``).
    private func adoptLegacyValues() async throws {
        guard let prefix = Record.legacyKeyPrefix else { return }
        try await store.adoptValues(withPrefix: prefix) { value in
            guard let record = try? Self.decode(value.data) else { return nil }
            return StoredRecord(kind: Record.recordKind, id: record.recordID, date: record.recordDate, data: value.data)
        }
    }
}
