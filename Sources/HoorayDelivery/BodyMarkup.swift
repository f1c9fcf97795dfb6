import HoorayKit
import HoorayText

/// Turning plain text into notification body markup that shows exactly that text.
///
/// Servers with the `body-markup` capability read the body as a small XML-like markup language,
/// so `<b>Tom & Jerry</b>` written by a user (or an AI) would turn bold, or break the whole body.
/// Escaping `&`, `<` and `>` makes the server show the characters literally; everything else,
/// quotes and newlines included, already means itself in the body.
///
/// Control characters other than line feeds and tabs are not allowed in that markup at all (a
/// server may drop the whole body), so ``body(_:serverReadsMarkup:)`` shows them as visible symbols,
/// as `TerminalText.safe(_:multiline:)` does for the terminal.
public enum BodyMarkup {
    /// Escapes `&`, `<` and `>` so a markup-reading server shows `text` literally.
    ///
    /// - Parameter text: Plain text, such as a notice body.
    /// - Returns: The text with `&` as `&amp;`, `<` as `&lt;` and `>` as `&gt;`; nothing else changes.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The body to send: escaped when the server reads markup, unchanged when it does not.
    ///
    /// - Parameters:
    ///   - text: The notice body, plain text.
    ///   - serverReadsMarkup: Whether the server announced the `body-markup` capability.
    /// - Returns: A body that the server shows as exactly `text`, control characters shown as
    ///   symbols (`␛`) and bidi overrides left out.
    public static func body(_ text: String, serverReadsMarkup: Bool) -> String {
        let visible = TerminalText.safe(text, multiline: true)
        return serverReadsMarkup ? escape(visible) : visible
    }
}
