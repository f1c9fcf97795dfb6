import Foundation
import HoorayKit

// PLACEHOLDER-SWAPS: the swaps-core helper owns this file.
extension SwapsPlugin {
    public func run(_ command: CommandInvocation, context: PluginContext, configuration: SwapsConfiguration)
        async throws -> CommandReply
    {
        switch command.command {
        case "prep":
            return try await prepCommand(command, context: context, configuration: configuration)
        case "need-help":
            return try await needHelpCommand(command, context: context)
        default:
            throw PluginCommandError("the swaps plugin is being built")
        }
    }
}
