import HoorayTOML
import Testing

/// TOML compares keys scalar by scalar: it does not normalize Unicode, so `"é"` (one scalar) and
/// `"e\u{301}"` (e and a combining accent), which Swift's `==` holds equal, are two keys.
@Suite struct KeyIdentityTests {
    /// A table with `filler` plain keys first (more than 12 make the table build its index), then the two.
    static func document(filler: Int, second: String) -> String {
        (0..<filler).map { "k\($0) = \($0)\n" }.joined() + "\"é\" = 1\n\"\(second)\" = 2\n"
    }

    @Test(arguments: [0, 20])
    func keysThatLookAlikeButDifferInScalarsAreTwoKeys(filler: Int) {
        let text = Self.document(filler: filler, second: "e\u{301}")
        for (root, diagnostics) in [
            TOMLDocument.values(parsing: text),
            {
                let document = TOMLDocument(parsing: text); return (document.root, document.diagnostics)
            }(),
        ] {
            #expect(diagnostics.isEmpty, "\(diagnostics)")
            #expect(root.count == filler + 2)
            #expect(root.keys.suffix(2).map { Array($0.unicodeScalars).count } == [1, 2])
            #expect(root.entries.suffix(2).map(\.item.value) == [.integer(1), .integer(2)])
        }
    }

    @Test(arguments: [0, 20])
    func theSameKeyTwiceIsStillAMistake(filler: Int) {
        let (_, diagnostics) = TOMLDocument.values(parsing: Self.document(filler: filler, second: "é"))
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.line == filler + 2)
    }
}
