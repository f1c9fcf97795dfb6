import Foundation
import HoorayDelivery
import HoorayEngine
import HoorayKit
import HoorayStorage
import HoorayTesting
import Testing

/// Calm delivery in the engine with a manual clock: do-not-disturb, digests of bursts (at once and
/// trickling in), and the daily pruning of delivery records.
@Suite struct CalmDeliveryEngineTests {
    /// Activates `plugin` with `settings` (the world's `activate` uses the defaults).
    func activate(_ plugin: ProbePlugin, in world: World, settings: EngineSettings) async {
        await world.engine.apply(
            settings: settings, plugins: [PluginSetup(plugin: plugin, enabled: true, configuration: NoConfiguration())])
    }

    /// A one-off reminder due `seconds` after `start`.
    func once(_ title: String, at seconds: TimeInterval, urgency: Notice.Urgency = .normal) -> Reminder {
        Reminder(
            id: title.lowercased().replacingOccurrences(of: " ", with: "-"),
            schedule: .once(at: start.addingTimeInterval(seconds)),
            notice: Notice(title: title, body: "Now", urgency: urgency))
    }

    /// Runs a pass of the scheduler and of delivery, as hoorayd does when the clock reaches its deadline.
    func pass(_ world: World) async {
        await world.engine.processDue()
        await world.engine.deliverPending()
    }

    @Test func whileDoNotDisturbIsOnAnUrgentNoticeIsShownAndANormalOneWaitsUntilItEnds() async throws {
        let world = try World()
        defer { world.cleanUp() }
        world.sink.doNotDisturbState = DoNotDisturb(isOn: true, source: "dunst")
        await world.activate(
            ProbePlugin(reminders: [once("Stretch", at: 60), once("Pills", at: 60, urgency: .critical)]))
        world.clock.advance(by: 60)
        await pass(world)
        #expect(world.sink.shown.map(\.notice.title) == ["Pills"])
        let held = try await world.database.heldNotices()
        #expect(held.map(\.notice.title) == ["Stretch"])
        #expect(held.first?.heldBecause == "do not disturb is on (dunst); shown when it ends")
        #expect(await world.engine.doNotDisturbState == DoNotDisturb(isOn: true, source: "dunst"))

        // Still on a minute later: nothing more is shown.
        world.clock.advance(by: 60)
        await pass(world)
        #expect(world.sink.shown.count == 1)

        world.sink.doNotDisturbState = DoNotDisturb(isOn: false, source: "dunst")
        await world.engine.deliverPending()
        #expect(world.sink.shown.map(\.notice.title) == ["Pills", "Stretch"])
        #expect(try await world.database.heldNotices().isEmpty)
        #expect(try await world.database.pendingNotices().isEmpty)
    }

    @Test(arguments: [(1, 1, false), (1, 2, true), (5, 5, false), (5, 6, true), (3, 4, true)])
    func aBurstAboveTheLimitIsOneDigest(limit: Int, count: Int, digest: Bool) async throws {
        let world = try World()
        defer { world.cleanUp() }
        let titles = (1...count).map { "Reminder \($0)" }
        await activate(
            ProbePlugin(reminders: titles.map { once($0, at: 60) }), in: world,
            settings: EngineSettings(burstLimit: limit))
        world.clock.advance(by: 60)
        await pass(world)
        let shown = world.sink.shown.map(\.notice.title)
        if digest {
            #expect(shown == ["\(count) reminders: " + titles.joined(separator: ", ")], "limit \(limit)")
            #expect(world.sink.shown.first?.notice.body == "These came due together.")
        } else {
            #expect(shown == titles, "limit \(limit)")
        }
        #expect(try await world.database.pendingNotices().isEmpty)
    }

    @Test func deliveryRecordsArePrunedAtStartAndAgainADayLaterNotAtEveryPass() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let day: TimeInterval = 86400
        /// A notice shown `age` before the clock's start.
        func shown(_ title: String, age: TimeInterval) async throws -> NoticeID {
            let then = start.addingTimeInterval(-age)
            let id = try await world.database.insertNotice(Notice(title: title, body: ""), plugin: "probe", now: then)
            let sending = try #require(try await world.database.markSending(id))
            #expect(
                try await world.database.markDelivered(
                    id, handles: ["recorder": "1"], now: then, revision: sending.revision))
            return id
        }
        let old = try await shown("Old", age: 91 * day)
        let recent = try await shown("Recent", age: 89.5 * day)
        let kept = try await world.database.insertNotice(
            Notice(title: "Waiting", body: ""), plugin: "probe", now: start.addingTimeInterval(-200 * day))

        // At start: what is older than 90 days goes; what waits to be shown never does.
        await world.engine.processDue()
        #expect(try await world.database.notice(old) == nil)
        #expect(try await world.database.notice(recent) != nil)
        #expect(try await world.database.notice(kept) != nil)

        // Half a day later "Recent" is older than 90 days, but pruning runs once a day.
        world.clock.advance(by: day / 2)
        await world.engine.processDue()
        #expect(try await world.database.notice(recent) != nil)

        world.clock.set(to: start.addingTimeInterval(day))
        await world.engine.processDue()
        #expect(try await world.database.notice(recent) == nil)
        #expect(try await world.database.notice(kept) != nil)
    }
}
