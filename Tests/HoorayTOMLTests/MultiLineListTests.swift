import HoorayTOML
import Testing

/// Lists written over several lines, whose strings hold `=`: read as the lists they are, while a list
/// left open before the next key is still pointed at.
@Suite struct MultiLineListTests {
    @Test(arguments: [
        "msgs = [\n  \"Less screen = more sleep\",\n]\n",
        "args = [\n  \"--level=debug\",\n  'PATH=/usr/bin',\n]\n",
        "quoted = [\n  \"a \\\" = b\",\n]\n",
    ])
    func aStringWithAnEqualsSignOnItsOwnLineIsAValue(text: String) {
        let document = TOMLDocument(parsing: text)
        #expect(document.isValid, "\(document.diagnostics)")
        #expect(document.text == text)
    }

    @Test func aListLeftOpenBeforeTheNextKeyIsStillPointedAt() {
        let document = TOMLDocument(parsing: "days = [\"mon\",\n\"next\" = 1\n")
        #expect(document.diagnostics.first?.message == "the array is not closed", "\(document.diagnostics)")
        #expect(document.diagnostics.first?.line == 1)
    }
}
