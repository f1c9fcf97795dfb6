/// Text made safe to print on a terminal, and measured in the cells it takes there.
///
/// What a user logs, what an AI service answers and what a configuration file says is kept exactly
/// as it came: in the database and in `--json`. Printed on a terminal, though, an escape character
/// could move the cursor, change colours or set the window title, and an unterminated right-to-left
/// override would turn every following line around. Pass such text through ``safe(_:multiline:)``
/// before it goes into a view, and align columns with ``width(_:)`` and ``padding(_:toWidth:)``
/// rather than `count`, so a habit named `Run 🏃` or `読書` keeps its table straight.
///
/// ```swift
/// let name = TerminalText.safe(habit.name)
/// let cell = TerminalText.padding(name, toWidth: 20)
/// ```
public enum TerminalText {
    /// The text with every character that could drive a terminal made visible or removed.
    ///
    /// - C0 controls (U+0000–U+001F) are shown as their Control Pictures symbol: ESC as `␛`, BEL as
    ///   `␇`, CR as `␍`. With `multiline`, line feeds and tabs are kept, and a CR that ends a line
    ///   (`\r\n`) is dropped.
    /// - DEL (U+007F) is shown as `␡`.
    /// - C1 controls (U+0080–U+009F), which some terminals read like ESC sequences, are shown as `�`.
    /// - Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) are removed,
    ///   so text after them reads in its own direction; their letters stay.
    /// - The line and paragraph separators U+2028 and U+2029 become a space.
    ///
    /// Everything else, emoji and letters of every script included, is kept as it is.
    ///
    /// - Parameters:
    ///   - text: Stored or user-given text.
    ///   - multiline: Whether line feeds and tabs may stay, for text printed as several lines.
    /// - Returns: The text as it may be printed; the same text when it had nothing to neutralise.
    public static func safe(_ text: String, multiline: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: needsWork) else { return text }
        var result = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar.value {
            case 0x0A where multiline, 0x09 where multiline:
                result.append(scalar)
            case 0x0D where multiline && index + 1 < scalars.count && scalars[index + 1] == "\n":
                continue
            case 0x00...0x1F:
                result.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F:
                result.append("\u{2421}")
            case 0x80...0x9F:
                result.append("\u{FFFD}")
            case 0x202A...0x202E, 0x2066...0x2069:
                continue
            case 0x2028, 0x2029:
                result.append(" ")
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether `text` holds anything ``safe(_:multiline:)`` would change (line feeds and tabs aside).
    ///
    /// - Parameter text: The text to look at.
    /// - Returns: `true` when it holds a control character, other than a line feed or a tab, or a
    ///   bidirectional override or isolate.
    public static func needsNeutralising(_ text: String) -> Bool {
        text.unicodeScalars.contains { needsWork($0) && $0 != "\n" && $0 != "\t" }
    }

    private static func needsWork(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }

    /// The number of terminal cells `text` takes on one line.
    ///
    /// Counted per grapheme cluster — what a reader sees as one character — so a letter with
    /// combining accents, a flag, a skin-toned or ZWJ-joined emoji each count once:
    ///
    /// - 2 cells: emoji shown as emoji (`😊`, `🏃‍♀️`, `🇫🇷`, or a text symbol followed by VS16
    ///   such as `☀️`), and East Asian wide and fullwidth characters (`読`, `한`, `Ａ`);
    /// - 0 cells: a cluster of only combining marks, joiners, variation selectors or other
    ///   invisible format characters, and control characters (which ``safe(_:multiline:)`` makes
    ///   visible first);
    /// - 1 cell: everything else, including symbols that terminals draw narrow, such as `★` and `●`.
    ///
    /// Terminals differ for a few symbols; this follows what current VTE, Kitty and xterm draw.
    ///
    /// - Parameter text: One line of text, already passed through ``safe(_:multiline:)``.
    /// - Returns: The width in cells.
    public static func width(_ text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// The text followed by spaces up to `width` cells; unchanged when it is already as wide.
    ///
    /// - Parameters:
    ///   - text: One line of text.
    ///   - width: The width in cells to fill, as ``width(_:)`` counts them.
    /// - Returns: The padded text.
    public static func padding(_ text: String, toWidth width: Int) -> String {
        let missing = width - Self.width(text)
        return missing > 0 ? text + String(repeating: " ", count: missing) : text
    }

    /// The text cut to at most `width` cells, its end replaced by `…` when it was longer, so one long
    /// title does not widen every row of a table.
    ///
    /// - Parameters:
    ///   - text: One line of text, already passed through ``safe(_:multiline:)``.
    ///   - width: The most cells it may take, as ``width(_:)`` counts them; at least 1.
    /// - Returns: The text as it is when it fits, otherwise its start and `…`.
    public static func truncating(_ text: String, toWidth width: Int) -> String {
        guard Self.width(text) > width else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let cells = Self.width(of: character)
            if used + cells > max(width, 1) - 1 { break }
            kept.append(character)
            used += cells
        }
        return kept + "…"
    }

    /// The cells one grapheme cluster takes.
    static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count > 1 && scalars.contains("\u{FE0F}") && first.properties.isEmoji { return 2 }
        if first.properties.isEmojiPresentation { return 2 }
        // Two regional indicators make a flag.
        if (0x1F1E6...0x1F1FF).contains(first.value) { return scalars.count > 1 ? 2 : 1 }
        if isWide(first.value) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(first.value) || (0xE0100...0xE01EF).contains(first.value) { return 0 }
        return 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode 15, UAX #11), outside the emoji.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}
