import Foundation
import HoorayCommandLine
import HoorayKit
import HoorayTesting
import Testing

@testable import SwapsPlugin

/// `hooray swap prep`: which day a prep is for, what it keeps and refuses, and what it prints.
@Suite struct SwapsRemindersPrepTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    func world(at start: String, _ configuration: SwapsConfiguration = .switchedOn) async throws
        -> PluginWorld<SwapsPlugin>
    {
        let world = try await PluginWorld(
            plugin: SwapsPlugin(), configuration: configuration, now: swapsTime(start, in: Self.berlin),
            timeZone: Self.berlin)
        // A returning user: the first-run screen and the day's inspiration are behind them, so the
        // replies here are the prep's alone.
        try await world.run("tutorial")
        try await world.run("inspire")
        return world
    }

    func preps(_ world: PluginWorld<SwapsPlugin>) async throws -> [Prep] {
        let store = try #require(world.storage as? any RecordStore)
        return try await RecordBook<Prep>(store: store).all().sorted { $0.day < $1.day }
    }

    /// What `hooray swap prep --json` prints.
    struct Printed: Decodable, Equatable {
        let day: String
        let items: [String]
        let at: Date?
        let replaced: Bool
    }

    @Test(arguments: [
        ("2026-06-15 21:30", "2026-06-16"), ("2026-06-15 12:00", "2026-06-16"), ("2026-06-16 00:40", "2026-06-16"),
        ("2026-06-16 04:59", "2026-06-16"), ("2026-06-16 05:00", "2026-06-17"),
    ])
    func aPrepIsForTheNextDayAndAfterMidnightBeforeFiveForTheDayJustBegun(now: String, day: String) async throws {
        let world = try await world(at: now)
        let reply = try await world.run("prep", "Fruit for dessert", "--json")
        let printed = try #require(reply.json).decode(Printed.self)
        #expect(
            printed
                == Printed(day: day, items: ["Fruit for dessert"], at: swapsTime(now, in: Self.berlin), replaced: false)
        )
        #expect(try await preps(world).map(\.day.description) == [day])
    }

    @Test func aPrepKeepsUpToThreeTrimmedItemsAndSaysWhenMorningFocusShowsThem() async throws {
        let world = try await world(at: "2026-06-15 21:30")
        let reply = try await world.run(
            "prep", "  Oatmeal instead of a pastry ", "Walk after\nlunch", "Tea instead of wine")
        #expect(
            reply.text.hasSuffix(
                """
                🌙 Prepped for tomorrow, Tue 16 Jun:
                  1. Oatmeal instead of a pastry
                  2. Walk after lunch
                  3. Tea instead of wine
                Morning Focus shows them at 08:00. Sleep well.
                """))
        #expect(
            try await preps(world).map(\.items) == [
                ["Oatmeal instead of a pastry", "Walk after lunch", "Tea instead of wine"]
            ])
    }

    @Test func aSecondPrepTheSameNightReplacesTheFirstAndSaysSo() async throws {
        let world = try await world(at: "2026-06-15 21:30")
        try await world.run("prep", "Oatmeal instead of a pastry", "Walk after lunch")
        let reply = try await world.run("prep", "Fruit for dessert")
        #expect(reply.text.contains("This replaces the prep you made earlier for that day."))
        #expect(reply.json?["replaced"] == .bool(true))
        #expect(try await preps(world).map(\.items) == [["Fruit for dessert"]])
    }

    static let badPreps: [([String], String)] = [
        (
            ["One", "Two", "Three", "Four"],
            "a night's prep keeps up to 3 swaps, and 4 were given; pick the 3 that matter most"
        ),
        (["Fruit for dessert", "   "], "item 2 of your prep is empty; give each swap in quotes"),
        ([String(repeating: "a", count: 201)], "item 1 of your prep is 201 characters long; keep each to 200 or fewer"),
    ]

    @Test(arguments: badPreps)
    func tooManyAnEmptyOrALongItemIsAUsageErrorWithTheFixAndNothingIsSaved(items: [String], message: String)
        async throws
    {
        let world = try await world(at: "2026-06-15 21:30")
        try await world.run("prep", "Keep me")
        let error = await #expect(throws: PluginCommandError.self) {
            try await world.run(
                CommandInvocation(
                    command: "prep", values: ["items": items], environment: .init(timeZoneIdentifier: "Europe/Berlin")))
        }
        #expect(error?.invalidOption == "<items>")
        #expect(error?.message.hasPrefix(message) == true)
        #expect(try await preps(world).map(\.items) == [["Keep me"]])
    }

    @Test func twoHundredCharactersAreFine() async throws {
        let world = try await world(at: "2026-06-15 21:30")
        try await world.run("prep", String(repeating: "a", count: 200))
        #expect(try await preps(world).first?.items.first?.count == 200)
    }

    @Test func withoutItemsItShowsTonightsPrepAndThisMorningsFromLastNight() async throws {
        let world = try await world(at: "2026-06-15 21:30")
        let none = try await world.run("prep")
        #expect(
            none.text.hasSuffix(
                """
                No prep for tomorrow, Tue 16 Jun yet, and that's okay.
                When you're ready: hooray swap prep "Oatmeal instead of a pastry" (up to three, each in quotes).
                """))
        #expect(
            none.json
                == .object([
                    "day": .string("2026-06-16"), "items": .array([]), "at": .null, "replaced": .bool(false),
                    "fromLastNight": .array([]),
                ]))

        try await world.run("prep", "Oatmeal instead of a pastry")
        await world.advance(to: swapsTime("2026-06-16 20:00", in: Self.berlin))
        try await world.run("prep", "Tea instead of wine")
        let both = try await world.run("prep")
        #expect(
            both.text.hasSuffix(
                """
                ☀️ From last night, for today:
                  • Oatmeal instead of a pastry

                🌙 Your prep for tomorrow, Wed 17 Jun:
                  1. Tea instead of wine
                A new `hooray swap prep "…"` replaces it; `hooray swap prep remove N` takes item N out.
                """))
        #expect(both.json?["items"] == .array([.string("Tea instead of wine")]))
        // The JSON has this morning's too, as Today in the window shows it.
        #expect(both.json?["fromLastNight"] == .array([.string("Oatmeal instead of a pastry")]))
    }

    @Test func withMorningFocusOffThePrepSaysWhereToFindIt() async throws {
        let world = try await world(at: "2026-06-15 21:30", SwapsConfiguration(morningFocus: nil, nightPrepStart: .now))
        let reply = try await world.run("prep", "Fruit for dessert")
        #expect(reply.text.hasSuffix("\nMorning Focus is off; `hooray swap prep` shows it."))
    }
}
