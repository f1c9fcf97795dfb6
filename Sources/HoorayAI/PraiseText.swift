/// Turns text from an AI service into plain text that is safe to store and show.
///
/// Nothing is interpreted. Praise containing markup (a tag such as `<b>` or an entity such as
/// `&amp;`) is refused as a broken answer, so the offline praise stays; a lone `<` or `&`, as in
/// "Tom & Jerry", is plain text, which the delivery layer escapes. What is removed is what could disturb a terminal, a log line or the layout of a
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

    /// Whether text contains markup: an HTML or Pango tag such as `<b>`, `</i>` or `<a href=…>`,
    /// a comment, or a character entity such as `&amp;` or `&#60;`.
    public static func containsMarkup(_ text: String) -> Bool {
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            let next = index + 1 < characters.count ? characters[index + 1] : " "
            if character == "<", next.isLetter || next == "/" || next == "!" {
                if characters[(index + 1)...].contains(">") { return true }
            }
            if character == "&" {
                let entity = characters[(index + 1)...].prefix(12)
                if let end = entity.firstIndex(of: ";"), end > index + 1 {
                    let name = characters[(index + 1)..<end]
                    if name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "#" }) { return true }
                }
            }
        }
        return false
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
