/// How celebrations look and sound: the user's choice, from `[celebrations] style`, or a plugin's
/// own `[plugins.NAME] celebrations`.
public enum CelebrationStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// The default: a gentle line, low urgency and no sound.
    case calm
    /// Brighter: sparkles and confetti in the text, a sound and a longer time on screen.
    case playful
    /// No notification at all; a quiet confirmation line for the terminal.
    case off
}

/// Something worth celebrating, such as a habit done or a streak reached.
///
/// A plugin says *what* happened; the ``CelebrationCenter`` decides how it looks, in the user's
/// ``CelebrationStyle``, and adds an encouraging phrase.
public struct Celebration: Sendable, Hashable {
    /// How big a celebration is.
    public enum Size: String, Sendable, Hashable, Codable {
        /// An everyday one, such as a habit done today.
        case small
        /// A milestone, such as a seven-day streak.
        case big
    }

    /// How big it is.
    public var size: Size
    /// What happened, one short line, such as `Read 10 pages · 7 days`; plain text.
    public var title: String
    /// An optional extra line, such as `Your longest run yet.`; plain text.
    public var detail: String?
    /// The plugin's own encouraging phrases for this celebration, picked from instead of the shared
    /// pool of its style and size; `nil` (the default) for the shared pool.
    public var phrases: CelebrationPhrasePool?

    /// Creates a celebration.
    ///
    /// - Parameters:
    ///   - size: A small, everyday celebration or a big one for a milestone.
    ///   - title: What happened, one short line; plain text.
    ///   - detail: An optional extra line; plain text.
    ///   - phrases: The plugin's own phrases for it; the shared pool when `nil`.
    public init(size: Size, title: String, detail: String? = nil, phrases: CelebrationPhrasePool? = nil) {
        self.size = size
        self.title = title
        self.detail = detail
        self.phrases = phrases
    }
}

/// A plugin's own encouraging phrases, by style, for celebrations whose words belong to the plugin,
/// such as the swaps plugin's "Swap complete. 🌿".
///
/// The center picks from the phrases of its style as it picks from the shared pool: never one of
/// the last few picks of this pool, style and size. A style without phrases here uses the shared
/// pool. The ``CelebrationStyle/off`` style shows no phrase.
///
/// ```swift
/// let pool = CelebrationPhrasePool(name: "swaps", phrases: [.calm: ["Swap complete. 🌿", "Nice choice."]])
/// await context.celebrate(Celebration(size: .small, title: "Sparkling water", phrases: pool))
/// ```
public struct CelebrationPhrasePool: Sendable, Hashable {
    /// The pool's name, such as `swaps`: it keeps the memory of its recent picks apart from the
    /// shared pool's and from other pools'.
    public var name: String
    /// The phrases of each style; plain text.
    public var phrases: [CelebrationStyle: [String]]

    /// Creates a pool.
    ///
    /// - Parameters:
    ///   - name: Its name, such as `swaps`.
    ///   - phrases: The phrases of each style; a style left out uses the shared pool.
    public init(name: String, phrases: [CelebrationStyle: [String]]) {
        self.name = name
        self.phrases = phrases
    }

    /// The phrases for `style`; empty when the pool has none for it.
    public func phrases(for style: CelebrationStyle) -> [String] {
        phrases[style] ?? []
    }
}

/// What a celebration turned into.
public enum CelebrationOutcome: Sendable, Hashable {
    /// A notification was posted; `line` says the same in one line, for a command to print.
    case shown(NoticeID, line: String)
    /// The style is ``CelebrationStyle/off``: nothing was posted; print `line` in the terminal.
    case quiet(line: String)

    /// The one line a command may print, such as `✓ Read 10 pages · 7 days — Nice choice.`
    public var line: String {
        switch self {
        case .shown(_, let line), .quiet(let line): line
        }
    }
}

/// Celebrates in the user's style: the one celebration engine every plugin shares.
///
/// Plugins get one as ``PluginContext/celebrations``, already set to the style the user chose for
/// them. They describe what happened with a ``Celebration`` and never design their own confetti,
/// so every celebration on the desktop looks alike and respects the user's choice.
public protocol CelebrationCenter: Sendable {
    /// The style the user chose for this plugin's celebrations, for a command that shapes its
    /// terminal reply to it (such as a drawing only in the playful style).
    var style: CelebrationStyle { get }

    /// Celebrates in the user's style for this plugin; posts through the plugin's notice board.
    ///
    /// In the ``CelebrationStyle/calm`` and ``CelebrationStyle/playful`` styles a notice is posted
    /// with a phrase that none of the last few celebrations of its style and size used; in the
    /// ``CelebrationStyle/off`` style nothing is posted.
    ///
    /// - Parameter celebration: What to celebrate.
    /// - Returns: The posted notice's id and a line for the terminal, or only the line.
    /// - Throws: What the notice board threw when the notice could not be posted.
    func celebrate(_ celebration: Celebration) async throws -> CelebrationOutcome
}

extension PluginContext {
    /// Celebrates through ``celebrations``, and when the celebration cannot be shown, logs why and
    /// goes on.
    ///
    /// A celebration crowns something already saved — a glass counted, a habit done. Failing the
    /// command or button that saved it would tell the user nothing was saved, so use this rather
    /// than calling ``celebrations`` directly:
    ///
    /// ```swift
    /// let line = await context.celebrate(Celebration(size: .small, title: "Read · 3 days"))?.line
    /// ```
    ///
    /// - Parameter celebration: What to celebrate.
    /// - Returns: What the celebration turned into, or `nil` when it could not be shown (the reason
    ///   is in ``logger``).
    public func celebrate(_ celebration: Celebration) async -> CelebrationOutcome? {
        do {
            return try await celebrations.celebrate(celebration)
        } catch {
            logger.error("could not celebrate \"\(celebration.title)\": \(error)")
            return nil
        }
    }
}
