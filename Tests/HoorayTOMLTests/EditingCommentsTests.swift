import HoorayTOML
import Testing

/// The comments a user wrote above a header stay with that header, whatever is removed or added
/// before it; a comment on a header's line keeps the header.
@Suite struct EditingCommentsTests {
    func edited(_ text: String, _ edit: (inout TOMLDocument) throws(TOMLEditError) -> Void) throws -> String {
        var document = TOMLDocument(parsing: text)
        try edit(&document)
        #expect(document.diagnostics.isEmpty)
        return document.text
    }

    @Test func removingATableKeepsTheCommentAboveTheNextHeader() throws {
        let text =
            "# Mine.\n\n[delivery]\nicon = \"hooray\"\n\n# Swaps: evening prep.\n[plugins.swaps]\nnight_prep = \"21:00\"\n"
        let after = try edited(text) { document throws(TOMLEditError) in try document.remove(["delivery"]) }
        #expect(after == "# Mine.\n\n# Swaps: evening prep.\n[plugins.swaps]\nnight_prep = \"21:00\"\n")
        // A comment under the table's last key, with a blank line after it, is the table's and goes with it.
        let own = try edited("[a]\nx = 1\n# about x\n\n[b]\ny = 2\n") { document throws(TOMLEditError) in
            try document.remove(["a"])
        }
        #expect(own == "[b]\ny = 2\n")
    }

    @Test func removingTheLastKeyOfATableKeepsTheCommentAboveTheNextHeader() throws {
        let after = try edited("[t]\nx = 1\n\n# U, for later.\n[u]\ny = 2\n") { document throws(TOMLEditError) in
            try document.remove(["t", "x"])
        }
        #expect(after == "# U, for later.\n[u]\ny = 2\n")
    }

    @Test func aCommentOnTheHeadersLineKeepsTheHeaderWhenItsLastKeyGoes() throws {
        let after = try edited("[t] # my own table\nx = 1\n") { document throws(TOMLEditError) in
            try document.remove(["t", "x"])
        }
        #expect(after == "[t] # my own table\n")
    }

    @Test func anArrayTableIsAddedAboveTheCommentOfTheNextHeader() throws {
        let text = "[[r]]\ntitle = \"A\"\n# Other things.\n[other]\nx = 1\n"
        let after = try edited(text) { document throws(TOMLEditError) in
            try document.appendArrayTable(["r"], entries: [("title", .string("B"))])
        }
        #expect(after == "[[r]]\ntitle = \"A\"\n\n[[r]]\ntitle = \"B\"\n# Other things.\n[other]\nx = 1\n")
        let spaced = try edited("[[r]]\ntitle = \"A\"\n\n\n# Other.\n[other]\n") { document throws(TOMLEditError) in
            try document.appendArrayTable(["r"], entries: [("title", .string("B"))])
        }
        #expect(spaced == "[[r]]\ntitle = \"A\"\n\n[[r]]\ntitle = \"B\"\n\n\n# Other.\n[other]\n")
    }

    @Test func removingWhatWasAddedGivesTheFileBackByteForByte() throws {
        let text = "# Settings.\n\n[[r]]\ntitle = \"A\"\n\n# Other things.\n[other]\nx = 1 # one\n"
        var document = TOMLDocument(parsing: text)
        try document.set(["other", "y"], to: .integer(2))
        try document.set(["fresh", "z"], to: .boolean(true))
        try document.remove(["fresh", "z"])
        try document.remove(["other", "y"])
        #expect(document.text == text)
    }
}
