import Foundation
import HoorayClient
import Testing

@testable import HooraySync
@testable import HooraySyncFolder

@Suite struct SyncKeyTests {
    static let key = SyncKey(bytes: Array(0..<32))!

    @Test func thePhraseGivesTheKeyBackHoweverItIsTyped() throws {
        let phrase = Self.key.phrase
        #expect(phrase.count == 54 + 8)
        #expect(phrase.split(separator: "-").map(\.count) == Array(repeating: 6, count: 9))
        #expect(try SyncKey(phrase: phrase) == Self.key)
        // Lower case, spaces for dashes, and O, I, L for 0, 1, 1.
        let typed = phrase.lowercased().replacingOccurrences(of: "-", with: " ")
            .replacingOccurrences(of: "0", with: "o").replacingOccurrences(of: "1", with: "l")
        #expect(try SyncKey(phrase: typed) == Self.key)
    }

    @Test func aTypoAWrongLengthOrAStrangeCharacterIsSaid() throws {
        var characters = Array(Self.key.phrase)
        characters[3] = characters[3] == "A" ? "B" : "A"
        #expect(throws: SyncKey.PhraseProblem.typo) { try SyncKey(phrase: String(characters)) }
        #expect(throws: SyncKey.PhraseProblem.length(-6)) { try SyncKey(phrase: String(Self.key.phrase.dropLast(7))) }
        #expect(throws: SyncKey.PhraseProblem.character("U")) { try SyncKey(phrase: "U" + Self.key.phrase) }
        #expect(SyncKey.PhraseProblem.typo.description.contains("typo"))
    }

    @Test func twoKeysHaveDifferentChecks() {
        #expect(Self.key.check.count == 64)
        #expect(Self.key.check != SyncKey.random().check)
        #expect(SyncKey.random() != SyncKey.random())
    }
}

@Suite struct SyncSegmentTests {
    static let key = SyncKeyTests.key

    static func segment() -> SyncSegment {
        var clock = HybridClock(device: laptop)
        let changes = SyncDiff.changes(
            from: nil, to: .object(["text": .string("Took a walk <b>&</b>")]),
            record: SyncRecordKey(plugin: "wins", kind: "moment", id: "m1"), clock: &clock, wall: 1_000)
        return SyncSegment(device: laptop, sequence: 7, changes: changes)
    }

    @Test func aSegmentSealedOpensWithTheKeyAndShowsNothingWithout() throws {
        let bytes = try Self.segment().sealed(with: Self.key)
        #expect(try SyncSegment.open(bytes, with: Self.key, device: laptop, sequence: 7) == Self.segment())
        // The words are not in the file.
        #expect(String(decoding: bytes, as: UTF8.self).contains("walk") == false)
        #expect(String(decoding: bytes.prefix(12), as: UTF8.self) == "HOORAY-SYNC\n")
        #expect(SyncSegment.fileName(sequence: 7) == "0000000000000007.seg")
        #expect(SyncSegment.sequence(ofFileName: "0000000000000007.seg") == 7)
        for name in ["7.seg", "000000000000000x.seg", "0000000000000000.seg", "0000000000000007.seg.sync-conflict-x"] {
            #expect(SyncSegment.sequence(ofFileName: name) == nil, "\(name)")
        }
    }

    @Test(arguments: [0, 5, 12, 30, 60, 100])
    func aSegmentCutShortIsReadAgainLater(dropping kept: Int) throws {
        let bytes = try Self.segment().sealed(with: Self.key)
        let cut = Array(bytes.prefix(min(kept, bytes.count - 1)))
        #expect(throws: SyncSegment.Problem.cutShort) {
            try SyncSegment.open(cut, with: Self.key, device: laptop, sequence: 7)
        }
        // Cut at the very end, too.
        #expect(throws: SyncSegment.Problem.cutShort) {
            try SyncSegment.open(Array(bytes.dropLast()), with: Self.key, device: laptop, sequence: 7)
        }
    }

    @Test func aTamperedOrForeignSegmentIsRefused() throws {
        var bytes = try Self.segment().sealed(with: Self.key)
        #expect(throws: SyncSegment.Problem.notThisFoldersKey) {
            try SyncSegment.open(bytes, with: SyncKey.random(), device: laptop, sequence: 7)
        }
        bytes[bytes.count - 20] ^= 1
        #expect(throws: SyncSegment.Problem.notThisFoldersKey) {
            try SyncSegment.open(bytes, with: Self.key, device: laptop, sequence: 7)
        }
        #expect(throws: SyncSegment.Problem.notThisFoldersKey) {
            try SyncSegment.open(
                try Self.segment().sealed(with: Self.key) + [0], with: Self.key, device: laptop, sequence: 7)
        }
    }

    @Test func aSegmentMovedUnderAnotherNameIsRefused() throws {
        let bytes = try Self.segment().sealed(with: Self.key)
        #expect(throws: SyncSegment.Problem.misplaced) {
            try SyncSegment.open(bytes, with: Self.key, device: laptop, sequence: 8)
        }
        #expect(throws: SyncSegment.Problem.misplaced) {
            try SyncSegment.open(bytes, with: Self.key, device: desktop, sequence: 7)
        }
        // Changes stamped by another device, sealed under this one's name.
        var foreign = Self.segment()
        foreign.changes[0].stamp.device = desktop
        #expect(throws: SyncSegment.Problem.misplaced) {
            try SyncSegment.open(try foreign.sealed(with: Self.key), with: Self.key, device: laptop, sequence: 7)
        }
    }

    @Test func aSegmentOfANewerHoorayIsLeftForIt() throws {
        let header = #"{"bytes":40,"device":"\#(laptop.rawValue)","format":3,"sequence":7,"zstd":true}"#
        let bytes = Array("HOORAY-SYNC\n\(header)\n".utf8) + Array(repeating: 0, count: 40)
        #expect(throws: SyncSegment.Problem.newerFormat(3)) {
            try SyncSegment.open(bytes, with: Self.key, device: laptop, sequence: 7)
        }
        #expect(SyncSegment.Problem.newerFormat(3).description.contains("update Hooray"))
    }

    @Test func whatIsNoSegmentIsSaid() throws {
        for bytes in [Array("<html>not at all</html>".utf8), Array("HOORAY-SYNC\n{broken\n".utf8) + [1, 2, 3]] {
            #expect(throws: SyncSegment.Problem.self) {
                try SyncSegment.open(bytes, with: Self.key, device: laptop, sequence: 7)
            }
            #expect((try? SyncSegment.open(bytes, with: Self.key, device: laptop, sequence: 7)) == nil)
        }
        #expect(throws: SyncSegment.Problem.notASegment("it does not start with HOORAY-SYNC")) {
            try SyncSegment.open(Array("<html>not at all</html>".utf8), with: Self.key, device: laptop, sequence: 7)
        }
    }
}
