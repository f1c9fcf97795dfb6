import HoorayKit
import HoorayText
import Testing

@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("Took a walk", "Took a walk"),
        ("\u{1B}[2J\u{1B}]0;owned\u{07}", "␛[2J␛]0;owned␇"),
        ("bell\u{07}", "bell␇"),
        ("del\u{7F}", "del␡"),
        ("csi\u{9B}31m", "csi\u{FFFD}31m"),
        ("\u{202E}reversed", "reversed"),
        ("a\u{2066}isolated\u{2069}b", "aisolatedb"),
        ("line\nbreak\ttab\r", "line␊break␉tab␍"),
        ("para\u{2029}graph", "para graph"),
        ("Café 😊 読書 🇫🇷", "Café 😊 読書 🇫🇷"),
        ("שלום עולם", "שלום עולם"),
    ])
    func controlsAreShownAndBidiOverridesRemoved(text: String, expected: String) {
        #expect(TerminalText.safe(text) == expected)
    }

    @Test func multilineKeepsLineBreaksAndTabs() {
        #expect(TerminalText.safe("one\r\ntwo\n\tthree\u{1B}", multiline: true) == "one\ntwo\n\tthree␛")
        #expect(TerminalText.safe("lonely\rreturn", multiline: true) == "lonely␍return")
    }

    @Test func needsNeutralisingSpotsOnlyDangerousText() {
        #expect(TerminalText.needsNeutralising("a\u{1B}b"))
        #expect(TerminalText.needsNeutralising("\u{202E}"))
        #expect(!TerminalText.needsNeutralising("plain\nlines\tand 😊"))
    }

    @Test(arguments: [
        ("Read", 4),
        ("", 0),
        ("😊", 2),
        ("Run 🏃", 6),
        ("🏃‍♀️", 2),  // runner + ZWJ + female sign + VS16: one cluster
        ("👍🏽", 2),  // skin tone modifier
        ("🇫🇷", 2),  // flag: two regional indicators
        ("☀️", 2),  // text-default symbol made emoji by VS16
        ("☀", 1),  // without VS16 it is narrow
        ("読書", 4),
        ("한국어", 6),
        ("ＡＢ", 4),  // fullwidth Latin
        ("e\u{301}", 1),  // e + combining acute
        ("Zoë", 3),
        ("★ ● ‖ ◌", 7),
        ("a\u{200B}b", 2),  // zero-width space
    ])
    func widthCountsTerminalCells(text: String, cells: Int) {
        #expect(TerminalText.width(text) == cells)
    }

    @Test func paddingFillsToTheWidthInCells() {
        #expect(TerminalText.padding("😊", toWidth: 4) == "😊  ")
        #expect(TerminalText.padding("読書", toWidth: 6) == "読書  ")
        #expect(TerminalText.padding("long text", toWidth: 3) == "long text")
        let names = ["Run 🏃", "読書", "Read"]
        let width = names.map(TerminalText.width).max()!
        #expect(Set(names.map { TerminalText.width(TerminalText.padding($0, toWidth: width)) }) == [width])
    }
}
