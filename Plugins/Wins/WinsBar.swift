import Foundation
import HoorayCommandLine
import HoorayKit

extension WinsPlugin {
    /// Today's count of logged moments, for `hooray bar`: `🏆 2`, and in the tooltip `2 wins today`.
    public func barItems(context: PluginContext, configuration: WinsConfiguration) async throws -> [BarItem] {
        let today = try await MomentBook(context: context).moments.records(on: context.today, in: context.timeZone)
        return [Self.barItem(count: today.count)]
    }

    /// The item for `count` moments logged today; a zero invites, never blames.
    static func barItem(count: Int) -> BarItem {
        let tooltip =
            switch count {
            case 0: "No wins logged today yet; the smallest one counts (hooray win)"
            case 1: "1 win today"
            default: "\(count) wins today"
            }
        return BarItem(text: "🏆 \(count)", tooltip: tooltip)
    }
}
