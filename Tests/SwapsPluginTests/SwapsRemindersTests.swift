import Foundation
import HoorayCalendar
import HoorayKit
import HoorayKitTesting
import HoorayTesting
import Testing

@testable import SwapsPlugin

/// An instant given as `yyyy-MM-dd HH:mm` in a time zone.
func swapsTime(_ text: String, in zone: TimeZone) -> Date {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = zone
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter.date(from: text)!
}

extension SwapsConfiguration {
    /// Night Prep and Morning Focus switched on, as they are once the user has used the plugin (or
    /// wrote their times in the configuration).
    static let switchedOn = SwapsConfiguration(nightPrepStart: .now, morningFocusStart: .now)
}

/// Night Prep and Morning Focus on Hooray's real engine with a manual clock (`PluginWorld`): when
/// they come, what they say, their holds, and their buttons.
@Suite struct SwapsRemindersTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    func world(
        _ configuration: SwapsConfiguration = .switchedOn, at start: String,
        catchUpWithin: Duration = .seconds(7200)
    ) async throws -> PluginWorld<SwapsPlugin> {
        try await PluginWorld(
            plugin: SwapsPlugin(), configuration: configuration, now: at(start), timeZone: Self.berlin,
            catchUpWithin: catchUpWithin)
    }

    func at(_ text: String) -> Date { swapsTime(text, in: Self.berlin) }

    /// The Night Prep and Morning Focus notices shown, as `HH:MM title` in Berlin, in order.
    func reminderLog(_ world: PluginWorld<SwapsPlugin>) async -> [String] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = Self.berlin
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return await world.shown.filter {
            [SwapsPlugin.nightPrepTitle, SwapsPlugin.morningFocusTitle].contains($0.title) && !$0.isUpdate
        }.map { "\(formatter.string(from: $0.shownAt)) \($0.title)" }
    }

    func shown(_ title: String, in world: PluginWorld<SwapsPlugin>) async -> [ShownNotice] {
        await world.shown.filter { $0.title == title && !$0.isUpdate }
    }

    /// The swaps saved, oldest first.
    func swaps(_ world: PluginWorld<SwapsPlugin>) async throws -> [Swap] {
        let store = try #require(world.storage as? any RecordStore)
        return try await RecordBook<Swap>(store: store).all().sorted { $0.loggedAt < $1.loggedAt }
    }

    static let night = SwapsPlugin.nightPrepTitle
    static let morning = SwapsPlugin.morningFocusTitle

    @Test func nightPrepAndMorningFocusComeAtTheirTimesEveryDayWithTheirButtons() async throws {
        let world = try await world(at: "2026-06-15 12:00")
        await world.advance(to: at("2026-06-17 12:00"))
        #expect(
            await reminderLog(world) == [
                "2026-06-15 21:00 \(Self.night)", "2026-06-16 08:00 \(Self.morning)",
                "2026-06-16 21:00 \(Self.night)", "2026-06-17 08:00 \(Self.morning)",
            ])
        let night = try #require(await shown(Self.night, in: world).first)
        #expect(night.notice.actions.map(\.label) == ["I did my swap", "Prep now", "I need help"])
        #expect(night.notice.payload?["day"]?.stringValue == "2026-06-15")
        let morning = try #require(await shown(Self.morning, in: world).first)
        #expect(morning.notice.actions.map(\.label) == ["Got it", "I need help"])
        #expect(morning.notice.payload?["day"]?.stringValue == "2026-06-16")
    }

    @Test func theTimesComeFromTheConfigurationAndOffCancelsEachOnItsOwn() async throws {
        let late = SwapsConfiguration(
            nightPrep: TimeOfDay(hour: 22, minute: 30)!, morningFocus: nil, nightPrepStart: .now)
        let world = try await world(late, at: "2026-06-15 12:00")
        #expect(try await world.reminders().map(\.reminder.id) == [SwapsPlugin.nightPrepReminder])
        await world.advance(to: at("2026-06-16 23:00"))
        #expect(
            await reminderLog(world) == ["2026-06-15 22:30 \(Self.night)", "2026-06-16 22:30 \(Self.night)"])

        // Both off on reload: nothing planned, nothing shown.
        try await world.reload(configuration: SwapsConfiguration(nightPrep: nil, morningFocus: nil))
        #expect(try await world.reminders().isEmpty)
        await world.advance(to: at("2026-06-18 23:00"))
        #expect(await reminderLog(world).count == 2)

        // Back on: both planned at their times again.
        try await world.reload(configuration: .switchedOn)
        let planned = try await world.reminders()
        #expect(planned.map(\.reminder.id) == [SwapsPlugin.morningFocusReminder, SwapsPlugin.nightPrepReminder])
        #expect(planned.map(\.nextDue) == [at("2026-06-19 08:00"), at("2026-06-19 21:00")])
    }

    @Test func morningFocusShowsLastNightsPrepOneALineThenTheDaysInspiration() async throws {
        let world = try await world(at: "2026-06-15 20:00")
        try await world.run("prep", "Oatmeal instead of a pastry", "Walk after lunch")
        await world.advance(to: at("2026-06-16 09:00"))
        let morning = try #require(await shown(Self.morning, in: world).last)
        let inspiration = try #require(
            SwapsPlugin().inspiration(on: LocalDate(parsing: "2026-06-16")!, configuration: SwapsConfiguration()))
        #expect(
            morning.body == "From last night:\n• Oatmeal instead of a pastry\n• Walk after lunch\n\n\(inspiration)")
    }

    @Test func withoutAPrepMorningFocusIsGentleAndWithoutInspirationItIsOneLine() async throws {
        let world = try await world(at: "2026-06-15 20:00")
        await world.advance(to: at("2026-06-16 09:00"))
        let morning = try #require(await shown(Self.morning, in: world).last)
        #expect(morning.body.hasPrefix(SwapsPlugin.noPrepLine + "\n\n"))
        for word in ["missed", "failed", "broke", "lazy", "should have", "forgot"] {
            #expect(!morning.body.lowercased().contains(word))
        }

        try await world.reload(
            configuration: SwapsConfiguration(inspiration: false, nightPrepStart: .now, morningFocusStart: .now))
        await world.advance(to: at("2026-06-17 09:00"))
        #expect(await shown(Self.morning, in: world).last?.body == SwapsPlugin.noPrepLine)
    }

    @Test func preppingTomorrowHoldsTonightsNightPrepSoNextTellsTheTruth() async throws {
        let world = try await world(at: "2026-06-15 19:00")
        // Today's swap saved and tomorrow prepped: tonight's question is answered.
        try await world.run("log", "Sparkling water instead of soda")
        try await world.run("prep", "Fruit for dessert")
        let nightPrep = try #require(
            try await world.reminders().first { $0.reminder.id == SwapsPlugin.nightPrepReminder })
        #expect(nightPrep.reminder.hold == ReminderHold(reason: "prepped tonight", until: at("2026-06-16 00:00")))
        #expect(nightPrep.reminder.notShownReason(at: at("2026-06-15 21:00")) == "prepped tonight")
        #expect(nightPrep.reminder.notShownReason(at: at("2026-06-16 21:00")) == nil)

        // Tonight it keeps quiet; tomorrow night it asks again.
        await world.advance(to: at("2026-06-16 22:00"))
        #expect(await reminderLog(world) == ["2026-06-16 08:00 \(Self.morning)", "2026-06-16 21:00 \(Self.night)"])

        // The next evening's prep holds that night's; a restart (activate) keeps the hold.
        await world.advance(to: at("2026-06-17 18:00"))
        try await world.run("prep", "Tea instead of wine")
        try await world.run("log", "Fruit for dessert")
        try await world.restart(after: .seconds(60))
        let held = try #require(
            try await world.reminders().first { $0.reminder.id == SwapsPlugin.nightPrepReminder })
        #expect(held.reminder.hold?.until == at("2026-06-18 00:00"))
        await world.advance(to: at("2026-06-18 22:00"))
        #expect(
            await reminderLog(world).suffix(3) == [
                "2026-06-17 08:00 \(Self.morning)", "2026-06-18 08:00 \(Self.morning)",
                "2026-06-18 21:00 \(Self.night)",
            ])
    }

    @Test func iDidMySwapSavesTheFirstItemOfThatDaysPrepOnceEvenPressedAfterMidnight() async throws {
        let world = try await world(at: "2026-06-15 20:00")
        try await world.run("prep", "Oatmeal instead of a pastry", "Walk after lunch")
        await world.advance(to: at("2026-06-16 21:00"))
        let night = try #require(await shown(Self.night, in: world).last)
        #expect(night.body.hasPrefix("Today's prep: Oatmeal instead of a pastry.\n"))

        // Pressed after midnight: it still counts for the 16th, the night it asked about.
        await world.advance(to: at("2026-06-17 00:30"))
        try await world.press(SwapsPlugin.didSwap.id, on: night)
        let saved = try await swaps(world)
        #expect(saved.map(\.text) == ["Oatmeal instead of a pastry"])
        #expect(saved.map(\.day) == [LocalDate(parsing: "2026-06-16")!])
        #expect(saved.map(\.fromPrep) == [true])

        // Pressed again: said so, and nothing more saved.
        let again = await #expect(throws: PluginWorldError.self) {
            try await world.press(SwapsPlugin.didSwap.id, on: night)
        }
        #expect(again?.message.contains("already saved: “Oatmeal instead of a pastry”") == true)
        #expect(try await swaps(world).count == 1)
    }

    @Test func iDidMySwapWithoutAPrepSavesAHealthySwapSoTheDayCounts() async throws {
        let world = try await world(at: "2026-06-15 20:00")
        await world.advance(to: at("2026-06-15 21:00"))
        let night = try #require(await shown(Self.night, in: world).last)
        #expect(night.body.contains("hooray swap \"…\""))
        try await world.press(SwapsPlugin.didSwap.id, on: night)
        let saved = try await swaps(world)
        #expect(saved.map(\.text) == ["A healthy swap"])
        #expect(saved.map(\.fromPrep) == [false])
        #expect(saved.map(\.day) == [LocalDate(parsing: "2026-06-15")!])
    }

    @Test func nightPrepAfterTheDaysSwapSaysItIsSavedAndHasNoIDidMySwap() async throws {
        let world = try await world(at: "2026-06-15 20:00")
        let store = try #require(world.storage as? any RecordStore)
        try await RecordBook<Swap>(store: store).insert(
            Swap(
                text: "Sparkling water instead of soda", day: LocalDate(parsing: "2026-06-15")!,
                loggedAt: at("2026-06-15 19:00")))
        await world.advance(to: at("2026-06-15 21:00"))
        let night = try #require(await shown(Self.night, in: world).last)
        #expect(night.body.hasPrefix("Today's swap is saved: “Sparkling water instead of soda”. 🌿\n"))
        #expect(night.actionIDs == [SwapsPlugin.prepNow.id, SwapsPlugin.needHelp.id])
    }

    @Test func prepNowSaysHowToPrepAndShowsTonightsItems() async throws {
        let world = try await world(at: "2026-06-15 20:00")
        await world.advance(to: at("2026-06-15 21:00"))
        let night = try #require(await shown(Self.night, in: world).last)
        try await world.press(SwapsPlugin.prepNow.id, on: night)
        let how = try #require(await world.shown.last)
        #expect(how.title == "Prep tomorrow's swap")
        #expect(how.body.contains("hooray swap prep \"Oatmeal instead of a pastry\""))
        #expect(!how.body.contains("•"))

        try await world.run("prep", "Tea instead of wine")
        try await world.press(SwapsPlugin.prepNow.id, on: night)
        #expect(await world.shown.last?.body.hasSuffix("\n• Tea instead of wine") == true)
    }

    @Test func iNeedHelpShowsTheGuidesNotice() async throws {
        let world = try await world(at: "2026-06-16 07:00")
        await world.advance(to: at("2026-06-16 08:00"))
        let morning = try #require(await shown(Self.morning, in: world).last)
        let harness = PluginTestHarness(pluginName: "swaps", now: at("2026-06-16 08:00"), timeZone: Self.berlin)
        let expected = try await SwapsPlugin().needHelpNotice(context: harness.context)
        try await world.press(SwapsPlugin.needHelp.id, on: morning)
        #expect(await world.shown.last?.notice == expected)
        // Got it asks for nothing more.
        let count = await world.shown.count
        try await world.press(SwapsPlugin.gotIt.id, on: morning)
        #expect(await world.shown.count == count)
    }

    @Test func lastNightsQuestionIsNotAskedTheNextMorningAfterASleep() async throws {
        let world = try await world(at: "2026-06-15 20:00", catchUpWithin: .seconds(24 * 3600))
        await world.suspend(until: at("2026-06-16 07:00"))
        #expect(await reminderLog(world).isEmpty)
        // Late on the same evening is still that evening's question.
        await world.advance(to: at("2026-06-16 20:00"))
        await world.suspend(until: at("2026-06-16 23:30"))
        #expect(await reminderLog(world) == ["2026-06-16 08:00 \(Self.morning)", "2026-06-16 23:30 \(Self.night)"])
    }

    @Test func preppedEarlyButNotSwappedYetTheEveningStillAsks() async throws {
        let world = try await world(at: "2026-06-15 12:00")
        try await world.run("prep", "Fruit for dessert")
        await world.advance(to: at("2026-06-15 21:30"))
        let night = try #require(await shown(Self.night, in: world).first)
        try await world.press(SwapsPlugin.didSwap.id, on: night)
        #expect(try await swaps(world).map(\.day) == [LocalDate(parsing: "2026-06-15")!])
    }

    @Test func anOldNightPrepsButtonDoesNotFillADayLongPast() async throws {
        let world = try await world(at: "2026-06-15 20:00")
        await world.advance(to: at("2026-06-15 21:30"))
        let night = try #require(await shown(Self.night, in: world).first)
        // Three days later, from the inbox: not counted for the 15th behind the user's back.
        await world.advance(to: at("2026-06-18 10:00"))
        let declined = await #expect(throws: PluginWorldError.self) {
            try await world.press(SwapsPlugin.didSwap.id, on: night)
        }
        #expect(declined?.message.contains("--date 2026-06-15") == true, "\(declined?.message ?? "")")
        #expect(try await swaps(world).isEmpty)
    }
}
