import Foundation
import HoorayCalendar
import HoorayKit
import Testing

@testable import HoorayStorage

/// A plugin's declaration key vouches for its rules only while nothing but their coming due and
/// snoozes changed them.
@Suite struct DeclarationKeyTests {
    static let now = Date(timeIntervalSince1970: 1_795_514_400)

    func declared(_ ids: [String]) -> [DeclaredRule] {
        ids.map { id in
            DeclaredRule(id: id, sourceDigest: "d-\(id)") {
                Reminder(
                    id: id, schedule: .daily(at: TimeOfDay(hour: 9)!, zone: TimeZone(identifier: "UTC")!),
                    notice: Notice(title: id))
            }
        }
    }

    func declaredDatabase() async throws -> (HoorayDatabase, String) {
        let (database, directory) = try temporaryDatabase()
        try await database.replaceRules(
            plugin: "reminders", declaring: declared(["a", "b"]), version: "1.0", now: Self.now, key: "k1"
        ) { _ in Self.now.addingTimeInterval(3600) }
        return (database, directory)
    }

    func kept(_ database: HoorayDatabase, key: String = "k1", version: String = "1.0") async throws -> Int? {
        try await database.declaredRuleTimes(plugin: "reminders", key: key, version: version)?.reminders
    }

    @Test("The rules declared with a key are kept with that key and version only")
    func keptWithTheSameKeyAndVersionOnly() async throws {
        let (database, directory) = try await declaredDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let times = try await database.declaredRuleTimes(plugin: "reminders", key: "k1", version: "1.0")
        #expect(times?.reminders == 2)
        #expect(times?.times.map(\.reminderID).sorted() == ["a", "b"])
        #expect(times?.times.allSatisfy { $0.nextDue == Self.now.addingTimeInterval(3600) } == true)
        #expect(try await kept(database, key: "k2") == nil)
        #expect(try await kept(database, version: "1.1") == nil)
        #expect(try await database.declaredRuleTimes(plugin: "other", key: "k1", version: "1.0") == nil)
    }

    @Test("A rule added, or rewritten by another version, behind the writers' backs is not vouched for")
    func rulesTheKeyDidNotMakeAreNotVouchedFor() async throws {
        for sql in [
            "INSERT INTO rule (plugin, reminderID, reminder, scheduleKey, createdAt) SELECT plugin, 'c', reminder, scheduleKey, createdAt FROM rule WHERE reminderID = 'a'",
            "UPDATE rule SET sourceDigest = '0.9 d-a' WHERE reminderID = 'a'",
        ] {
            let (database, directory) = try await declaredDatabase()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            // Triggers do not see these (an insert has none; a digest set is a declaration's change).
            try await database.write { db in try db.execute(sql: sql) }
            #expect(try await database.declarationKey(plugin: "reminders") != nil, "\(sql)")
            #expect(try await kept(database) == nil, "\(sql)")
        }
    }

    @Test("Coming due and snoozes keep the key")
    func comingDueAndSnoozesKeepTheKey() async throws {
        let (database, directory) = try await declaredDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await database.setNextDue(plugin: "reminders", reminderID: "a", nextDue: Self.now.addingTimeInterval(86400))
        try await database.upsertRule(
            plugin: "reminders",
            reminder: Reminder(
                id: Snooze.reminderID(snoozing: "a"), schedule: .once(at: Self.now.addingTimeInterval(60)),
                notice: Notice(title: "a")),
            now: Self.now
        ) { _ in Self.now.addingTimeInterval(60) }
        #expect(try await kept(database) == 2)
        try await database.removeRule(plugin: "reminders", reminderID: Snooze.reminderID(snoozing: "a"))
        #expect(try await kept(database) == 2)
    }

    @Test("Every other change of the plugin's rules forgets the key", arguments: 0..<6)
    func otherWritesForgetTheKey(writer: Int) async throws {
        let (database, directory) = try await declaredDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reminder = Reminder(
            id: "c", schedule: .daily(at: TimeOfDay(hour: 10)!, zone: TimeZone(identifier: "UTC")!),
            notice: Notice(title: "c"))
        switch writer {
        case 0:
            try await database.upsertRule(plugin: "reminders", reminder: reminder, now: Self.now) { _ in nil }
        case 1:
            try await database.replaceRules(plugin: "reminders", with: [reminder], now: Self.now) { _ in nil }
        case 2:
            try await database.removeRule(plugin: "reminders", reminderID: "a")
        case 3:
            _ = try await database.deleteUserData()
        case 4:
            try await database.replaceRules(
                plugin: "reminders", declaring: declared(["a", "b"]), version: "1.0", now: Self.now
            ) { _ in nil }
        default:
            // The same declaration with another key replaces it.
            try await database.replaceRules(
                plugin: "reminders", declaring: declared(["a"]), version: "1.0", now: Self.now, key: "k2"
            ) { _ in nil }
            #expect(try await kept(database, key: "k2") == 1)
        }
        #expect(try await kept(database) == nil)
    }
}
