import Foundation
import HoorayCalendar
import HoorayDelivery
import HoorayEngine
import HoorayKit
import HoorayKitTesting
import HoorayScheduling
import HoorayStorage
import Logging
import Testing

/// A channel that records what it is asked to show, and can pretend there is no server.
final class RecordingSink: DeliveryChannel, @unchecked Sendable {
    // @unchecked: all state is guarded by `lock`.
    private let lock = NSLock()
    private var _shown: [(NoticeID, Notice, String?)] = []
    private var _available = true
    private var _timesOut = false
    private var _doNotDisturb = DoNotDisturb.off
    private var nextServerID: UInt32 = 1

    var name: String { "recorder" }
    var shown: [(id: NoticeID, notice: Notice, replacing: String?)] {
        lock.withLock { _shown.map { ($0.0, $0.1, $0.2) } }
    }
    var available: Bool {
        get { lock.withLock { _available } }
        set { lock.withLock { _available = newValue } }
    }

    /// Whether the server is there but does not answer in time: each notice handed over times out.
    var timesOut: Bool {
        get { lock.withLock { _timesOut } }
        set { lock.withLock { _timesOut = newValue } }
    }

    /// The server's do-not-disturb state, as the engine asks it at delivery time; off by default.
    var doNotDisturbState: DoNotDisturb {
        get { lock.withLock { _doNotDisturb } }
        set { lock.withLock { _doNotDisturb = newValue } }
    }

    func doNotDisturb() async -> DoNotDisturb { doNotDisturbState }
    func start(onEvent: @escaping @Sendable (ChannelEvent) -> Void) {}
    func status() async -> ServerStatus {
        available
            ? .available(
                ServerInfo(
                    name: "fake", vendor: "tests", version: "1", specVersion: "1.2", capabilities: ["body"]))
            : .unavailable(reason: "no notification server")
    }
    func deliver(_ notice: Notice, id: NoticeID, replacing: String?) async -> ChannelOutcome {
        lock.withLock {
            guard _available else { return .unavailable(reason: "no notification server") }
            if _timesOut { return .timedOut }
            _shown.append((id, notice, replacing))
            defer { nextServerID += 1 }
            return .delivered(handle: replacing ?? String(nextServerID))
        }
    }
    func shutdown() async {}
}

/// A plugin whose behaviour each test sets.
struct ProbePlugin: HoorayPlugin {
    var reminders: [Reminder]
    var onDue: @Sendable (DueReminder) async throws -> Notice? = { $0.reminder.notice }
    var onAction: @Sendable (InvokedAction, PluginContext) async throws -> Void = { _, _ in }
    var onSkipped: @Sendable (SkippedReminder) async throws -> Void = { _ in }

    var name: String { "probe" }
    var summary: String { "test plugin" }

    func activate(context: PluginContext, configuration: NoConfiguration) async throws {
        try await context.reminders.replaceAll(with: reminders)
    }

    func reminderDue(_ due: DueReminder, context: PluginContext) async throws -> Notice? {
        try await onDue(due)
    }

    func actionInvoked(_ action: InvokedAction, context: PluginContext) async throws {
        try await onAction(action, context)
    }

    func reminderSkipped(_ skipped: SkippedReminder, context: PluginContext) async throws {
        try await onSkipped(skipped)
    }
}

let utc = TimeZone(identifier: "UTC")!
/// Monday 23 November 2026, 14:59:00 UTC.
let start = Date(timeIntervalSince1970: 1_795_445_940)

struct World {
    let clock = ManualClock(now: start)
    let sink = RecordingSink()
    let database: HoorayDatabase
    let engine: Engine
    let directory: String

    /// - Parameter channels: Delivery channels registered beside the recorder.
    init(settings: EngineSettings = EngineSettings(), channels: [any DeliveryChannel] = []) throws {
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("hooray-engine-\(UUID().uuidString)").path
        database = try HoorayDatabase(path: directory + "/hooray.sqlite")
        engine = Engine(
            database: database, channels: DeliveryChannels([sink] + channels), settings: settings, clock: clock,
            timeZone: utc,
            makeLogger: { label in
                var logger = Logger(label: label)
                logger.logLevel = .critical
                return logger
            })
    }

    func activate(_ plugin: ProbePlugin) async {
        await engine.apply(
            settings: EngineSettings(),
            plugins: [PluginSetup(plugin: plugin, enabled: true, configuration: NoConfiguration())])
    }

    /// A new engine on the same database and sink, as after a restart, with `plugin` activated.
    func restart(with plugin: ProbePlugin, clock: ManualClock? = nil) async -> Engine {
        let engine = Engine(
            database: database, channels: DeliveryChannels([sink]), settings: EngineSettings(),
            clock: clock ?? self.clock, timeZone: utc)
        await engine.apply(
            settings: EngineSettings(),
            plugins: [PluginSetup(plugin: plugin, enabled: true, configuration: NoConfiguration())])
        return engine
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }
}

let stretch = Reminder(
    id: "stretch", schedule: .daily(at: TimeOfDay(hour: 15)!, zone: utc), notice: Notice(title: "Stretch", body: "Now"))

@Suite struct EngineTests {
    @Test func aDueReminderIsQueuedOnceAndDelivered() async throws {
        let world = try World()
        defer { world.cleanUp() }
        await world.activate(ProbePlugin(reminders: [stretch]))
        // Before 15:00 it sleeps until exactly 15:00.
        #expect(await world.engine.processDue() == .sleep(until: start.addingTimeInterval(60)))
        world.clock.advance(by: 60)
        #expect(await world.engine.processDue() == .sleep(until: start.addingTimeInterval(60 + 86400)))
        await world.engine.deliverPending()
        #expect(world.sink.shown.map(\.notice.title) == ["Stretch"])
        // A second pass, or a restart that re-activates the plugin, does not show it again.
        await world.activate(ProbePlugin(reminders: [stretch]))
        await world.engine.processDue()
        await world.engine.deliverPending()
        #expect(world.sink.shown.count == 1)
    }

    @Test func aReminderDueWhileHoorayStartsIsShownAtOnceNotTomorrow() async throws {
        // hoorayd started at 14:59:58 and planned its plugins at 15:00:05, on a busy computer.
        let world = try World()
        defer { world.cleanUp() }
        world.clock.set(to: start.addingTimeInterval(65))
        await world.engine.apply(
            settings: EngineSettings(),
            plugins: [
                PluginSetup(plugin: ProbePlugin(reminders: [stretch]), enabled: true, configuration: NoConfiguration())
            ],
            startedAt: start.addingTimeInterval(58))
        #expect(await world.engine.processDue() == .sleep(until: start.addingTimeInterval(60 + 86400)))
        await world.engine.deliverPending()
        #expect(world.sink.shown.map(\.notice.title) == ["Stretch"], "shown at once, 5 s late")

        // A reload at 15:00:05 (no start) plans a new reminder of 15:00 for tomorrow: it was not due
        // while anything started.
        let other = try World()
        defer { other.cleanUp() }
        other.clock.set(to: start.addingTimeInterval(65))
        await other.activate(ProbePlugin(reminders: [stretch]))
        #expect(await other.engine.processDue() == .sleep(until: start.addingTimeInterval(60 + 86400)))
        await other.engine.deliverPending()
        #expect(other.sink.shown.isEmpty)
    }

    @Test func aRestartedEngineOnTheSameDatabaseDoesNotRepeatAnOccurrence() async throws {
        let world = try World()
        defer { world.cleanUp() }
        await world.activate(ProbePlugin(reminders: [stretch]))
        world.clock.advance(by: 61)
        await world.engine.processDue()
        // The clock is rewound and a new engine starts on the same file.
        let rewound = ManualClock(now: start.addingTimeInterval(30))
        let again = await world.restart(with: ProbePlugin(reminders: [stretch]), clock: rewound)
        rewound.advance(by: 60)
        await again.processDue()
        #expect(try await world.database.occurrenceCount() == 1)
        #expect(try await world.database.pendingNotices().count == 1)
    }

    @Test func afterAWeekendOffOnlyTheLatestMissedOccurrenceIsShown() async throws {
        let world = try World()
        defer { world.cleanUp() }
        await world.activate(ProbePlugin(reminders: [stretch]))
        // Off from Monday 14:59 to Wednesday 15:30: Monday's and Tuesday's are skipped and told in one
        // "While you were away" notice, today's is shown late.
        world.clock.advance(by: 2 * 86400 + 31 * 60)
        await world.engine.processDue()
        await world.engine.deliverPending()
        #expect(world.sink.shown.map(\.notice.title).sorted() == ["Stretch", "While you were away"])
        #expect(
            world.sink.shown.first { $0.notice.title == "While you were away" }?.notice.body.hasPrefix(
                "2 reminders passed") == true)
        #expect(try await world.database.occurrenceCount() == 1)
    }

    @Test func beyondTheCatchUpLimitNothingIsShown() async throws {
        let world = try World()
        defer { world.cleanUp() }
        await world.activate(ProbePlugin(reminders: [stretch]))
        world.clock.advance(by: 60 + 3 * 3600)  // 18:00, three hours late; the default limit is 2 h
        #expect(await world.engine.processDue() == .sleep(until: start.addingTimeInterval(60 + 86400)))
        await world.engine.deliverPending()
        // Only the word that it passed.
        #expect(world.sink.shown.map(\.notice.title) == ["While you were away"])
        #expect(world.sink.shown.first?.notice.body.hasPrefix("1 reminder passed") == true)
    }

    @Test func aOneOffMissedForThreeDaysIsShownOnceOnReturn() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let seen = Recorded<DueReminder>()
        let followUp = Reminder(
            id: "follow-up", schedule: .once(at: start.addingTimeInterval(60)), notice: Notice(title: "How are you?"))
        let plugin = ProbePlugin(
            reminders: [followUp],
            onDue: { due in
                await seen.add(due)
                return due.reminder.notice
            })
        await world.activate(plugin)
        // Given the daemon was stopped from before it was due until three days later,
        world.clock.advance(by: 3 * 86400)
        // when it starts again, the one-off is shown, as a catch-up, though far beyond the 2-hour default.
        #expect(await world.engine.processDue() == .idle)
        await world.engine.deliverPending()
        #expect(world.sink.shown.map(\.notice.title) == ["How are you?"])
        #expect(await seen.items.map(\.isCatchUp) == [true])
        #expect(await seen.items.map(\.dueAt) == [start.addingTimeInterval(60)])
        // A restart on the same database neither shows it again nor asks the plugin again.
        let again = await world.restart(with: plugin)
        await again.processDue()
        await again.deliverPending()
        #expect(world.sink.shown.count == 1)
        #expect(await seen.items.count == 1)
        #expect(try await world.database.occurrenceCount() == 1)
    }

    @Test func aOneOffPastItsOwnLimitIsSkippedAndThePluginIsToldOnce() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let skipped = Recorded<SkippedReminder>()
        let due = start.addingTimeInterval(60)
        let checkIn = Reminder(
            id: "check-in", schedule: .once(at: due), notice: Notice(title: "Still up for it?"),
            catchUpWithin: .seconds(3600))
        let plugin = ProbePlugin(reminders: [checkIn], onSkipped: { await skipped.add($0) })
        await world.activate(plugin)
        // Given a one-off allowed to be an hour late, and a daemon stopped for three days,
        world.clock.advance(by: 3 * 86400)
        await world.engine.processDue()
        await world.engine.deliverPending()
        // then it is not shown: one "While you were away" notice counts it once, and the plugin hears
        // that it was skipped.
        #expect(world.sink.shown.map(\.notice.title) == ["While you were away"])
        #expect(world.sink.shown.first?.notice.body.hasPrefix("1 reminder passed") == true)
        #expect(await skipped.items == [SkippedReminder(reminder: checkIn, dueAt: due)])
        // Only once: not on another pass, nor after a restart that declares the reminder again.
        await world.engine.processDue()
        let again = await world.restart(with: plugin)
        await again.processDue()
        await again.deliverPending()
        #expect(world.sink.shown.count == 1)
        #expect(await skipped.items.count == 1)
    }

    @Test func aOneOffWithinItsOwnLimitIsShownAndNotReportedSkipped() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let skipped = Recorded<SkippedReminder>()
        let checkIn = Reminder(
            id: "check-in", schedule: .once(at: start.addingTimeInterval(60)),
            notice: Notice(title: "Still up for it?"),
            catchUpWithin: .seconds(3600))
        await world.activate(ProbePlugin(reminders: [checkIn], onSkipped: { await skipped.add($0) }))
        world.clock.advance(by: 60 + 1800)
        await world.engine.processDue()
        await world.engine.deliverPending()
        #expect(world.sink.shown.map(\.notice.title) == ["Still up for it?"])
        #expect(await skipped.items.isEmpty)
    }

    @Test func aPluginThatThrowsStillGetsItsReminderShown() async throws {
        struct Broken: Error {}
        let world = try World()
        defer { world.cleanUp() }
        await world.activate(ProbePlugin(reminders: [stretch], onDue: { _ in throw Broken() }))
        world.clock.advance(by: 60)
        await world.engine.processDue()
        await world.engine.deliverPending()
        #expect(world.sink.shown.map(\.notice.title) == ["Stretch"])
    }

    @Test func aPluginMayChooseToShowNothing() async throws {
        let world = try World()
        defer { world.cleanUp() }
        await world.activate(ProbePlugin(reminders: [stretch], onDue: { _ in nil }))
        world.clock.advance(by: 60)
        await world.engine.processDue()
        await world.engine.deliverPending()
        #expect(world.sink.shown.isEmpty)
        #expect(try await world.database.occurrenceCount() == 1)
    }

    @Test func withNoServerNoticesWaitAndAreDeliveredLater() async throws {
        let world = try World()
        defer { world.cleanUp() }
        world.sink.available = false
        await world.activate(ProbePlugin(reminders: [stretch]))
        world.clock.advance(by: 60)
        await world.engine.processDue()
        await world.engine.deliverPending()
        let waiting = try await world.database.inbox(includeDelivered: false)
        #expect(waiting.map(\.notice.title) == ["Stretch"])
        #expect(waiting.first?.lastError == "no notification server")
        world.sink.available = true
        await world.engine.deliverPending()
        #expect(world.sink.shown.map(\.notice.title) == ["Stretch"])
        #expect(try await world.database.inbox(includeDelivered: false).isEmpty)
    }

    @Test func buttonsReachThePluginThatPostedTheNotice() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let pressed = Pressed()
        var reminder = stretch
        reminder.notice.actions = [NoticeAction(id: "done", label: "Done")]
        await world.activate(ProbePlugin(reminders: [reminder], onAction: { action, _ in await pressed.add(action) }))
        world.clock.advance(by: 60)
        await world.engine.processDue()
        let id = try #require(try await world.database.pendingNotices().first?.id)
        #expect(await world.engine.invoke(action: "done", on: id) == nil)
        #expect(
            await pressed.actions == [
                InvokedAction(notice: id, actionID: "done", reminderID: "stretch", dueAt: start.addingTimeInterval(60))
            ])
        let unknown = await world.engine.invoke(action: "explode", on: id)
        #expect(unknown?.contains("its actions: done") == true)
    }

    @Test func aButtonCarriesItsOccurrencesDueInstantAndThePayloadItsReminderWasScheduledWith() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let pressed = Pressed()
        let okay = NoticeAction(id: "okay", label: "I'm okay now")
        let followUps = ["job", "dating"].enumerated().map { index, about in
            Reminder(
                id: "follow-up.\(about)", schedule: .once(at: start.addingTimeInterval(Double(60 * (index + 1)))),
                notice: Notice(title: "How are you feeling now?", actions: [okay]),
                payload: .object(["rejection": .string(about)]))
        }
        await world.activate(ProbePlugin(reminders: followUps, onAction: { action, _ in await pressed.add(action) }))
        world.clock.advance(by: 120)
        await world.engine.processDue()
        let notices = try await world.database.pendingNotices().sorted { $0.id < $1.id }
        #expect(notices.count == 2)
        // Press the second: the plugin learns which rejection, and which occurrence, it was about,
        // even after a restart.
        let engine = await world.restart(
            with: ProbePlugin(reminders: followUps, onAction: { action, _ in await pressed.add(action) }))
        #expect(await engine.invoke(action: "okay", on: notices[1].id) == nil)
        let action = try #require(await pressed.actions.first)
        #expect(action.payload == .object(["rejection": .string("dating")]))
        #expect(action.dueAt == start.addingTimeInterval(120))
        #expect(action.reminderID == "follow-up.dating")
    }

    @Test func aHungPluginDoesNotStallTheEngine() async throws {
        let world = try World(settings: EngineSettings(pluginTimeLimit: 0.2))
        defer { world.cleanUp() }
        await world.engine.apply(
            settings: EngineSettings(pluginTimeLimit: 0.2),
            plugins: [
                PluginSetup(
                    plugin: ProbePlugin(
                        reminders: [stretch],
                        onDue: { _ in
                            try await Task.sleep(for: .seconds(3600))
                            return nil
                        }), enabled: true, configuration: NoConfiguration())
            ])
        world.clock.advance(by: 60)
        await world.engine.processDue()
        await world.engine.deliverPending()
        // It timed out, so the reminder's own notice was shown.
        #expect(world.sink.shown.map(\.notice.title) == ["Stretch"])
    }

    @Test func updatesReplaceTheSameNotification() async throws {
        let world = try World()
        defer { world.cleanUp() }
        await world.activate(ProbePlugin(reminders: []))
        let board = await world.engine.noticeBoard(for: "probe")
        let id = try await board.post(Notice(title: "Moment logged", body: "Nice move."))
        await world.engine.deliverPending()
        try await board.update(id, to: Notice(title: "Moment logged", body: "AI praise"))
        await world.engine.deliverPending()
        let shown = world.sink.shown
        #expect(shown.count == 2)
        #expect(shown[1].replacing == "1")
        #expect(shown[1].notice.body == "AI praise")
    }
}

/// What a plugin was handed, in order.
actor Recorded<Item: Sendable> {
    var items: [Item] = []
    func add(_ item: Item) { items.append(item) }
}

actor Pressed {
    var actions: [InvokedAction] = []
    func add(_ action: InvokedAction) { actions.append(action) }
}

@Suite struct PraiseWiringTests {
    struct AskingPlugin: HoorayPlugin {
        let answers: Answers
        var name: String { "asking" }
        var summary: String { "asks for praise when activated" }

        func activate(context: PluginContext, configuration: NoConfiguration) async throws {
            let moment = MomentForPraise(
                clientID: UUID(), text: "Watered the plants", happenedAt: context.now, submittedAt: context.now,
                timeZone: "UTC", timeAgo: "just now")
            do {
                await answers.add(try await context.ai.praise(for: moment).text)
            } catch {
                await answers.add("error: \(error)")
            }
        }
    }

    actor Answers {
        var all: [String] = []
        func add(_ answer: String) { all.append(answer) }
    }

    @Test func pluginsGetTheConfiguredProviderAndNoneUntilThen() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let answers = Answers()
        let setup = PluginSetup(plugin: AskingPlugin(answers: answers), enabled: true, configuration: NoConfiguration())
        await world.engine.apply(settings: EngineSettings(), plugins: [setup])
        await world.engine.setPraiseProvider(
            ScriptedPraiseProvider([
                .success(AIPraise(text: "You made space for yourself.", serverID: nil, action: nil, tags: []))
            ]))
        await world.engine.apply(settings: EngineSettings(), plugins: [setup])
        let all = await answers.all
        #expect(all.count == 2)
        #expect(all.first?.hasPrefix("error: ") == true)
        #expect(all.last == "You made space for yourself.")
    }
}
