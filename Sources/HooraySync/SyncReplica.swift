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
    /// One record's merged state: what folding in its changes so far has made of it, kept so that
    /// the next change can be folded in (HoorayStorage keeps one per record while sync is on).
    public struct Record: Sendable, Equatable, Codable {
        struct Field: Codable, Equatable {
            var stamp: SyncStamp
            var value: JSONValue?
        }
        struct Element: Codable, Equatable {
            var stamp: SyncStamp
            var present: Bool
            var element: JSONValue
        }
        /// Each field's latest value (`nil`: taken out) and its stamp.
        var fields: [String: Field] = [:]
        /// Each set field's elements by their canonical text: the latest stamp, whether it was an
        /// add, and the element.
        var sets: [String: [String: Element]] = [:]
        /// When it was deleted; a deleted record stays deleted.
        public internal(set) var deleted: SyncStamp?

        /// A record no change has reached.
        public init() {}

        /// Folds in a change of this record.
        ///
        /// - Returns: Whether it changed (a change seen before, or beaten by a later one, changes nothing).
        @discardableResult
        public mutating func apply(_ operation: SyncOperation, stamp: SyncStamp) -> Bool {
            let before = self
            switch operation {
            case .delete:
                if deleted.map({ stamp < $0 }) ?? true { deleted = stamp }
            case .set(let field, let value):
                if fields[field].map({ stamp > $0.stamp }) ?? true { fields[field] = Field(stamp: stamp, value: value) }
            case .add(let field, let element), .remove(let field, let element):
                let present = if case .add = operation { true } else { false }
                let key = element.canonicalText
                if sets[field, default: [:]][key].map({ stamp > $0.stamp }) ?? true {
                    sets[field, default: [:]][key] = Element(stamp: stamp, present: present, element: element)
                }
            }
            return self != before
        }

        /// The record as JSON; `nil` when it is deleted or has no fields.
        ///
        /// - Parameter setFields: The set fields of its kind (``SyncSchema/setFields(of:)``).
        public func value(setFields shapes: [String: SyncSchema.SetShape]) -> JSONValue? {
            guard deleted == nil else { return nil }
            var members: [String: JSONValue] = [:]
            for (field, entry) in fields {
                if let value = entry.value { members[field] = value }
            }
            guard !members.isEmpty else { return nil }
            // Every array set field the kind has is there, empty when no element was ever added: a
            // record's decoding may need it. A day set is left out: its record reads an older form
            // when it is not there (a habit's `completions`), which an empty one would hide.
            for (field, shape) in shapes where sets[field] == nil && shape == .array {
                members[field] = SyncSchema.value(of: [], shape: shape)
            }
            for (field, elements) in sets {
                let kept = elements.values.filter(\.present).sorted { $0.stamp < $1.stamp }.map(\.element)
                members[field] = SyncSchema.value(of: kept, shape: shapes[field] ?? .array)
            }
            return .object(members)
        }

        public static func == (lhs: Record, rhs: Record) -> Bool {
            lhs.deleted == rhs.deleted && lhs.fields.mapValues(\.text) == rhs.fields.mapValues(\.text)
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
        return records[change.record, default: Record()].apply(change.operation, stamp: change.stamp)
    }

    /// The record as JSON, as the record's plugin reads it; `nil` when it is deleted or has no fields.
    public func value(of key: SyncRecordKey) -> JSONValue? {
        records[key]?.value(setFields: schema.setFields(of: key))
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

extension SyncReplica.Record.Field {
    /// The stamp and value as text, to compare.
    var text: String { "\(stamp) \(value?.canonicalText ?? "-")" }
}
