import Foundation
import GRDB
import HoorayCalendar
import HoorayKit
import HoorayStorage
import Testing

/// Many reminders written at once (a first start, a newer Hooray) are found by their next due
/// instant as a few written one by one are.
@Suite struct BulkWriteTests {
    /// 12,000 reminders, at 1,440 times of day, the next due of each a minute of the day after `t0`.
    static let reminders = (0..<12_000).map { index in
        Reminder(
            id: "r\(index)", schedule: .daily(at: TimeOfDay(hour: index % 24, minute: (index / 24) % 60)!, zone: utc),
            notice: Notice(title: "Reminder \(index)", body: "Stand up"))
    }

    static func nextDue(_ schedule: Schedule) -> Date? {
        guard case .daily(let at, _) = schedule else { return nil }
        return t0.addingTimeInterval(Double(at.hour * 60 + at.minute) * 60)
    }

    /// The definitions of the `rule` table's indexes, by name.
    static func indexes(at path: String) throws -> [String: String] {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(
                    db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rule'"
                ).map { ($0["name"] as String, ($0["sql"] as String?) ?? "") })
        }
    }

    @Test("Reminders written in bulk are found by next due, earliest first, at a first start and after a new version")
    func bulkWrittenRulesAreFoundByNextDue() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (fresh, freshDirectory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: freshDirectory) }
        // Another plugin's rules are in the table too, and keep their place.
        try await database.replaceRules(plugin: "habits", with: [reminder("walk", at: 0)], now: t0) { _ in
            t0.addingTimeInterval(-30)
        }
        let expected = Self.reminders.map { (id: $0.id, nextDue: Self.nextDue($0.schedule)!) }
            .sorted { ($0.nextDue, $0.id) < ($1.nextDue, $1.id) }
        for version in ["1", "2"] {
            try await database.replaceRules(
                plugin: "reminders",
                declaring: Self.reminders.map { reminder in
                    DeclaredRule(id: reminder.id, sourceDigest: "d") { reminder }
                }, version: version, now: t0, computeNextDue: Self.nextDue)
            let (upcoming, total) = try await database.upcomingRules(limit: 4)
            #expect(total == 12_001, "version \(version)")
            #expect(
                upcoming.map(\.reminder.id) == ["walk"] + expected.prefix(3).map(\.id), "version \(version)")
            #expect(upcoming.dropFirst().map(\.nextDue) == expected.prefix(3).map(\.nextDue), "version \(version)")
        }
        // The same indexes, made the same way, as a database that never had a bulk write.
        #expect(try Self.indexes(at: database.path) == Self.indexes(at: fresh.path))
        #expect(try Self.indexes(at: database.path)["rule_nextDue"]?.contains("WHERE nextDue IS NOT NULL") == true)
    }

    @Test(
        "Reminders written in bulk are each built once, in order; one built wrong stops the write and nothing is kept")
    func bulkWriteBuildsInOrderAndStopsAtAWrongOne() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let built = BuildLog()
        func declared(wrongAt wrong: Int?) -> [DeclaredRule] {
            Self.reminders.enumerated().map { index, reminder in
                DeclaredRule(id: reminder.id, sourceDigest: "d\(index)") {
                    built.append(reminder.id)
                    return index == wrong ? Self.reminders[0] : reminder
                }
            }
        }
        await #expect(throws: DeclaredRuleMismatch.self) {
            try await database.replaceRules(
                plugin: "reminders", declaring: declared(wrongAt: 10_000), version: "1", now: t0,
                computeNextDue: Self.nextDue)
        }
        #expect(built.all == Self.reminders.prefix(10_001).map(\.id), "none is built after the wrong one")
        #expect(try await database.rules(plugin: "reminders").isEmpty, "nothing of the failed write is kept")

        built.clear()
        try await database.replaceRules(
            plugin: "reminders", declaring: declared(wrongAt: nil), version: "1", now: t0, computeNextDue: Self.nextDue)
        #expect(built.all == Self.reminders.map(\.id))
        let stored = try await database.rules(plugin: "reminders")
        #expect(stored.count == Self.reminders.count)
        #expect(Set(stored.map(\.reminder)) == Set(Self.reminders))
    }

    @Test(
        "At a first start an id declared twice is stored as its last declaration, and the plan made aside has every time"
    )
    func firstStartWithRepeatedIDsPlansAside() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The first 200 declared again at the end, with another title, time and digest.
        let again = Self.reminders.prefix(200).map { reminder in
            Reminder(
                id: reminder.id, schedule: .daily(at: TimeOfDay(hour: 23, minute: 59)!, zone: utc),
                notice: Notice(title: "Again \(reminder.id)", body: "Stand up"))
        }
        let declared =
            Self.reminders.map { reminder in DeclaredRule(id: reminder.id, sourceDigest: "d") { reminder } }
            + again.map { reminder in DeclaredRule(id: reminder.id, sourceDigest: "e") { reminder } }
        let plan = try await database.replaceRules(
            plugin: "reminders", declaring: declared, version: "1", now: t0, computeNextDue: Self.nextDue
        ) { times in
            (count: times.count, last: Dictionary(times.map { ($0.reminderID, $0.nextDue) }) { _, last in last })
        }
        #expect(plan.count == 12_200, "every declaration has its time, in the plan made aside")
        #expect(plan.last.count == 12_000)
        #expect(plan.last["r0"] == t0.addingTimeInterval(Double(23 * 60 + 59) * 60), "an id declared twice: the last")
        #expect(plan.last["r300"] == Self.nextDue(Self.reminders[300].schedule))
        let stored = try await database.rules(plugin: "reminders")
        #expect(stored.count == 12_000)
        let byID = Dictionary(uniqueKeysWithValues: stored.map { ($0.reminder.id, $0) })
        #expect(byID["r0"]?.reminder.notice.title == "Again r0", "the last declaration is the one stored")
        #expect(byID["r300"]?.reminder.notice.title == "Reminder 300")
        // Declared again unchanged: a rule declared once keeps its stored time (nothing is planned).
        let times = try await database.replaceRules(
            plugin: "reminders", declaring: declared, version: "1", now: t0, computeNextDue: { _ in nil })
        let kept = times.filter { Int($0.reminderID.dropFirst())! >= 200 }
        #expect(kept.count == 11_800)
        #expect(kept.allSatisfy { $0.nextDue != nil && $0.nextDue == plan.last[$0.reminderID] })
    }
}
