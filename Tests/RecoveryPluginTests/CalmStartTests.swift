import Foundation
import HoorayCommandLine
import HoorayKit
import HoorayTesting
import RecoveryPlugin
import Testing

/// Calm by default (issue 28): the daily check-in and challenge start with the user's first use of
/// the plugin or when the configuration switches them on; an explicit off always wins; a user whose
/// data shows they used the plugin keeps them; after `hooray delete-my-data` the plugin is calm again.
@Suite struct CalmStartTests {
    /// Tuesday 24 November 2026, 09:00 UTC.
    static let tuesdayMorning = Date(timeIntervalSince1970: 1_795_510_800)
    static let day: TimeInterval = 86400
    static let line =
        "Now scheduled: a check-in at 20:00 and today's challenge at 09:00, each day. To turn them off, set "
        + "checkin = false and challenge_at = \"off\" under [plugins.recovery] in your hooray.toml."

    func world(_ configuration: RecoveryConfiguration = RecoveryConfiguration()) async throws
        -> PluginWorld<RecoveryPlugin>
    {
        try await PluginWorld(plugin: RecoveryPlugin(), configuration: configuration, now: Self.tuesdayMorning)
    }

    /// The section as written in the configuration.
    func section(_ json: String) throws -> RecoveryConfiguration {
        try JSONDecoder().decode(RecoveryConfiguration.self, from: Data(json.utf8))
    }

    func daily(_ world: PluginWorld<RecoveryPlugin>) async throws -> [String] {
        try await world.reminders().filter { $0.nextDue != nil }.map(\.reminder.id).filter {
            ["checkin", "challenge"].contains($0)
        }.sorted()
    }

    @Test func aFreshInstallSchedulesNothingAndShowsNothingForDays() async throws {
        let world = try await world()
        #expect(try await daily(world).isEmpty)
        await world.advance(to: Self.tuesdayMorning.addingTimeInterval(3 * Self.day))
        #expect(await world.shown.isEmpty)
    }

    @Test func theFirstRejectionStartsBothAndSaysSoOnce() async throws {
        let world = try await world()
        let first = try await world.run("log", "--type", "job", "--impact", "4")
        #expect(first.text.hasSuffix("\n" + Self.line), "\(first.text)")
        #expect(try await daily(world) == ["challenge", "checkin"])
        let second = try await world.run("log", "--type", "social", "--impact", "3")
        #expect(!second.text.contains("Now scheduled"))
        await world.advance(to: Self.tuesdayMorning.addingTimeInterval(12 * 3600))
        #expect(await world.shown.contains { $0.title == "How are you feeling today?" })
    }

    @Test func aFirstUseWithJSONSaysItOnStandardErrorAndLeavesTheJSONAsItIs() async throws {
        let world = try await world()
        let first = try await world.run("log", "--type", "job", "--impact", "4", "--json")
        #expect(first.warnings.contains(Self.line), "\(first.warnings)")
        #expect(!first.text.contains("Now scheduled"))
        #expect(first.json?["type"] == .string("job"))
        #expect(try await daily(world) == ["challenge", "checkin"])
        let second = try await world.run("log", "--type", "social", "--impact", "3", "--json")
        #expect(!second.warnings.contains { $0.contains("Now scheduled") })
    }

    @Test(arguments: [["checkin", "good"], ["challenge-done"], ["challenge-skip"]])
    func aCheckInOrAChallengeIsAFirstUseToo(_ words: [String]) async throws {
        let world = try await world()
        let reply = try await world.run(
            CommandInvocation(
                command: words[0], values: words.count > 1 ? ["mood": [words[1]]] : [:],
                environment: CommandEnvironment(timeZoneIdentifier: "UTC")))
        #expect(reply.text.hasSuffix(Self.line), "\(reply.text)")
        #expect(try await daily(world) == ["challenge", "checkin"])
    }

    @Test func switchedOnInTheConfigurationItStartsBeforeAnyUse() async throws {
        let world = try await world(try section(#"{"checkin": true}"#))
        #expect(try await daily(world) == ["checkin"])
        let timed = try await self.world(try section(#"{"challenge_at": "08:30"}"#))
        #expect(try await daily(timed) == ["challenge"])
        // The first use then names only what it started.
        let reply = try await world.run("log", "--type", "job", "--impact", "4")
        #expect(
            reply.text.hasSuffix(
                "Now scheduled: today's challenge at 09:00, each day. To turn it off, set challenge_at = \"off\" "
                    + "under [plugins.recovery] in your hooray.toml."), "\(reply.text)")
    }

    @Test func anExplicitOffWinsBeforeAndAfterUse() async throws {
        let world = try await world(try section(#"{"checkin": false, "challenge_at": "off"}"#))
        let reply = try await world.run("log", "--type", "job", "--impact", "4")
        #expect(!reply.text.contains("Now scheduled"))
        #expect(try await daily(world).isEmpty)
        let used = try await self.world()
        try await used.run("log", "--type", "job", "--impact", "4")
        try await used.reload(configuration: try section(#"{"checkin": false}"#))
        #expect(try await daily(used) == ["challenge"])
    }

    @Test func aUserWhoseDataShowsTheyUsedThePluginKeepsTheReminders() async throws {
        let world = try await world()
        try await world.run("checkin", "good")
        // Data from before the note existed: a record, and no note.
        try await world.storage.removeValue(forKey: RecurringNotices.startedKey)
        try await world.restart()
        #expect(try await daily(world) == ["challenge", "checkin"])
        let reply = try await world.run("log", "--type", "job", "--impact", "4")
        #expect(!reply.text.contains("Now scheduled"))
    }

    @Test func deleteMyDataMakesItCalmAgain() async throws {
        let world = try await world()
        try await world.run("log", "--type", "job", "--impact", "4")
        try await world.deleteUserData()
        #expect(try await daily(world).isEmpty)
        let reply = try await world.run("log", "--type", "job", "--impact", "4")
        #expect(reply.text.hasSuffix(Self.line))
    }
}
