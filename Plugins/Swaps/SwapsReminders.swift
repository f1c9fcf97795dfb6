import Foundation
import HoorayKit

// PLACEHOLDER-SWAPS: the swaps-reminders helper owns this file.
extension SwapsPlugin {
    public func activate(context: PluginContext, configuration: SwapsConfiguration) async throws {}
}
