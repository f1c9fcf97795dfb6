import Foundation

/// What the user's words suggest is going on: the seed's on-device intent detection ("craving",
/// "stress", "boredom"), with tiredness beside them.
///
/// A small rule set, not a model: each intent has words and phrases, the words of a message are
/// matched whole (so "sweets" and "sweet" count, "sweetheart" does not), and the intent with the
/// most matches wins; a tie goes to the first in ``allCases`` order. Nothing matched is
/// ``general``.
public enum CoachIntent: String, Sendable, Hashable, Codable, CaseIterable {
    /// Wanting to eat or drink something, now.
    case craving
    /// Stress, worry, feeling overwhelmed.
    case stress
    /// Tired, drained, sleepy.
    case tiredness
    /// Bored, restless, nothing to do.
    case boredom
    /// None of those.
    case general

    /// The words that suggest each intent, matched as whole words.
    static let words: [CoachIntent: Set<String>] = [
        .craving: [
            "crave", "craving", "cravings", "craved", "hungry", "hunger", "starving", "snack", "snacks", "snacking",
            "chocolate", "sweet", "sweets", "sugar", "sugary", "candy", "cookie", "cookies", "cake", "chips",
            "crisps", "pizza", "burger", "fries", "soda", "coke", "wine", "beer", "dessert", "icecream", "donut",
            "donuts", "doughnut", "binge", "bingeing", "fridge", "munchies", "takeout", "takeaway", "junk",
            "eat", "eating", "food",
        ],
        .stress: [
            "stress", "stressed", "stressful", "anxious", "anxiety", "overwhelmed", "overwhelming", "worried",
            "worry", "worrying", "panic", "panicking", "tense", "pressure", "nervous", "deadline", "deadlines",
            "upset", "angry", "frustrated", "furious", "argument", "fight", "exam", "exams",
        ],
        .tiredness: [
            "tired", "exhausted", "sleepy", "drained", "fatigue", "fatigued", "knackered", "worn", "sleep",
            "insomnia", "yawning",
        ],
        .boredom: ["bored", "boring", "boredom", "restless", "idle", "nothing", "dull", "aimless"],
    ]

    /// Phrases that suggest an intent, matched in the lowercased words joined by single spaces.
    static let phrases: [(String, CoachIntent)] = [
        ("ice cream", .craving), ("really want", .craving), ("need something", .craving),
        ("want to eat", .craving), ("something sweet", .craving), ("too much", .stress),
        ("freaking out", .stress), ("long day", .tiredness), ("no energy", .tiredness),
        ("worn out", .tiredness), ("nothing to do", .boredom), ("killing time", .boredom),
    ]

    /// What the words suggest.
    ///
    /// - Parameter text: The user's words, as typed.
    /// - Returns: The intent with the most matches; ``general`` when none matched.
    public static func detect(in text: String) -> CoachIntent {
        let words = Self.wordsOf(text)
        let joined = " " + words.joined(separator: " ") + " "
        var scores: [CoachIntent: Int] = [:]
        for word in words {
            for (intent, known) in Self.words where known.contains(word) { scores[intent, default: 0] += 1 }
        }
        for (phrase, intent) in phrases where joined.contains(" \(phrase) ") { scores[intent, default: 0] += 2 }
        var best = CoachIntent.general
        var bestScore = 0
        for intent in allCases where (scores[intent] ?? 0) > bestScore {
            best = intent
            bestScore = scores[intent] ?? 0
        }
        return best
    }

    /// Whether the words suggest the user may harm themselves or is in danger: then the coach
    /// shows where to find help in a crisis (`CrisisHelp`, as `hooray about` does) before anything else.
    public static func suggestsHarm(_ text: String) -> Bool {
        let joined = " " + wordsOf(text).joined(separator: " ") + " "
        return harmPhrases.contains { joined.contains(" \($0) ") }
    }

    /// Phrases that suggest harm, in the lowercased words joined by single spaces.
    static let harmPhrases = [
        "kill myself", "killing myself", "hurt myself", "hurting myself", "harm myself", "harming myself",
        "self harm", "selfharm", "suicide", "suicidal", "end my life", "end it all", "want to die",
        "wanna die", "better off dead", "don't want to live", "dont want to live", "no reason to live",
        "cut myself", "cutting myself", "starve myself", "starving myself", "make myself throw up",
        "make myself sick",
    ]

    /// The lowercased words of a text: letters, digits and apostrophes, split at everything else;
    /// "ice-cream" is two words, "don’t" is "don't".
    static func wordsOf(_ text: String) -> [String] {
        text.lowercased().replacingOccurrences(of: "\u{2019}", with: "'")
            .split { !($0.isLetter || $0.isNumber || $0 == "'") }
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
            .filter { !$0.isEmpty }
    }
}
