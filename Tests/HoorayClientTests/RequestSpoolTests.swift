import Foundation
import HoorayClient
import Synchronization
import Testing

/// The spool's promises, on real files: a request kept is there whole, and only one caller takes it.
@Suite struct RequestSpoolTests {
    static func withSpool(_ body: (RequestSpool) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(RequestSpool(folder: folder + "/spool"))
    }

    @Test func aKeptRequestIsThereWholeAndPrivate() throws {
        try Self.withSpool { spool in
            let id = UUID().uuidString.lowercased()
            let line = Data(#"{"method":"command"}"#.utf8) + Data([0x0A])
            try spool.keep(line, id: id)
            #expect(spool.holds(id))
            #expect(spool.line(id) == line)
            #expect(spool.waiting().map(\.id) == [id])
            let folder = try FileManager.default.attributesOfItem(atPath: spool.folder)
            #expect((folder[.posixPermissions] as? Int) == 0o700)
            let file = try FileManager.default.attributesOfItem(atPath: spool.file(id))
            #expect((file[.posixPermissions] as? Int) == 0o600)
        }
    }

    @Test func onlyOneCallerTakesARequest() throws {
        try Self.withSpool { spool in
            let id = UUID().uuidString.lowercased()
            try spool.keep(Data("{}\n".utf8), id: id)
            let takers = 8
            let taken = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: takers) { _ in
                if (try? spool.take(id)) == true { taken.withLock { $0 += 1 } }
            }
            #expect(taken.withLock { $0 } == 1)
            #expect(!spool.holds(id))
            let takenAgain = try spool.take(id)
            #expect(!takenAgain)
            #expect(spool.waiting().isEmpty)
        }
    }

    @Test func anIdThatIsAPathIsNeverAFile() throws {
        try Self.withSpool { spool in
            for id in ["../hooray.sqlite", "a/b", "", String(repeating: "a", count: 65), "x.json", "é"] {
                #expect(!RequestSpool.isValid(id), "\(id)")
                #expect(throws: SpoolError.self) { try spool.keep(Data("{}\n".utf8), id: id) }
                let taken = try spool.take(id)
                #expect(!taken)
            }
            #expect(RequestSpool.isValid("9D2E4F10-aaaa-4bbb-8ccc-0123456789ab"))
        }
    }

    @Test func aSpoolThatCannotBeWrittenSaysWhereAndWhy() throws {
        try Self.withSpool { spool in
            // A file where the folder should be.
            let parent = (spool.folder as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: spool.folder, contents: Data()))
            let error = #expect(throws: SpoolError.self) { try spool.keep(Data("{}\n".utf8), id: "abc") }
            #expect(error?.description.contains(spool.folder) == true)
            #expect(spool.waiting().isEmpty)
        }
    }
}

extension RequestSpoolTests {
    @Test func removingAllLeavesNothingOfWhatTheUserTyped() throws {
        try Self.withSpool { spool in
            try spool.keep(Data("{}\n".utf8), id: "one")
            try spool.keep(Data("{}\n".utf8), id: "two")
            // Half written, and set aside as unreadable: both hold what was typed.
            #expect(FileManager.default.createFile(atPath: spool.folder + "/.three.tmp", contents: Data("x".utf8)))
            #expect(
                FileManager.default.createFile(atPath: spool.folder + "/.four.unreadable", contents: Data("y".utf8)))
            #expect(spool.removeAll() == 2)
            #expect(try FileManager.default.contentsOfDirectory(atPath: spool.folder).isEmpty)
        }
    }
}
