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
        #expect(marker == #"{"check":"\#(Self.key.check)","format":2}"#)
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
        #expect(throws: SyncFolder.Problem.missing(folder.path)) { _ = try folder.unread(read: [:]) }
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

    @Test func theSegmentsNotReadYetAreFoundAndTheRestIsSaid() throws {
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

        // The laptop's own segment 7 is noted as written; the desktop's first was read.
        let (found, skipped) = try folder.unread(read: [desktop: [1], laptop: [7]])
        #expect(found.map(\.sequence) == [2, 3])
        #expect(found.allSatisfy { $0.device == desktop })
        #expect(folder.highestSequence(of: laptop, key: Self.key) == 7)
        #expect(folder.highestSequence(of: desktop, key: Self.key) == 3)
        #expect(try folder.unread(read: [desktop: [1, 2, 3]]).found.map(\.sequence) == [7])
        #expect(
            skipped.map(\.name) == [
                "Photos", "\(desktop.rawValue)/0000000000000002.sync-conflict-20261130-101010-ABCDEFG.seg",
                "\(desktop.rawValue)/notes.txt",
            ])
        #expect(skipped[1].reason.hasPrefix("a copy the transport made of a conflict"))

        // A third computer reads them all and holds what the desktop wrote.
        var replica = SyncReplica()
        for segment in try folder.unread(read: [:]).found {
            let bytes = try folder.contents(of: segment)
            for change in try SyncSegment.open(
                bytes, with: Self.key, device: segment.device, sequence: segment.sequence
            ).changes {
                replica.apply(change)
            }
        }
        #expect(replica.values.count == 4)
        // A file planted under a high number without the key does not count.
        #expect(FileManager.default.createFile(atPath: theirs + "/9999999999999999.seg", contents: Data("x".utf8)))
        #expect(folder.highestSequence(of: desktop, key: Self.key) == 3)
    }

    @Test func aLinkOrAnOversizedFileIsNotReadAsASegment() throws {
        let (folder, cleanUp) = try Self.folder()
        defer { cleanUp() }
        try folder.claim(for: Self.key)
        let theirs = folder.path + "/" + desktop.rawValue
        try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: theirs + "/0000000000000001.seg", withDestinationPath: "/etc/passwd")
        #expect(FileManager.default.createFile(atPath: theirs + "/0000000000000002.seg", contents: nil))
        #expect(truncate(theirs + "/0000000000000002.seg", off_t(SyncSegment.maxBytes + 8192)) == 0)
        // A pipe named like a segment does not hold the reading up.
        #expect(mkfifo(theirs + "/0000000000000003.seg", 0o600) == 0)
        let found = try folder.unread(read: [:]).found
        #expect(found.map(\.sequence) == [1, 2, 3])
        #expect(throws: SyncSegment.Problem.notASegment("it is a link")) { try folder.contents(of: found[0]) }
        #expect(throws: SyncSegment.Problem.notASegment("over 64 MB")) { try folder.contents(of: found[1]) }
        #expect(throws: SyncSegment.Problem.notASegment("it is not a file")) { try folder.contents(of: found[2]) }

        // A computer's folder that is a link is not looked into.
        try FileManager.default.removeItem(atPath: theirs)
        try FileManager.default.createSymbolicLink(atPath: theirs, withDestinationPath: "/etc")
        let listing = try folder.unread(read: [:])
        #expect(listing.found.isEmpty)
        #expect(listing.skipped.map(\.name) == [desktop.rawValue])
    }

    @Test func aSnapshotTakesThePlaceOfItsComputersSegments() throws {
        let (folder, cleanUp) = try Self.folder()
        defer { cleanUp() }
        try folder.claim(for: Self.key)
        var clock = HybridClock(device: desktop)
        var replica = SyncReplica()
        for sequence in 1...3 {
            let changes = SyncDiff.changes(
                from: nil, to: .object(["text": .string("win \(sequence)")]),
                record: SyncRecordKey(plugin: "wins", kind: "note", id: "d\(sequence)"), clock: &clock,
                wall: Int64(sequence))
            for change in changes { replica.apply(change) }
            try folder.add(SyncSegment(device: desktop, sequence: sequence, changes: changes), key: Self.key)
        }
        let snapshot = replica.snapshot(read: [desktop: [1, 2, 3]])
        try folder.addSnapshot(
            try SyncSegment.sealed(snapshot, device: desktop, sequence: 3, key: Self.key), device: desktop, sequence: 3)
        #expect(folder.removeOwn(desktop, through: 3) == 3)
        let theirs = folder.path + "/" + desktop.rawValue
        #expect(try FileManager.default.contentsOfDirectory(atPath: theirs) == ["0000000000000003.snap"])
        // Nothing is left to read as a segment; the snapshot is found, and holds the three.
        #expect(try folder.unread(read: [:]) == ([], []))
        // A snapshot planted under a higher number is listed first; the real one follows it.
        #expect(FileManager.default.createFile(atPath: theirs + "/0000000000000009.snap", contents: Data("x".utf8)))
        #expect(try folder.snapshots().map(\.sequence) == [9, 3])
        try FileManager.default.removeItem(atPath: theirs + "/0000000000000009.snap")
        let latest = try folder.snapshots()
        #expect(latest.map(\.sequence) == [3])
        let opened = try SyncSegment.openSnapshot(
            try folder.contents(of: latest[0]), with: Self.key, device: desktop, sequence: 3)
        #expect(opened == snapshot)
        #expect(folder.highestSequence(of: desktop, key: Self.key) == 3)
        // A segment renamed as a snapshot, or a snapshot as a segment, is refused.
        #expect(throws: SyncSegment.Problem.misplaced) {
            try SyncSegment.open(try folder.contents(of: latest[0]), with: Self.key, device: desktop, sequence: 3)
        }
        // Under another key it opens to nothing.
        #expect(throws: SyncSegment.Problem.notThisFoldersKey) {
            try SyncSegment.openSnapshot(
                try folder.contents(of: latest[0]), with: SyncKey.random(), device: desktop, sequence: 3)
        }
    }
}
