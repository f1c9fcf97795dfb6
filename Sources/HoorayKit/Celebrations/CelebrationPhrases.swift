/// The encouraging phrases of celebrations, one pool per style and size, and how one is picked.
///
/// Pools are named `STYLE.SIZE`, such as `calm.small` or `playful.big`, as the sections of
/// `Config/pools/celebrations.txt`, which the engine passes in. A pool that is missing or empty
/// falls back to the matching pool of ``builtIn``.
package struct CelebrationPhrases: Sendable, Hashable {
    /// The pools by name, such as `calm.small`.
    package let pools: [String: [String]]

    /// How many recent picks of a pool a pick avoids at most.
    package static let maximumMemory = 5

    /// Creates phrases from pools.
    ///
    /// - Parameter pools: Phrases by pool name, such as `calm.small`; plain text.
    package init(pools: [String: [String]]) {
        self.pools = pools
    }

    /// A few phrases from the original celebration design, for hosts that pass no pools of their own.
    package static let builtIn = CelebrationPhrases(pools: [
        "calm.small": ["Nice choice.", "You're building momentum.", "One healthier choice, done."],
        "calm.big": ["Small steps, big wins.", "You're building momentum.", "That choice makes you stronger."],
        "playful.small": ["One healthier choice, done.", "Small steps, big wins.", "Nice choice."],
        "playful.big": ["Small steps, big wins.", "That choice makes you stronger.", "You're building momentum."],
    ])

    /// The name of the pool for a style and size, such as `calm.small`.
    package static func poolName(style: CelebrationStyle, size: Celebration.Size) -> String {
        "\(style.rawValue).\(size.rawValue)"
    }

    /// The phrases for a style and size; those of ``builtIn`` when this pool is missing or empty.
    ///
    /// The ``CelebrationStyle/off`` style has no phrases of its own and borrows the calm ones.
    package func phrases(style: CelebrationStyle, size: Celebration.Size) -> [String] {
        let name = Self.poolName(style: style == .off ? .calm : style, size: size)
        if let lines = pools[name], !lines.isEmpty { return lines }
        return Self.builtIn.pools[name] ?? []
    }

    /// How many recent picks a pick from a pool of `count` phrases avoids: up to
    /// ``maximumMemory``, and never more than half the pool, so there is always a choice.
    package static func memory(forPoolOf count: Int) -> Int {
        min(maximumMemory, count / 2)
    }

    /// Picks a phrase that is none of the last few picked.
    ///
    /// - Parameters:
    ///   - style: The celebration style.
    ///   - size: The celebration size.
    ///   - recent: The phrases picked lately from this pool, most recent last.
    ///   - random: The source of randomness.
    /// - Returns: The phrase, and the recent list to keep for next time.
    package func pick(
        style: CelebrationStyle, size: Celebration.Size, avoiding recent: [String],
        using random: inout some RandomNumberGenerator
    ) -> (phrase: String, recent: [String]) {
        Self.pick(from: phrases(style: style, size: size), avoiding: recent, using: &random)
    }

    /// Picks one of `lines` that is none of the last few picked: the rule of every pool, the shared
    /// ones and a plugin's own (``CelebrationPhrasePool``).
    ///
    /// - Parameters:
    ///   - lines: The phrases to pick from.
    ///   - recent: The phrases picked lately from them, most recent last.
    ///   - random: The source of randomness.
    /// - Returns: The phrase (empty when `lines` is), and the recent list to keep for next time.
    package static func pick(
        from lines: [String], avoiding recent: [String], using random: inout some RandomNumberGenerator
    ) -> (phrase: String, recent: [String]) {
        guard !lines.isEmpty else { return ("", recent) }
        let memory = memory(forPoolOf: lines.count)
        let avoided = Set(recent.suffix(memory))
        let candidates = lines.filter { !avoided.contains($0) }
        let phrase = (candidates.isEmpty ? lines : candidates).randomElement(using: &random) ?? lines[0]
        return (phrase, Array((recent + [phrase]).suffix(max(memory, 1))))
    }
}
