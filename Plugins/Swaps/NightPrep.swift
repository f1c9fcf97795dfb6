import Foundation
import HoorayKit

// PLACEHOLDER-SWAPS: the swaps-reminders helper owns this file.
extension SwapsPlugin {
    /// `hooray swap prep "…"…`.
    func prepCommand(_ command: CommandInvocation, context: PluginContext, configuration: SwapsConfiguration)
        async throws -> CommandReply
    {
        throw PluginCommandError("prep is being built")
    }
}
