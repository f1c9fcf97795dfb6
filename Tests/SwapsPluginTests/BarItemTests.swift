import Foundation
import HoorayCommandLine
import HoorayKit
import HoorayTesting
import Testing

@testable import SwapsPlugin

/// What the swaps plugin offers the status bar (`hooray bar`): its streak, once there is one.
@Suite struct SwapsBarItemTests {
    @Test func theStreakIsOfferedOnceThereIsOne() async throws {
        let world = try await PluginWorld(
            plugin: SwapsPlugin(), configuration: quietSwaps, now: time("2026-11-23 20:00"))
        #expect(await world.barSnapshot().items.isEmpty)
        try await world.run("log", "Tea", "--date", "yesterday")
        try await world.run("log", "Sparkling water instead of soda")
        let items = await world.barSnapshot().items.map(\.item)
        #expect(items == [BarItem(text: "", streak: BarStreak(days: 2, name: "swaps"))])
    }
}
