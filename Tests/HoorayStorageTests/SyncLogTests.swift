import Foundation
import HoorayCalendar
import HoorayClient
import HoorayKit
import HoorayStorage
import HooraySync
import Testing

/// What the database records for sync, and how it folds in another computer's changes.
@Suite struct SyncLogTests {
    static let laptop = SyncDeviceID("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")!
    static let desktop = SyncDeviceID("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")!

    /// A habit as the habits plugin stores it (its other fields left out here).
    static func habit(_ name: String, done days: [Int]) throws -> StoredRecord {
        let set = DaySet(days.map(LocalDate.init(daysSinceEpoch:)))
        let data = try JSONEncoder().encode(HabitShape(name: name, done: set, resets: [], pauses: [], celebrated: []))
        return StoredRecord(kind: "habit", id: "h1", date: .day(LocalDate(daysSinceEpoch: 20_758)), data: data)
    }

    struct HabitShape: Codable, Equatable {
        var name: String
        var done: DaySet
        var resets: [String]
        var pauses: [String]
        var celebrated: [String]
    }

    static func habit(in database: HoorayDatabase) async throws -> HabitShape? {
        try await database.record(plugin: "habits", kind: "habit", id: "h1").map {
            try JSONDecoder().decode(HabitShape.self, from: $0.data)
        }
    }

    /// Hands every change `from` recorded and not yet sent to `to`.
    static func send(from: HoorayDatabase, to: HoorayDatabase) async throws {
        let unsent = try await from.unsentSyncChanges()
        try await to.applySyncChanges(unsent.map(\.change))
        if let last = unsent.last { try await from.forgetSentSyncChanges(through: last.position) }
    }

    /// Two databases with sync on, as the laptop and the desktop; and what removes them.
    static func twoComputers() async throws -> (HoorayDatabase, HoorayDatabase, () -> Void) {
        let (laptop, laptopDirectory) = try temporaryDatabase()
        let (desktop, desktopDirectory) = try temporaryDatabase()
        try await laptop.startSyncRecording(device: Self.laptop)
        try await desktop.startSyncRecording(device: Self.desktop)
        return (
            laptop, desktop,
            {
                try? FileManager.default.removeItem(atPath: laptopDirectory)
                try? FileManager.default.removeItem(atPath: desktopDirectory)
            }
        )
    }

    @Test func nothingIsRecordedWhileSyncIsOff() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await database.insertRecord(try Self.habit("Read", done: [1]), plugin: "habits")
        #expect(try await database.syncDevice() == nil)
        #expect(try await database.unsentSyncChanges().isEmpty)
    }

    @Test func turnedOnItRecordsWhatWasThereAndEachChangeAfter() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await database.insertRecord(try Self.habit("Read", done: [20_758]), plugin: "habits")
        let recorded = try await database.startSyncRecording(device: Self.laptop)
        // Its creation, its name, the day done, the day it is filed under, and that each of its four
        // set fields is there (done, resets, pauses and celebrated; the last three are empty).
        #expect(recorded == 8)
        #expect(try await database.syncDevice() == Self.laptop)
        let before = try await database.unsentSyncChanges().count
        _ = try await database.updateRecord(plugin: "habits", kind: "habit", id: "h1") { record in
            record = try Self.habit("Read", done: [20_758, 20_759])
        }
        let after = try await database.unsentSyncChanges()
        #expect(after.count == before + 1)
        #expect(after.last?.change.operation == .add(field: "done", element: .number(20_759)))
        #expect(after.allSatisfy { $0.change.stamp.device == Self.laptop })
        try await database.deleteRecord(plugin: "habits", kind: "habit", id: "h1")
        #expect(try await database.unsentSyncChanges().last?.change.operation == .delete)
    }

    @Test func twoComputersEditingOfflineEndWithTheSameHabit() async throws {
        let (laptop, desktop, cleanUp) = try await Self.twoComputers()
        defer { cleanUp() }
        try await laptop.insertRecord(try Self.habit("Read", done: [20_758]), plugin: "habits")
        try await Self.send(from: laptop, to: desktop)
        #expect(try await Self.habit(in: desktop) == Self.habit(in: laptop))
        let filed = try await desktop.record(plugin: "habits", kind: "habit", id: "h1")?.date
        #expect(filed == .day(LocalDate(daysSinceEpoch: 20_758)))

        // Offline: the laptop ticks 2 November; later, the desktop ticks 3 November and renames it.
        _ = try await laptop.updateRecord(plugin: "habits", kind: "habit", id: "h1") { record in
            record = try Self.habit("Read", done: [20_758, 20_759])
        }
        try await Task.sleep(for: .milliseconds(5))
        _ = try await desktop.updateRecord(plugin: "habits", kind: "habit", id: "h1") { record in
            record = try Self.habit("Read a chapter", done: [20_758, 20_760])
        }
        try await Self.send(from: laptop, to: desktop)
        try await Self.send(from: desktop, to: laptop)
        let merged = try #require(try await Self.habit(in: laptop))
        #expect(try await Self.habit(in: desktop) == merged)
        #expect(merged.name == "Read a chapter")
        #expect(merged.done.map(\.daysSinceEpoch) == [20_758, 20_759, 20_760])
        // Folding in its own changes back changes nothing, and sends nothing new.
        #expect(try await laptop.unsentSyncChanges().isEmpty)

        // A deletion on the laptop removes it on the desktop.
        try await laptop.deleteRecord(plugin: "habits", kind: "habit", id: "h1")
        try await Self.send(from: laptop, to: desktop)
        #expect(try await desktop.record(plugin: "habits", kind: "habit", id: "h1") == nil)
    }

    @Test func aPluginsStoredValuesSyncButThisComputersPauseDoesNot() async throws {
        let (laptop, laptopDirectory) = try temporaryDatabase()
        let (desktop, desktopDirectory) = try temporaryDatabase()
        defer {
            try? FileManager.default.removeItem(atPath: laptopDirectory)
            try? FileManager.default.removeItem(atPath: desktopDirectory)
        }
        try await laptop.setPluginValue(Data("true".utf8), plugin: "wins", key: "flag.hasCompletedFirstLog")
        try await laptop.startSyncRecording(device: Self.laptop)
        try await desktop.startSyncRecording(device: Self.desktop)
        try await laptop.setPluginValue(Data([0xFF, 0x00]), plugin: "water", key: "raw")
        try await laptop.setPausedUntil(Date(timeIntervalSince1970: 2_000_000_000))
        try await Self.send(from: laptop, to: desktop)
        #expect(try await desktop.pluginValue(plugin: "wins", key: "flag.hasCompletedFirstLog") == Data("true".utf8))
        #expect(try await desktop.pluginValue(plugin: "water", key: "raw") == Data([0xFF, 0x00]))
        #expect(try await desktop.pausedUntil() == nil)

        try await laptop.setPluginValue(nil, plugin: "water", key: "raw")
        try await Self.send(from: laptop, to: desktop)
        #expect(try await desktop.pluginValue(plugin: "water", key: "raw") == nil)

        // A stored null is a value like any other.
        try await laptop.setPluginValue(Data("null".utf8), plugin: "water", key: "raw")
        try await Self.send(from: laptop, to: desktop)
        #expect(try await desktop.pluginValue(plugin: "water", key: "raw") == Data("null".utf8))

        // A key used again after its deletion (a flag set, cleared and set again) syncs again.
        try await laptop.setPluginValue(Data("2".utf8), plugin: "water", key: "raw")
        try await Self.send(from: laptop, to: desktop)
        #expect(try await desktop.pluginValue(plugin: "water", key: "raw") == Data("2".utf8))
    }

    @Test func aValueThisComputerKeepsForItselfDoesNotSync() async throws {
        let (laptop, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The praise said lately on this computer, a cache (`isDeviceCache`), before sync and after.
        try await laptop.setPluginValue(Data("[1]".utf8), plugin: "wins", key: "recentPraise")
        try await laptop.startSyncRecording(device: Self.laptop) { _, key in key == "recentPraise" }
        let store = DatabasePluginStore(database: laptop, plugin: "wins") { $0 == "recentPraise" }
        try await store.setData(Data("[2]".utf8), forKey: "recentPraise")
        try await store.setData(Data("true".utf8), forKey: "flag")
        let ids = try await laptop.unsentSyncChanges().map(\.change.record.id)
        #expect(!ids.contains("recentPraise"))
        #expect(ids.contains("flag"))
    }

    @Test func eachComputerHoldsTheSameBytesWhateverOrderThePluginWroteThem() async throws {
        let (laptop, desktop, cleanUp) = try await Self.twoComputers()
        defer { cleanUp() }
        // Keys out of order, a null and a number past 2^53, as a plugin may write them.
        let data = Data(#"{"words":"Ran","note":null,"big":9007199254740993,"tags":["b","a"]}"#.utf8)
        let moment = StoredRecord(
            kind: "moment", id: "m1", date: .instant(Date(timeIntervalSince1970: 1.5e9)), data: data)
        try await laptop.insertRecord(moment, plugin: "wins")
        try await Self.send(from: laptop, to: desktop)
        let here = try #require(try await laptop.record(plugin: "wins", kind: "moment", id: "m1"))
        let there = try #require(try await desktop.record(plugin: "wins", kind: "moment", id: "m1"))
        #expect(here.data == there.data)
        #expect(here.date == there.date)
        #expect(String(decoding: here.data, as: UTF8.self).contains(#""tags":["b","a"]"#))
    }

    @Test func aRecordDeletedAndWrittenAgainUnderItsIDComesBackOnTheOtherComputer() async throws {
        let (laptop, desktop, cleanUp) = try await Self.twoComputers()
        defer { cleanUp() }
        try await laptop.insertRecord(try Self.habit("Read", done: [20_758]), plugin: "habits")
        try await Self.send(from: laptop, to: desktop)
        try await laptop.deleteRecord(plugin: "habits", kind: "habit", id: "h1")
        // Meanwhile the desktop, not knowing of the deletion, ticks a day: the deletion still wins.
        _ = try await desktop.updateRecord(plugin: "habits", kind: "habit", id: "h1") { record in
            record = try Self.habit("Read", done: [20_758, 20_759])
        }
        try await Self.send(from: laptop, to: desktop)
        try await Self.send(from: desktop, to: laptop)
        #expect(try await desktop.record(plugin: "habits", kind: "habit", id: "h1") == nil)
        #expect(try await laptop.record(plugin: "habits", kind: "habit", id: "h1") == nil)
        // Imported again from an export, it is there again on both, as imported.
        try await laptop.insertRecord(try Self.habit("Read", done: [20_700]), plugin: "habits")
        try await Self.send(from: laptop, to: desktop)
        #expect(try await Self.habit(in: desktop)?.done.map(\.daysSinceEpoch) == [20_700])
        #expect(try await Self.habit(in: desktop) == Self.habit(in: laptop))
    }

    @Test func deletingMyDataLeavesNoWordsInWhatSyncKeeps() async throws {
        let (laptop, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await laptop.startSyncRecording(device: Self.laptop)
        try await laptop.insertRecord(try Self.habit("Call grandma on Sundays", done: [20_758]), plugin: "habits")
        try await laptop.setPluginValue(Data(#""My secret plan""#.utf8), plugin: "swaps", key: "plan")
        // A moment deleted while the sync folder was away: its deletion is not sent yet.
        let moment = StoredRecord(
            kind: "moment", id: "m1", date: .instant(Date(timeIntervalSince1970: 1.5e9)),
            data: Data(#"{"text":"Told my boss"}"#.utf8))
        try await laptop.insertRecord(moment, plugin: "wins")
        try await laptop.deleteRecord(plugin: "wins", kind: "moment", id: "m1")
        let deleted = try await laptop.deleteUserData()
        #expect(deleted.synced == true)
        let unsent = try await laptop.unsentSyncChanges()
        #expect(Set(unsent.map(\.change.record.id)) == ["h1", "plan", "m1"])
        #expect(unsent.allSatisfy { $0.change.operation == .delete })
        for name in ["hooray.sqlite", "hooray.sqlite-wal"] {
            let file = (try? Data(contentsOf: URL(fileURLWithPath: directory + "/data/" + name))) ?? Data()
            #expect(file.range(of: Data("grandma".utf8)) == nil, "\(name)")
            #expect(file.range(of: Data("secret".utf8)) == nil, "\(name)")
        }
    }
}
