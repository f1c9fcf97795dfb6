import Foundation
import HoorayCalendar
import HoorayKit
import HoorayStorage
import Testing

/// A record filed under an instant, with a counter to change.
struct Walk: PluginRecord, Identifiable, Equatable {
    static let recordKind = "walk"
    static let legacyKeyPrefix: String? = "walk."
    var id = UUID()
    var at: Date
    var steps = 0
    var recordDate: RecordDate { .instant(at) }
}

/// A record filed under a day, with an id of its own making.
struct Plan: PluginRecord, Equatable {
    static let recordKind = "plan"
    var recordID: String
    var day: LocalDate
    var recordDate: RecordDate { .day(day) }
}

/// The engine's record books: a SQLite table per database, keyed by (plugin, kind, id).
@Suite struct RecordBookTests {
    func books(_ database: HoorayDatabase, plugin: String = "walks") -> (RecordBook<Walk>, DatabasePluginStore) {
        let store = DatabasePluginStore(database: database, plugin: plugin)
        return (RecordBook(store: store, notices: nil), store)
    }

    @Test func recordsAreInsertedReadChangedAndDeleted() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (walks, _) = books(database)
        let walk = Walk(at: t0)
        try await walks.insert(walk)
        #expect(try await walks.record(walk.recordID) == walk)
        await #expect(throws: RecordBookError.duplicateID(kind: "walk", id: walk.recordID)) {
            try await walks.insert(walk)
        }

        let steps = try await walks.update(walk.recordID) { walk -> Int in
            walk.steps += 1200
            return walk.steps
        }
        #expect(steps == 1200)
        #expect(try await walks.record(walk.recordID)?.steps == 1200)
        #expect(try await walks.update("no-such-walk") { $0.steps } == nil)
        // A change that throws saves nothing.
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await walks.update(walk.recordID) { walk in
                walk.steps = 0
                throw Refused()
            }
        }
        #expect(try await walks.record(walk.recordID)?.steps == 1200)
        await #expect(throws: RecordBookError.self) {
            try await walks.update(walk.recordID) { $0.id = UUID() }
        }

        #expect(try await walks.delete(walk.recordID))
        #expect(try await !walks.delete(walk.recordID))
        #expect(try await walks.all().isEmpty)
    }

    @Test func pluginsAndKindsNeverSeeEachOthersRecords() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (mine, store) = books(database, plugin: "walks")
        let (theirs, _) = books(database, plugin: "other")
        let walk = Walk(id: UUID(uuidString: "0000AAAA-0000-0000-0000-000000000000")!, at: t0)
        try await mine.insert(walk)
        try await theirs.insert(walk)
        let plans = RecordBook<Plan>(store: store)
        try await plans.insert(Plan(recordID: walk.recordID, day: LocalDate(year: 2026, month: 11, day: 1)!))
        #expect(try await mine.all() == [walk])
        #expect(try await theirs.delete(walk.recordID))
        #expect(try await mine.all() == [walk])
        #expect(try await plans.all().count == 1)
    }

    @Test func anIDIsFoundByItsFirstCharactersAndAnAmbiguousOneSaysSo() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (walks, store) = books(database)
        let ids = ["3f2a0000-0000-4000-8000-000000000001", "3f2b0000-0000-4000-8000-000000000002"]
        for (offset, id) in ids.enumerated() {
            try await walks.insert(Walk(id: UUID(uuidString: id)!, at: t0.addingTimeInterval(Double(offset))))
        }
        #expect(try await walks.find(idPrefix: " 3F2A ").recordID == ids[0], "spaces and case do not matter")
        let short = await #expect(throws: PluginCommandError.self) {
            try await walks.find(idPrefix: "3f2", listedBy: "`hooray walks`")
        }
        #expect(
            short?.message
                == "\"3f2\" is not a walk id; give at least its first 4 characters, as `hooray walks` shows them")
        let none = await #expect(throws: PluginCommandError.self) {
            try await walks.find(idPrefix: "3f2c", listedBy: "`hooray walks`")
        }
        #expect(none?.message == "no walk has an id starting with 3f2c; `hooray walks` lists them")

        let plans = RecordBook<Plan>(store: store)
        let first = LocalDate(year: 2026, month: 1, day: 1)!
        try await plans.insert(Plan(recordID: "3f2a0000-x", day: first))
        try await plans.insert(Plan(recordID: "3f2a0000-y", day: first))
        let several = await #expect(throws: PluginCommandError.self) { try await plans.find(idPrefix: "3f2a") }
        #expect(several?.message == "2 plans have ids starting with 3f2a; give more characters of the id")
        #expect(try await plans.find(idPrefix: "3f2a0000-y").recordID == "3f2a0000-y")
        // LIKE's wildcards in what is typed are only characters.
        try await plans.insert(Plan(recordID: "50%_off", day: first))
        #expect(try await plans.records(withIDPrefix: "50%_").map(\.recordID) == ["50%_off"])
        #expect(try await plans.records(withIDPrefix: "5_%").isEmpty)
    }

    @Test func recordsAreFoundByTheLocalDayInTheViewersTimeZone() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (walks, store) = books(database)
        // 2026-11-22 03:30 UTC is still the 21st in New York, already the 22nd in Berlin.
        let lateNight = Walk(at: Date(timeIntervalSince1970: 1_795_318_200))
        let noon = Walk(at: Date(timeIntervalSince1970: 1_795_363_200))  // 2026-11-22 16:00 UTC
        try await walks.insert(noon)
        try await walks.insert(lateNight)
        let day = LocalDate(year: 2026, month: 11, day: 22)!
        let newYork = TimeZone(identifier: "America/New_York")!
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        #expect(try await walks.records(on: day, in: newYork) == [noon])
        #expect(try await walks.records(on: day, in: berlin) == [lateNight, noon], "oldest first")
        #expect(try await walks.records(on: day.adding(days: -1), in: newYork) == [lateNight])
        #expect(try await walks.records(from: day, through: day.adding(days: -1), in: berlin).isEmpty)

        let plans = RecordBook<Plan>(store: store)
        for offset in [3, 0, 1, 5] {
            try await plans.insert(Plan(recordID: "p\(offset)", day: day.adding(days: offset)))
        }
        let found = try await plans.records(from: day, through: day.adding(days: 3), in: newYork)
        #expect(found.map(\.recordID) == ["p0", "p1", "p3"], "a day is the same in every zone")
    }

    @Test func aDayOfDaylightSavingTimeIsTwentyThreeHoursLong() {
        // Daylight saving time begins in New York on 2026-03-08.
        let newYork = TimeZone(identifier: "America/New_York")!
        let day = LocalDate(year: 2026, month: 3, day: 8)!
        let range = LocalDayRange(from: day, through: day, in: newYork)
        #expect(range.instants.upperBound.timeIntervalSince(range.instants.lowerBound) == 23 * 3600)
    }

    @Test func twoConnectionsChangingTheSameRecordLoseNoChange() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A second connection to the same file, as the CLI in another process has.
        let other = try HoorayDatabase(path: database.path)
        let walk = Walk(at: t0)
        try await books(database).0.insert(walk)
        let rounds = 150
        try await withThrowingTaskGroup(of: Void.self) { group in
            for connection in [database, other] {
                let walks = books(connection).0
                group.addTask {
                    for _ in 0..<rounds {
                        try await walks.update(walk.recordID) { $0.steps += 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await books(database).0.record(walk.recordID)?.steps == 2 * rounds)
    }

    @Test func aRecordAndItsNoticeAreSavedTogetherOrNotAtAll() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let walk = Walk(at: t0)
        let record = try RecordBook<Walk>.stored(walk)
        let notice = Notice(title: "Walk logged")
        _ = try await database.insertNotice(
            notice, plugin: "walks", now: t0, storing: ["flag.first": Data("true".utf8)], inserting: [record])
        #expect(try await books(database).0.all() == [walk])
        // The same id again: neither the flag, nor the notice, nor the record is saved.
        await #expect(throws: RecordBookError.self) {
            try await database.insertNotice(
                notice, plugin: "walks", now: t0, storing: ["flag.second": Data("true".utf8)], inserting: [record])
        }
        #expect(try await database.pendingNotices().count == 1)
        #expect(try await database.pluginKeys(plugin: "walks") == ["flag.first"])
    }

    @Test func recordsKeptAsKeyValuesByAnEarlierVersionMoveInOnce() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (walks, store) = books(database)
        let old = Walk(at: t0, steps: 300)
        try await store.setData(try RecordBook<Walk>.encode(old), forKey: "walk." + old.recordID)
        try await store.setData(Data("not a walk".utf8), forKey: "walk.broken")
        try await store.setData(Data("true".utf8), forKey: "flag.seen")
        #expect(try await walks.all() == [old])
        #expect(try await store.keys() == ["flag.seen", "walk.broken"], "moved; what does not read stays")
        #expect(try await walks.all() == [old], "once")
    }

    @Test func deletingUserDataRemovesRecordsToo() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await books(database, plugin: "habits").0.insert(Walk(at: t0))
        let deleted = try await database.deleteUserData()
        #expect(deleted.plugins == ["habits"])
        #expect(try await books(database, plugin: "habits").0.all().isEmpty)
    }

    @Test func recordsAreReadAPageAtATimeByID() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (walks, store) = books(database)
        // Ids in the order SQLite compares text, byte by byte: upper case before lower case.
        let ids = ["0a", "0b", "B1", "a1", "b0", "é"]
        for (index, id) in ids.reversed().enumerated() {
            let walk = Walk(id: UUID(), at: t0.addingTimeInterval(Double(index)))
            try await store.insert(
                StoredRecord(kind: "walk", id: id, date: .instant(walk.at), data: try RecordBook<Walk>.encode(walk)))
        }
        // Another plugin's and another kind's records are never part of a page.
        let (otherWalks, _) = books(database, plugin: "other")
        try await otherWalks.insert(Walk(at: t0))
        try await store.insert(
            StoredRecord(kind: "plan", id: "0c", date: .day(LocalDate(daysSinceEpoch: 1)), data: Data()))

        #expect(try await store.records(kind: "walk", after: nil, limit: 4).map(\.id) == ["0a", "0b", "B1", "a1"])
        #expect(try await store.records(kind: "walk", after: "a1", limit: 4).map(\.id) == ["b0", "é"])
        #expect(try await store.records(kind: "walk", after: "é", limit: 4).isEmpty)
        #expect(ids.sorted(by: { DatabasePluginStore.idOrder($0, $1) }) == ids)

        var seen: [Date] = []
        try await walks.forEach(pageSize: 2) { seen.append($0.at) }
        #expect(seen == (0..<ids.count).reversed().map { t0.addingTimeInterval(Double($0)) })
    }
}
