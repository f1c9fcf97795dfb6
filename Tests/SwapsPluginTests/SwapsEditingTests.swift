import Foundation
import HoorayKit
import HoorayTesting
import Testing

@testable import SwapsPlugin

/// `hooray swap list`, `edit`, `delete` and `swap prep remove` on the real engine with a manual clock.
@Suite struct SwapsEditingTests {
    func world(at start: String = "2026-11-23 21:00") async throws -> PluginWorld<SwapsPlugin> {
        try await PluginWorld(plugin: SwapsPlugin(), configuration: quietSwaps, now: time(start))
    }

    func streak(_ world: PluginWorld<SwapsPlugin>) async throws -> Int? {
        guard case .number(let days) = try await world.run("history", "--json").json?["currentStreak"] else {
            return nil
        }
        return Int(days)
    }

    func count(_ world: PluginWorld<SwapsPlugin>) async throws -> Int? {
        guard case .array(let swaps) = try await world.run("list", "--json").json else { return nil }
        return swaps.count
    }

    func ids(_ world: PluginWorld<SwapsPlugin>) async throws -> [String] {
        try await world.run("list", "--ids").text.split(separator: "\n").map(String.init)
    }

    @Test("Item 1: a swap saved by mistake is deleted and no longer counts toward the streak")
    func deletingASwapTakesItOutOfTheStreak() async throws {
        let world = try await world()
        try await world.run("log", "Tea", "instead", "of", "wine", "--date", "yesterday")
        try await world.run("log", "list")
        #expect(try await streak(world) == 2)
        let list = try await world.run("list")
        let junk = try #require(try await ids(world).first)
        #expect(list.text.contains("\(junk)  today      list"))

        let deleted = try await world.run("delete", junk)
        #expect(deleted.text.contains("Deleted the swap “list” [\(junk)]"))
        #expect(deleted.text.contains("Swap streak: 1 day."))
        #expect(try await streak(world) == 1)
        #expect(try await count(world) == 1)
    }

    @Test("Item 1: editing a swap changes its words or its day, and the streak follows")
    func editingASwapChangesWordsAndDay() async throws {
        let world = try await world()
        try await world.run("log", "delete", "Tea", "instead", "of", "wine")
        let id = try #require(try await ids(world).first)
        let edited = try await world.run("edit", id, "Tea instead of wine", "--json")
        #expect(edited.json?["text"] == .string("Tea instead of wine"))
        #expect(edited.json?["day"] == .string("2026-11-23"))
        #expect(try await streak(world) == 1)

        let moved = try await world.run("edit", String(id.prefix(4)), "--date", "2026-11-20")
        #expect(moved.text.contains("(Fri 20 Nov)"))
        #expect(try await streak(world) == 0)
        let refused = await #expect(throws: PluginCommandError.self) { try await world.run("edit", id) }
        #expect(refused?.message.contains("nothing to change") == true)
    }

    @Test("Item 1: words given to delete that are no id are refused with the way to log them")
    func wordsThatAreNoIDSayHowToLogThem() async throws {
        let world = try await world()
        let refused = await #expect(throws: PluginCommandError.self) {
            try await world.run("delete", "Tea instead of wine")
        }
        #expect(refused?.message.contains("\"Tea instead of wine\" is not a swap's id") == true)
        #expect(refused?.message.contains("hooray swap -- delete \"Tea instead of wine\"") == true)
        #expect(try await count(world) == 0)
    }

    @Test("Item 1: an item of tonight's prep is removed by its number or its words")
    func aPrepItemIsRemovedByNumberOrWords() async throws {
        let world = try await world()
        try await world.run("prep", "Oatmeal instead of a pastry", "remov", "Walk after lunch")
        let shown = try await world.run("prep")
        #expect(shown.text.contains("  2. remov"))

        let removed = try await world.run("prep-remove", "2")
        #expect(removed.text.hasPrefix("Removed “remov” from your prep for tomorrow"))
        #expect(
            try await world.run("prep", "--json").json?["items"]
                == .array([.string("Oatmeal instead of a pastry"), .string("Walk after lunch")]))
        try await world.run("prep-remove", "walk after lunch")
        let refused = await #expect(throws: PluginCommandError.self) { try await world.run("prep-remove", "5") }
        #expect(refused?.message.contains("give its number (1)") == true)
        let last = try await world.run("prep-remove", "1", "--json")
        #expect(last.json?["items"] == .array([]))
        #expect(try await world.run("prep").text.contains("No prep for tomorrow"))
    }
}
