import Foundation
import Testing

@testable import HoorayTOML

/// A long list of tables is read in two halves at once: the values, their places and the mistakes
/// are those of the text read whole (``TOMLDocument/init(parsing:version:)`` reads it whole, with
/// its syntax tree), whatever stands at the middle of the text.
@Suite struct ListSplitTests {
    /// `count` reminders as the configuration holds them, with `middle` put in after the first half.
    static func list(_ count: Int, middle: String = "", after: String = "") -> String {
        var text = "# Reminders\n[plugins.reminders]\nenabled = true\n\n"
        for index in 0..<count {
            if index == count / 2 { text += middle }
            text += """
                [[plugins.reminders.reminder]]
                id = "r\(index)"
                title = "Reminder \(index) — stand up"
                body = "Roll your shoulders."
                at = "0\(index % 10):\(10 + index % 50)"
                days = ["mon", "wed"]

                [plugins.reminders.reminder.extra]
                note = 'n\(index)'


                """
        }
        return text + after
    }

    /// Whether the text is read in halves at all (``ListSplit``), not whole.
    static func isReadInHalves(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { ListSplit.values(of: $0, version: .v1_1) != nil }
    }

    static func expectSameAsWhole(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(text.utf8.count > 1 << 20, "long enough to be read in halves", sourceLocation: sourceLocation)
        let whole = TOMLDocument(parsing: text)
        let halves = TOMLDocument.values(parsing: text)
        #expect(halves.diagnostics == whole.diagnostics, sourceLocation: sourceLocation)
        #expect(halves.root == whole.root, sourceLocation: sourceLocation)
        // Places too (`==` compares values): the last reminder's, in the second half.
        let last = { (root: TOMLTable) in
            root["plugins"]?.value.table?["reminders"]?.value.table?["reminder"]?.value.array?.last
        }
        #expect(last(halves.root)?.position == last(whole.root)?.position, sourceLocation: sourceLocation)
        #expect(
            last(halves.root)?.value.table?["title"]?.position == last(whole.root)?.value.table?["title"]?.position,
            sourceLocation: sourceLocation)
    }

    @Test("A long list of tables read in halves has the values and places of the text read whole")
    func aLongListIsReadAsWhole() throws {
        let text = Self.list(8_000)
        #expect(Self.isReadInHalves(text))
        Self.expectSameAsWhole(text)
        let reminders = try #require(
            TOMLDocument.values(parsing: text).root["plugins"]?.value.table?["reminders"]?.value.table?["reminder"]?
                .value.array)
        #expect(reminders.count == 8_000)
        #expect(reminders[7_999].value.table?["id"]?.value == .string("r7999"))
        #expect(reminders[7_999].position.line == 1 + 4 + 7_999 * 10, "the line of its header in the whole text")
    }

    @Test(
        "A mistake in the second half, a cut inside a multi-line string, and other tables after the middle read as whole",
        arguments: [
            ("nothing", "", ""),
            ("a mistake", "[[plugins.reminders.reminder]]\nid = \"broken\ntitle = \"x\"\n\n", ""),
            (
                "a header inside a string",
                "[[plugins.reminders.reminder]]\nid = \"s\"\nbody = \"\"\"\n\(String(repeating: "x\n", count: 10))"
                    + "[[plugins.reminders.reminder]]\n\(String(repeating: "y\n", count: 300_000))\"\"\"\n\n", ""
            ),
            ("another table after it", "", "[plugins.other]\nkey = 1\n"),
            ("the list's table defined again", "", "[plugins.reminders]\nagain = true\n"),
            ("a key set twice", "", "[[plugins.reminders.reminder]]\nid = \"a\"\nid = \"b\"\n"),
        ])
    func whateverStandsAtTheMiddleReadsAsWhole(case: (String, String, String)) {
        let text = Self.list(8_000, middle: `case`.1, after: `case`.2)
        // Only a list and nothing else is read in halves; anything else is read whole again.
        #expect(Self.isReadInHalves(text) == (`case`.0 == "nothing"))
        Self.expectSameAsWhole(text)
    }

    @Test("A list that the first half made a value, not a list of tables, keeps the whole text's mistake")
    func aListMadeAValueFirstIsAMistakeAsWhole() {
        let text = "plugins.reminders.reminder = [1, 2]\n" + Self.list(8_000)
        Self.expectSameAsWhole(text)
        #expect(!TOMLDocument.values(parsing: text).diagnostics.isEmpty)
    }
}
