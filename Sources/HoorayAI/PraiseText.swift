/// Turns text from an AI service into plain text that is safe to store and show.
///
/// Nothing is interpreted: markup such as `<b>` stays literal characters, which the delivery layer
/// escapes. What is removed is what could disturb a terminal, a log line or the layout of a
/// notification: control characters, bidirectional overrides, runs of whitespace.
public enum PraiseText {
    /// The longest praise kept, in characters.
    public static let maximumLength = 500

    /// Cleans text for display.
    ///
    /// Line breaks and tabs become spaces, other control characters and bidirectional formatting
    /// characters are removed, runs of whitespace collapse to one space, the ends are trimmed, and
    /// text longer than `limit` is cut and ends with `…`.
    ///
    /// - Parameters:
    ///   - text: The text as received.
    ///   - limit: The most characters to keep.
    /// - Returns: The cleaned text; empty when nothing visible was left.
    public static func sanitized(_ text: String, limit: Int = maximumLength) -> String {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isSpace(scalar) {
                pendingSpace = !scalars.isEmpty
                continue
            }
            if isRemoved(scalar) { continue }
            if pendingSpace {
                scalars.append(" ")
                pendingSpace = false
            }
            scalars.append(scalar)
        }
        let cleaned = String(scalars)
        guard cleaned.count > limit else { return cleaned }
        var cut = String(cleaned.prefix(max(0, limit - 1)))
        while cut.last?.isWhitespace == true { cut.removeLast() }
        return cut + "…"
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator: true
        case .control:
            scalar == "\n" || scalar == "\r" || scalar == "\t" || scalar.value == 0x0B || scalar.value == 0x0C
        default: false
        }
    }

    private static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.generalCategory == .control { return true }
        switch scalar.value {
        // Marks and embeddings that reorder text: U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069.
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
