import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit

extension SwapsPlugin {
    /// The swap streak for `hooray bar`, when there is one; the host shows it when it is the best.
    public func barItems(context: PluginContext, configuration: SwapsConfiguration) async throws -> [BarItem] {
        let today = context.today
        let days = DaySet(try await context.records(of: Swap.self).all().map(\.day).filter { $0 <= today })
        return Self.barItems(streak: SwapStreak.history(days: days).streak(today: today).days)
    }

    /// No item without a streak: the bar does not count what is not there.
    static func barItems(streak: Int) -> [BarItem] {
        guard streak > 0 else { return [] }
        return [BarItem(text: "", streak: BarStreak(days: streak, name: "swaps"))]
    }
}
