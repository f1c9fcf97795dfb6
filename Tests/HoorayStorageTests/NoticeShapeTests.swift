import Foundation
import GRDB
import HoorayCalendar
import HoorayKit
import HoorayStorage
import Testing

/// Reminders that look alike keep their look once (``NoticeShapes``): a first start with many
/// writes a third of the bytes, and every one reads back as declared.
@Suite struct NoticeShapeTests {
    /// 3,000 reminders in three looks (urgency and category), each its own title and body.
    static let reminders = (0..<3_000).map { index in
        Reminder(
            id: "r\(index)", schedule: .daily(at: TimeOfDay(hour: index % 24)!, zone: utc),
            notice: Notice(
                title: "Reminder \(index)", body: "Stand up \(index)", urgency: [.low, .normal, .critical][index % 3],
                actions: [.snooze()], category: index % 3 == 2 ? nil : "reminder"))
    }

    static func declare(_ reminders: [Reminder], in database: HoorayDatabase, version: String = "1") async throws {
        try await database.replaceRules(
            plugin: "reminders",
            declaring: reminders.map { reminder in
                DeclaredRule(id: reminder.id, sourceDigest: "\(reminder.notice.title) \(version)") { reminder }
            }, version: version, now: t0
        ) { _ in t0.addingTimeInterval(60) }
    }

    /// The rows of the `noticeShape` table, and the longest `reminder` stored.
    static func stored(at path: String) throws -> (shapes: Int, longest: Int) {
        try DatabaseQueue(path: path).read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM noticeShape") ?? -1,
                try Int.fetchOne(db, sql: "SELECT MAX(LENGTH(reminder)) FROM rule") ?? -1
            )
        }
    }

    @Test("Reminders that look alike keep their look once, and read back as declared")
    func eachLookIsKeptOnce() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await Self.declare(Self.reminders, in: database)
        var (shapes, longest) = try Self.stored(at: database.path)
        #expect(shapes == 3)
        // Its shape's number, the title and the body: no buttons, urgency or schedule repeated.
        #expect(longest < 70, "a reminder's row holds \(longest) bytes of it")
        let byID = Dictionary(
            uniqueKeysWithValues: try await database.rules(plugin: "reminders").map { ($0.reminder.id, $0) })
        #expect(byID.count == Self.reminders.count)
        for reminder in Self.reminders { #expect(byID[reminder.id]?.reminder == reminder) }
        // Declared again, all of them changed but in their title: no new look.
        try await Self.declare(Self.reminders, in: database, version: "2")
        (shapes, _) = try Self.stored(at: database.path)
        #expect(shapes == 3)
        #expect(try await database.rule(plugin: "reminders", reminderID: "r2999")?.reminder == Self.reminders[2999])
        // A new look gets a shape of its own; the others read as before.
        var changed = Self.reminders
        changed[0].notice.actions = []
        try await Self.declare(changed, in: database, version: "3")
        (shapes, _) = try Self.stored(at: database.path)
        #expect(shapes == 4)
        #expect(try await database.rule(plugin: "reminders", reminderID: "r0")?.reminder == changed[0])
        #expect(try await database.rule(plugin: "reminders", reminderID: "r1")?.reminder == changed[1])
    }

    @Test("A reminder stored whole by an earlier Hooray reads as before beside the shaped ones")
    func wholeRowsStillRead() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await Self.declare(Array(Self.reminders.prefix(10)), in: database)
        // What Hooray wrote before shapes: the reminder's whole JSON.
        let old = Reminder(
            id: "r3", schedule: .weekly(on: [.monday, .friday], at: TimeOfDay(hour: 7)!, zone: utc),
            notice: Notice(title: "Old", body: "Whole", actions: [.snooze()], category: "reminder"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        let json = try encoder.encode(old)
        try await DatabaseQueue(path: database.path).write { db in
            try db.execute(
                sql: "UPDATE rule SET reminder = ? WHERE plugin = 'reminders' AND reminderID = 'r3'", arguments: [json])
        }
        let rules = try await database.rules(plugin: "reminders")
        #expect(rules.first { $0.reminder.id == "r3" }?.reminder == old)
        #expect(rules.first { $0.reminder.id == "r4" }?.reminder == Self.reminders[4])
    }

    @Test("Deleting the user's data deletes the looks of their reminders too")
    func deletionDeletesShapes() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await Self.declare(Array(Self.reminders.prefix(10)), in: database)
        #expect(try Self.stored(at: database.path).shapes == 3)
        _ = try await database.deleteUserData()
        #expect(try Self.stored(at: database.path).shapes == 0)
    }
}
