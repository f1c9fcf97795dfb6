import FoundationEssentials

/// Every record's merged state as one computer holds it, and the segments it had read: what a
/// computer writes when its folder grows (docs/sync.md, "Compaction"), so that its older segments can
/// go and a computer that joins later starts from it.
///
/// Folding in a snapshot is the same as folding in every change it was made from: each part of a
/// record's state is the latest change of its kind, and ``SyncReplica/Record/merge(_:)`` keeps the
/// latest. So a computer that folds it in may count the segments it names as read.
public struct SyncSnapshot: Sendable, Equatable, Codable {
    /// One record's state.
    public struct Entry: Sendable, Equatable, Codable {
        /// The record.
        public var key: SyncRecordKey
        /// Its merged state.
        public var state: SyncReplica.Record

        /// Creates an entry.
        public init(key: SyncRecordKey, state: SyncReplica.Record) {
            self.key = key
            self.state = state
        }
    }

    /// The segments folded in (or written) by the computer that made it, by computer.
    public var read: [SyncDeviceID: Set<Int>]
    /// The records' states, sorted by key.
    public var records: [Entry]

    /// Creates a snapshot.
    public init(read: [SyncDeviceID: Set<Int>], records: [Entry]) {
        self.read = read
        self.records = records
    }

    enum CodingKeys: String, CodingKey {
        case read, records
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let read = try container.decode([String: [Int]].self, forKey: .read)
        self.read = Dictionary(
            uniqueKeysWithValues: read.compactMap { device, sequences in
                SyncDeviceID(device).map { ($0, Set(sequences)) }
            })
        records = try container.decode([Entry].self, forKey: .records)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(
            Dictionary(uniqueKeysWithValues: read.map { ($0.key.rawValue, $0.value.sorted()) }), forKey: .read)
        try container.encode(records, forKey: .records)
    }
}
