import Foundation
import HoorayCalendar
import HoorayKit
import HoorayStorage
import Synchronization
import Testing

/// The ids of the rules built, in order.
final class BuildLog: Sendable {
    let ids = Mutex<[String]>([])
    var all: [String] { ids.withLock { $0 } }
    func append(_ id: String) { ids.withLock { $0.append(id) } }
    func clear() { ids.withLock { $0 = [] } }
}

/// Reminders declared with a digest of their source: at a restart only what changed is built.
@Suite struct DeclaredRulesTests {
    /// Declares `reminders`, each with the digest given (the text of its title and hour here), and
    /// counts which are built.
    @discardableResult
    func declare(
        _ reminders: [(Reminder, String)], in database: HoorayDatabase, version: String = "1", now: Date = t0,
        built: BuildLog, nextDue: @escaping @Sendable (Schedule) -> Date? = { _ in t0.addingTimeInterval(60) }
    ) async throws -> [RuleTime] {
        try await database.replaceRules(
            plugin: "reminders",
            declaring: reminders.map { reminder, digest in
                DeclaredRule(id: reminder.id, sourceDigest: digest) {
                    built.append(reminder.id)
                    return reminder
                }
            }, version: version, now: now, computeNextDue: nextDue)
    }

    @Test("At a restart an unchanged rule is kept, a changed one rebuilt, a removed one dropped, a new one added")
    func onlyChangedRulesAreBuilt() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = t0.addingTimeInterval(60)
        let many = (0..<1000).map { (reminder("r\($0)"), "d\($0)") }
        let built = BuildLog()
        try await declare(many, in: database, built: built)
        #expect(built.all.count == 1000, "a first start builds every rule")

        var changed = Array(many.dropLast())  // r999 is removed from the file
        changed[500] = (reminder("r500", at: 9), "d500 moved")
        var reworded = reminder("r700")
        reworded.notice.body = "Roll your shoulders"
        changed[700] = (reworded, "d700 reworded")
        changed.append((reminder("new"), "new"))
        built.clear()
        let planned = Mutex<[Schedule]>([])
        let later = t0.addingTimeInterval(3600)
        let times = try await declare(changed, in: database, now: later, built: built) { schedule in
            planned.withLock { $0.append(schedule) }
            return later.addingTimeInterval(60)
        }

        #expect(built.all == ["r500", "r700", "new"], "only the changed and the new rules are built")
        #expect(
            planned.withLock { $0.count } == 2,
            "the moved rule and the new one are planned; the reworded keeps its plan")
        #expect(times.map { $0.reminderID } == changed.map { $0.0.id })
        let rules = try await database.rules(plugin: "reminders")
        let byID = Dictionary(uniqueKeysWithValues: rules.map { ($0.reminder.id, $0) })
        #expect(rules.count == 1000)
        #expect(byID["r999"] == nil, "a rule no longer declared is dropped")
        #expect(byID["r500"]?.reminder.schedule == reminder("r500", at: 9).schedule)
        #expect(byID["r500"]?.nextDue == later.addingTimeInterval(60))
        #expect(byID["r700"]?.reminder.notice.body == "Roll your shoulders")
        #expect(byID["r700"]?.nextDue == first, "a new body keeps the next due instant")
        #expect(byID["r1"]?.nextDue == first && byID["r1"]?.reminder == reminder("r1"), "an unchanged rule is kept")
        #expect(byID["new"]?.nextDue == later.addingTimeInterval(60))
        #expect(
            Dictionary(uniqueKeysWithValues: times.map { ($0.reminderID, $0.nextDue) }) == byID.mapValues(\.nextDue))
    }

    @Test("A newer Hooray builds every rule once again, then none")
    func anotherVersionBuildsAgain() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let rules = (0..<3).map { (reminder("r\($0)"), "d\($0)") }
        let built = BuildLog()
        try await declare(rules, in: database, version: "1", built: built)
        try await declare(rules, in: database, version: "1", built: built)
        #expect(built.all.count == 3)
        try await declare(rules, in: database, version: "2", built: built)
        try await declare(rules, in: database, version: "2", built: built)
        #expect(built.all.count == 6)
    }

    @Test("A rule stored another way since is built again, and a snooze of a kept rule stays")
    func aRuleScheduledAnotherWayIsBuiltAgain() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let built = BuildLog()
        try await declare([(reminder("a"), "a"), (reminder("b"), "b")], in: database, built: built)
        var other = reminder("a")
        other.notice.title = "Scheduled by hand"
        try await database.upsertRule(plugin: "reminders", reminder: other, now: t0) { _ in t0 }
        let snooze = Reminder(
            id: Snooze.reminderID(snoozing: "b"), schedule: .once(at: t0.addingTimeInterval(600)),
            notice: Notice(title: "Stretch"))
        try await database.upsertRule(plugin: "reminders", reminder: snooze, now: t0) { _ in t0.addingTimeInterval(600)
        }
        built.clear()

        let times = try await declare([(reminder("a"), "a"), (reminder("b"), "b")], in: database, built: built)

        #expect(built.all == ["a"])
        #expect(try await database.rule(plugin: "reminders", reminderID: "a")?.reminder == reminder("a"))
        #expect(times.map { $0.reminderID } == ["a", "b", snooze.id])
        #expect(try await database.rule(plugin: "reminders", reminderID: snooze.id) != nil)
    }

    @Test("A reminder declared twice under one id is stored as its last declaration, at a restart too")
    func anIDDeclaredTwiceKeepsTheLast() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var earlier = reminder("a")
        earlier.notice.title = "Earlier"
        var later = reminder("a")
        later.notice.title = "Later"
        let built = BuildLog()
        for round in 0..<3 {
            let times = try await declare(
                [(earlier, "earlier"), (reminder("b"), "b"), (later, "later")], in: database, built: built)
            #expect(
                try await database.rule(plugin: "reminders", reminderID: "a")?.reminder.notice.title == "Later",
                "round \(round)")
            #expect(times.map(\.reminderID) == ["a", "b", "a"], "round \(round)")
        }
        #expect(built.all.filter { $0 == "b" }.count == 1, "the other reminder is built once")
    }

    @Test("A rule declared without a digest is built every time, as replacing all rules does")
    func aRuleWithoutDigestIsAlwaysBuilt() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let built = BuildLog()
        for _ in 0..<2 {
            try await database.replaceRules(
                plugin: "reminders",
                declaring: [
                    DeclaredRule(id: "a", sourceDigest: nil) {
                        built.append("a")
                        return reminder("a")
                    }
                ], version: "1", now: t0
            ) { _ in t0 }
        }
        #expect(built.all.count == 2)
        #expect(try await database.rules(plugin: "reminders").map(\.reminder) == [reminder("a")])
    }
}

/// What a first start stores reads back as what was declared, whatever the reminder's text.
@Suite struct StoredPayloadTests {
    @Test("Rules stored at a first start read back exactly as declared, quotes, slashes and control characters too")
    func storedRulesReadBackAsDeclared() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let texts = [
            "Stretch", "", "Say \"hi\"", #"C:\temp\ and /slashes/"#, "Line one\nline two\ttab\r",
            "bell \u{7} nul \u{0}",
            "Grüße 🎉 ünïcödé", "\u{1}hooray-title\u{1}",
        ]
        let schedules: [Schedule] = [
            .daily(at: TimeOfDay(hour: 9)!, zone: utc),
            .weekly(on: [.monday, .friday], at: TimeOfDay(hour: 7)!, zone: berlin),
            .everyNDays(
                interval: 3, anchor: LocalDate(year: 2026, month: 11, day: 1)!, at: TimeOfDay(hour: 8)!, zone: berlin),
            .once(at: t0.addingTimeInterval(90.5)),
        ]
        var reminders: [Reminder] = []
        for (index, text) in texts.enumerated() {
            for (kind, schedule) in schedules.enumerated() {
                reminders.append(
                    Reminder(
                        id: "r\(index)-\(kind) \(text)", schedule: schedule,
                        notice: Notice(
                            title: text, body: texts[(index + kind) % texts.count],
                            urgency: [.low, .normal, .critical][kind % 3], actions: [.snooze()],
                            category: kind == 0 ? nil : "reminder")))
            }
        }
        var special = reminder("special")
        special.payload = .object(["kind": .string("follow-up")])
        special.hold = ReminderHold(reason: "paused")
        special.catchUpWithin = .seconds(600)
        reminders.append(special)
        try await database.replaceRules(
            plugin: "reminders",
            declaring: reminders.map { reminder in DeclaredRule(id: reminder.id, sourceDigest: "d") { reminder } },
            version: "1", now: t0
        ) { _ in t0.addingTimeInterval(60) }
        let stored = try await database.rules(plugin: "reminders")
        #expect(stored.count == reminders.count)
        let byID = Dictionary(uniqueKeysWithValues: stored.map { ($0.reminder.id, $0.reminder) })
        for reminder in reminders {
            #expect(byID[reminder.id] == reminder)
        }
    }
}
