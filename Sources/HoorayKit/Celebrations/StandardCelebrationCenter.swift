import Foundation

/// The celebration center of every host: picks a fresh phrase, designs the notice in one style and
/// posts it on a notice board.
///
/// The daemon and the CLI give each plugin one in the style the user chose for it, remembering
/// recent phrases in the database; `HoorayKitTesting`'s `RecordingCelebrationCenter` wraps one that
/// posts to the harness's recording notice board.
///
/// Phrases come from ``CelebrationPhrases``; a pick avoids the last few phrases of the same style and
/// size, remembered in `memory` under keys such as `recent.calm.small`. A memory that cannot be
/// read or written never stops a celebration: the phrase is then picked without it.
package struct StandardCelebrationCenter: CelebrationCenter {
    /// The style every celebration of this center has.
    package let style: CelebrationStyle
    /// The phrases picked from.
    package let phrases: CelebrationPhrases
    let notices: any NoticeBoard
    let memory: any PluginStore

    /// Creates a center.
    ///
    /// - Parameters:
    ///   - style: The style of every celebration.
    ///   - notices: Where celebration notices are posted: the plugin's own notice board.
    ///   - memory: Where recent phrases are remembered; a store shared by every plugin, so that two
    ///     plugins do not repeat each other either. `nil` remembers them only as long as this center
    ///     and its copies live.
    ///   - phrases: The phrase pools; the few phrases of ``CelebrationPhrases/builtIn`` by default.
    package init(
        style: CelebrationStyle, notices: any NoticeBoard, memory: (any PluginStore)? = nil,
        phrases: CelebrationPhrases = .builtIn
    ) {
        self.style = style
        self.notices = notices
        self.memory = memory ?? EphemeralStore()
        self.phrases = phrases
    }

    /// The key under which the recent phrases of a style and size are remembered, such as `recent.calm.small`.
    package static func memoryKey(style: CelebrationStyle, size: Celebration.Size) -> String {
        "recent." + CelebrationPhrases.poolName(style: style, size: size)
    }

    /// Celebrates in this center's style: posts the style's notice with a fresh phrase, or, in the
    /// `off` style, posts nothing.
    ///
    /// - Parameter celebration: What to celebrate.
    /// - Returns: The posted notice's id and a line for the terminal, or only the line.
    /// - Throws: What the notice board threw when the notice could not be posted.
    package func celebrate(_ celebration: Celebration) async throws -> CelebrationOutcome {
        guard style != .off else { return .quiet(line: style.line(for: celebration, phrase: "")) }
        let phrase = await nextPhrase(for: celebration)
        guard let notice = style.notice(for: celebration, phrase: phrase) else {
            return .quiet(line: style.line(for: celebration, phrase: phrase))
        }
        let id = try await notices.post(notice)
        return .shown(id, line: style.line(for: celebration, phrase: phrase))
    }

    /// The key under which the recent picks of a plugin's own pool are remembered, for a style and
    /// size, such as `recent.swaps.calm.small`.
    package static func memoryKey(pool: CelebrationPhrasePool, style: CelebrationStyle, size: Celebration.Size)
        -> String
    {
        "recent.\(pool.name)." + CelebrationPhrases.poolName(style: style, size: size)
    }

    /// Picks the next phrase for a celebration of `size` in this center's style, and remembers it.
    ///
    /// - Parameter size: The celebration's size.
    /// - Returns: A phrase that none of the last few picks of this style and size used.
    package func nextPhrase(for size: Celebration.Size) async -> String {
        await nextPhrase(for: Celebration(size: size, title: ""))
    }

    /// Picks the next phrase for a celebration in this center's style, and remembers it: from the
    /// celebration's own ``Celebration/phrases`` when they have some for this style, else from the
    /// shared pool of its style and size.
    ///
    /// - Parameter celebration: The celebration.
    /// - Returns: A phrase that none of the last few picks from the same pool, style and size used.
    package func nextPhrase(for celebration: Celebration) async -> String {
        let (style, size) = (self.style, celebration.size)
        let lines: [String]
        let key: String
        if let pool = celebration.phrases, !pool.phrases(for: style).isEmpty {
            lines = pool.phrases(for: style)
            key = Self.memoryKey(pool: pool, style: style, size: size)
        } else {
            lines = phrases.phrases(style: style, size: size)
            key = Self.memoryKey(style: style, size: size)
        }
        do {
            let stored = try await memory.modify(forKey: key) { data in
                var random = SystemRandomNumberGenerator()
                let picked = CelebrationPhrases.pick(from: lines, avoiding: Self.recent(in: data), using: &random)
                return try JSONEncoder().encode(picked.recent)
            }
            if let phrase = Self.recent(in: stored).last { return phrase }
        } catch {
            // Fall through: a fresh pick without memory still celebrates.
        }
        var random = SystemRandomNumberGenerator()
        return CelebrationPhrases.pick(from: lines, avoiding: [], using: &random).phrase
    }

    private static func recent(in data: Data?) -> [String] {
        data.flatMap { try? JSONDecoder().decode([String].self, from: $0) } ?? []
    }
}

/// Plugin storage that lives in memory, for a center made without a store.
actor EphemeralStore: PluginStore {
    private var values: [String: Data] = [:]

    func data(forKey key: String) async throws -> Data? { values[key] }

    func setData(_ data: Data?, forKey key: String) async throws { values[key] = data }

    func keys() async throws -> [String] { values.keys.sorted() }

    func modify(forKey key: String, _ transform: @escaping @Sendable (Data?) throws -> Data?) async throws -> Data? {
        let new = try transform(values[key])
        values[key] = new
        return new
    }
}
