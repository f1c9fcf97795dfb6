import FoundationEssentials
import HoorayClient

/// Which record a change is about: a plugin's record of a kind, by id (HoorayStorage's `record` table).
public struct SyncRecordKey: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The plugin, such as `habits`.
    public var plugin: String
    /// The kind of record, such as `habit`.
    public var kind: String
    /// The record's id.
    public var id: String

    /// Creates a key.
    public init(plugin: String, kind: String, id: String) {
        self.plugin = plugin
        self.kind = kind
        self.id = id
    }

    public static func < (lhs: SyncRecordKey, rhs: SyncRecordKey) -> Bool {
        (lhs.plugin, lhs.kind, lhs.id) < (rhs.plugin, rhs.kind, rhs.id)
    }

    /// `habits/habit/3F2A…`.
    public var description: String { "\(plugin)/\(kind)/\(id)" }
}

/// One change to one record, the unit every device writes and every device folds in.
///
/// A change never depends on another: applied in any order, any number of times, the same set of
/// changes gives the same records (``SyncReplica``).
public struct SyncChange: Sendable, Hashable, Codable {
    /// When, on the hybrid clock of the device that made it; unique to this change.
    public var stamp: SyncStamp
    /// The record.
    public var record: SyncRecordKey
    /// What changed.
    public var operation: SyncOperation

    /// Creates a change.
    public init(stamp: SyncStamp, record: SyncRecordKey, operation: SyncOperation) {
        self.stamp = stamp
        self.record = record
        self.operation = operation
    }
}

/// What a change does to its record.
public enum SyncOperation: Sendable, Hashable, Codable {
    /// A field takes `value`; `nil` takes it out. The latest stamp of each field wins.
    case set(field: String, value: JSONValue?)
    /// An element joins a set field (``SyncSchema``), such as a day a habit was done.
    case add(field: String, element: JSONValue)
    /// An element leaves a set field, such as a day undone. For each element the latest of its
    /// adds and removes wins.
    case remove(field: String, element: JSONValue)
    /// The record is written where it was not there: what was set before no longer counts, and a
    /// deletion earlier than this is undone. Its fields follow as `set`s and `add`s.
    case create
    /// The record is deleted: a deletion wins over every edit of the record, earlier or later, until
    /// a later `create`.
    case delete
}
