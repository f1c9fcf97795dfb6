import Foundation
import HoorayTOML
import Testing

/// The toml-test corpus (`Tests/Fixtures/toml-test`, MIT), read as each TOML version its lists
/// name: every invalid document refused with a line and column, every valid one read with the
/// values its JSON expects, and every one printed back byte for byte.
@Suite struct CorpusTests {
    static let versions: [TOMLVersion] = [.v1_0, .v1_1]

    @Test(arguments: versions)
    func everyInvalidDocumentIsRefusedWithALineAndColumn(version: TOMLVersion) throws {
        let files = try CorpusFile.listed(for: version).filter { $0.name.hasPrefix("invalid/") }
        #expect(files.count == (version == .v1_0 ? 499 : 492))
        for file in files {
            let document = TOMLDocument(parsing: file.bytes, version: version)
            #expect(!document.diagnostics.isEmpty, "accepted although invalid: \(file)")
            for diagnostic in document.diagnostics {
                #expect(diagnostic.line >= 1 && diagnostic.column >= 1, "\(file): \(diagnostic)")
                #expect(!diagnostic.message.isEmpty && diagnostic.hint?.isEmpty != true, "\(file): \(diagnostic)")
            }
        }
    }

    @Test(arguments: versions)
    func everyValidDocumentIsReadWithTheValuesTheCorpusExpects(version: TOMLVersion) throws {
        let files = try CorpusFile.listed(for: version).filter { $0.name.hasPrefix("valid/") }
        #expect(files.count == (version == .v1_0 ? 210 : 220))
        for file in files {
            let document = TOMLDocument(parsing: file.bytes, version: version)
            #expect(document.diagnostics.isEmpty, "refused although valid: \(file): \(document.diagnostics)")
            let differences = TaggedJSON.differences(document.root, expected: try file.expectation())
            #expect(differences.isEmpty, "\(file): \(differences)")
        }
    }

    @Test func theNewerDocumentsAreTOML11Only() throws {
        let older = Set(try CorpusFile.listed(for: .v1_0).map(\.name))
        let newer = try CorpusFile.listed(for: .v1_1).filter { $0.name.hasPrefix("valid/") && !older.contains($0.name) }
        #expect(newer.count >= 11)
        let refusedByOlder = newer.filter { file in
            !file.name.contains("spec-1.1.0") && TOMLDocument(parsing: file.bytes, version: .v1_0).isValid
        }
        #expect(refusedByOlder.isEmpty, "read as TOML 1.0 although they use TOML 1.1: \(refusedByOlder)")
    }

    /// `hooray config check` and the daemon read only the values, the editor the whole document: both
    /// must see the same values, places and mistakes.
    @Test(arguments: versions)
    func readingOnlyTheValuesGivesTheSameValuesAndMistakesAsReadingTheDocument(version: TOMLVersion) throws {
        var checked = 0
        for file in try CorpusFile.listed(for: version) {
            guard let text = String(bytes: file.bytes, encoding: .utf8) else { continue }
            checked += 1
            let document = TOMLDocument(parsing: text, version: version)
            let values = TOMLDocument.values(parsing: text, version: version)
            #expect(values.root.isSame(as: document.root), "\(file)")
            #expect(values.diagnostics == document.diagnostics, "\(file)")
        }
        #expect(checked > 650)
    }

    @Test func aLongListOfTablesIsReadElementByElementWithItsPlacesAndMistakes() throws {
        let text = """
            [[r]]
            id = 1

            [[r]]
            id = 2
            [[r]] x
            id = 3
            [[r]]
            id = 4
            [r.s]
            k = 1
            [[r]]
            id = 5

            """
        let values = TOMLDocument.values(parsing: text)
        let document = TOMLDocument(parsing: text)
        #expect(values.root.isSame(as: document.root) && values.diagnostics == document.diagnostics)
        #expect(
            values.diagnostics.map(\.description) == [
                "6:7: unexpected `x` after the table header"
                    + " (only a # comment may follow a table header on its line)"
            ])
        let elements = try #require(values.root["r"]?.value.array)
        #expect(elements.map(\.position.line) == [1, 4, 8, 12])
        #expect(elements.map { $0.value.table?["id"]?.value } == [.integer(1), .integer(2), .integer(4), .integer(5)])
        #expect(elements.map { $0.value.table?["id"]?.position.line } == [2, 5, 9, 13])
        #expect(elements[2].value.table?["s"]?.value.table?["k"]?.value == .integer(1))
    }

    @Test func keysAndTextsThatRepeatAreReadAsWrittenWithTheirPlaces() throws {
        // Texts alike in their first and last eight bytes, a text longer than those made once, a
        // comment, a line end of Windows, a multi-line text and a key set twice.
        let long = String(repeating: "Stand up and stretch. ", count: 4)
        let text = """
            [[r]]
            id = "aaaaaaaaXbbbbbbbb"  # first
            title = 'aaaaaaaaYbbbbbbbb'
            body = "\(long)"
            [[r]]
            id = "aaaaaaaaYbbbbbbbb"\r
            title = 'aaaaaaaaXbbbbbbbb'
            body = "\(long)"
            at = 07:30
              "é" = "café"
            [[r]]
            id = "aaaaaaaaXbbbbbbbb"
            note = \"""
            two
            lines\"""
            id = "again"

            """
        let values = TOMLDocument.values(parsing: text)
        let document = TOMLDocument(parsing: text)
        #expect(values.root.isSame(as: document.root) && values.diagnostics == document.diagnostics)
        #expect(
            values.diagnostics.map(\.description) == [
                "16:1: `r.id` is set twice (a key may appear once in each table; "
                    + "to override a value, put it in a later file such as conf.d/)"
            ])
        let elements = try #require(values.root["r"]?.value.array).compactMap(\.value.table)
        #expect(
            elements.map { $0["id"]?.value } == [
                .string("aaaaaaaaXbbbbbbbb"), .string("aaaaaaaaYbbbbbbbb"), .string("aaaaaaaaXbbbbbbbb"),
            ])
        #expect(
            elements.map { $0["title"]?.value } == [.string("aaaaaaaaYbbbbbbbb"), .string("aaaaaaaaXbbbbbbbb"), nil])
        #expect(elements.map { $0["body"]?.value } == [.string(long), .string(long), nil])
        #expect(elements[1]["at"]?.value == .dateTime(TOMLDateTime(kind: .localTime, text: "07:30:00")))
        #expect(elements[1]["é"]?.value == .string("café"))
        #expect(elements[2]["note"]?.value == .string("two\nlines"))
        #expect(
            elements.map { $0.entries.map(\.keyPosition.description) } == [
                ["2:1", "3:1", "4:1"], ["6:1", "7:1", "8:1", "9:1", "10:3"], ["12:1", "13:1"],
            ])
        #expect(elements[1]["é"]?.position.description == "10:9")
    }

    @Test func everyCorpusDocumentIsPrintedBackByteForByte() throws {
        var all = try CorpusFile.listed(for: .v1_0) + CorpusFile.listed(for: .v1_1)
        all.append(CorpusFile(name: "../../../Config/hooray.toml"))
        var checked = 0
        for file in all {
            // Bytes that are not UTF-8 cannot be a `String`; those files are the encoding tests.
            guard let text = String(bytes: file.bytes, encoding: .utf8) else { continue }
            checked += 1
            #expect(TOMLDocument(parsing: text).text == text, "\(file)")
            #expect(TOMLDocument(parsing: text, version: .v1_0).text == text, "\(file)")
        }
        #expect(checked > 1400)
    }
}

extension TOMLTable {
    /// Whether two tables hold the same keys, values and places; unlike `==`, a NaN is the same as a NaN.
    func isSame(as other: TOMLTable) -> Bool {
        isInline == other.isInline && position == other.position && entries.count == other.entries.count
            && zip(entries, other.entries).allSatisfy { entry, otherEntry in
                entry.key == otherEntry.key && entry.keyPosition == otherEntry.keyPosition
                    && entry.item.isSame(as: otherEntry.item)
            }
    }
}

extension TOMLItem {
    func isSame(as other: TOMLItem) -> Bool {
        guard position == other.position else { return false }
        switch (value, other.value) {
        case (.float(let number), .float(let otherNumber)):
            return number == otherNumber || (number.isNaN && otherNumber.isNaN && number.sign == otherNumber.sign)
        case (.array(let items), .array(let otherItems)):
            return items.count == otherItems.count && zip(items, otherItems).allSatisfy { $0.isSame(as: $1) }
        case (.table(let table), .table(let otherTable)):
            return table.isSame(as: otherTable)
        default:
            return value == other.value
        }
    }
}
