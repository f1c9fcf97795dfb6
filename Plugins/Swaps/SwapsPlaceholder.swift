import Foundation
import HoorayKit

// PLACEHOLDER-SWAPS: the swaps helpers replace this file (activate, reminderDue, actionInvoked, run).
extension SwapsPlugin {
    public func activate(context: PluginContext, configuration: SwapsConfiguration) async throws {}

    public func run(_ command: CommandInvocation, context: PluginContext, configuration: SwapsConfiguration)
        async throws -> CommandReply
    {
        throw PluginCommandError("the swaps plugin is being built")
    }
}
