import FoundationEssentials
import HoorayClient

/// Every record as the changes a device has folded in make it: the same set of changes gives the
/// same records, in whatever order and however often they came (docs/sync.md, "Merging").
///
/// - A field holds the value of its latest `set`.
/// - A set field holds each element whose latest `add` or `remove` is an add, listed in the order
///   of those adds.
/// - A record is deleted by a `delete` later than its latest `create`, whatever edits came before or
///   after it; a `create` later than the delete brings it back as that create wrote it, and what was
///   set before that create counts no more. A record never deleted merges field by field, however
///   many computers created it.
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
        /// When it was last deleted.
        public internal(set) var deleted: SyncStamp?
        /// When it was last created (written where it was not there).
        public internal(set) var created: SyncStamp?

        /// A record no change has reached.
        public init() {}

        /// Whether the record is deleted: a delete came after its latest create.
        public var isDeleted: Bool {
            guard let deleted else { return false }
            return created.map { $0 < deleted } ?? true
        }

        /// The stamp before which nothing counts, once the record was deleted: the latest delete, or
        /// a create after it. What was set before it belongs to a record deleted since, or written
        /// anew. A record never deleted has none: two computers that both create it (a check-in of
        /// the same day, a habit imported from the same backup) merge field by field.
        var cutoff: SyncStamp? {
            guard let deleted else { return nil }
            return created.map { max($0, deleted) } ?? deleted
        }

        /// Folds in a change of this record.
        ///
        /// - Returns: Whether it changed (a change seen before, or beaten by a later one, changes nothing).
        @discardableResult
        public mutating func apply(_ operation: SyncOperation, stamp: SyncStamp) -> Bool {
            switch operation {
            case .delete:
                guard deleted.map({ stamp > $0 }) ?? true else { return false }
                deleted = stamp
                forgetBefore(cutoff)
                return true
            case .create:
                guard created.map({ stamp > $0 }) ?? true else { return false }
                created = stamp
                forgetBefore(cutoff)
                return true
            case .set(let field, let value):
                guard cutoff.map({ stamp > $0 }) ?? true, fields[field].map({ stamp > $0.stamp }) ?? true else {
                    return false
                }
                // JSON's null and no value are one: a segment's decoding cannot tell them apart.
                fields[field] = Field(stamp: stamp, value: value == .null ? nil : value)
                return true
            case .add(let field, let element), .remove(let field, let element):
                let present = if case .add = operation { true } else { false }
                let key = element.canonicalText
                guard cutoff.map({ stamp > $0 }) ?? true,
                    sets[field, default: [:]][key].map({ stamp > $0.stamp }) ?? true
                else { return false }
                sets[field, default: [:]][key] = Element(stamp: stamp, present: present, element: element)
                return true
            }
        }

        /// Folds in another record's state (a snapshot's): the same as folding in every change that
        /// made it, since each part of a state is the latest change of its kind.
        ///
        /// - Returns: Whether it changed.
        @discardableResult
        public mutating func merge(_ other: Record) -> Bool {
            var changed = false
            if let created = other.created { changed = apply(.create, stamp: created) || changed }
            if let deleted = other.deleted { changed = apply(.delete, stamp: deleted) || changed }
            for (field, entry) in other.fields {
                changed = apply(.set(field: field, value: entry.value), stamp: entry.stamp) || changed
            }
            for (field, elements) in other.sets {
                for entry in elements.values {
                    let operation: SyncOperation =
                        entry.present
                        ? .add(field: field, element: entry.element) : .remove(field: field, element: entry.element)
                    changed = apply(operation, stamp: entry.stamp) || changed
                }
            }
            return changed
        }

        /// The latest stamp in the state, to move a clock past.
        public var latestStamp: SyncStamp? {
            let stamps =
                [created, deleted].compactMap { $0 } + fields.values.map(\.stamp)
                + sets.values.flatMap { $0.values.map(\.stamp) }
            return stamps.max()
        }

        /// Forgets every value and element set before `cutoff`: a deleted record keeps no words of
        /// the user's, only that it was deleted.
        private mutating func forgetBefore(_ cutoff: SyncStamp?) {
            guard let cutoff else { return }
            fields = fields.filter { $0.value.stamp > cutoff }
            sets = sets.compactMapValues { elements in
                let kept = elements.filter { $0.value.stamp > cutoff }
                return kept.isEmpty ? nil : kept
            }
        }

        /// The record as JSON; `nil` when it is deleted or has no fields.
        ///
        /// - Parameter setFields: The set fields of its kind (``SyncSchema/setFields(of:)``).
        public func value(setFields shapes: [String: SyncSchema.SetShape]) -> JSONValue? {
            guard !isDeleted else { return nil }
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
            lhs.deleted == rhs.deleted && lhs.created == rhs.created
                && lhs.fields.mapValues(\.text) == rhs.fields.mapValues(\.text)
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

    /// Folds in a snapshot's record states.
    public mutating func merge(_ snapshot: SyncSnapshot) {
        for entry in snapshot.records {
            records[entry.key, default: Record()].merge(entry.state)
            if let stamp = entry.state.latestStamp, latest.map({ stamp > $0 }) ?? true { latest = stamp }
        }
    }

    /// A snapshot of every record's state.
    public func snapshot(read: [SyncDeviceID: Set<Int>]) -> SyncSnapshot {
        SyncSnapshot(
            read: read, records: records.keys.sorted().map { SyncSnapshot.Entry(key: $0, state: records[$0]!) })
    }

    /// Whether the record was deleted.
    public func isDeleted(_ key: SyncRecordKey) -> Bool {
        records[key]?.isDeleted ?? false
    }
}

extension SyncReplica.Record.Field {
    /// The stamp and value as text, to compare.
    var text: String { "\(stamp) \(value?.canonicalText ?? "-")" }
}

// MARK: Stored form

extension SyncReplica.Record {
    /// The state as it is stored and sealed into snapshots, small: a record's stamps name few
    /// computers, so each is written once (`d`) and a stamp is `[wall, counter, computer]`.
    ///
    /// ```json
    /// {"d":["3f2a…"],"c":[1796066526054,0,0],"f":{"name":[1796066526054,1,0,"Read"]},
    ///  "s":{"done":[[1796066526054,2,0,1,20758]]}}
    /// ```
    ///
    /// `c` is the latest create and `x` the latest delete; a field without a value has only its
    /// stamp; a set's element is its stamp, 1 for an add or 0 for a remove, and the element.
    public func encode(to encoder: any Encoder) throws {
        var devices: [SyncDeviceID] = []
        var indices: [SyncDeviceID: Int] = [:]
        func stamp(_ stamp: SyncStamp) -> [JSONValue] {
            let index =
                indices[stamp.device]
                ?? {
                    devices.append(stamp.device)
                    indices[stamp.device] = devices.count - 1
                    return devices.count - 1
                }()
            return [.number(Double(stamp.wall)), .number(Double(stamp.counter)), .number(Double(index))]
        }
        var members: [String: JSONValue] = [:]
        if let created { members["c"] = .array(stamp(created)) }
        if let deleted { members["x"] = .array(stamp(deleted)) }
        if !fields.isEmpty {
            members["f"] = .object(
                fields.mapValues { entry in .array(stamp(entry.stamp) + (entry.value.map { [$0] } ?? [])) })
        }
        if !sets.isEmpty {
            members["s"] = .object(
                sets.mapValues { elements in
                    .array(
                        elements.values.sorted { $0.stamp < $1.stamp }.map { entry in
                            .array(stamp(entry.stamp) + [.number(entry.present ? 1 : 0), entry.element])
                        })
                })
        }
        members["d"] = .array(devices.map { .string($0.rawValue) })
        try JSONValue.object(members).encode(to: encoder)
    }

    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        guard case .object(let members) = value, case .array(let names)? = members["d"] else {
            self = try Self.firstForm(from: decoder)
            return
        }
        let devices = names.map { name -> SyncDeviceID? in name.stringValue.flatMap(SyncDeviceID.init) }
        func stamp(_ parts: ArraySlice<JSONValue>) throws -> SyncStamp {
            guard parts.count == 3, case .number(let wall) = parts[parts.startIndex],
                case .number(let counter) = parts[parts.startIndex + 1],
                case .number(let index) = parts[parts.startIndex + 2], let whole = Int(exactly: index),
                devices.indices.contains(whole), let device = devices[whole], let wall = Int64(exactly: wall),
                let counter = UInt32(exactly: counter)
            else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a stamp"))
            }
            return SyncStamp(wall: wall, counter: counter, device: device)
        }
        self.init()
        if case .array(let parts)? = members["c"] { created = try stamp(parts[...]) }
        if case .array(let parts)? = members["x"] { deleted = try stamp(parts[...]) }
        if case .object(let entries)? = members["f"] {
            for (field, entry) in entries {
                guard case .array(let parts) = entry, parts.count == 3 || parts.count == 4 else { continue }
                fields[field] = Field(stamp: try stamp(parts.prefix(3)), value: parts.count == 4 ? parts[3] : nil)
            }
        }
        if case .object(let entries)? = members["s"] {
            for (field, list) in entries {
                guard case .array(let elements) = list else { continue }
                var kept: [String: Element] = [:]
                for element in elements {
                    guard case .array(let parts) = element, parts.count == 5, case .number(let present) = parts[3]
                    else { continue }
                    kept[parts[4].canonicalText] = Element(
                        stamp: try stamp(parts.prefix(3)), present: present == 1, element: parts[4])
                }
                sets[field] = kept
            }
        }
    }

    /// The first stored form (before stamps were written small), which a database that turned sync
    /// on with an earlier build still holds: every stamp written out, each set's elements by their text.
    private static func firstForm(from decoder: any Decoder) throws -> Self {
        struct FirstForm: Decodable {
            var fields: [String: Field]
            var sets: [String: [String: Element]]
            var deleted: SyncStamp?
            var created: SyncStamp?
        }
        let first = try FirstForm(from: decoder)
        var record = Self()
        (record.fields, record.sets, record.deleted, record.created) =
            (first.fields, first.sets, first.deleted, first.created)
        return record
    }
}
