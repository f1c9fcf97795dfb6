import Foundation
import GRDB
import HooraySync

extension HoorayDatabase {
    /// Every record's merged state sync keeps here, as a snapshot naming the segments `read`.
    public func syncSnapshot(read segments: [SyncDeviceID: Set<Int>]) async throws -> SyncSnapshot {
        try await read { db in
            let decoder = JSONDecoder()
            let entries = try Row.fetchAll(
                db, sql: "SELECT plugin, kind, id, state FROM syncRecord ORDER BY plugin, kind, id"
            ).map { row in
                SyncSnapshot.Entry(
                    key: SyncRecordKey(plugin: row["plugin"], kind: row["kind"], id: row["id"]),
                    state: try decoder.decode(SyncReplica.Record.self, from: row["state"] as Data))
            }
            return SyncSnapshot(read: segments, records: entries)
        }
    }

    /// Folds in another computer's snapshot, in one transaction: each record whose state it moves
    /// is written as the merge makes it, or deleted.
    ///
    /// - Returns: The records that changed.
    @discardableResult
    public func applySyncSnapshot(_ snapshot: SyncSnapshot) async throws -> [SyncRecordKey] {
        try await write { db in
            guard let device = try Self.syncDevice(in: db) else { return [] }
            var clock = try Self.clock(of: device, in: db)
            var changed: [SyncRecordKey] = []
            for entry in snapshot.records {
                if let stamp = entry.state.latestStamp { clock.observe(stamp) }
                var state = try Self.syncState(of: entry.key, in: db)
                guard state.merge(entry.state) else { continue }
                try Self.save(state, of: entry.key, in: db)
                try Self.writeMerged(state, of: entry.key, in: db)
                changed.append(entry.key)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try Self.setMeta("clock", try encoder.encode(clock.latest), in: db)
            return changed
        }
    }
}
