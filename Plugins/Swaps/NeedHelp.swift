import Foundation
import HoorayKit

// PLACEHOLDER-SWAPS: the swaps-guide helper owns this file.
extension SwapsPlugin {
    /// `hooray swap help [--no-animation]`.
    func needHelpCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        throw PluginCommandError("help is being built")
    }

    /// The notification the **I need help** button shows: the user's top three swaps.
    func needHelpNotice(context: PluginContext) async throws -> Notice {
        Notice(title: "I need help")
    }
}
