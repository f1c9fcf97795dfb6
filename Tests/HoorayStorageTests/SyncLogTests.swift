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
        // name, resets, pauses, celebrated (none), done (one day) and the day it is filed under.
        #expect(recorded == 3)
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
        let (laptop, laptopDirectory) = try temporaryDatabase()
        let (desktop, desktopDirectory) = try temporaryDatabase()
        defer {
            try? FileManager.default.removeItem(atPath: laptopDirectory)
            try? FileManager.default.removeItem(atPath: desktopDirectory)
        }
        try await laptop.startSyncRecording(device: Self.laptop)
        try await desktop.startSyncRecording(device: Self.desktop)
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
    }
}
