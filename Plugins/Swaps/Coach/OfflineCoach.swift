import Foundation
import HoorayCommandLine
import HoorayMessages
import HoorayText

/// The built-in swap coach: the seed's `MockLLM` made useful, for when no AI service is set up.
///
/// It reads what the words suggest (``CoachIntent``), answers with a short, kind line for it from
/// `Config/pools/coach-replies.txt` that names one of the user's own swaps, and offers the
/// 90-second breathing guide for a craving or stress. Answers vary with the conversation but are
/// the same for the same words at the same turn, so they can be tested.
public enum OfflineCoach {
    /// An answer, and what goes with it.
    public struct Answer: Sendable, Hashable {
        /// The words.
        public var text: String
        /// What the user's words suggested.
        public var intent: CoachIntent
        /// The swap it names.
        public var swap: String
    }

    /// Answers the user's words.
    ///
    /// - Parameters:
    ///   - said: The user's words.
    ///   - context: What the coach knows: their swaps, above all.
    ///   - turn: How many turns the conversation had before this one; it varies the answer.
    /// - Returns: The answer.
    public static func answer(to said: String, context: CoachContext, turn: Int) -> Answer {
        let intent = CoachIntent.detect(in: said)
        let own = context.ownSwaps
        let swap = own.isEmpty ? NeedHelpCopy.exampleSwap : own[turn % min(own.count, 3)]
        let pool = MessagePools.coachReplies[intent.rawValue] ?? MessagePools.coachReplies["general"] ?? []
        let seed = said.unicodeScalars.reduce(turn) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF }
        let line =
            pool.isEmpty ? "I'm here with you. One small step is enough, such as {swap}." : pool[seed % pool.count]
        return Answer(text: line.replacingOccurrences(of: "{swap}", with: swap), intent: intent, swap: swap)
    }

    /// Whether an answer to these words offers the breathing guide: for a craving or stress.
    public static func offersBreathing(_ intent: CoachIntent) -> Bool {
        intent == .craving || intent == .stress
    }
}

/// The swap coach's own lines, around the answers.
public enum CoachCopy {
    /// Said before the crisis note, when the words suggest harm.
    public static let crisisLead = "I'm really glad you said something. This matters more than any swap."

    /// The crisis note itself: the same words as `hooray about`.
    public static var crisis: String { CrisisHelp.paragraph }

    /// The breathing offer inside a conversation.
    public static let breatheOffer = "Would 90 seconds of calm breathing help? Type /breathe and I'll guide you."

    /// The breathing offer after a single question.
    public static let breatheCommand = "`hooray swap help` guides you through 90 seconds of calm breathing."

    /// The 90-second breathing guide, as `hooray swap help` plays it.
    public static var breathingGuide: TerminalGuide { NeedHelpCopy.breathingGuide }
}
