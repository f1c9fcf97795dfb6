import FoundationEssentials
import HoorayClient

/// Every record as the changes a device has folded in make it: the same set of changes gives the
/// same records, in whatever order and however often they came (docs/sync.md, "Merging").
///
/// - A field holds the value of its latest `set`.
/// - A set field holds each element whose latest `add` or `remove` is an add, listed in the order
///   of those adds.
/// - A record with a `delete` is gone, whatever came before or after it.
public struct SyncReplica: Sendable, Equatable {
    /// One record's merged state.
    public struct Record: Sendable, Equatable {
        /// Each field's latest value (`nil`: taken out) and its stamp.
        var fields: [String: (stamp: SyncStamp, value: JSONValue?)] = [:]
        /// Each set field's elements by their canonical text: the latest stamp, whether it was an
        /// add, and the element.
        var sets: [String: [String: (stamp: SyncStamp, present: Bool, element: JSONValue)]] = [:]
        /// When it was deleted; a deleted record stays deleted.
        var deleted: SyncStamp?

        public static func == (lhs: Record, rhs: Record) -> Bool {
            lhs.deleted == rhs.deleted
                && lhs.fields.mapValues { "\($0.stamp) \($0.value?.canonicalText ?? "-")" }
                    == rhs.fields.mapValues { "\($0.stamp) \($0.value?.canonicalText ?? "-")" }
                && lhs.sets.mapValues { $0.mapValues { "\($0.stamp) \($0.present)" } }
                    == rhs.sets.mapValues { $0.mapValues { "\($0.stamp) \($0.present)" } }
        }
    }

    /// How fields merge.
    public let schema: SyncSchema
    /// The records, by key.
    public private(set) var records: [SyncRecordKey: Record] = [:]
    /// The latest stamp folded in.
    public private(set) var latest: SyncStamp?

    /// An empty replica.
    public init(schema: SyncSchema = .builtIn) {
        self.schema = schema
    }

    /// Folds in a change.
    ///
    /// - Returns: Whether the record changed (a change seen before, or beaten by a later one, changes nothing).
    @discardableResult
    public mutating func apply(_ change: SyncChange) -> Bool {
        if latest.map({ change.stamp > $0 }) ?? true { latest = change.stamp }
        var record = records[change.record] ?? Record()
        let before = record
        switch change.operation {
        case .delete:
            if record.deleted.map({ change.stamp < $0 }) ?? true { record.deleted = change.stamp }
        case .set(let field, let value):
            if record.fields[field].map({ change.stamp > $0.stamp }) ?? true {
                record.fields[field] = (change.stamp, value)
            }
        case .add(let field, let element), .remove(let field, let element):
            let present = if case .add = change.operation { true } else { false }
            let key = element.canonicalText
            if record.sets[field, default: [:]][key].map({ change.stamp > $0.stamp }) ?? true {
                record.sets[field, default: [:]][key] = (change.stamp, present, element)
            }
        }
        records[change.record] = record
        return record != before
    }

    /// The record as JSON, as the record's plugin reads it; `nil` when it is deleted or has no fields.
    public func value(of key: SyncRecordKey) -> JSONValue? {
        guard let record = records[key], record.deleted == nil else { return nil }
        var members: [String: JSONValue] = [:]
        for (field, entry) in record.fields {
            if let value = entry.value { members[field] = value }
        }
        guard !members.isEmpty else { return nil }
        // Every set field the kind has is there, empty when no element was ever added: a record's
        // decoding may need it.
        let shapes = schema.setFields(of: key)
        for (field, shape) in shapes where record.sets[field] == nil {
            members[field] = SyncSchema.value(of: [], shape: shape)
        }
        for (field, elements) in record.sets {
            let kept = elements.values.filter(\.present).sorted { $0.stamp < $1.stamp }.map(\.element)
            members[field] = SyncSchema.value(of: kept, shape: shapes[field] ?? .array)
        }
        return .object(members)
    }

    /// Every record that is there, by key, sorted.
    public var values: [(key: SyncRecordKey, value: JSONValue)] {
        records.keys.sorted().compactMap { key in value(of: key).map { (key, $0) } }
    }

    /// Whether the record was deleted.
    public func isDeleted(_ key: SyncRecordKey) -> Bool {
        records[key]?.deleted != nil
    }
}
