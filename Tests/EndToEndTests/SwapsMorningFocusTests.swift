import Foundation
import HooraySystemTesting
import Testing

/// Issue 29, item 13: a Morning Focus after a Night Prep whose **I did my swap** was pressed lists
/// every item of last night's prep. The real `hoorayd` under libfaketime, a real notification server
/// and real clicks.
@Suite(.timeLimit(.minutes(3)))
struct SwapsMorningFocusTests {
    @Test(
        "Item 13: after I did my swap was pressed, Morning Focus lists both of last night's prep items",
        arguments: [true, false])
    func morningFocusListsEveryItemAfterIDidMySwap(pressFirst: Bool) async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(SwapsRemindersTests.config)
            let helpers = SwapsRemindersTests()

            // Sunday night: two swaps prepped for Monday.
            let sunday = try await fixture.hooray(
                arguments: ["swap", "prep", "Oatmeal instead of a pastry", "Walk after lunch"],
                fakeTime: "2026-06-14 22:00:00")
            #expect(sunday.status == .exited(0), "\(sunday.standardError)")

            // Monday's Night Prep names Monday's prep; Tuesday is prepped with two swaps, and I did
            // my swap is clicked (before or after the prep).
            var daemon = try await fixture.startDaemon(fakeTime: "2026-06-15 20:59:50")
            // (This morning's Morning Focus, missed before hoorayd started, is told about first.)
            let night = try #require(
                await pollUntil(timeout: .seconds(20)) { () -> RecordedNotification? in
                    try? server.notifications().last { $0.summary == "Prep tonight: what's your swap for tomorrow?" }
                })
            #expect(night.body.hasPrefix("Today's prep: Oatmeal instead of a pastry.\n"))
            func prepTuesday() async throws {
                let prep = try await fixture.hooray("swap", "prep", "Tea instead of wine", "Stairs, not the lift")
                #expect(prep.status == .exited(0), "\(prep.standardError)")
                #expect(prep.standardOutput.contains("1. Tea instead of wine\n  2. Stairs, not the lift"))
            }
            if !pressFirst { try await prepTuesday() }
            try await server.invokeAction(id: night.id, key: "did-swap")
            let saved = await pollUntil(timeout: .seconds(15)) { () -> [SwapsRemindersTests.StoredSwap]? in
                let swaps = try? await helpers.storedSwaps(fixture)
                return swaps?.isEmpty == false ? swaps : nil
            }
            #expect(saved?.map(\.text) == ["Oatmeal instead of a pastry"])
            if pressFirst { try await prepTuesday() }
            let shown = try await fixture.hooray("swap", "prep")
            #expect(
                shown.standardOutput.contains("1. Tea instead of wine\n  2. Stairs, not the lift"),
                "\(shown.standardOutput)")
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-06-15 21:00:00"))
            #expect(await daemon.stop() == .exited(0))

            // Tuesday morning: both of last night's items.
            daemon = try await fixture.startDaemon(fakeTime: "2026-06-16 07:59:57")
            let morning = try #require(
                await pollUntil(timeout: .seconds(20)) { () -> RecordedNotification? in
                    try? server.notifications().last { $0.summary == "Morning Focus" }
                })
            #expect(
                morning.body.hasPrefix("From last night:\n• Tea instead of wine\n• Stairs, not the lift\n"),
                "\(morning.body)")
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
