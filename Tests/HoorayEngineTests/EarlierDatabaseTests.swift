import Foundation
import HabitsPlugin
import HoorayCalendar
import HoorayDelivery
import HoorayEngine
import HoorayKit
import HoorayKitTesting
import HoorayStorage
import Logging
import RemindersPlugin
import Testing
import WinsPlugin

/// A database written before plugins had record books and the engine snoozed reminders
/// (`Tests/Fixtures/databases/hooray-v2.sqlite`): an existing user's moments, habits and snoozes
/// survive the upgrade.
@Suite struct EarlierDatabaseTests {
    /// Sunday 22 November 2026, 20:30 UTC: half an hour before the fixture's snoozes come due.
    static let evening = Date(timeIntervalSince1970: 1_795_379_400)
    static let readID = "a2e46172-6453-4c54-b861-62ce0f97f922"
    /// When the fixture's two snoozes are due: 21:00:09.
    static let snoozedUntil = Date(timeIntervalSince1970: 1_795_381_209.22761)

    /// A copy of the fixture in a temporary directory, opened (and so migrated).
    func openCopy() throws -> (HoorayDatabase, String) {
        // Tests/HoorayEngineTests/this file → Tests/Fixtures/databases.
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/databases/hooray-v2.sqlite").path
        let directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("hooray-earlier-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture, toPath: directory + "/hooray.sqlite")
        return (try HoorayDatabase(path: directory + "/hooray.sqlite"), directory)
    }

    func engine(_ database: HoorayDatabase, clock: ManualClock) async throws -> Engine {
        let engine = Engine(
            database: database, channels: DeliveryChannels([RecordingSink()]), settings: EngineSettings(), clock: clock,
            timeZone: utc,
            makeLogger: { label in
                var logger = Logger(label: label)
                logger.logLevel = .critical
                return logger
            })
        let stretch = try JSONDecoder().decode(
            RemindersPlugin.Entry.self,
            from: Data(#"{"title": "Stretch", "body": "Roll your shoulders.", "at": "20:00"}"#.utf8))
        await engine.apply(
            settings: EngineSettings(),
            plugins: [
                PluginSetup(
                    plugin: RemindersPlugin(), enabled: true,
                    configuration: RemindersPlugin.Configuration(reminder: [stretch])),
                PluginSetup(plugin: WinsPlugin(), enabled: true, configuration: WinsConfiguration(welcome: false)),
                PluginSetup(plugin: HabitsPlugin(), enabled: true, configuration: HabitsConfiguration()),
            ])
        return engine
    }

    @Test func momentsAndHabitsAreFoundInTheRecordBooks() async throws {
        let (database, directory) = try openCopy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Read before any plugin ran, through the record books a plugin's context gets.
        let wins = DatabasePluginStore(database: database, plugin: "wins")
        let moments = try await RecordBook<Moment>(store: wins).all()
        #expect(moments.map(\.text) == ["Took a short walk", "Sent the scary email"])
        #expect(moments.map(\.isFavorite) == [true, false])
        #expect(moments.last?.mood == .proud)
        #expect(moments.last?.note == "Finally")
        let habits = try await RecordBook<Habit>(store: DatabasePluginStore(database: database, plugin: "habits"))
            .byName()
        #expect(habits.map(\.name) == ["Read 10 pages", "Water the plants"])
        let read = try #require(habits.first)
        let today = LocalDate(year: 2026, month: 11, day: 7)!
        #expect(read.streak(today: today).days == 7)
        #expect(read.celebrated == [CelebratedMilestone(days: 7, runStart: LocalDate(year: 2026, month: 11, day: 1)!)])
        #expect(habits.last?.pauses.count == 1)

        // Moved, not copied: what is left in the key-value store are the flags.
        #expect(try await database.pluginKeys(plugin: "wins") == ["flag.hasCompletedFirstLog", "recentPraise"])
        #expect(try await database.pluginKeys(plugin: "habits").isEmpty)
        // Moments fall on the viewer's local day.
        let book = RecordBook<Moment>(store: wins)
        let newYork = TimeZone(identifier: "America/New_York")!
        let day = LocalDate(year: 2026, month: 11, day: 21)!
        #expect(try await book.records(on: day, in: newYork).map(\.text) == ["Sent the scary email"])
        #expect(try await book.find(idPrefix: "B3D7").text == "Took a short walk")
    }

    @Test func bothPluginsSnoozesComeBackOnceAsTheEngines() async throws {
        let (database, directory) = try openCopy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ManualClock(now: Self.evening)
        let engine = try await engine(database, clock: clock)
        #expect(await engine.activePlugins == ["habits", "reminders", "wins"])

        // The habits plugin's own snooze became the engine's; the reminders plugin's already had its name.
        let snoozes = try await database.rules().filter { $0.reminder.id.hasPrefix("snoozed.") }
            .sorted { $0.plugin < $1.plugin }
        #expect(snoozes.map(\.plugin) == ["habits", "reminders"])
        #expect(snoozes.map(\.reminder.id) == ["snoozed.habit." + Self.readID, "snoozed.stretch"])
        for snooze in snoozes {
            #expect(abs(try #require(snooze.nextDue).timeIntervalSince(Self.snoozedUntil)) < 1, "due as before")
        }
        #expect(try await database.rule(plugin: "habits", reminderID: "snooze." + Self.readID) == nil)

        clock.set(to: Self.snoozedUntil.addingTimeInterval(60))
        await engine.processDue()
        let shown = try await database.pendingNotices().filter { $0.createdAt > Self.evening }
        #expect(shown.map(\.notice.title).sorted() == ["Read 10 pages", "Stretch"])
        // Still a habit reminder, with its buttons, and Done works on it.
        let read = try #require(shown.first { $0.notice.title == "Read 10 pages" })
        #expect(read.notice.actions.map(\.id) == ["done", "snooze"])
        #expect(await engine.invoke(action: "done", on: read.id) == nil)
        let habit = try await RecordBook<Habit>(store: DatabasePluginStore(database: database, plugin: "habits"))
            .find(named: "Read 10 pages")
        #expect(habit.isDone(on: LocalDate(year: 2026, month: 11, day: 22)!))
    }
}
