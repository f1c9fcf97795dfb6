import Foundation
import HoorayStorage
import Testing

/// A request id is run by one side only: the daemon, or a `hooray` that gave up waiting for it.
@Suite struct RequestClaimTests {
    @Test func ofTwoClaimersOfOneIdExactlyOneWins() async throws {
        let (first, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Two processes' worth: two connections to the same file, claiming at once.
        let second = try HoorayDatabase(path: first.path)
        for round in 0..<20 {
            let id = "request-\(round)"
            async let daemon = first.claimRequest(id, by: "hoorayd", now: t0)
            async let cli = second.claimRequest(id, by: "hooray", now: t0)
            let claims = try await [daemon, cli]
            #expect(claims.filter { $0 == .won }.count == 1, "\(claims)")
            let loser = try #require(claims.first { $0 != .won })
            let winner = claims[0] == .won ? "hoorayd" : "hooray"
            #expect(loser == .taken(by: winner, at: t0))
        }
    }

    @Test func aClaimIsRememberedForADayOrSoThenForgotten() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try await database.claimRequest("a", by: "hooray", now: t0) == .won)
        let later = t0.addingTimeInterval(86400)
        #expect(try await database.claimRequest("a", by: "hoorayd", now: later) == .taken(by: "hooray", at: t0))
        // Past the memory, another claim (of any id) forgets it.
        let much = t0.addingTimeInterval(HoorayDatabase.requestMemory + 1)
        #expect(try await database.claimRequest("b", by: "hooray", now: much) == .won)
        #expect(try await database.claimRequest("a", by: "hoorayd", now: much) == .won)
    }
}
