import Foundation
import HoorayCLIHost
import HoorayCalendar
import HoorayClient
import HoorayCommandLine
import HoorayDelivery
import HoorayKit
import HoorayKitTesting
import HoorayStorage
import Logging
import Testing

@testable import HoorayDaemon
@testable import HoorayEngine

/// The status-bar line of `hooray bar`: what it says, made safe for each bar, and the control
/// socket's `bar` method with `follow`.
@Suite struct StatusBarTests {
    static let utc = TimeZone(identifier: "UTC")!
    // Monday 2026-11-23, 14:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_442_400)

    static func snapshot(title: String = "Stretch", dueIn seconds: TimeInterval = 3600) -> BarSnapshot {
        BarSnapshot(
            next: .init(title: title, plugin: "reminders", due: now.addingTimeInterval(seconds)),
            items: [
                .init(
                    plugin: "habits",
                    item: BarItem(
                        text: "✅ 1/3", tooltip: "Habits: 1 of 3 done today", streak: BarStreak(days: 4, name: "Read"),
                        progress: BarProgress(done: 1, due: 3))),
                .init(plugin: "wins", item: BarItem(text: "🏆 2", tooltip: "2 today")),
                .init(plugin: "swaps", item: BarItem(text: "", streak: BarStreak(days: 9, name: "swaps"))),
            ])
    }

    static func iso(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    static func line(_ snapshot: BarSnapshot = snapshot(), source: BarLine.Source = .daemon) -> BarLine {
        BarLine(snapshot, source: source, now: now, timeZone: utc)
    }

    @Test func theLineHasTheNextReminderEachItemAndTheBestStreak() {
        let line = Self.line()
        #expect(line.text == "⏰ Stretch 15:00  ✅ 1/3  🏆 2  🔥 9")
        #expect(
            line.tooltip
                == "Next at 15:00: Stretch\nHabits: 1 of 3 done today\n2 today\nBest streak: 9 days (swaps)")
        #expect(line.percentage == 33)
        #expect(line.cssClass == "idle")
    }

    @Test func theClassSaysStoppedDueSoonOrQuiet() {
        #expect(Self.line(source: .stopped).cssClass == "stopped")
        #expect(Self.line(source: .stopped).tooltip.contains("hoorayd is not running"))
        #expect(Self.line(Self.snapshot(dueIn: 600)).cssClass == "due-soon")
        var quiet = Self.snapshot()
        quiet.doNotDisturb = true
        #expect(Self.line(quiet).cssClass == "quiet")
    }

    @Test func aReminderNotTodaySaysWhen() {
        #expect(Self.line(Self.snapshot(dueIn: 20 * 3600)).text.hasPrefix("⏰ Stretch tomorrow 10:00"))
        #expect(Self.line(Self.snapshot(dueIn: 3 * 86400)).text.hasPrefix("⏰ Stretch Thu 14:00"))
    }

    @Test func withNothingToShowTheLineIsStillThere() {
        let line = Self.line(BarSnapshot())
        #expect(line.text == "hooray")
        #expect(line.percentage == 0)
    }

    @Test func waybarGetsOneJSONObjectWithFiveKeysAndMarkupEscaped() throws {
        let line = Self.line(Self.snapshot(title: "<b>Tea</b> & \"cake\"\nnow"))
        let rendered = line.rendered(.waybar)
        #expect(!rendered.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["text", "tooltip", "class", "alt", "percentage"])
        let text = try #require(object["text"] as? String)
        #expect(text.hasPrefix("⏰ &lt;b&gt;Tea&lt;/b&gt; &amp; \"cake\" now 15:00"))
        #expect(object["class"] as? String == "idle")
        #expect(object["alt"] as? String == "idle")
        #expect(object["percentage"] as? Int == 33)
        let tooltip = try #require(object["tooltip"] as? String)
        #expect(tooltip.split(separator: "\n").count == 4)
        #expect(!tooltip.contains("<b>"))
    }

    @Test func everyFormatIsOneSafeLine() {
        let title = "Tea\u{1B}]0;owned\u{07}\nnow\u{202E}evil\tx %{F#f00}red"
        let line = Self.line(Self.snapshot(title: title))
        for format in BarLine.Format.allCases {
            let rendered = line.rendered(format)
            #expect(!rendered.contains("\n"), "\(format)")
            #expect(!rendered.contains("\u{1B}"), "\(format)")
            #expect(!rendered.contains("\u{202E}"), "\(format)")
            #expect(!rendered.unicodeScalars.contains { $0.value < 0x20 }, "\(format)")
        }
        #expect(!line.rendered(.polybar).contains("%{"))
        #expect(line.rendered(.text).contains("Tea␛]0;owned␇ nowevil x"))
    }

    @Test func aLongTitleIsShortened() {
        let line = Self.line(Self.snapshot(title: String(repeating: "long ", count: 20)))
        let title = line.text.dropFirst(2).prefix { $0 != "…" }
        #expect(title.count == BarLine.maxTitle - 1)
        #expect(line.text.contains("… 15:00"))
    }

    @Test func theLineChangesByTheClockAtMidnightAndWhenAReminderComesNear() {
        let midnight = Date(timeIntervalSince1970: 1_795_478_400)
        #expect(BarSnapshot().nextChange(after: Self.now, timeZone: Self.utc) == midnight)
        #expect(
            Self.snapshot().nextChange(after: Self.now, timeZone: Self.utc) == Self.now.addingTimeInterval(2700))
        let paris = TimeZone(identifier: "Europe/Paris")!
        #expect(BarSnapshot().nextChange(after: Self.now, timeZone: paris) == midnight.addingTimeInterval(-3600))
    }

    @Test func theLineTakesTheClockPartsFromTheSnapshotNotFromItsOwnClock() {
        // hoorayd said the reminder is due soon and when, by its own clock: the line follows it, even
        // though by this process's clock the reminder is hours away.
        var snapshot = Self.snapshot(dueIn: 5 * 3600)
        snapshot.next?.dueSoon = true
        snapshot.next?.when = "tomorrow 08:30"
        let line = Self.line(snapshot)
        #expect(line.cssClass == "due-soon")
        #expect(line.text.hasPrefix("⏰ Stretch tomorrow 08:30"))
        // Made with the clock, they say what the clock says.
        let made = BarSnapshot.Next(
            title: "Stretch", plugin: "reminders", due: Self.now.addingTimeInterval(14 * 60), now: Self.now,
            timeZone: Self.utc)
        #expect(made.dueSoon == true)
        #expect(made.when == "14:14")
        let later = BarSnapshot.Next(
            title: "Stretch", plugin: "reminders", due: Self.now.addingTimeInterval(16 * 60), now: Self.now,
            timeZone: Self.utc)
        #expect(later.dueSoon == false)
    }

    @Test func theLineChangesByTheClockWhenQuietHoursBeginAndEnd() throws {
        let quiet = try QuietHours(parsing: "22:00-07:30")
        // 14:00: the quiet hours begin at 22:00, before midnight.
        #expect(
            BarSnapshot().nextChange(after: Self.now, timeZone: Self.utc, quiet: quiet)
                == Self.now.addingTimeInterval(8 * 3600))
        // While they are on, they end at 07:30.
        let night = Self.now.addingTimeInterval(11 * 3600)
        let until = Self.now.addingTimeInterval(17.5 * 3600)
        let snapshot = BarSnapshot(quietHours: .init(until: until, when: "07:30"))
        #expect(snapshot.nextChange(after: night, timeZone: Self.utc, quiet: quiet) == until)
        let line = Self.line(snapshot)
        #expect(line.tooltip.contains("Quiet hours until 07:30"))
        #expect(line.cssClass == "quiet")
    }

    @Test func aReminderDueInQuietHoursIsNextWhenTheyEndAndAnUrgentOneAtItsTime() async throws {
        let quiet = try QuietHours(parsing: "22:00-07:30")
        let world = try World(settings: EngineSettings(quietHours: quiet))
        defer { world.cleanUp() }
        let late = Reminder(
            id: "late", schedule: .daily(at: TimeOfDay(hour: 23)!, zone: Self.utc),
            notice: Notice(title: "Tea", body: ""))
        await world.engine.apply(
            settings: EngineSettings(quietHours: quiet),
            plugins: [
                PluginSetup(plugin: ProbePlugin(reminders: [late]), enabled: true, configuration: NoConfiguration())
            ])
        // Monday 14:59: Tea is due at 23:00, inside the quiet hours, so it comes at 07:30.
        let next = try #require(await world.engine.barSnapshot().next)
        #expect(next.title == "Tea")
        #expect(next.due == Self.iso("2026-11-24T07:30:00Z"))
        #expect(next.when == "tomorrow 07:30")
        #expect(next.waiting == "quiet hours until 07:30")
        #expect(await world.engine.barSnapshot().quietHours == nil)
        let line = BarLine(await world.engine.barSnapshot(), source: .daemon, now: start, timeZone: Self.utc)
        #expect(line.tooltip.contains("Next at tomorrow 07:30: Tea (waiting: quiet hours until 07:30)"))

        // An urgent one is shown in quiet hours, at its time.
        let urgent = Reminder(
            id: "urgent", schedule: .daily(at: TimeOfDay(hour: 23, minute: 30)!, zone: Self.utc),
            notice: Notice(title: "Pills", body: "", urgency: .critical))
        await world.engine.apply(
            settings: EngineSettings(quietHours: quiet),
            plugins: [
                PluginSetup(
                    plugin: ProbePlugin(reminders: [late, urgent]), enabled: true, configuration: NoConfiguration())
            ])
        let first = try #require(await world.engine.barSnapshot().next)
        #expect(first.title == "Pills")
        #expect(first.due == Self.iso("2026-11-23T23:30:00Z"))
        #expect(first.waiting == nil)
    }

    @Test func aNoticeHeldForQuietHoursIsNextWhenTheyEnd() async throws {
        let quiet = try QuietHours(parsing: "22:00-07:30")
        let world = try World(settings: EngineSettings(quietHours: quiet))
        defer { world.cleanUp() }
        let late = Reminder(
            id: "late", schedule: .daily(at: TimeOfDay(hour: 23)!, zone: Self.utc),
            notice: Notice(title: "Tea", body: ""))
        await world.engine.apply(
            settings: EngineSettings(quietHours: quiet),
            plugins: [
                PluginSetup(plugin: ProbePlugin(reminders: [late]), enabled: true, configuration: NoConfiguration())
            ])
        // 23:00 comes: Tea is held until 07:30; its reminder is next due on Tuesday at 23:00.
        world.clock.advance(by: Self.iso("2026-11-23T23:00:01Z").timeIntervalSince(start))
        await world.engine.processDue()
        await world.engine.deliverPending()
        #expect(world.sink.shown.isEmpty)
        #expect(try await world.database.heldNotices().first?.heldUntil == Self.iso("2026-11-24T07:30:00Z"))
        let snapshot = await world.engine.barSnapshot()
        let next = try #require(snapshot.next)
        #expect(next.title == "Tea")
        #expect(next.due == Self.iso("2026-11-24T07:30:00Z"))
        #expect(next.when == "tomorrow 07:30")
        #expect(snapshot.quietHours == .init(until: Self.iso("2026-11-24T07:30:00Z"), when: "07:30"))
        let line = BarLine(snapshot, source: .daemon, now: world.clock.now, timeZone: Self.utc)
        #expect(line.tooltip.contains("Quiet hours until 07:30"))
        #expect(line.cssClass == "quiet")
    }

    @Test func theSnapshotAsksTheServerWhetherDoNotDisturbIsOn() async throws {
        let sink = DoNotDisturbSink()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-bar-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try HoorayDatabase(path: directory.path + "/hooray.sqlite")
        let engine = Engine(
            database: database, channels: DeliveryChannels([sink]), settings: EngineSettings(),
            clock: ManualClock(now: start),
            timeZone: Self.utc)
        #expect(await engine.barSnapshot().doNotDisturb == false)
        // Turned on at the server, with no change signal and nothing delivered since.
        sink.state = DoNotDisturb(isOn: true, source: "mako")
        #expect(await engine.barSnapshot().doNotDisturb == true)
        #expect(await engine.doNotDisturbState.isOn)
    }

    @Test func everyFollowerGetsTheSameSnapshotMadeOncePerChange() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let counter = BarCounter()
        await world.engine.apply(
            settings: EngineSettings(),
            plugins: [
                PluginSetup(
                    plugin: CountingBarPlugin(counter: counter), enabled: true, configuration: NoConfiguration())
            ])
        // The engine's clock is not the wall clock: no timer.
        let feed = StatusBarFeed(engine: world.engine, makeAlarm: { nil })
        let running = Task { await feed.run(logger: Logger(label: "test")) }
        var first = feed.follow().makeAsyncIterator()
        #expect(await first.next()?.bar?.items.first?.item.text == "1")
        // A second follower gets the snapshot made already.
        var second = feed.follow().makeAsyncIterator()
        #expect(await second.next()?.bar?.items.first?.item.text == "1")
        world.engine.changes.publish()
        #expect(await first.next()?.bar?.items.first?.item.text == "2")
        #expect(await second.next()?.bar?.items.first?.item.text == "2")
        #expect(counter.count == 2)
        running.cancel()
        // The feed stops: every follower's stream ends.
        #expect(await first.next() == nil)
        #expect(await second.next() == nil)
    }

    @Test func aFollowersConnectionEndsOnlyOnceItsFeedHasEnded() async throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        let feed = FeedBox()
        let server = pair[0]
        // On a thread of its own, as the server serves each connection: it blocks.
        let served = DispatchSemaphore(value: 0)
        Thread {
            ControlServer.stream({ feed.stream() }, to: server)
            served.signal()
        }.start()
        await feed.waitForListener()
        feed.send(ControlResponse(ok: true, bar: Self.snapshot()))
        // The bar goes away while its feed still has more to say.
        close(pair[1])
        await withCheckedContinuation { continuation in
            Thread {
                served.wait()
                continuation.resume()
            }.start()
        }
        // By then the feed has ended: no task is left to ring a descriptor that was closed.
        #expect(feed.isTerminated)
        close(pair[0])
    }

    @Test func theBarRequestAndAnswerTravel() throws {
        let request = try ControlCoding.decode(
            ControlRequest.self, from: Data(#"{"api_version":1,"method":"bar","follow":true}"#.utf8))
        #expect(request == .bar(follow: true))
        #expect(
            try ControlCoding.decode(ControlRequest.self, from: Data(#"{"api_version":1,"method":"bar"}"#.utf8))
                == .bar(follow: false))
        let response = ControlResponse(ok: true, bar: Self.snapshot())
        let decoded = try ControlCoding.decode(ControlResponse.self, from: try ControlCoding.encode(response))
        #expect(decoded.bar?.items.count == 3)
        #expect(decoded.bar == Self.snapshot())
    }

    @Test func aFollowerGetsEachChangedLineAndIsDroppedWhenItGoesAway() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-bar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("control.sock").path
        let server = try ControlServer(path: path)
        defer { server.shutdown() }
        let feed = FeedBox()
        server.start(follow: { request in
            guard case .bar(follow: true) = request else { return nil }
            return { feed.stream() }
        }) { _ in ControlResponse(ok: true, bar: BarSnapshot()) }

        let snapshots = [Self.snapshot(), Self.snapshot(), Self.snapshot(title: "Tea")]
        let seen = SeenLines()
        let reader = Task.detached {
            try ControlFollower.follow(.bar(follow: true), socketPath: path) { response in
                seen.add(response.bar?.next?.title ?? "")
                // Leaves after the second distinct line: the connection closes.
                return seen.count < 2
            }
        }
        await feed.waitForListener()
        feed.send(ControlResponse(ok: true, bar: snapshots[0]))
        await seen.waitFor(count: 1)
        // The identical second snapshot is not written again; the third is.
        feed.send(ControlResponse(ok: true, bar: snapshots[1]))
        try await Task.sleep(for: .milliseconds(100))
        feed.send(ControlResponse(ok: true, bar: snapshots[2]))
        let end = try await reader.value
        #expect(end == .closed(answers: 2))
        #expect(seen.all == ["Stretch", "Tea"])
        // The server noticed the follower leave and ended its stream.
        #expect(await feed.waitForTermination())
        // And it still answers others.
        #expect(try ControlClient.send(.bar(), socketPath: path)?.ok == true)
    }
}

/// The stream a test feeds to one follower.
final class FeedBox: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: AsyncStream<ControlResponse>.Continuation?
    private var terminated = false

    func stream() -> AsyncStream<ControlResponse> {
        let (stream, continuation) = AsyncStream.makeStream(of: ControlResponse.self)
        continuation.onTermination = { [weak self] _ in self?.lock.withLock { self?.terminated = true } }
        lock.withLock { self.continuation = continuation }
        return stream
    }

    func send(_ response: ControlResponse) {
        _ = lock.withLock { continuation }?.yield(response)
    }

    func waitForListener() async {
        for _ in 0..<500 where lock.withLock({ continuation == nil }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    var isTerminated: Bool { lock.withLock { terminated } }

    func waitForTermination() async -> Bool {
        for _ in 0..<500 {
            if lock.withLock({ terminated }) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}

/// The titles a follower read.
final class SeenLines: @unchecked Sendable {
    private let lock = NSLock()
    private var titles: [String] = []

    func add(_ title: String) { lock.withLock { titles.append(title) } }
    var count: Int { lock.withLock { titles.count } }
    var all: [String] { lock.withLock { titles } }

    func waitFor(count wanted: Int) async {
        for _ in 0..<500 where count < wanted {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// A sink whose do-not-disturb state a test sets, as a server without a change signal would keep it.
final class DoNotDisturbSink: DeliveryChannel, @unchecked Sendable {
    // @unchecked: `_state` is only touched under `lock`.
    private let lock = NSLock()
    private var _state = DoNotDisturb.off

    var state: DoNotDisturb {
        get { lock.withLock { _state } }
        set { lock.withLock { _state = newValue } }
    }

    var name: String { "dnd" }
    func start(onEvent: @escaping @Sendable (ChannelEvent) -> Void) {}
    func status() async -> ServerStatus { .unavailable(reason: "none in this test") }
    func deliver(_ notice: Notice, id: NoticeID, replacing: String?) async -> ChannelOutcome {
        .unavailable(reason: "none in this test")
    }
    func shutdown() async {}
    func doNotDisturb() async -> DoNotDisturb { state }
}

/// How many times a plugin was asked for its bar items.
final class BarCounter: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0

    var count: Int { lock.withLock { value } }

    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}

/// A plugin whose one bar item says how many times it was asked.
struct CountingBarPlugin: StatusBarPlugin {
    let counter: BarCounter

    var name: String { "counting" }
    var summary: String { "counts its bar items" }

    func activate(context: PluginContext, configuration: NoConfiguration) async throws {}

    func barItems(context: PluginContext, configuration: NoConfiguration) async throws -> [BarItem] {
        [BarItem(text: "\(counter.next())")]
    }
}
