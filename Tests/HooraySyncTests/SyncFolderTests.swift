import Foundation
import HoorayClient
import Testing

@testable import HooraySync
@testable import HooraySyncFolder

@Suite struct SyncFolderTests {
    /// A new empty folder, removed by `cleanUp`.
    static func folder() throws -> (SyncFolder, cleanUp: () -> Void) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-sync-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return (SyncFolder(path: path), { try? FileManager.default.removeItem(atPath: path) })
    }

    static let key = SyncKeyTests.key

    @Test func theFirstComputerClaimsTheFolderAndAnotherKeyIsRefused() throws {
        let (folder, cleanUp) = try Self.folder()
        defer { cleanUp() }
        try folder.claim(for: Self.key)
        let marker = try String(contentsOfFile: folder.path + "/hooray-sync.json", encoding: .utf8)
        #expect(marker == #"{"check":"\#(Self.key.check)","format":1}"#)
        try folder.claim(for: Self.key)
        #expect(throws: SyncFolder.Problem.anotherKey) { try folder.claim(for: SyncKey.random()) }
        #expect(SyncFolder.Problem.anotherKey.description.contains("hooray sync setup"))

        try Data(#"{"check":"x","format":3,"more":"later"}"#.utf8).write(
            to: URL(fileURLWithPath: folder.path + "/hooray-sync.json"))
        #expect(throws: SyncFolder.Problem.newerFormat(3)) { try folder.claim(for: Self.key) }
    }

    @Test func aFolderThatIsGoneIsSaidAndNeverMade() throws {
        let folder = SyncFolder(path: "/nonexistent/hooray-sync-\(UUID().uuidString)")
        #expect(throws: SyncFolder.Problem.missing(folder.path)) { try folder.claim(for: Self.key) }
        #expect(throws: SyncFolder.Problem.missing(folder.path)) {
            try folder.add(SyncSegmentTests.segment(), key: Self.key)
        }
        #expect(throws: SyncFolder.Problem.missing(folder.path)) { _ = try folder.unread(me: laptop, read: [:]) }
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func aSegmentIsWrittenOnceAndTheSameNumberAgainIsAnotherComputersWithTheSameID() throws {
        let (folder, cleanUp) = try Self.folder()
        defer { cleanUp() }
        try folder.claim(for: Self.key)
        try folder.add(SyncSegmentTests.segment(), key: Self.key)
        let own = folder.path + "/" + laptop.rawValue
        #expect(try FileManager.default.contentsOfDirectory(atPath: own) == ["0000000000000007.seg"])
        #expect(throws: SyncFolder.Problem.sequenceTaken(7)) {
            try folder.add(SyncSegmentTests.segment(), key: Self.key)
        }
    }

    @Test func onlyOtherComputersSegmentsNotReadYetAreFoundAndTheRestIsSaid() throws {
        let (folder, cleanUp) = try Self.folder()
        defer { cleanUp() }
        try folder.claim(for: Self.key)
        var clock = HybridClock(device: desktop)
        for sequence in 1...3 {
            let changes = SyncDiff.changes(
                from: nil, to: .object(["text": .string("win \(sequence)")]),
                record: SyncRecordKey(plugin: "wins", kind: "moment", id: "d\(sequence)"), clock: &clock,
                wall: Int64(sequence))
            try folder.add(SyncSegment(device: desktop, sequence: sequence, changes: changes), key: Self.key)
        }
        try folder.add(SyncSegmentTests.segment(), key: Self.key)
        let theirs = folder.path + "/" + desktop.rawValue
        for name in [
            "0000000000000002.sync-conflict-20261130-101010-ABCDEFG.seg", "notes.txt",
            "0000000000000009.seg.tmp-abc", ".syncthing.0000000000000009.seg.tmp",
        ] {
            #expect(FileManager.default.createFile(atPath: theirs + "/" + name, contents: Data("x".utf8)))
        }
        try FileManager.default.createDirectory(atPath: folder.path + "/.stfolder", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path + "/Photos", withIntermediateDirectories: true)

        let (found, skipped) = try folder.unread(me: laptop, read: [desktop: [1]])
        #expect(found.map(\.sequence) == [2, 3])
        #expect(found.allSatisfy { $0.device == desktop })
        #expect(
            skipped.map(\.name) == [
                "Photos", "\(desktop.rawValue)/0000000000000002.sync-conflict-20261130-101010-ABCDEFG.seg",
                "\(desktop.rawValue)/notes.txt",
            ])
        #expect(skipped[1].reason.hasPrefix("a copy the transport made of a conflict"))

        // A third computer reads them all and holds what the desktop wrote.
        var replica = SyncReplica()
        for segment in try folder.unread(me: SyncDeviceID.random(), read: [:]).found {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment.path)))
            for change in try SyncSegment.open(
                bytes, with: Self.key, device: segment.device, sequence: segment.sequence
            ).changes {
                replica.apply(change)
            }
        }
        #expect(replica.values.count == 4)
    }
}
