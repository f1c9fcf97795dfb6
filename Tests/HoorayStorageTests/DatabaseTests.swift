import Foundation
import HoorayCalendar
import HoorayClient
import HoorayKit
import HoorayStorage
import Synchronization
import Testing

/// A fresh database file in its own temporary directory.
func temporaryDatabase() throws -> (HoorayDatabase, String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-db-\(UUID().uuidString)").path
    let path = directory + "/data/hooray.sqlite"
    return (try HoorayDatabase(path: path), directory)
}

let utc = TimeZone(identifier: "UTC")!
let t0 = Date(timeIntervalSince1970: 1_800_000_000)

func reminder(_ id: String, at hour: Int = 15) -> Reminder {
    Reminder(
        id: id, schedule: .daily(at: TimeOfDay(hour: hour)!, zone: utc), notice: Notice(title: "Stretch", body: "Now"))
}

@Suite struct DatabaseTests {
    @Test func filesArePrivate() throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let attributes = try FileManager.default.attributesOfItem(atPath: database.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(
            atPath: (database.path as NSString).deletingLastPathComponent)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test func openingTakesAwayOthersAccessButNeverGivesTheOwnerWrite() throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Left open, the database keeps its -wal and -shm files, as after a command that was killed.
        let files = ["", "-wal", "-shm"].map { database.path + $0 }
        #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        func modes() throws -> [Int] {
            try files.map { try FileManager.default.attributesOfItem(atPath: $0)[.posixPermissions] as? Int ?? -1 }
        }
        for file in files { chmod(file, 0o400) }
        _ = try HoorayDatabase(path: database.path)
        #expect(try modes() == [0o400, 0o400, 0o400])
        for file in files { chmod(file, 0o644) }
        _ = try HoorayDatabase(path: database.path)
        #expect(try modes() == [0o600, 0o600, 0o600])
        withExtendedLifetime(database) {}
    }

    @Test func aSymbolicLinkOrAFolderOthersMayWriteIsRefusedBeforeOpening() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-db-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let folder = directory + "/data"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "not a database\n".write(toFile: directory + "/other", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/hooray.sqlite-wal", withDestinationPath: directory + "/other")
        let linked = #expect(throws: StorageError.self) { try HoorayDatabase(path: folder + "/hooray.sqlite") }
        #expect(linked?.description.contains("hooray.sqlite-wal is a symbolic link (to \(directory)/other)") == true)
        #expect(
            linked?.fix
                == "remove the link (`rm \(folder)/hooray.sqlite-wal`); to keep your data elsewhere, link the whole data folder instead, or set XDG_DATA_HOME"
        )
        #expect(HoorayDatabase.readingMayWork(despite: linked!) == false)
        #expect(!FileManager.default.fileExists(atPath: folder + "/hooray.sqlite"))

        unlink(folder + "/hooray.sqlite-wal")
        chmod(folder, 0o777)
        let open = #expect(throws: StorageError.self) { try HoorayDatabase(path: folder + "/hooray.sqlite") }
        #expect(open?.description.contains("other users may write in the data folder \(folder) (mode 777)") == true)
        #expect(open?.fix == "make it private with `chmod -R u+rwX,go-rwx \(folder)`")
        chmod(folder, 0o700)
        #expect(throws: Never.self) { try HoorayDatabase(path: folder + "/hooray.sqlite") }
    }

    @Test func anOccurrenceIsQueuedOnceEvenWhenHandledTwice() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await database.upsertRule(plugin: "reminders", reminder: reminder("stretch"), now: t0) { _ in t0 }
        let notice = Notice(title: "Stretch")
        let first = try await database.recordOccurrence(
            plugin: "reminders", reminderID: "stretch", dueAt: t0, notice: notice, outcome: .shown,
            nextDue: t0.addingTimeInterval(86400), now: t0)
        // A restart after a crash, or a clock rewind, handles the same occurrence again.
        let second = try await database.recordOccurrence(
            plugin: "reminders", reminderID: "stretch", dueAt: t0, notice: notice, outcome: .shown,
            nextDue: t0.addingTimeInterval(86400), now: t0)
        #expect(first != nil)
        #expect(second == nil)
        #expect(try await database.pendingNotices().count == 1)
        #expect(
            try await database.rule(plugin: "reminders", reminderID: "stretch")?.nextDue == t0.addingTimeInterval(86400)
        )
    }

    @Test func occurrencesDueTogetherAreRecordedAtOnceAndStillOnlyOnce() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for id in ["stretch", "water", "tea"] {
            try await database.upsertRule(plugin: "reminders", reminder: reminder(id), now: t0) { _ in t0 }
        }
        let keys = ["stretch", "water", "tea", "missing"].map { (plugin: "reminders", reminderID: $0) }
        #expect(try await database.rules(keys).map { $0?.reminder.id } == ["stretch", "water", "tea", nil])
        // "tea" was shown before a restart; the others are new.
        try await database.recordOccurrence(
            plugin: "reminders", reminderID: "tea", dueAt: t0, notice: Notice(title: "Tea"), outcome: .shown,
            nextDue: t0.addingTimeInterval(86400), now: t0)
        #expect(
            try await database.hasOccurrences(["stretch", "tea"].map { ("reminders", $0, t0) }) == [false, true])
        let next = t0.addingTimeInterval(86400)
        let ids = try await database.recordOccurrences(
            [
                HandledOccurrence(
                    plugin: "reminders", reminderID: "stretch", dueAt: t0, notice: Notice(title: "Stretch"),
                    outcome: .shown, nextDue: next),
                HandledOccurrence(
                    plugin: "reminders", reminderID: "water", dueAt: t0, notice: nil, outcome: .suppressed,
                    nextDue: next),
                HandledOccurrence(
                    plugin: "reminders", reminderID: "tea", dueAt: t0, notice: Notice(title: "Tea"), outcome: .shown,
                    nextDue: next),
            ], now: t0)
        #expect(ids[0] != nil)
        #expect(ids[1] == nil && ids[2] == nil)
        #expect(try await database.pendingNotices().map(\.notice.title).sorted() == ["Stretch", "Tea"])
        #expect(try await database.rules(keys.prefix(3).map { $0 }).map { $0?.nextDue } == [next, next, next])
    }

    @Test func replacingARuleWithTheSameScheduleKeepsItsNextDue() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await database.upsertRule(plugin: "reminders", reminder: reminder("stretch"), now: t0) { _ in t0 }
        var edited = reminder("stretch")
        edited.notice.body = "A new body"
        let kept = try await database.upsertRule(plugin: "reminders", reminder: edited, now: t0) { _ in .distantFuture }
        #expect(kept.nextDue == t0)
        let moved = try await database.upsertRule(plugin: "reminders", reminder: reminder("stretch", at: 9), now: t0) {
            _ in t0.addingTimeInterval(5)
        }
        #expect(moved.nextDue == t0.addingTimeInterval(5))
        #expect(try await database.rule(plugin: "reminders", reminderID: "stretch")?.reminder.notice.body == "Now")
    }

    @Test func replacingAllRulesKeepsUnchangedOnesAndRemovesTheRestInOneStep() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await database.upsertRule(plugin: "reminders", reminder: reminder("stretch"), now: t0) { _ in t0 }
        try await database.upsertRule(plugin: "reminders", reminder: reminder("gone"), now: t0) { _ in t0 }
        try await database.upsertRule(plugin: "habits", reminder: reminder("other"), now: t0) { _ in t0 }

        let later = t0.addingTimeInterval(60)
        let stored = try await database.replaceRules(
            plugin: "reminders", with: [reminder("stretch"), reminder("walk", at: 9)], now: t0
        ) { _ in later }

        #expect(stored.map(\.nextDue) == [t0, later], "an unchanged schedule keeps its next due instant")
        #expect(try await database.rules(plugin: "reminders").map(\.reminder.id).sorted() == ["stretch", "walk"])
        #expect(try await database.rules(plugin: "habits").count == 1, "other plugins' rules are untouched")

        let many = (0..<5000).map { reminder("r\($0)") }
        try await database.replaceRules(plugin: "reminders", with: many, now: t0) { _ in later }
        #expect(try await database.rules(plugin: "reminders").count == 5000)
    }

    @Test("Declaring 1,000 rules again with one moved and one reworded re-plans only the moved one")
    func aChangedRuleAmongManyRePlansOnlyItself() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = t0.addingTimeInterval(60)
        let many = (0..<1000).map { reminder("r\($0)") }
        try await database.replaceRules(plugin: "reminders", with: many, now: t0) { _ in first }

        var changed = many
        changed[500] = reminder("r500", at: 9)
        changed[700].notice.body = "Roll your shoulders"
        let planned = Mutex<[Schedule]>([])
        let later = t0.addingTimeInterval(3600)
        let stored = try await database.replaceRules(plugin: "reminders", with: changed, now: later) { schedule in
            planned.withLock { $0.append(schedule) }
            return later.addingTimeInterval(60)
        }

        #expect(planned.withLock { $0 } == [changed[500].schedule], "only the moved rule is planned again")
        let rules = try await database.rules(plugin: "reminders")
        #expect(rules.count == 1000)
        #expect(stored.count == 1000)
        let byID = Dictionary(uniqueKeysWithValues: rules.map { ($0.reminder.id, $0) })
        #expect(byID["r500"]?.nextDue == later.addingTimeInterval(60))
        #expect(byID["r500"]?.reminder.schedule == changed[500].schedule)
        #expect(byID["r700"]?.nextDue == first, "a new body keeps the next due instant")
        #expect(byID["r700"]?.reminder.notice.body == "Roll your shoulders")
        #expect(rules.filter { $0.nextDue == first }.count == 999)
        #expect(Set(stored.map(\.reminder)) == Set(changed))
    }

    @Test("A weekly rule declared again is not planned again, however its set of days was built")
    func aWeeklyRuleDeclaredAgainKeepsItsPlan() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let weekdays: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]
        func weekly(_ days: Set<Weekday>) -> Reminder {
            Reminder(
                id: "standup", schedule: .weekly(on: days, at: TimeOfDay(hour: 9)!, zone: utc),
                notice: Notice(title: "Stand-up"))
        }
        // Equal sets that iterate in different orders, as the same set does in another process.
        var small = Set<Weekday>()
        for day in weekdays { small.insert(day) }
        let large =
            (1...64).lazy.map { capacity in
                var days = Set<Weekday>(minimumCapacity: capacity * 8)
                for day in weekdays.reversed() { days.insert(day) }
                return days
            }.first { Array($0) != Array(small) } ?? small
        #expect(small == large)
        #expect(Array(small) != Array(large), "the same days, iterated in another order")
        let first = t0.addingTimeInterval(60)
        try await database.replaceRules(plugin: "reminders", with: [weekly(small)], now: t0) { _ in first }
        let planned = Mutex(0)
        try await database.replaceRules(plugin: "reminders", with: [weekly(large)], now: t0) { _ in
            planned.withLock { $0 += 1 }
            return t0.addingTimeInterval(3600)
        }
        try await database.upsertRule(plugin: "reminders", reminder: weekly(large), now: t0) { _ in
            planned.withLock { $0 += 1 }
            return t0.addingTimeInterval(3600)
        }
        #expect(planned.withLock { $0 } == 0)
        #expect(try await database.rule(plugin: "reminders", reminderID: "standup")?.nextDue == first)
    }

    @Test func noticesMoveThroughDeliveryStates() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = try await database.insertNotice(Notice(title: "Hello"), plugin: "wins", now: t0)
        try await database.markSending(id)
        try await database.markUndelivered(id, reason: "no notification server")
        #expect(try await database.inbox(includeDelivered: false).map(\.lastError) == ["no notification server"])
        let sent = try #require(try await database.markSending(id))
        #expect(try await database.markDelivered(id, handles: ["libnotify": "7"], now: t0, revision: sent.revision))
        #expect(try await database.inbox(includeDelivered: false).isEmpty)
        #expect(try await database.notice(id)?.handles == ["libnotify": "7"])
        // An update in place queues it again, keeping the server id to replace.
        try await database.updateNotice(id, plugin: "wins", to: Notice(title: "Hello", body: "AI praise"))
        let pending = try await database.pendingNotices()
        #expect(pending.map(\.handles) == [["libnotify": "7"]])
        #expect(pending.first?.notice.body == "AI praise")
        await #expect(throws: NoticeNotFound.self) {
            try await database.updateNotice(id, plugin: "another-plugin", to: Notice(title: "x"))
        }
    }

    @Test func anUpdateBetweenReadingTheQueueAndSendingIsTheVersionSent() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = try await database.insertNotice(
            Notice(title: "Moment logged", body: "offline"), plugin: "wins", now: t0)
        let queued = try #require(try await database.pendingNotices().first)
        try await database.updateNotice(id, plugin: "wins", to: Notice(title: "Moment logged", body: "AI praise"))
        let sent = try #require(try await database.markSending(queued.id))
        #expect(sent.notice.body == "AI praise")
        #expect(try await database.markSending(queued.id) == nil, "already being sent")
    }

    @Test func anUpdateWhileSendingIsSentNext() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = try await database.insertNotice(
            Notice(title: "Moment logged", body: "offline"), plugin: "wins", now: t0)
        let sent = try #require(try await database.markSending(id))
        try await database.updateNotice(id, plugin: "wins", to: Notice(title: "Moment logged", body: "AI praise"))
        // Until the server's id is known, nobody else may send it: that would be a second notification.
        #expect(try await database.pendingNotices().isEmpty)
        #expect(try await !database.markDelivered(id, handles: ["libnotify": "3"], now: t0, revision: sent.revision))
        let next = try #require(try await database.pendingNotices().first)
        #expect(next.notice.body == "AI praise")
        #expect(next.handles == ["libnotify": "3"])
    }

    @Test func aHandOverAStartingDaemonTookForInterruptedIsSettledByItsSender() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shown = try await database.insertNotice(Notice(title: "Shown"), plugin: "wins", now: t0)
        let failed = try await database.insertNotice(Notice(title: "Failed"), plugin: "wins", now: t0)
        // A `hooray` hosting the plugin is handing both over when hoorayd starts.
        let sent = try #require(try await database.markSending(shown))
        try await database.markSending(failed)
        #expect(try await database.settleInterruptedDeliveries() == 2)
        // Then the server answers it.
        #expect(try await database.markDelivered(shown, handles: ["libnotify": "4"], now: t0, revision: sent.revision))
        try await database.markUndelivered(failed, reason: "no notification server")
        #expect(try await database.notice(shown)?.state == .delivered)
        #expect(try await database.pendingNotices().map(\.id) == [failed])
    }

    @Test func anUpdateOfAnUnconfirmedNoticeWithoutServerIDStaysInTheInbox() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = try await database.insertNotice(
            Notice(title: "Moment logged", body: "offline"), plugin: "wins", now: t0)
        try await database.markSending(id)
        try await database.settleInterruptedDeliveries()
        try await database.updateNotice(id, plugin: "wins", to: Notice(title: "Moment logged", body: "AI praise"))
        #expect(
            try await database.pendingNotices().isEmpty, "it may be on screen already; sending it could show it twice")
        let kept = try #require(try await database.inbox(includeDelivered: false).first)
        #expect(kept.state == .unconfirmed)
        #expect(kept.notice.body == "AI praise")
    }

    @Test func aNoticeAndTheValuesPostedWithItAreStoredTogether() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = try await database.insertNotice(
            Notice(title: "Moment logged"), plugin: "wins", now: t0, storing: ["moment.1": Data("m".utf8)])
        #expect(try await database.notice(id)?.plugin == "wins")
        #expect(try await database.pluginValue(plugin: "wins", key: "moment.1") == Data("m".utf8))
    }

    @Test func aCrashMidDeliveryLeavesTheNoticeUnconfirmedNotResent() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = try await database.insertNotice(Notice(title: "Hello"), plugin: "wins", now: t0)
        try await database.markSending(id)
        #expect(try await database.settleInterruptedDeliveries() == 1)
        #expect(try await database.pendingNotices().isEmpty)
        #expect(try await database.inbox(includeDelivered: false).first?.state == .unconfirmed)
    }

    @Test func pluginValuesAreScopedToTheirPlugin() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let wins = DatabasePluginStore(database: database, plugin: "wins")
        let habits = DatabasePluginStore(database: database, plugin: "habits")
        try await wins.set(["a", "b"], forKey: "list")
        #expect(try await wins.value(forKey: "list", as: [String].self) == ["a", "b"])
        #expect(try await habits.value(forKey: "list", as: [String].self) == nil)
        try await wins.removeValue(forKey: "list")
        #expect(try await wins.keys().isEmpty)
    }

    @Test func aDamagedFileGetsAnErrorThatSaysHowToRecover() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-bad-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/hooray.sqlite"
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        do {
            _ = try HoorayDatabase(path: path)
            Issue.record("opening a damaged file succeeded")
        } catch {
            #expect(error.description.contains("damaged"))
            #expect(error.description.contains("mv \(path)"))
        }
        // Nothing was overwritten.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: 0x41, count: 8192))
    }

    @Test func twoConnectionsWriteAtTheSameTime() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A second process (the CLI) opens the same file while the daemon holds it.
        let other = try HoorayDatabase(path: database.path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { _ = try await database.insertNotice(Notice(title: "d\(index)"), plugin: "a", now: t0) }
                group.addTask { _ = try await other.insertNotice(Notice(title: "c\(index)"), plugin: "b", now: t0) }
            }
            try await group.waitForAll()
        }
        #expect(try await database.pendingNotices().count == 100)
    }
}

@Suite struct DataDeletionTests {
    @Test func deletingUserDataEmptiesEverythingButKeepsTheSchema() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await database.upsertRule(plugin: "reminders", reminder: reminder("stretch"), now: t0) { _ in t0 }
        try await database.recordOccurrence(
            plugin: "reminders", reminderID: "stretch", dueAt: t0, notice: Notice(title: "Stretch"), outcome: .shown,
            nextDue: t0.addingTimeInterval(86400), now: t0)
        _ = try await database.insertNotice(Notice(title: "Moment logged"), plugin: "wins", now: t0)
        try await DatabasePluginStore(database: database, plugin: "wins").set(["a"], forKey: "moments")
        try await database.recordMissed([
            MissedReminder(
                plugin: "reminders", reminderID: "stretch", title: "Call the clinic", count: 1, firstDueAt: t0,
                lastDueAt: t0, recordedAt: t0)
        ])

        let deleted = try await database.deleteUserData()

        #expect(deleted == DeletedData(notices: 2, plugins: ["wins"], occurrences: 1))
        #expect(try await database.inbox(includeDelivered: true).isEmpty)
        #expect(try await database.rules().isEmpty)
        #expect(try await database.pluginKeys(plugin: "wins").isEmpty)
        #expect(try await database.missedReminders(since: .distantPast).isEmpty, "missed reminders keep their titles")
        // The database still works afterwards.
        _ = try await database.insertNotice(Notice(title: "Again"), plugin: "wins", now: t0)
        #expect(try await database.pendingNotices().count == 1)
    }
}

@Suite struct DeliveryRecordPruningTests {
    @Test func oldDeliveryRecordsGoAndUserDataAndTheLatestOccurrenceStay() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let day: TimeInterval = 86400
        try await database.upsertRule(plugin: "reminders", reminder: reminder("stretch"), now: t0) { _ in t0 }
        // Two occurrences 100 and 99 days ago, both shown; a notice still waiting from then; a user record.
        var shown: [NoticeID] = []
        for age in [100.0, 99.0] {
            let at = t0.addingTimeInterval(-age * day)
            let id = try #require(
                try await database.recordOccurrence(
                    plugin: "reminders", reminderID: "stretch", dueAt: at, notice: Notice(title: "Stretch"),
                    outcome: .shown, nextDue: at.addingTimeInterval(day), now: at))
            let sent = try #require(try await database.markSending(id))
            try await database.markDelivered(id, handles: ["libnotify": "1"], now: at, revision: sent.revision)
            shown.append(id)
        }
        let waiting = try await database.insertNotice(
            Notice(title: "Still waiting"), plugin: "wins", now: t0.addingTimeInterval(-100 * day))
        try await database.setPluginValue(Data("kept".utf8), plugin: "wins", key: "mine")
        try await database.recordMissed([
            MissedReminder(
                plugin: "reminders", reminderID: "stretch", title: "Stretch", count: 2,
                firstDueAt: t0.addingTimeInterval(-98 * day), lastDueAt: t0.addingTimeInterval(-97 * day),
                recordedAt: t0.addingTimeInterval(-96 * day))
        ])

        let pruned = try await database.pruneDeliveryRecords(before: t0.addingTimeInterval(-90 * day))

        #expect(pruned.notices == 2)
        #expect(pruned.occurrences == 1, "the latest occurrence of a reminder stays")
        #expect(pruned.missed == 1)
        for id in shown { #expect(try await database.notice(id) == nil) }
        #expect(try await database.notice(waiting)?.notice.title == "Still waiting")
        #expect(try await database.pluginValue(plugin: "wins", key: "mine") == Data("kept".utf8))
        #expect(
            try await database.hasOccurrence(
                plugin: "reminders", reminderID: "stretch", dueAt: t0.addingTimeInterval(-99 * day)))
        // Nothing more to prune a second time.
        #expect(try await database.pruneDeliveryRecords(before: t0.addingTimeInterval(-90 * day)).isEmpty)
    }

    @Test func aDigestGathersOnlyWhatStillWaitsAndKeepsButtonsInTheInbox() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let plain = try await database.insertNotice(Notice(title: "Water"), plugin: "reminders", now: t0)
        let withButton = try await database.insertNotice(
            Notice(title: "Stretch", actions: [NoticeAction(id: "done", label: "Done")]), plugin: "reminders", now: t0)
        let digest = try #require(
            try await database.gatherIntoDigest(
                [plain, withButton], withButtons: [withButton], digest: Notice(title: "2 reminders: Water, Stretch"),
                plugin: "hooray", now: t0))
        #expect(try await database.notice(plain)?.state == .delivered)
        #expect(try await database.notice(withButton)?.state == .digested)
        #expect(try await database.notice(withButton)?.digestID == digest)
        #expect(try await database.pendingNotices().map(\.id) == [digest])
        #expect(try await database.inbox(includeDelivered: false).map(\.id).contains(withButton))
        // Gathering them again finds nothing waiting, and makes no digest.
        #expect(
            try await database.gatherIntoDigest(
                [plain, withButton], withButtons: [], digest: Notice(title: "again"), plugin: "hooray", now: t0) == nil)
        try await database.settleDigested(withButton)
        #expect(try await database.notice(withButton)?.state == .delivered)
    }
}
