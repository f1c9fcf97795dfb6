import HoorayMessages
import Testing

@Suite struct MessagePoolTests {
    @Test func poolFilesSkipCommentsAndBlankLines() {
        let text = "# a comment\n\nNice move, champ.\n  You made space for yourself.  \n"
        #expect(MessagePools.lines(text) == ["Nice move, champ.", "You made space for yourself."])
    }

    @Test func sectionsGroupLinesUnderTheirHeaders() {
        let text = "[single]\nOne.\n[few]\nTwo.\nThree.\n"
        #expect(MessagePools.sections(text) == ["single": ["One."], "few": ["Two.", "Three."]])
    }
}
