import Foundation
import HoorayKit

// PLACEHOLDER-RECOVERY: the challenges helper replaces this file.
extension RecoveryPlugin {
    /// `hooray challenge`, `hooray challenge done`, `hooray challenge skip`.
    func challengeCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        throw PluginCommandError("challenges are being built")
    }

    /// The morning challenge reminder's notice for a day; `nil` once the day's challenge is done or skipped.
    func challengeNotice(on day: LocalDate, context: PluginContext) async throws -> Notice? {
        nil
    }

    /// Records the day's challenge as done or skipped (the buttons and the commands).
    func recordChallenge(on day: LocalDate, outcome: ChallengeEntry.Outcome, context: PluginContext) async throws
        -> ChallengeEntry?
    {
        nil
    }
}
