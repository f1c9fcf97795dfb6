import Foundation
import HoorayKit

/// Celebrates exactly as the engine does, in one style, and records every celebration.
///
/// It celebrates with the engine's own celebration center, posting to the notice board you give it
/// (the harness's ``RecordingNoticeBoard``) and remembering recent phrases in an ``InMemoryPluginStore``.
public actor RecordingCelebrationCenter: CelebrationCenter {
    /// A celebration and what came of it.
    public struct Entry: Sendable, Hashable {
        /// What the plugin celebrated.
        public var celebration: Celebration
        /// The notice posted (and the line for the terminal), or only the line.
        public var outcome: CelebrationOutcome
    }

    /// Every celebration that succeeded, in order.
    public private(set) var entries: [Entry] = []
    /// The style of every celebration.
    public nonisolated let style: CelebrationStyle
    /// Where recent phrases are remembered, under keys such as `recent.calm.small`.
    public nonisolated let memory: InMemoryPluginStore
    private let center: StandardCelebrationCenter

    /// Creates a center.
    ///
    /// - Parameters:
    ///   - style: The style of every celebration.
    ///   - notices: Where celebration notices are posted.
    public init(style: CelebrationStyle, notices: any NoticeBoard) {
        self.init(style: style, notices: notices, phrases: .builtIn)
    }

    /// Creates a center whose celebrations pick from `phrases` (Hooray's own tests).
    package init(style: CelebrationStyle, notices: any NoticeBoard, phrases: CelebrationPhrases) {
        self.style = style
        let memory = InMemoryPluginStore()
        self.memory = memory
        center = StandardCelebrationCenter(style: style, notices: notices, memory: memory, phrases: phrases)
    }

    public func celebrate(_ celebration: Celebration) async throws -> CelebrationOutcome {
        let outcome = try await center.celebrate(celebration)
        entries.append(Entry(celebration: celebration, outcome: outcome))
        return outcome
    }

    /// What was celebrated, in order.
    public var celebrations: [Celebration] { entries.map(\.celebration) }

    /// What came of each celebration, in order.
    public var outcomes: [CelebrationOutcome] { entries.map(\.outcome) }

    /// The lines a command would have printed, in order.
    public var lines: [String] { entries.map(\.outcome.line) }
}

/// AI praise for tests: answers from a script, and records what it was asked.
public actor ScriptedPraiseProvider: PraiseProvider {
    /// The moments asked about, in order.
    public private(set) var requests: [MomentForPraise] = []
    private var script: [Result<AIPraise, AIRequestError>]

    /// Creates a provider that gives these answers in turn; when they run out it fails with
    /// a timeout (an `AIRequestError`).
    ///
    /// - Parameter answers: The answers, first to last.
    public init(_ answers: [Result<AIPraise, AIRequestError>]) {
        script = answers
    }

    public func praise(for moment: MomentForPraise) async throws -> AIPraise {
        requests.append(moment)
        guard !script.isEmpty else { throw AIRequestError.timedOut }
        return try script.removeFirst().get()
    }
}
