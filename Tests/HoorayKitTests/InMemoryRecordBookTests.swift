import Foundation
import HoorayKit
import HoorayTesting
import Testing

/// A glass of water drunk at an instant: the record of the article's example plugin.
struct Glass: PluginRecord, Identifiable, Equatable {
    static let recordKind = "glass"
    static let legacyKeyPrefix: String? = "glass."
    var id = UUID()
    var drunkAt: Date
    var recordDate: RecordDate { .instant(drunkAt) }
}

/// The record book plugin authors test against: `HoorayTesting`'s in-memory store behaves as the
/// engine's SQLite one.
@Suite struct InMemoryRecordBookTests {
    /// Sunday 22 November 2026, 09:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_338_000)

    @Test func aRecordAndItsNoticeAreSavedTogether() async throws {
        let harness = PluginTestHarness(pluginName: "water", now: Self.now)
        let glasses = harness.context.records(of: Glass.self)
        let glass = Glass(drunkAt: Self.now)
        let id = try await glasses.insert(
            glass, announcing: Notice(title: "1 glass today"), storing: ["flag.first": Data("true".utf8)])
        #expect(await harness.notices.entries.map(\.id) == [id])
        #expect(try await glasses.all() == [glass])
        #expect(try await harness.storage.data(forKey: "flag.first") == Data("true".utf8))
        // The same id again: refused, and nothing more is posted.
        await #expect(throws: RecordBookError.duplicateID(kind: "glass", id: glass.recordID)) {
            try await glasses.insert(glass, announcing: Notice(title: "2 glasses today"))
        }
        #expect(await harness.notices.entries.count == 1)
    }

    @Test func recordsAreFoundByIDPrefixAndByLocalDay() async throws {
        let harness = PluginTestHarness(pluginName: "water", now: Self.now)
        let glasses = harness.context.records(of: Glass.self)
        let morning = Glass(id: UUID(uuidString: "ABCD0000-0000-4000-8000-000000000001")!, drunkAt: Self.now)
        let night = Glass(
            id: UUID(uuidString: "ABCE0000-0000-4000-8000-000000000002")!,
            drunkAt: Self.now.addingTimeInterval(14 * 3600))
        try await glasses.insert(night)
        try await glasses.insert(morning)
        #expect(try await glasses.find(idPrefix: "ABCD").recordID == morning.recordID)
        await #expect(throws: PluginCommandError.self) { try await glasses.find(idPrefix: "abc") }
        // 23:00 UTC is already Monday in Berlin.
        let sunday = LocalDate(year: 2026, month: 11, day: 22)!
        #expect(try await glasses.records(on: sunday, in: TimeZone(identifier: "UTC")!) == [morning, night])
        #expect(try await glasses.records(on: sunday, in: TimeZone(identifier: "Europe/Berlin")!) == [morning])
        let counted = try await glasses.update(night.recordID) { glass -> Date in
            glass.drunkAt = glass.drunkAt.addingTimeInterval(-3600)
            return glass.drunkAt
        }
        #expect(counted == Self.now.addingTimeInterval(13 * 3600))
        #expect(try await glasses.delete(morning.recordID))
        #expect(try await glasses.all() == [Glass(id: night.id, drunkAt: Self.now.addingTimeInterval(13 * 3600))])
    }

    @Test func valuesKeptByAnEarlierVersionMoveIn() async throws {
        let harness = PluginTestHarness(pluginName: "water", now: Self.now)
        let old = Glass(drunkAt: Self.now)
        try await harness.storage.setData(try RecordBook<Glass>.encode(old), forKey: "glass." + old.recordID)
        #expect(try await harness.context.records(of: Glass.self).all() == [old])
        #expect(try await harness.storage.keys().isEmpty)
    }
}
