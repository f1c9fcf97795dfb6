import Foundation
import HoorayKit
import HoorayTesting
import Testing

@testable import WinsPlugin

/// What the wins plugin puts on the status bar (`hooray bar`): today's count, back to 0 at midnight.
@Suite struct WinsBarItemTests {
    // Monday 2026-11-23, 21:00 UTC.
    static let evening = Date(timeIntervalSince1970: 1_795_467_600)

    @Test func todaysMomentsAreCountedAndTheCountStartsAgainAtMidnight() async throws {
        let world = try await PluginWorld(
            plugin: WinsPlugin(), configuration: WinsConfiguration(welcome: false), now: Self.evening)
        #expect(await world.barSnapshot().items.map(\.item.text) == ["🏆 0"])
        try await world.run("log", "Took a short walk")
        try await world.run("log", "Called a friend")
        let items = await world.barSnapshot().items
        #expect(items.map(\.item.text) == ["🏆 2"])
        #expect(items.map(\.item.tooltip) == ["2 wins today"])
        #expect(items.map(\.plugin) == ["wins"])
        await world.advance(by: .seconds(4 * 3600))
        #expect(await world.barSnapshot().items.map(\.item.text) == ["🏆 0"])
    }

    @Test func aZeroInvitesAndNeverBlames() {
        let tooltip = WinsPlugin.barItem(count: 0).tooltip
        #expect(tooltip.contains("counts"))
        #expect(WinsPlugin.barItem(count: 1).tooltip == "1 win today")
    }
}
