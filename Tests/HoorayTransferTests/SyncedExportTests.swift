import Foundation
import HoorayCalendar
import HoorayClient
import HoorayKit
import HoorayStorage
import HooraySync
import HoorayTesting
import HoorayTransfer
import Testing

/// The property of docs/sync.md at the level a user sees it: N computers change their data at
/// random while their changes reach the others late, out of order and more than once; once every
/// change has reached every computer, `hooray export` prints the same bytes on each.
@Suite struct SyncedExportTests {
    struct Computer {
        let database: HoorayDatabase
        /// Segments from the others, not folded in yet.
        var inbox: [[SyncChange]] = []
    }

    /// A habit as the habits plugin stores it.
    struct Habit: Codable {
        var name: String
        var done: DaySet
        var resets: [String] = []
        var pauses: [String] = []
        var celebrated: [String] = []
    }

    /// A moment as the wins plugin stores it, with the fields that matter here.
    struct Moment: Codable {
        var text: String
        var tags: [String]
        var photos: [String] = []
        var favorite: Bool?
    }

    static let habitIDs = ["h1", "h2", "h3"]
    static let momentIDs = ["m1", "m2", "m3", "m4"]
    static let valueKeys = ["flag.seen", "plan", "order"]

    /// One random change on `database`, as a plugin would make it.
    static func change(_ database: HoorayDatabase, random: inout SeededRandomNumberGenerator) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            let id = habitIDs.randomElement(using: &random)!
            guard let stored = try await database.record(plugin: "habits", kind: "habit", id: id) else {
                let habit = Habit(name: "Read \(Int.random(in: 0..<9, using: &random))", done: DaySet([]))
                try await database.insertRecord(
                    StoredRecord(
                        kind: "habit", id: id, date: .day(LocalDate(daysSinceEpoch: 20_700)),
                        data: try encoder.encode(habit)), plugin: "habits")
                return
            }
            if Int.random(in: 0..<8, using: &random) == 0 {
                try await database.deleteRecord(plugin: "habits", kind: "habit", id: id)
                return
            }
            var habit = try JSONDecoder().decode(Habit.self, from: stored.data)
            let day = LocalDate(daysSinceEpoch: 20_700 + Int.random(in: 0..<12, using: &random))
            var days = Array(habit.done)
            if days.contains(day) { days.removeAll { $0 == day } } else { days.append(day) }
            habit.done = DaySet(days)
            if Bool.random(using: &random) { habit.name = "Read \(Int.random(in: 0..<9, using: &random))" }
            let data = try encoder.encode(habit)
            _ = try await database.updateRecord(plugin: "habits", kind: "habit", id: id) { $0.data = data }
        case 1:
            let id = momentIDs.randomElement(using: &random)!
            guard let stored = try await database.record(plugin: "wins", kind: "moment", id: id) else {
                let moment = Moment(text: "Win \(Int.random(in: 0..<9, using: &random))", tags: [])
                let at = Date(timeIntervalSince1970: 1_790_000_000 + Double(Int.random(in: 0..<100, using: &random)))
                try await database.insertRecord(
                    StoredRecord(kind: "moment", id: id, date: .instant(at), data: try encoder.encode(moment)),
                    plugin: "wins")
                return
            }
            if Int.random(in: 0..<8, using: &random) == 0 {
                try await database.deleteRecord(plugin: "wins", kind: "moment", id: id)
                return
            }
            var moment = try JSONDecoder().decode(Moment.self, from: stored.data)
            let tag = "t\(Int.random(in: 0..<4, using: &random))"
            if moment.tags.contains(tag) { moment.tags.removeAll { $0 == tag } } else { moment.tags.append(tag) }
            if Bool.random(using: &random) { moment.text = "Win \(Int.random(in: 0..<9, using: &random))" }
            if Bool.random(using: &random) { moment.favorite = Bool.random(using: &random) ? true : nil }
            let data = try encoder.encode(moment)
            _ = try await database.updateRecord(plugin: "wins", kind: "moment", id: id) { $0.data = data }
        default:
            let key = valueKeys.randomElement(using: &random)!
            let value: Data? =
                Int.random(in: 0..<4, using: &random) == 0
                ? nil : Data("\(Int.random(in: 0..<50, using: &random))".utf8)
            try await database.setPluginValue(value, plugin: "swaps", key: key)
        }
    }

    /// What the computer recorded since it last sent: one segment.
    static func segment(of database: HoorayDatabase) async throws -> [SyncChange] {
        let unsent = try await database.unsentSyncChanges()
        if let last = unsent.last { try await database.forgetSentSyncChanges(through: last.position) }
        return unsent.map(\.change)
    }

    @Test(arguments: 0..<16)
    func everyComputersExportIsTheSameOnceEveryChangeArrived(seed: UInt64) async throws {
        var random = SeededRandomNumberGenerator(seed: seed)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-sync-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var computers: [Computer] = []
        for index in 0..<Int.random(in: 2...4, using: &random) {
            let database = try HoorayDatabase(path: "\(directory)/\(index)/hooray.sqlite")
            try await database.startSyncRecording(device: .random())
            computers.append(Computer(database: database))
        }
        var everything: [[SyncChange]] = []
        let rounds = Int.random(in: 20...60, using: &random)
        let snapshotAt = Int.random(in: 0..<rounds, using: &random)
        var snapshot: SyncSnapshot?
        for round in 0..<rounds {
            if round == snapshotAt { snapshot = try await computers[0].database.syncSnapshot(read: [:]) }
            let at = Int.random(in: 0..<computers.count, using: &random)
            if !computers[at].inbox.isEmpty, Bool.random(using: &random) {
                // Some of what arrived, in random order, a segment now and then twice.
                computers[at].inbox.shuffle(using: &random)
                let taken = Int.random(in: 1...computers[at].inbox.count, using: &random)
                for segment in computers[at].inbox.prefix(taken) {
                    try await computers[at].database.applySyncChanges(segment)
                    if Int.random(in: 0..<4, using: &random) == 0 {
                        try await computers[at].database.applySyncChanges(segment)
                    }
                }
                computers[at].inbox.removeFirst(taken)
                continue
            }
            try await Self.change(computers[at].database, random: &random)
            let segment = try await Self.segment(of: computers[at].database)
            guard !segment.isEmpty else { continue }
            everything.append(segment)
            for other in computers.indices where other != at {
                // Delayed: a segment may reach this computer only at the end.
                if Int.random(in: 0..<3, using: &random) > 0 { computers[other].inbox.append(segment) }
            }
        }
        // Everything reaches everyone at last, in some order, some of it again; folding in sends nothing.
        var exports: [String] = []
        for index in computers.indices {
            for segment in (computers[index].inbox + everything).shuffled(using: &random) {
                try await computers[index].database.applySyncChanges(segment)
            }
            #expect(try await computers[index].database.unsentSyncChanges().isEmpty, "seed \(seed)")
            exports.append(ExportDocument.json(try await computers[index].database.userData()))
        }
        // A computer that joins late from the first one's snapshot, taken midway, and then every
        // segment, ends the same.
        let late = try HoorayDatabase(path: "\(directory)/late/hooray.sqlite")
        try await late.startSyncRecording(device: .random())
        try await late.applySyncSnapshot(try #require(snapshot))
        for segment in everything.shuffled(using: &random) { try await late.applySyncChanges(segment) }
        exports.append(ExportDocument.json(try await late.userData()))
        #expect(exports.allSatisfy { $0 == exports[0] }, "seed \(seed)")
        #expect(exports[0].contains("\"records\""), "seed \(seed)")
    }
}
