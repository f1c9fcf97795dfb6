import Foundation
import HoorayCalendar
import HoorayKit
import HoorayKitTesting
import Testing

@testable import RecoveryPlugin

/// The check-in's note typed into the notification after its mood (**Add a note**).
@Suite struct CheckInNoteTests {
    static let day = "2026-06-15"

    func pressedMood(_ harness: PluginTestHarness) async throws -> (RecoveryPlugin, Notice) {
        let plugin = RecoveryPlugin()
        var notice = RecoveryPlugin.checkInNotice
        notice.payload = .object(["day": .string(Self.day)])
        try await harness.press("mood-good", on: notice, from: nil, of: plugin)
        let thanked = try #require(await harness.notices.notices.last)
        return (plugin, thanked)
    }

    func checkIn(_ harness: PluginTestHarness) async throws -> CheckIn? {
        try await harness.context.records(of: CheckIn.self).record(Self.day)
    }

    @Test func aMoodButtonThanksAndOffersANoteTypedAsAReply() async throws {
        let harness = try await ChallengeTests.harness(at: ChallengeTests.at("2026-06-15 20:00"))
        let (plugin, thanked) = try await pressedMood(harness)
        #expect(thanked.title == "Checked in: 🙂 Good")
        #expect(thanked.actions.map(\.id) == ["checkin-note"])
        #expect(thanked.actions.first?.answerOnly == true)
        #expect(thanked.actions.first?.prompt == "A note for today's check-in")

        try await harness.press("checkin-note", on: thanked, from: nil, of: plugin, answer: "  Went for a walk ")
        let kept = try #require(try await checkIn(harness))
        #expect(kept.note == "Went for a walk")
        #expect(kept.mood == .good)
    }

    @Test func aReplyWithoutWordsSavesNothingAndSaysHowToAddOne() async throws {
        let harness = try await ChallengeTests.harness(at: ChallengeTests.at("2026-06-15 20:00"))
        let (plugin, thanked) = try await pressedMood(harness)
        await #expect(throws: ActionDeclined.self) {
            try await harness.press("checkin-note", on: thanked, from: nil, of: plugin, answer: "   ")
        }
        #expect(try await checkIn(harness)?.note == nil)
    }

    @Test func aNoteForADayWithoutACheckInIsRefused() async throws {
        let harness = try await ChallengeTests.harness(at: ChallengeTests.at("2026-06-15 20:00"))
        let earlier = try #require(LocalDate(parsing: "2026-06-10"))
        let notice = RecoveryPlugin.checkedInNotice(.low, on: earlier, replaced: false)
        let error = await #expect(throws: ActionDeclined.self) {
            try await harness.press("checkin-note", on: notice, from: nil, of: RecoveryPlugin(), answer: "A note")
        }
        #expect(error?.reason.contains("That day has no check-in") == true)
    }
}
