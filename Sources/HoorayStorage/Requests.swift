import Foundation
import GRDB

/// Who ran a request that carried a request id: the daemon or a `hooray` that ran it itself.
public enum RequestClaim: Sendable, Equatable {
    /// This caller claimed the id: it is the one that runs the request.
    case won
    /// Someone claimed it first, named as they claimed it (`hoorayd` or `hooray`), at that instant.
    case taken(by: String, at: Date)
}

extension HoorayDatabase {
    /// How long claimed request ids are remembered: long enough for any retry of a command, short
    /// enough that the table stays small.
    public static let requestMemory: TimeInterval = 2 * 86400

    /// Claims a request id for `claimant`, so that a request reaching both the daemon and the CLI's
    /// fallback runs once: one insert, which only the first caller wins.
    ///
    /// Ids older than ``requestMemory`` are forgotten in the same transaction.
    ///
    /// - Parameters:
    ///   - id: The request id, a UUID made by the client.
    ///   - claimant: Who claims it, such as `hoorayd` or `hooray`.
    ///   - now: The current instant.
    /// - Returns: ``RequestClaim/won`` when the caller may run the request, or who claimed it first.
    /// - Throws: ``StorageError`` when the database cannot be written (such as when it stays locked).
    public func claimRequest(_ id: String, by claimant: String, now: Date) async throws -> RequestClaim {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM request WHERE claimedAt < ?",
                arguments: [now.addingTimeInterval(-Self.requestMemory).unixSeconds])
            try db.execute(
                sql: "INSERT INTO request (id, claimedBy, claimedAt) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
                arguments: [id, claimant, now.unixSeconds])
            guard db.changesCount == 0 else { return .won }
            let row = try Row.fetchOne(
                db, sql: "SELECT claimedBy, claimedAt FROM request WHERE id = ?", arguments: [id])
            return .taken(
                by: row?["claimedBy"] ?? "?", at: Date(unixSeconds: row?["claimedAt"] ?? now.unixSeconds))
        }
    }
}
