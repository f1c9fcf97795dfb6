import HoorayKit
import HoorayText
import Testing

/// Issue 29, item 8: one limit per kind of text, and what may be in it.
@Suite struct TextLimitsTests {
    @Test("Item 8: a name takes 200 characters and a text 2,000, counted as a reader counts them")
    func theLimitsAreTheSameForEveryKindOfText() {
        #expect(TextLimits.name == 200 && TextLimits.text == 2000)
        #expect(TextLimits.problem(in: String(repeating: "a", count: 200), kind: .name) == nil)
        #expect(
            TextLimits.problem(in: String(repeating: "a", count: 201), kind: .name)
                == "is 201 characters long; it takes at most 200")
        // An emoji counts once.
        #expect(TextLimits.problem(in: String(repeating: "🏃‍♀️", count: 200), kind: .name) == nil)
        #expect(TextLimits.problem(in: String(repeating: "b", count: 2000), kind: .text) == nil)
        #expect(
            TextLimits.problem(in: String(repeating: "b", count: 2001), kind: .text)?.contains("at most 2000") == true)
    }

    @Test(
        "Item 8: control characters are refused in a name; a text may break lines",
        arguments: [
            ("Tea\u{1B}[31m", TextLimits.Kind.name, "a control character (U+001B)"),
            ("Tea\u{07}", .name, "a control character (U+0007)"),
            ("Tea\nand cake", .name, "a line break or tab (U+000A)"),
            ("Tea\u{202E}", .name, "a control character (U+202E)"),
            ("Tea\u{9B}", .text, "a control character (U+009B)"),
        ])
    func controlCharactersAreRefused(text: String, kind: TextLimits.Kind, named: String) {
        #expect(TextLimits.problem(in: text, kind: kind)?.contains("holds \(named)") == true)
    }

    @Test("Item 8: line breaks and tabs may be in a text, and letters of every script in both")
    func plainTextIsKept() {
        #expect(TextLimits.problem(in: "Tea\nand\tcake", kind: .text) == nil)
        #expect(TextLimits.problem(in: "読書 📚 Café", kind: .name) == nil)
    }

    @Test("Item 8: a long title is cut at a width in cells with an ellipsis, wide letters counted twice")
    func truncatingCountsCells() {
        #expect(TerminalText.truncating("Tea", toWidth: 5) == "Tea")
        #expect(TerminalText.truncating("Stretch and breathe", toWidth: 10) == "Stretch a…")
        #expect(TerminalText.truncating("読書の時間です", toWidth: 6) == "読書…")
        #expect(TerminalText.width(TerminalText.truncating("読書の時間です", toWidth: 6)) <= 6)
        #expect(TerminalText.truncating("Run 🏃🏃🏃", toWidth: 7) == "Run 🏃…")
    }
}
