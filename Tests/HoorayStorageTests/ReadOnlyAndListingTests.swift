import Foundation
import GRDB
import HoorayKit
import HoorayStorage
import Testing

/// Reading a database that cannot be written, listing records newest first a page at a time, and
/// the words of problems a person must act on.
@Suite struct ReadOnlyAndListingTests {
    @Test("Item 2: a database opened for reading reads, and a write says why it cannot be made")
    func aDatabaseOpenedForReadingReadsAndRefusesWrites() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = DatabasePluginStore(database: database, plugin: "walks")
        let walks = RecordBook<Walk>(store: store, notices: nil)
        try await walks.insert(Walk(at: t0))
        let path = database.path
        let reason = StorageError(path: path, problem: .readOnlyFileSystem)

        let reading = try HoorayDatabase.openForReading(path: path, because: reason)

        let read = RecordBook<Walk>(store: DatabasePluginStore(database: reading, plugin: "walks"), notices: nil)
        #expect(try await read.all().count == 1)
        #expect(reading.readOnlyBecause != nil)
        let refused = await #expect(throws: StorageError.self) { try await read.insert(Walk(at: t0)) }
        #expect(refused?.description.contains("mounted read-only") == true)
        #expect(try await walks.all().count == 1)
    }

    @Test("Item 2: a WAL database without its -shm file in a folder that cannot be written is still read")
    func aWALDatabaseWithoutItsIndexIsReadImmutable() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-ro-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/hooray.sqlite"
        do {
            let database = try HoorayDatabase(path: path)
            try await RecordBook<Walk>(store: DatabasePluginStore(database: database, plugin: "walks"), notices: nil)
                .insert(Walk(at: t0))
        }
        // Closed: the -wal and -shm files are gone and the main file says WAL.
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        let reading = try HoorayDatabase.openForReading(
            path: path, because: StorageError(path: path, problem: .permissionDenied(otherOwner: nil)))
        let walks = RecordBook<Walk>(store: DatabasePluginStore(database: reading, plugin: "walks"), notices: nil)
        #expect(try await walks.all().count == 1)
    }

    @Test("Item 3: records list newest first a page at a time, within a range, none twice and none left out")
    func recordsListNewestFirstByPages() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let walks = RecordBook<Walk>(store: DatabasePluginStore(database: database, plugin: "walks"), notices: nil)
        // Several walks share an instant, so that pages end in the middle of a tie.
        var inserted: [Walk] = []
        for index in 0..<25 {
            let walk = Walk(at: t0.addingTimeInterval(Double(index / 3) * 60), steps: index)
            inserted.append(walk)
            try await walks.insert(walk)
        }
        var listed: [Walk] = []
        try await walks.forEachNewestFirst(pageSize: 4) { walk in
            listed.append(walk)
            return true
        }
        #expect(listed.count == 25)
        #expect(Set(listed.map(\.id)) == Set(inserted.map(\.id)))
        #expect(listed.map(\.at) == listed.map(\.at).sorted(by: >))

        var within: [Walk] = []
        let range = t0.addingTimeInterval(60)..<t0.addingTimeInterval(180)
        try await walks.forEachNewestFirst(in: range, pageSize: 2) { walk in
            within.append(walk)
            return within.count < 100
        }
        #expect(within.count == 6)
        #expect(within.allSatisfy { range.contains($0.at) })

        var first: [Walk] = []
        try await walks.forEachNewestFirst(pageSize: 4) { walk in
            first.append(walk)
            return first.count < 2
        }
        #expect(first.map(\.id) == Array(listed.prefix(2)).map(\.id))
    }

    @Test("Item 12: a full disk is named as such, with the folder and what to do")
    func aFullDiskIsNamed() {
        let error = StorageError(
            path: "/data/hooray/hooray.sqlite", databaseError: DatabaseError(resultCode: .SQLITE_FULL))
        #expect(error.problem == .diskFull)
        #expect(error.description.contains("the disk holding /data/hooray is full"))
        #expect(error.description.contains("df -h /data/hooray"))
        #expect(!error.description.contains("I/O error"))
    }

    @Test("Item 12: a folder that cannot be made is described in plain words")
    func aFolderThatCannotBeMadeSaysWhyPlainly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-nm-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data().write(to: URL(fileURLWithPath: directory))
        #expect(throws: Folders.NotMade.self) { try Folders.make(directory + "/home/.local/share/hooray") }
        do {
            _ = try HoorayDatabase(path: directory + "/home/.local/share/hooray/hooray.sqlite")
            Issue.record("the database was opened")
        } catch {
            #expect(error.description.contains("cannot create the data directory"))
            #expect(error.description.contains("not a directory"))
            #expect(!error.description.contains("NSCocoaErrorDomain"))
            #expect(!error.description.contains("Error Domain"))
        }
    }

    @Test("Item 11: the import preview names a stored value's key whole and a record by its short id")
    func conflictsAreNamedReadably() {
        #expect(ImportTally.shown("recentPraise") == "recentPraise")
        #expect(ImportTally.shown("3F2A9C1E-0000-4000-8000-000000000001") == "3F2A9C1E")
        let long = String(repeating: "k", count: 30) + "-" + String(repeating: "z", count: 20)
        #expect(ImportTally.shown(long).contains("…"))
        #expect(ImportTally.shown(long).hasSuffix(String(long.suffix(11))))
    }
}
