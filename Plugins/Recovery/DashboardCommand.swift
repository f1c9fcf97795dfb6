import Foundation
import HoorayKit

// PLACEHOLDER-RECOVERY: the insights helper replaces this file.
extension RecoveryPlugin {
    /// `hooray recovery [--weeks N]`.
    func dashboardCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        throw PluginCommandError("the dashboard is being built")
    }
}
