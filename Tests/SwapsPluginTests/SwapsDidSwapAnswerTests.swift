import Foundation
import HoorayCalendar
import HoorayKit
import HoorayTesting
import Testing

@testable import SwapsPlugin

/// **I did my swap**'s question on Hooray's real engine (`PluginWorld`): a Night Prep with no prep
/// for the day asks what the swap was, and the answer, checked as `hooray swap TEXT` checks its
/// text, is what is saved; with a prep, nothing is asked.
@Suite struct SwapsDidSwapAnswerTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    func at(_ text: String) -> Date { swapsTime(text, in: Self.berlin) }

    /// Night Prep shown at 21:00 on Monday 15 June 2026, with `prepped` prepped for it the night before.
    func nightPrep(prepped: String? = nil) async throws -> (PluginWorld<SwapsPlugin>, ShownNotice) {
        let world = try await PluginWorld(
            plugin: SwapsPlugin(), configuration: SwapsConfiguration(nightPrepStart: .now, morningFocusStart: .now),
            now: at("2026-06-14 20:00"),
            timeZone: Self.berlin)
        if let prepped { _ = try await world.run("prep", prepped) }
        await world.advance(to: at("2026-06-15 21:00"))
        let night = try #require(
            await world.shown.last { $0.title == SwapsPlugin.nightPrepTitle && !$0.isUpdate })
        return (world, night)
    }

    func swaps(_ world: PluginWorld<SwapsPlugin>) async throws -> [Swap] {
        let store = try #require(world.storage as? any RecordStore)
        return try await RecordBook<Swap>(store: store).all().sorted { $0.loggedAt < $1.loggedAt }
    }

    @Test func withoutAPrepTheButtonAsksWhatTheSwapWas() async throws {
        let (_, night) = try await nightPrep()
        let button = try #require(night.notice.actions.first)
        #expect(button.id == "did-swap")
        #expect(button.prompt == "What was your swap? (Enter saves “A healthy swap”)")
        // The other buttons ask nothing.
        #expect(night.notice.actions.dropFirst().allSatisfy { $0.prompt == nil })
    }

    @Test func theAnswerIsSavedInTheUsersWordsNotFromAPrep() async throws {
        let (world, night) = try await nightPrep()
        try await world.press("did-swap", on: night, answer: "  Tea instead of wine  ")
        let saved = try await swaps(world)
        #expect(saved.map(\.text) == ["Tea instead of wine"])
        #expect(saved.map(\.fromPrep) == [false])
        #expect(saved.map(\.day) == [LocalDate(parsing: "2026-06-15")!])
        // Once only, as without an answer.
        let again = await #expect(throws: PluginWorldError.self) {
            try await world.press("did-swap", on: night, answer: "Fruit for dessert")
        }
        #expect(again?.message.contains("already saved: “Tea instead of wine”") == true, "\(again?.message ?? "")")
        #expect(try await swaps(world).count == 1)
    }

    @Test func noAnswerSavesAHealthySwapAsAClickDoes() async throws {
        let (world, night) = try await nightPrep()
        try await world.press("did-swap", on: night)
        #expect(try await swaps(world).map(\.text) == ["A healthy swap"])
    }

    @Test(arguments: [
        ("   ", "The answer names no swap, so nothing was saved."),
        ("", "The answer names no swap, so nothing was saved."),
        (String(repeating: "a", count: 201), "The answer is 201 characters long and a swap takes at most 200"),
    ])
    func anEmptyOrALongAnswerSavesNothingAndSaysHowToPressAgain(answer: String, message: String) async throws {
        let (world, night) = try await nightPrep()
        let refused = await #expect(throws: PluginWorldError.self) {
            try await world.press("did-swap", on: night, answer: answer)
        }
        let said = refused?.message ?? ""
        #expect(said.contains(message), "\(said)")
        #expect(said.contains("hooray act \(night.id) did-swap"), "\(said)")
        #expect(try await swaps(world).isEmpty)
        // Refused, the button still works: the day's claim was not taken.
        try await world.press("did-swap", on: night, answer: String(repeating: "a", count: 200))
        #expect(try await swaps(world).map(\.text.count) == [200])
    }

    @Test(arguments: [
        ("Tea\u{1b}[D", "the answer holds a control character"),
        ("Tea\ninstead of wine", "the answer holds a control character"),
        ("Tea\u{9b}D", "the answer holds a control character"),
        (
            String(repeating: "a", count: 1001),
            "the answer is 1001 characters long, and an answer may have at most 1000"
        ),
    ])
    func theEngineRefusesAnAnswerWithAControlCharacterOrTooLongUnpressed(answer: String, message: String)
        async throws
    {
        let (world, night) = try await nightPrep()
        let refused = await #expect(throws: PluginWorldError.self) {
            try await world.press("did-swap", on: night, answer: answer)
        }
        let said = refused?.message ?? ""
        #expect(said.contains("nothing was pressed: \(message)"), "\(said)")
        #expect(try await swaps(world).isEmpty)
        // Nothing was pressed: the button still saves the day's swap.
        try await world.press("did-swap", on: night, answer: "Tea instead of wine")
        #expect(try await swaps(world).map(\.text) == ["Tea instead of wine"])
    }

    @Test func withAPrepNothingIsAskedAndAnAnswerIsRefusedUnpressed() async throws {
        let (world, night) = try await nightPrep(prepped: "Oatmeal instead of a pastry")
        #expect(night.notice.actions.allSatisfy { $0.prompt == nil })
        let refused = await #expect(throws: PluginWorldError.self) {
            try await world.press("did-swap", on: night, answer: "Tea instead of wine")
        }
        #expect(
            refused?.message.contains("“I did my swap” asks no question, so it takes no answer") == true,
            "\(refused?.message ?? "")")
        #expect(try await swaps(world).isEmpty)
        try await world.press("did-swap", on: night)
        let saved = try await swaps(world)
        #expect(saved.map(\.text) == ["Oatmeal instead of a pastry"])
        #expect(saved.map(\.fromPrep) == [true])
    }
}
