import Foundation
import HooraySystemTesting
import Testing

/// `hooray swap` end to end: the real binaries, libfaketime clocks, a real notification server.
@Suite(.timeLimit(.minutes(5)))
struct SwapsCoreTests {
    /// What `hooray swap --json` says it did.
    struct LoggedSwap: Decodable {
        let day: String
        let streak: Int
        let addedDay: Bool
        let milestone: Int?
        let style: String
    }

    /// Words a swap's reply never says, however the streak went.
    static let shameWords = ["missed", "broke", "lost", "failed", "again", "lazy", "should have", "reset"]

    func swap(_ fixture: HoorayFixture, _ arguments: [String], at time: String?) async throws -> LoggedSwap {
        let output = try await fixture.hooray(arguments: ["swap"] + arguments + ["--json"], fakeTime: time)
        #expect(output.status == .exited(0), "\(arguments): \(output.standardError)")
        return try JSONDecoder().decode(LoggedSwap.self, from: Data(output.standardOutput.utf8))
    }

    func bigCelebrations(_ server: TestNotificationServer) throws -> [String] {
        try server.notifications().map(\.summary).filter { $0.contains("swap streak!") }
    }

    /// Runs `body` on an evening with hoorayd running since `time`, and stops hoorayd afterwards, as
    /// when the computer is used in the evening and shut down at night.
    func evening(
        _ fixture: HoorayFixture, from time: String, _ body: (ChildProcess) async throws -> Void
    ) async throws {
        let daemon = try await fixture.startDaemon(fakeTime: time)
        try await body(daemon)
        #expect(await fixture.waitUntilSettled(daemon))
        #expect(await daemon.stop() == .exited(0))
    }

    @Test func eightDaysWithOneSkippedStreakCelebrateThreeOnceStartAtOneWithoutShameAndRepair() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            // Every evening hoorayd runs, and `hooray swap` goes through it.
            try await evening(fixture, from: "2026-11-23 20:59:00") { _ async throws in
                #expect(
                    try await swap(fixture, ["Sparkling water instead of soda"], at: "2026-11-23 21:00:00").streak == 1)
            }
            try await evening(fixture, from: "2026-11-24 20:59:00") { _ async throws in
                #expect(try await swap(fixture, ["Fruit for dessert"], at: "2026-11-24 21:00:00").streak == 2)
                // A second swap the same day is kept, and adds no day.
                let second = try await swap(fixture, ["Walk after lunch"], at: "2026-11-24 21:30:00")
                #expect(second.streak == 2)
                #expect(!second.addedDay)
            }
            #expect(try bigCelebrations(server).isEmpty)

            // Day 3: 3 in a row is the first milestone, celebrated big once.
            try await evening(fixture, from: "2026-11-25 20:59:00") { _ async throws in
                let third = try await swap(fixture, ["Tea instead of wine"], at: "2026-11-25 21:00:05")
                #expect(third.streak == 3)
                #expect(third.milestone == 3)
                let celebrated = await pollUntil(timeout: .seconds(10)) { () -> [String]? in
                    let found = (try? bigCelebrations(server)) ?? []
                    return found.isEmpty ? nil : found
                }
                #expect(celebrated == ["🎉 3-day swap streak!"])
            }
            // hoorayd restarts the same evening; another swap does not celebrate 3 a second time.
            try await evening(fixture, from: "2026-11-25 21:10:00") { _ async throws in
                let fourth = try await swap(fixture, ["Berries instead of candy"], at: "2026-11-25 21:10:05")
                #expect(fourth.streak == 3)
                #expect(fourth.milestone == nil)
            }
            #expect(try bigCelebrations(server) == ["🎉 3-day swap streak!"])

            // Day 4 goes by without a swap (hoorayd runs; Night Prep asks, nobody answers).
            try await evening(fixture, from: "2026-11-26 20:59:00") { _ async throws in }

            // Day 5 starts at 1, and the words carry no guilt.
            try await evening(fixture, from: "2026-11-27 20:59:00") { _ async throws in
                let fresh = try await fixture.hooray(
                    "swap", "Oatmeal instead of a pastry", fakeTime: "2026-11-27 21:00:00")
                #expect(fresh.status == .exited(0), "\(fresh.standardError)")
                #expect(
                    fresh.standardOutput.contains("Oatmeal instead of a pastry · 1 day — "), "\(fresh.standardOutput)")
                for word in Self.shameWords {
                    #expect(!fresh.standardOutput.lowercased().contains(word), "\(word) in \(fresh.standardOutput)")
                }
                // The user remembers a swap yesterday: the gap is filled and the streak is 5.
                let repaired = try await swap(
                    fixture, ["Salad instead of fries", "--date", "yesterday"], at: "2026-11-27 21:05:00")
                #expect(repaired.day == "2026-11-26")
                #expect(repaired.streak == 5)
                #expect(repaired.milestone == nil)
                let history = try await fixture.hooray("swap", "history", "--json", fakeTime: "2026-11-27 21:06:00")
                struct History: Decodable {
                    let currentStreak: Int
                    let longestStreak: Int
                }
                let streaks = try JSONDecoder().decode(History.self, from: Data(history.standardOutput.utf8))
                #expect(streaks.currentStreak == 5)
                #expect(streaks.longestStreak == 5)
            }

            // Days 6 to 8 go on from there: 7 is the next milestone, and 3 was celebrated once.
            try await evening(fixture, from: "2026-11-28 20:59:00") { _ async throws in
                #expect(try await swap(fixture, ["Nuts instead of cookies"], at: "2026-11-28 21:00:00").streak == 6)
            }
            try await evening(fixture, from: "2026-11-29 20:59:00") { _ async throws in
                #expect(try await swap(fixture, ["Water first"], at: "2026-11-29 21:00:00").milestone == 7)
                let celebrated = await pollUntil(timeout: .seconds(10)) { () -> [String]? in
                    let found = (try? bigCelebrations(server)) ?? []
                    return found.count < 2 ? nil : found
                }
                #expect(celebrated == ["🎉 3-day swap streak!", "🎉 7-day swap streak!"])
            }
            try await evening(fixture, from: "2026-11-30 20:59:00") { _ async throws in
                #expect(try await swap(fixture, ["Herbal tea"], at: "2026-11-30 21:00:00").streak == 8)
            }
            #expect(try bigCelebrations(server) == ["🎉 3-day swap streak!", "🎉 7-day swap streak!"])
        }
    }

    @Test func aBadSwapsSectionOnReloadKeepsTheLastGoodOneRunning() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig("[plugins.swaps]\ncelebrations = \"off\"\nmilestones = [1]\n")
            let daemon = try await fixture.startDaemon()

            try fixture.writeConfig("[plugins.swaps]\ncelebrations = \"playfull\"\nmilestones = [7, 3]\n")
            daemon.send(SIGHUP)
            #expect(
                await daemon.waitForOutput(
                    containing: "still running on the last good one", in: .standardError, timeout: .seconds(15)))
            #expect(daemon.isRunning)
            #expect(daemon.standardError.contains("did you mean \"playful\"?"))
            #expect(daemon.standardError.contains("milestones must be positive numbers of days, ascending"))

            // hoorayd still celebrates as the last good section says: quietly, with 1 a milestone.
            let logged = try await swap(fixture, ["Fruit"], at: nil)
            #expect(logged.style == "off")
            #expect(logged.milestone == 1)
            let output = try await fixture.hooray("swap", "Sparkling water instead of soda")
            #expect(output.status == .exited(0), "\(output.standardError)")
            #expect(output.standardOutput.contains("✅ Swap saved."), "\(output.standardOutput)")
            await daemon.stop()
        }
    }
}
