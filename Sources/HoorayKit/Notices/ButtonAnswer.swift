/// What an answer to a button's question (``NoticeAction/prompt``) may be, checked by the engine
/// before a plugin sees it and by `hooray act` before it sends one.
///
/// An answer is one line the user typed: without control characters — so that the arrow keys
/// typed at a plain prompt (`ESC [ D`) or a pasted escape sequence never reach the plugin, its
/// records or a terminal that prints them later — and at most ``longest`` characters.
package enum ButtonAnswer {
    /// The most characters (Unicode code points) an answer may have.
    package static let longest = 1000

    /// What is wrong with an answer, as the end of a sentence that names the fix; `nil` when it
    /// may be handed to the plugin. Empty and blank answers pass: the plugin says what it makes of them.
    ///
    /// - Parameter answer: The answer as typed or given with `--answer`.
    /// - Returns: The problem and its fix, such as "the answer holds a control character (…)", or `nil`.
    package static func problem(_ answer: String) -> String? {
        if answer.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "the answer holds a control character (such as the escape sequence an arrow key types, "
                + "or a line break), which no answer may hold; give it again as plain text on one line"
        }
        let length = answer.unicodeScalars.count
        if length > longest {
            return "the answer is \(length) characters long, and an answer may have at most \(longest); "
                + "give a shorter one"
        }
        return nil
    }
}
