import Foundation
import HoorayCommandLine
import HoorayKit
import HoorayTesting
import Testing

@testable import SwapsPlugin

/// Calm by default (issue 28): Night Prep and Morning Focus start with the first swap or prep, or
/// when a time is written for them; `"off"` always wins; `hooray delete-my-data` makes it calm again.
@Suite struct SwapsCalmStartTests {
    static let monday = swapsTime("2026-06-15 12:00", in: TimeZone(identifier: "UTC")!)
    static let line =
        "Now scheduled: Morning Focus at 08:00 and Night Prep at 21:00, each day. To turn them off, set "
        + "morning_focus = \"off\" and night_prep = \"off\" under [plugins.swaps] in your hooray.toml."

    func world(_ configuration: SwapsConfiguration = SwapsConfiguration()) async throws -> PluginWorld<SwapsPlugin> {
        try await PluginWorld(plugin: SwapsPlugin(), configuration: configuration, now: Self.monday)
    }

    func section(_ json: String) throws -> SwapsConfiguration {
        try JSONDecoder().decode(SwapsConfiguration.self, from: Data(json.utf8))
    }

    func daily(_ world: PluginWorld<SwapsPlugin>) async throws -> [String] {
        try await world.reminders().filter { $0.nextDue != nil }.map(\.reminder.id).sorted()
    }

    @Test func aFreshInstallSchedulesNothingAndShowsNoReminderForDays() async throws {
        let world = try await world()
        #expect(try await daily(world).isEmpty)
        // Looking is not using: the history and an empty prep start nothing.
        try await world.run("history")
        try await world.run("prep")
        await world.advance(to: Self.monday.addingTimeInterval(3 * 86400))
        #expect(try await daily(world).isEmpty)
        #expect(
            await world.shown.filter { [SwapsPlugin.nightPrepTitle, SwapsPlugin.morningFocusTitle].contains($0.title) }
                .isEmpty)
    }

    @Test(arguments: [["log", "Tea instead of wine"], ["prep", "Fruit for dessert"]])
    func theFirstSwapOrPrepStartsBothAndSaysSoOnce(_ words: [String]) async throws {
        let world = try await world()
        let name = words[0] == "log" ? "text" : "items"
        let first = try await world.run(
            CommandInvocation(
                command: words[0], values: [name: [words[1]]],
                environment: CommandEnvironment(timeZoneIdentifier: "UTC")))
        #expect(first.text.hasSuffix("\n" + Self.line), "\(first.text)")
        #expect(try await daily(world) == ["morning-focus", "night-prep"])
        let second = try await world.run(
            CommandInvocation(
                command: "log", values: ["text": ["Walk after lunch"]],
                environment: CommandEnvironment(timeZoneIdentifier: "UTC")))
        #expect(!second.text.contains("Now scheduled"))
        // Tuesday 08:00 brings Morning Focus.
        await world.advance(to: Self.monday.addingTimeInterval(20 * 3600 + 60))
        #expect(await world.shown.contains { $0.title == SwapsPlugin.morningFocusTitle })
    }

    @Test func aTimeWrittenStartsThatOneAndOffWins() async throws {
        let world = try await world(try section(#"{"night_prep": "21:00", "morning_focus": "off"}"#))
        #expect(try await daily(world) == ["night-prep"])
        let reply = try await world.run(
            CommandInvocation(
                command: "log", values: ["text": ["Tea instead of wine"]],
                environment: CommandEnvironment(timeZoneIdentifier: "UTC")))
        #expect(!reply.text.contains("Now scheduled"), "\(reply.text)")
        #expect(try await daily(world) == ["night-prep"])
    }

    @Test func deleteMyDataMakesItCalmAgain() async throws {
        let world = try await world()
        try await world.run(
            CommandInvocation(
                command: "log", values: ["text": ["Tea instead of wine"]],
                environment: CommandEnvironment(timeZoneIdentifier: "UTC")))
        try await world.deleteUserData()
        #expect(try await daily(world).isEmpty)
    }
}
