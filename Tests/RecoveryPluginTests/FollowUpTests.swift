import Foundation
import HoorayCommandLine
import HoorayKit
import HoorayKitTesting
import HoorayTesting
import RecoveryPlugin
import Testing

/// The 24-hour follow-up on Hooray's real engine with a manual clock (`PluginWorld`): once, on time,
/// after sleep and restarts; one for several due within the hour, in whichever order they were
/// logged; none once the user is okay or the threshold is raised; and put back when a process
/// stopped between saving a rejection and planning its follow-up.
@Suite struct FollowUpTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// Tuesday 24 November 2026, 10:00 in Berlin.
    static let tuesday = Date(timeIntervalSince1970: 1_795_510_800)
    /// Only follow-ups: no check-in or challenge reminder.
    static let quiet = RecoveryConfiguration(checkIn: false, challengeAt: nil)

    func world(_ configuration: RecoveryConfiguration = quiet) async throws -> PluginWorld<RecoveryPlugin> {
        try await PluginWorld(
            plugin: RecoveryPlugin(), configuration: configuration, now: Self.tuesday, timeZone: Self.berlin)
    }

    func followUps(_ world: PluginWorld<RecoveryPlugin>) async -> [ShownNotice] {
        await world.shown.filter { $0.notice.title == "How are you doing?" && !$0.isUpdate }
    }

    @Test func aHardRejectionGetsOneFollowUpADayLaterEvenAcrossSleepAndRestarts() async throws {
        let world = try await world()
        try await world.run("log", "--type", "job", "--impact", "8")
        await world.advance(by: .seconds(23 * 3600))
        #expect(await followUps(world).isEmpty)
        // Asleep over the hour it was due: shown once on waking, however late.
        await world.suspend(for: .seconds(3 * 3600))
        let shown = await followUps(world)
        #expect(shown.count == 1)
        #expect(shown.first?.notice.body == "Yesterday was tough. You're stronger than you know.")
        try await world.restart(after: .seconds(60))
        try await world.restart(after: .seconds(3 * 86400))
        #expect(await followUps(world).count == 1)
    }

    @Test(arguments: [["5m", "0m"], ["0m", "5m"], ["0m", "50m"]])
    func hardRejectionsDueWithinTheHourGetOneFollowUpThatSaysHowMany(agos: [String]) async throws {
        let world = try await world()
        for ago in agos {
            try await world.run("log", "--type", "dating", "--impact", "9", "--ago", ago)
        }
        #expect(try await world.reminders().filter { $0.reminder.id.hasPrefix("follow-up-") }.count == 1)
        await world.advance(by: .seconds(25 * 3600))
        let shown = await followUps(world)
        #expect(shown.count == 1)
        #expect(shown.first?.notice.body == "Yesterday was tough: 2 hard moments. You're stronger than you know.")
    }

    @Test func rejectionsMoreThanAnHourApartGetAFollowUpEach() async throws {
        let world = try await world()
        try await world.run("log", "--type", "dating", "--impact", "9", "--ago", "2h")
        try await world.run("log", "--type", "dating", "--impact", "9")
        await world.advance(by: .seconds(25 * 3600))
        #expect(await followUps(world).count == 2)
    }

    @Test func okayFirstOrARaisedThresholdMeansNoFollowUp() async throws {
        let world = try await world()
        try await world.run("log", "--type", "job", "--impact", "8")
        try await world.run("okay")
        try await world.run("log", "--type", "social", "--impact", "7", "--ago", "3h")
        // Follow-ups turned off: the one already planned is not shown either.
        try await world.reload(
            configuration: RecoveryConfiguration(followUpMinImpact: 11, checkIn: false, challengeAt: nil))
        await world.advance(by: .seconds(2 * 86400))
        #expect(await followUps(world).isEmpty)
    }

    @Test func aRejectionSavedWithoutItsFollowUpGetsItBackOnTheNextStartOnce() async throws {
        // As if hoorayd was killed after saving the rejection and before planning its follow-up.
        let harness = PluginTestHarness(pluginName: "recovery", now: Self.tuesday, configuration: Self.quiet)
        let group = UUID()
        let book = harness.context.records(of: Rejection.self)
        for (id, hoursAgo) in [(group, 30.0), (UUID(), 29.5)] {
            try await book.insert(
                Rejection(
                    id: id, type: .job, impact: 8, happenedAt: Self.tuesday.addingTimeInterval(-hoursAgo * 3600),
                    loggedAt: Self.tuesday.addingTimeInterval(-hoursAgo * 3600), timeZone: "Europe/Berlin",
                    followUpGroup: group, followUpDue: Self.tuesday.addingTimeInterval(-6 * 3600)))
        }
        try await RecoveryPlugin().activate(context: harness.context, configuration: Self.quiet)
        try await RecoveryPlugin().activate(context: harness.context, configuration: Self.quiet)
        let planned = try await harness.context.reminders.list().filter { $0.reminder.id.hasPrefix("follow-up-") }
        #expect(planned.map(\.reminder.id) == ["follow-up-" + group.uuidString.lowercased()])
        // Its time is past: it comes at once.
        let due = try #require(planned.first?.nextDue)
        #expect(due > Self.tuesday && due <= Self.tuesday.addingTimeInterval(2))
    }

    /// What `activate` plans for an unrecovered impact-8 rejection whose reminder is not known (as
    /// after `hooray import`, which carries records and no reminders), its follow-up due `dueIn` from
    /// now and shown by the follow-up due then when `shown`.
    func plannedOnActivate(dueIn: TimeInterval, shown: Bool) async throws -> [ScheduledReminder] {
        let harness = PluginTestHarness(pluginName: "recovery", now: Self.tuesday, configuration: Self.quiet)
        let id = UUID()
        let due = Self.tuesday.addingTimeInterval(dueIn)
        try await harness.context.records(of: Rejection.self).insert(
            Rejection(
                id: id, type: .dating, impact: 8, happenedAt: due.addingTimeInterval(-86400),
                loggedAt: due.addingTimeInterval(-86400), timeZone: "Europe/Berlin", followUpGroup: id,
                followUpDue: due, followUpShown: shown ? due : nil))
        try await RecoveryPlugin().activate(context: harness.context, configuration: Self.quiet)
        return try await harness.context.reminders.list().filter { $0.reminder.id.hasPrefix("follow-up-") }
    }

    @Test func aFollowUpShownWeeksAgoIsNotPlannedAgainAfterAnImport() async throws {
        // Shown three weeks ago; the export carried the rejection and not its reminder.
        #expect(try await plannedOnActivate(dueIn: -21 * 86400, shown: true).isEmpty)
    }

    @Test func aFollowUpNeverShownIsPlannedAtOnceAndOneStillToComeIsPutBack() async throws {
        // Never shown (exported before it was due, or a record older than the field): at once.
        let lost = try await plannedOnActivate(dueIn: -21 * 86400, shown: false)
        #expect(lost.count == 1)
        let due = try #require(lost.first?.nextDue)
        #expect(due > Self.tuesday && due <= Self.tuesday.addingTimeInterval(2))
        // Not yet due when it was exported: it comes at its time.
        let coming = try await plannedOnActivate(dueIn: 5 * 3600, shown: false)
        #expect(coming.map(\.nextDue) == [Self.tuesday.addingTimeInterval(5 * 3600)])
    }

    /// Logs rejections through the plugin's own `log` on HoorayKitTesting's fakes, `--ago` each of
    /// `agos`, and returns what was saved.
    func logged(impact: Int, agos: [String]) async throws -> (PluginTestHarness, [Rejection]) {
        let harness = PluginTestHarness(pluginName: "recovery", now: Self.tuesday, configuration: Self.quiet)
        for ago in agos {
            _ = try await RecoveryPlugin().run(
                CommandInvocation(
                    command: "log", values: ["type": ["dating"], "impact": [String(impact)], "ago": [ago]],
                    json: false, environment: CommandEnvironment(timeZoneIdentifier: "Europe/Berlin")),
                context: harness.context, configuration: Self.quiet)
        }
        return (harness, try await harness.context.records(of: Rejection.self).all())
    }

    @Test func followUpsLoggedInAChainEachComeWithinTheHourOfTheirOwnTime() async throws {
        let agos = ["0m", "50m", "100m"]
        let (harness, rejections) = try await logged(impact: 9, agos: agos)
        #expect(Set(rejections.compactMap(\.followUpGroup)).count == 2)
        let planned = try await harness.context.reminders.list().filter { $0.reminder.id.hasPrefix("follow-up-") }
        #expect(planned.count == 2)
        for rejection in rejections {
            let own = rejection.happenedAt.addingTimeInterval(86400)
            let due = try #require(rejection.followUpDue)
            #expect(abs(due.timeIntervalSince(own)) < 3600, "happened \(rejection.happenedAt): due \(due)")
        }
        // As the user meets them: two follow-ups a day later, one naming two.
        let world = try await world()
        for ago in agos {
            try await world.run("log", "--type", "dating", "--impact", "9", "--ago", ago)
        }
        await world.advance(by: .seconds(25 * 3600))
        #expect(
            await followUps(world).map(\.notice.body).sorted() == [
                "Yesterday was tough. You're stronger than you know.",
                "Yesterday was tough: 2 hard moments. You're stronger than you know.",
            ])
    }

    @Test func aHardRejectionFromLongerAgoThanTheFollowUpSaysItGetsNone() async throws {
        let world = try await world()
        let old = try await world.run("log", "--type", "job", "--impact", "8", "--ago", "2d")
        #expect(old.text.contains("No follow-up: that was more than a day ago."), "\(old.text)")
        let mild = try await world.run("log", "--type", "job", "--impact", "3", "--ago", "2d")
        #expect(!mild.text.contains("follow-up"), "\(mild.text)")
        let recent = try await world.run("log", "--type", "job", "--impact", "8", "--ago", "2h")
        #expect(recent.text.contains("I'll check on you tomorrow at 08:00"), "\(recent.text)")
        // Exactly `follow_up_after` ago: its follow-up is due now, so it comes at once.
        for ago in ["24h", "1d"] {
            let world = try await self.world()
            let due = try await world.run("log", "--type", "job", "--impact", "8", "--ago", ago)
            #expect(due.text.contains("I'll check on you today at 10:00."), "\(due.text)")
            #expect(!due.text.contains("No follow-up"), "\(due.text)")
            await world.advance(by: .seconds(60))
            #expect(
                await followUps(world).map(\.notice.body) == ["Yesterday was tough. You're stronger than you know."])
        }
        let help = RecoveryPlugin().commands.first { $0.name == "log" }?.discussion ?? ""
        #expect(help.contains("at least follow_up_min_impact (7 by default)"))
    }
}
