/// The longest texts Hooray keeps: one limit per kind of text, the same in every plugin.
///
/// | kind | limit | such as |
/// |---|---|---|
/// | a name or title, one line | ``name`` (200 characters) | a habit, a swap, a prep item, a reminder's title |
/// | a text or note | ``text`` (2,000 characters) | a moment, a note, a rejection's note, a reminder's body |
///
/// Characters are counted as a reader sees them (grapheme clusters, Swift's `count`), so an emoji
/// counts once. Check what a user types with ``problem(in:kind:)`` and refuse it with the words it
/// gives, so every plugin says the same.
public enum TextLimits {
    /// The most characters of a name or a title.
    public static let name = 200
    /// The most characters of a longer text or a note.
    public static let text = 2000

    /// A kind of text, for its limit and for what may be in it.
    public enum Kind: Sendable {
        /// A one-line name or title, at most ``TextLimits/name`` characters; no line breaks.
        case name
        /// A text or a note, at most ``TextLimits/text`` characters; line breaks and tabs may be in it.
        case text

        /// The most characters of this kind.
        public var limit: Int {
            switch self {
            case .name: TextLimits.name
            case .text: TextLimits.text
            }
        }
    }

    /// What is wrong with a text the user gave, in words to follow its name, or `nil` when it may be
    /// kept: "is 5000 characters long; it takes at most 200".
    ///
    /// A text with a control character (an escape, a bell, a line break in a name…) or a
    /// bidirectional override is refused rather than cleaned: it would reach the notification server
    /// and terminals as it is, and the user should see what is kept.
    ///
    /// - Parameters:
    ///   - text: The text, trimmed as it will be kept.
    ///   - kind: Its kind, which sets the limit and whether line breaks may be in it.
    /// - Returns: The problem, such as `is 5000 characters long; it takes at most 200` or `holds a
    ///   control character (U+001B), which would reach the notification as it is; leave it out`, or `nil`.
    public static func problem(in text: String, kind: Kind) -> String? {
        if text.count > kind.limit {
            return "is \(text.count) characters long; it takes at most \(kind.limit)"
        }
        let refused = text.unicodeScalars.first { scalar in
            if kind == .text && (scalar == "\n" || scalar == "\t") { return false }
            return TerminalText.needsNeutralising(String(scalar)) || scalar == "\n" || scalar == "\t"
        }
        if let refused {
            let code = String(refused.value, radix: 16, uppercase: true)
            let name =
                kind == .name && (refused == "\n" || refused == "\t") ? "a line break or tab" : "a control character"
            return "holds \(name) (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code)), "
                + "which would reach the notification as it is; leave it out"
        }
        return nil
    }
}
