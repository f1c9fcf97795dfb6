import Foundation
import HoorayCalendar
import HoorayKit
import HoorayKitTesting
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

    /// Only `drunkAt` of a glass: a projection that leaves the id out.
    struct GlassTime: Decodable, Equatable {
        var drunkAt: Date
    }

    @Test func everyRecordIsVisitedOncePageByPageInTheOrderOfItsID() async throws {
        let harness = PluginTestHarness(pluginName: "water", now: Self.now)
        let glasses = harness.context.records(of: Glass.self)
        // Inserted out of order, later ids on earlier instants.
        let inserted = (0..<7).map { index in
            Glass(
                id: UUID(uuidString: "0000000\(6 - index)-0000-4000-8000-000000000000")!,
                drunkAt: Self.now.addingTimeInterval(Double(index) * 60))
        }
        for glass in inserted.shuffled() { try await glasses.insert(glass) }
        // A record that no longer decodes is skipped, as all() leaves it out.
        try await harness.context.recordStore.insert(
            StoredRecord(kind: "glass", id: "00000003-broken", date: .instant(Self.now), data: Data("{}".utf8)))

        for pageSize in [1, 2, 3, 7, 8, 256] {
            var seen: [Glass] = []
            try await glasses.forEach(pageSize: pageSize) { seen.append($0) }
            #expect(seen == inserted.reversed(), "page size \(pageSize)")
        }
        var times: [Date] = []
        try await glasses.forEach(as: GlassTime.self, pageSize: 3) { times.append($0.drunkAt) }
        #expect(times == inserted.reversed().map(\.drunkAt))

        // What the body throws ends the walk.
        struct Enough: Error {}
        var visited = 0
        await #expect(throws: Enough.self) {
            try await glasses.forEach(pageSize: 2) { _ in
                visited += 1
                if visited == 3 { throw Enough() }
            }
        }
        #expect(visited == 3)
    }

    @Test func aPageHoldsAtMostItsLimitAfterTheGivenID() async throws {
        let store = InMemoryPluginStore()
        for id in ["b", "a", "d", "c", ""] {
            try await store.insert(StoredRecord(kind: "k", id: id, date: .instant(Self.now), data: Data()))
        }
        try await store.insert(StoredRecord(kind: "other", id: "a0", date: .instant(Self.now), data: Data()))
        #expect(try await store.recordsPage(kind: "k", after: nil, limit: 2).map(\.id) == ["", "a"])
        #expect(try await store.recordsPage(kind: "k", after: "a", limit: 2).map(\.id) == ["b", "c"])
        #expect(try await store.recordsPage(kind: "k", after: "c", limit: 2).map(\.id) == ["d"])
        #expect(try await store.recordsPage(kind: "k", after: "d", limit: 2).isEmpty)
    }
}
