import Foundation
import HoorayClient
import Synchronization
import Testing

@testable import HoorayDaemon

/// hoorayd's memory of the requests it took off the spool, on a real spool folder.
@Suite struct TakenRequestsTests {
    static func withSpool(_ body: (RequestSpool) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taken-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(RequestSpool(folder: folder))
    }

    @Test func twoCopiesReadAtOnceAreOneTakenAndOneThatRanAlready() throws {
        try Self.withSpool { spool in
            for _ in 0..<50 {
                let memory = TakenRequests()
                let id = UUID().uuidString.lowercased()
                try spool.keep(Data("{}\n".utf8), id: id)
                let outcomes = Mutex<[String]>([])
                DispatchQueue.concurrentPerform(iterations: 2) { _ in
                    let outcome = (try? memory.take(id, from: spool)).map { "\($0)" } ?? "error"
                    outcomes.withLock { $0.append(outcome) }
                }
                #expect(outcomes.withLock { $0.sorted() } == ["ranAlready", "taken"])
            }
        }
    }

    @Test func anIdNeverTakenHereIsUnknownAndTheOldestAreForgotten() throws {
        try Self.withSpool { spool in
            let memory = TakenRequests()
            #expect(try memory.take("never-kept", from: spool) == .unknown)
            var ids: [String] = []
            for index in 0...TakenRequests.capacity {
                let id = "r\(index)"
                ids.append(id)
                try spool.keep(Data("{}\n".utf8), id: id)
                #expect(try memory.take(id, from: spool) == .taken)
            }
            // One past the capacity: the first is forgotten, the second still remembered.
            #expect(try memory.take(ids[0], from: spool) == .unknown)
            #expect(try memory.take(ids[1], from: spool) == .ranAlready)
            #expect(try memory.take(ids.last!, from: spool) == .ranAlready)
        }
    }
}
