/// A random number generator that repeats itself: the same seed gives the same numbers.
///
/// Fuzz tests draw their inputs from it, so a failure names its seed and can be replayed exactly.
/// It is SplitMix64 (Steele, Lea and Flood, 2014): fast, and good enough to pick inputs, not for
/// anything secret.
///
/// ```swift
/// var random = SeededRandomNumberGenerator(seed: 42)
/// let length = Int.random(in: 0..<100, using: &random)
/// ```
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator.
    ///
    /// - Parameter seed: Where the sequence starts; the same seed gives the same sequence.
    public init(seed: UInt64) {
        state = seed
    }

    /// Returns the next number of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Ways to spoil a well-formed text, the way a half-finished edit or a damaged file does.
///
/// Each ``mutate(_:using:)`` applies one edit: cut the text short, delete, duplicate or swap a
/// span, or insert characters that parsers trip over (brackets, quotes, dots, escapes, control
/// characters, a byte-order mark, non-ASCII letters), once or as a long run.
public enum TextMutations {
    /// Characters parsers treat specially, and a few they should not see at all.
    public static let awkward: [String] = [
        "[", "]", "[[", "]]", "{", "}", "\"", "'", "\"\"\"", "'''", ".", "..", "=", ",", "#", "\\", "\\u",
        "\n", "\r", "\r\n", "\t", " ", "\u{0}", "\u{1B}", "\u{7F}", "\u{FEFF}", "\u{202E}", "é", "🙂", "-", "+",
        "0", "1e", ":", "T", "Z", "inf", "nan", "true", "h", "m", "d", "ago",
    ]

    /// Applies one random edit to `text`.
    ///
    /// - Parameters:
    ///   - text: The text to spoil.
    ///   - random: Where the choices come from.
    /// - Returns: The edited text.
    public static func mutate(_ text: String, using random: inout SeededRandomNumberGenerator) -> String {
        var scalars = Array(text.unicodeScalars)
        let position = scalars.isEmpty ? 0 : Int.random(in: 0...scalars.count, using: &random)
        let span = Int.random(in: 1...8, using: &random)
        switch Int.random(in: 0..<7, using: &random) {
        case 0:
            // Cut short, as an editor's autosave in the middle of typing.
            scalars.removeSubrange(position..<scalars.count)
        case 1:
            scalars.removeSubrange(position..<min(scalars.count, position + span))
        case 2:
            let copy = scalars[position..<min(scalars.count, position + span)]
            scalars.insert(contentsOf: copy, at: position)
        case 6:
            // A long run of one character: parsers that look back a fixed distance trip over it.
            let run = String(
                repeating: awkward.randomElement(using: &random)!, count: Int.random(in: 100...200, using: &random))
            scalars.insert(contentsOf: run.unicodeScalars, at: position)
        case 3 where scalars.count > 1:
            let other = Int.random(in: 0..<scalars.count, using: &random)
            scalars.swapAt(min(position, scalars.count - 1), other)
        default:
            let inserted = awkward.randomElement(using: &random)!
            scalars.insert(contentsOf: inserted.unicodeScalars, at: position)
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }
}
