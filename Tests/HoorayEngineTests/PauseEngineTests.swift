import Foundation
import HoorayCLIHost
import HoorayCalendar
import HoorayEngine
import HoorayKit
import HoorayStorage
import HoorayTesting
import Testing

/// Pausing notifications in the engine, with a manual clock: what waits, what is still shown, and
/// when the pause ends.
@Suite struct PauseEngineTests {
    /// A one-off reminder due `seconds` after `start`.
    func once(_ title: String, at seconds: TimeInterval, urgency: Notice.Urgency = .normal) -> Reminder {
        Reminder(
            id: title.lowercased(), schedule: .once(at: start.addingTimeInterval(seconds)),
            notice: Notice(title: title, body: "Now", urgency: urgency))
    }

    func pass(_ engine: Engine) async {
        await engine.processDue()
        await engine.deliverPending()
    }

    @Test func aReminderWaitsWhilePausedAnUrgentOneDoesNotAndTheWaitEndsWithThePause() async throws {
        let world = try World()
        defer { world.cleanUp() }
        await world.activate(
            ProbePlugin(reminders: [once("Stretch", at: 60), once("Pills", at: 60, urgency: .critical)]))
        let until = try #require(try await world.engine.pause(until: start.addingTimeInterval(1800)))
        #expect(until == start.addingTimeInterval(1800))
        #expect(await world.engine.pausedUntilNow == until)

        world.clock.advance(by: 60)
        await pass(world.engine)
        #expect(world.sink.shown.map(\.notice.title) == ["Pills"])
        let held = try await world.database.heldNotices()
        #expect(held.map(\.heldBecause) == ["notifications paused until 15:29"])
        #expect(held.first?.heldUntil == until)
        let bar = await world.engine.barSnapshot()
        #expect(bar.paused?.until == until)
        #expect(bar.paused?.when == "15:29")

        // The pause ends: the one that waited is shown.
        world.clock.advance(by: 1800)
        await pass(world.engine)
        #expect(world.sink.shown.map(\.notice.title) == ["Pills", "Stretch"])
        #expect(await world.engine.pausedUntilNow == nil)
        #expect(await world.engine.barSnapshot().paused == nil)
    }

    @Test func thePauseOutlastsARestartAndEndingItLetsWhatWaitedGo() async throws {
        let world = try World()
        defer { world.cleanUp() }
        await world.activate(ProbePlugin(reminders: [once("Stretch", at: 60)]))
        try await world.engine.pause(until: start.addingTimeInterval(3600))
        world.clock.advance(by: 60)
        await pass(world.engine)
        #expect(world.sink.shown.isEmpty)

        let again = await world.restart(with: ProbePlugin(reminders: [once("Stretch", at: 60)]))
        #expect(await again.pausedUntilNow == start.addingTimeInterval(3600))
        await pass(again)
        #expect(world.sink.shown.isEmpty)
        #expect(try await again.pause(until: nil) == nil)
        await again.deliverPending()
        #expect(world.sink.shown.map(\.notice.title) == ["Stretch"])
    }

    @Test func aPauseOfMoreThanAWeekIsRefusedAndOneInThePastEndsThePause() async throws {
        let world = try World()
        defer { world.cleanUp() }
        await #expect(throws: PauseError.tooLong) {
            try await world.engine.pause(until: start.addingTimeInterval(8 * 86_400))
        }
        #expect(await world.engine.pausedUntilNow == nil)
        try await world.engine.pause(until: start.addingTimeInterval(600))
        #expect(try await world.engine.pause(until: start.addingTimeInterval(-1)) == nil)
        #expect(await world.engine.pausedUntilNow == nil)
        let refused = await world.engine.pauseAnswer(until: start.addingTimeInterval(30 * 86_400))
        #expect(!refused.ok && refused.invalidValue == "until")
    }

    @Test func aReminderDueInThePauseIsNextWhenItEndsOrWhenTheQuietHoursItEndsInEnd() async throws {
        let quiet = try QuietHours(parsing: "15:10-07:30")
        let world = try World(settings: EngineSettings(quietHours: quiet))
        defer { world.cleanUp() }
        let tea = Reminder(
            id: "tea", schedule: .daily(at: TimeOfDay(hour: 15, minute: 5)!, zone: utc),
            notice: Notice(title: "Tea", body: ""))
        await world.engine.apply(
            settings: EngineSettings(quietHours: quiet),
            plugins: [
                PluginSetup(plugin: ProbePlugin(reminders: [tea]), enabled: true, configuration: NoConfiguration())
            ])
        // Monday 14:59: paused until 15:08, before the quiet hours: Tea comes at 15:08.
        try await world.engine.pause(until: start.addingTimeInterval(9 * 60))
        var next = try #require(await world.engine.barSnapshot().next)
        #expect(next.due == start.addingTimeInterval(9 * 60))
        #expect(next.waiting == "notifications paused until 15:08")
        // Paused until 15:20, inside the quiet hours: Tea waits for them to end too.
        try await world.engine.pause(until: start.addingTimeInterval(21 * 60))
        next = try #require(await world.engine.barSnapshot().next)
        #expect(next.due == (try Date("2026-11-24T07:30:00Z", strategy: .iso8601)))
        #expect(next.waiting == "notifications paused until 15:20")
        let line = BarLine(await world.engine.barSnapshot(), source: .daemon, now: start, timeZone: utc)
        #expect(line.text.contains("⏸"))
        #expect(line.tooltip.contains("Notifications paused until 15:20 (hooray pause off)"))
        #expect(line.cssClass == "quiet")
    }

    @Test(arguments: [
        ("2026-11-23T14:00:00Z", "2026-11-24T08:00:00Z"),
        // In the night, tomorrow is this morning.
        ("2026-11-24T02:30:00Z", "2026-11-24T08:00:00Z"),
        ("2026-11-24T05:00:00Z", "2026-11-25T08:00:00Z"),
        ("2026-11-23T23:59:00Z", "2026-11-24T08:00:00Z"),
    ])
    func untilTomorrowEndsAtEightInTheMorning(now: String, end: String) throws {
        let parse = { (text: String) in try #require(try? Date(text, strategy: .iso8601)) }
        #expect(PauseLength.untilTomorrow.end(from: try parse(now), in: utc) == (try parse(end)))
    }

    @Test func untilTomorrowFollowsTheUsersZone() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        // 22:00 in Paris is 21:00 UTC; tomorrow 08:00 in Paris is 07:00 UTC.
        let now = try Date("2026-11-23T21:00:00Z", strategy: .iso8601)
        #expect(
            PauseLength.untilTomorrow.end(from: now, in: paris)
                == (try Date("2026-11-24T07:00:00Z", strategy: .iso8601)))
        #expect(PauseLength.seconds(3600).end(from: now, in: paris) == now.addingTimeInterval(3600))
    }
}
