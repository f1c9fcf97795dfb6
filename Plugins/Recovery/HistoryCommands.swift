import Foundation
import HoorayKit

extension RecoveryPlugin {
    /// `hooray recovery list`, `edit` and `delete`.
    func historyCommand(_ command: CommandInvocation, context: PluginContext, configuration: RecoveryConfiguration)
        async throws -> CommandReply
    {
        throw PluginCommandError("history is being built")
    }
}
