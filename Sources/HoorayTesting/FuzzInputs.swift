import Foundation

/// Inputs for fuzz tests of what a person types: valid examples spoiled by ``TextMutations``,
/// strings of awkward characters, numbers too big for any integer, and a fixed list of the
/// hostile inputs every parser of times, dates and durations must survive.
///
/// The inputs are a pure function of the seed, so a failing input can be replayed by its seed
/// and index, and every run of `make test` tries the same ones. Set `HOORAY_FUZZ_SEED` to try
/// others:
///
/// ```swift
/// for (index, input) in FuzzInputs.strings(from: ["5m", "2h"], count: 2000).enumerated() {
///     // parse `input`; name FuzzInputs.seed and index in a failure
/// }
/// ```
public enum FuzzInputs {
    /// The seed of this run: `HOORAY_FUZZ_SEED` when set to a number, otherwise a fixed one.
    public static let seed: UInt64 = {
        if let text = getenv("HOORAY_FUZZ_SEED").map({ String(cString: $0) }), let value = UInt64(text) {
            return value
        }
        return 20_261_124
    }()

    /// Inputs that broke, or could break, a parser of times and lengths: empty and blank text,
    /// signs, exponents, numbers past `Int.max`, digits of other scripts and full-width forms,
    /// combining marks, controls, and very long text.
    public static let hostile: [String] = [
        "", " ", "  ", "\t", "\n", "\r\n", "\u{0}", "\u{FEFF}", "\u{202E}", "\u{00A0}", "\u{2003}",
        "0", "-0", "+0", "00", "-1", "-1d", "-1h", "+1h", "1e400", "1e3", "1.5h", "1,5h", ".5h", "0x10",
        "nan", "inf", "-inf", "Infinity",
        "99999999999999999999h", "99999999999999999999", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "9223372036854775807m", "9223372036854775807s", "9223372036854775807d",
        "9223372036854775807w", "1317624576693539401w", "1317624576693539402w", "153722867280912931m",
        "106751991167301d",
        "2562047788015216h", "2562047788015215h59m", "1d9223372036854775807s", "9223372036854775807s1s",
        "١٢:٠٠", "٣d", "٣ days", "१२:३०", "１２:００", "12：00", "１d", "2026-１１-22", "٢٠٢٦-١١-٢٢",
        "1\u{0301}2:00", "12:0\u{0308}0", "5\u{FE0F}\u{20E3}d", "2026-11-2\u{0301}2", "🙂", "1🙂h",
        "12:00\u{0}", "\u{0}12:00", "\u{FEFF}12:00", "12:00\n", "mon\u{0}", "mon-\u{0}",
        "24:00", "23:60", "-1:00", "99:99", "9999999999999999999:00", "0:00", "00:00:00", ":", "::", "12:",
        ":30",
        "0000-00-00", "0000-01-01", "9999-12-31", "2026-02-29", "2024-02-29", "2026-13-01", "2026-00-10",
        "-2026-01-01", "+2026-01-01", "20261-01-01", "2026-1-1", "2026--01", "--", "-", "today ", " Yesterday",
        "TODAY", "tomorrow",
        "mon-", "-mon", "mon--fri", "mon-tue-wed", ",", ",,", "mon,", "weekdays,", "monday-funday",
        String(repeating: "9", count: 5000), String(repeating: "1h", count: 5000),
        String(repeating: "mon,", count: 2000) + "mon", String(repeating: "é", count: 3000),
        String(repeating: " ", count: 10000) + "5m",
    ]

    /// Returns `count` inputs drawn from `seed`: first ``hostile``, then a mix of spoiled
    /// `examples` (one to four edits each), strings of ``TextMutations/awkward`` pieces and
    /// digits, and long numbers followed by units.
    ///
    /// - Parameters:
    ///   - examples: Valid inputs of the parser under test.
    ///   - units: Words that may follow a number for this parser, such as `h` or `days`.
    ///   - count: How many inputs to return, ``hostile`` included.
    ///   - seed: Where the random choices start.
    /// - Returns: The inputs; the same arguments always give the same inputs.
    public static func strings(
        from examples: [String], units: [String] = ["s", "m", "h", "d", "w", "days", "min", ""], count: Int,
        seed: UInt64 = FuzzInputs.seed
    ) -> [String] {
        var random = SeededRandomNumberGenerator(seed: seed)
        var inputs = hostile + examples
        let pieces = TextMutations.awkward + ["0", "1", "2", "3", "5", "9", "-", ":", " ", "١", "٢", "ー"]
        while inputs.count < count {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6 where !examples.isEmpty:
                var text = examples.randomElement(using: &random)!
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    text = TextMutations.mutate(text, using: &random)
                }
                inputs.append(text)
            case 6..<8:
                let length = Int.random(in: 0...12, using: &random)
                inputs.append((0..<length).map { _ in pieces.randomElement(using: &random)! }.joined())
            default:
                let digits = Int.random(in: 1...30, using: &random)
                var text = Int.random(in: 0..<4, using: &random) == 0 ? "-" : ""
                text += (0..<digits).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()
                text += units.randomElement(using: &random) ?? ""
                inputs.append(text)
            }
        }
        return Array(inputs.prefix(max(count, 0)))
    }

    /// Whether `message` quotes `input` exactly, byte for byte.
    ///
    /// A refusal must name what the user typed. Compared as bytes, not as characters: an input
    /// starting with a combining mark merges with the quote before it into one character.
    public static func message(_ message: String, names input: String) -> Bool {
        let needle = Array(input.utf8)
        let haystack = Array(message.utf8)
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }
}
