import Foundation
import HoorayCalendar
import HoorayKit
import HoorayTesting
import RecoveryPlugin
import Testing

/// The daily check-in reminder on Hooray's real engine with a manual clock (`PluginWorld`): held
/// for the rest of a day already checked in, off with `checkin = false`, and at `checkin_at`.
/// Tests of the reminder itself switch it on (`checkin = true`), as a user who used the plugin has it.
@Suite struct CheckInReminderTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// Tuesday 24 November 2026, 09:00 in Berlin.
    static let tuesdayMorning = Date(timeIntervalSince1970: 1_795_507_200)
    static let hour: TimeInterval = 3600

    func world(_ configuration: RecoveryConfiguration) async throws -> PluginWorld<RecoveryPlugin> {
        try await PluginWorld(
            plugin: RecoveryPlugin(), configuration: configuration, now: Self.tuesdayMorning, timeZone: Self.berlin)
    }

    /// The check-in reminders shown so far.
    func checkIns(_ world: PluginWorld<RecoveryPlugin>) async -> [ShownNotice] {
        await world.shown.filter { $0.notice.title == "How are you feeling today?" && !$0.isUpdate }
    }

    @Test func aCheckInInTheMorningHoldsTonightsReminderAndTomorrowsComesAt20() async throws {
        let world = try await world(RecoveryConfiguration(checkInStart: .now, challengeAt: nil))
        try await world.run("checkin", "good")
        // Tuesday 20:00 passes without a reminder,
        await world.advance(to: Self.tuesdayMorning.addingTimeInterval(12 * Self.hour))
        #expect(await checkIns(world).isEmpty)
        // and Wednesday's comes at 20:00, once.
        await world.advance(to: Self.tuesdayMorning.addingTimeInterval(24 * Self.hour + 12 * Self.hour))
        let shown = await checkIns(world)
        #expect(shown.map(\.shownAt) == [Self.tuesdayMorning.addingTimeInterval(24 * Self.hour + 11 * Self.hour)])
        #expect(shown.first?.actionIDs == ["mood-low", "mood-okay", "mood-good", "mood-strong"])
    }

    @Test func withoutACheckInTonightsReminderComesAt20() async throws {
        let world = try await world(RecoveryConfiguration(checkInStart: .now, challengeAt: nil))
        await world.advance(to: Self.tuesdayMorning.addingTimeInterval(12 * Self.hour))
        #expect(await checkIns(world).map(\.shownAt) == [Self.tuesdayMorning.addingTimeInterval(11 * Self.hour)])
    }

    @Test func checkinFalseMeansNoReminder() async throws {
        let off = try await world(RecoveryConfiguration(checkIn: false, challengeAt: nil))
        #expect(try await off.reminders().allSatisfy { $0.reminder.id != "checkin" })
        await off.advance(to: Self.tuesdayMorning.addingTimeInterval(3 * 24 * Self.hour))
        #expect(await checkIns(off).isEmpty)
        // Turned off once it was planned, it goes too.
        let on = try await world(RecoveryConfiguration(checkInStart: .now, challengeAt: nil))
        try await on.reload(configuration: RecoveryConfiguration(checkIn: false, challengeAt: nil))
        await on.advance(to: Self.tuesdayMorning.addingTimeInterval(3 * 24 * Self.hour))
        #expect(await checkIns(on).isEmpty)
    }

    @Test func checkinAtMovesTheReminder() async throws {
        let world = try await world(
            RecoveryConfiguration(checkInStart: .now, checkInAt: TimeOfDay(hour: 21, minute: 30)!, challengeAt: nil))
        let at2130 = Self.tuesdayMorning.addingTimeInterval(12.5 * Self.hour)
        #expect(try await world.reminders().first { $0.reminder.id == "checkin" }?.nextDue == at2130)
        await world.advance(to: at2130.addingTimeInterval(-60))
        #expect(await checkIns(world).isEmpty)
        await world.advance(to: at2130.addingTimeInterval(60))
        #expect(await checkIns(world).map(\.shownAt) == [at2130])
    }
}
