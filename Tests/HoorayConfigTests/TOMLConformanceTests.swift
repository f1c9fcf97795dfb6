import Foundation
import HoorayConfig
import HoorayKit
import Testing

/// The toml-test corpus (`Tests/Fixtures/toml-test`, MIT): documents nobody on this project wrote.
///
/// Every invalid document must be refused with a file, line and column, and no document may crash
/// the process — a crash here takes the whole test run down, which is the point: the same parser
/// runs inside `hoorayd`.
@Suite struct TOMLConformanceTests {
    /// Valid TOML 1.1 documents that toml++ 3.4, which speaks TOML 1.0, refuses (with a location).
    static let newerThanTOML10: Set<String> = [
        "valid/datetime/no-seconds.toml",
        "valid/inline-table/newline-comment.toml",
        "valid/inline-table/newline.toml",
        "valid/key/empty-05.toml",
        "valid/spec-1.1.0/common-12.toml",
        "valid/spec-1.1.0/common-29.toml",
        "valid/spec-1.1.0/common-31.toml",
        "valid/spec-1.1.0/common-34.toml",
        "valid/spec-1.1.0/common-47.toml",
        "valid/string/escape-esc.toml",
        "valid/string/hex-escape.toml",
    ]

    @Test func everyInvalidDocumentIsRefusedWithItsLineAndColumn() throws {
        let files = try CorpusFile.all(in: "invalid")
        #expect(files.count == 509)
        var accepted: [String] = []
        var unplaced: [String] = []
        for file in files {
            let found = diagnostics(of: { try ConfigFileParser.parseFile(atPath: file.path) })
            guard let error = found.errors.first else {
                accepted.append(file.name)
                continue
            }
            if !error.isPlaced {
                unplaced.append("\(file.name): \(error)")
            }
        }
        #expect(accepted.isEmpty, "accepted although invalid: \(accepted)")
        #expect(unplaced.isEmpty, "refused without a line and column: \(unplaced)")
    }

    @Test func everyValidDocumentIsReadExceptTOML11Features() throws {
        let files = try CorpusFile.all(in: "valid")
        #expect(files.count == 268)
        var refused: [String] = []
        var newerRefused: Set<String> = []
        for file in files {
            let found = diagnostics(of: { try ConfigFileParser.parseFile(atPath: file.path) })
            guard let error = found.errors.first else { continue }
            if Self.newerThanTOML10.contains(file.name) {
                newerRefused.insert(file.name)
                #expect(error.isPlaced, "\(file.name): \(error)")
            } else {
                refused.append("\(file.name): \(error)")
            }
        }
        #expect(refused.isEmpty, "valid TOML 1.0 refused: \(refused)")
        #expect(newerRefused == Self.newerThanTOML10, "toml++ reads more of TOML 1.1 now: update the list")
    }

    @Test(arguments: [
        ("[\n", 1, 2, "the line ends after `[`"),
        ("[", 1, 2, "the table header is not complete"),
        ("[!]\nk = 123\n", 1, 2, "`!` cannot start one"),
        ("[.]\n", 1, 2, "`.` cannot start one"),
        ("[..]\n", 1, 2, "`.` cannot start one"),
        ("[[ \n", 1, 4, "the line ends after `[`"),
        ("[[[a]]]\n", 1, 3, "`[` cannot start one"),
        ("a = 1\n\n  [\t#\n", 3, 5, "`#` cannot start one"),
        ("a = \"open\n[\n", 1, 10, "the string is not closed"),
        ("x = \"\"\"\n[\n\"\"\"\n[+]\n", 4, 2, "`+` cannot start one"),
        ("\u{FEFF}\u{FEFF}a = 1\n", 1, 1, "two byte-order marks"),
        // Found by the fuzz tests: toml++ asserted on each.
        ("a = [\n  1,\n  }\n]\n", 3, 3, "`}` cannot stand in a list"),
        ("a = [\u{2028}]\n", 1, 6, "cannot stand in a list"),
        ("d = 1979-05-27T=7:32:00\n", 1, 5, "this is not a TOML value"),
        ("d = [1979-05-27 1]\n", 1, 17, "expected comma"),
    ])
    func aHeaderWithoutANameIsAnErrorNotACrash(text: String, line: Int, column: Int, message: String) {
        let found = diagnostics(of: { try ConfigFileParser.parse(text, file: "hooray.toml") })
        #expect(found.errors.count == 1)
        let error = found.errors.first
        #expect(error?.location?.line == line)
        #expect(error?.location?.column == column)
        #expect(error.map { "\($0)".contains(message) } == true, "\(found)")
    }

    @Test(arguments: [
        "a = [\n  [+1, 2],\n  [ -3 ],\n]\n",
        "s = '''\n[\n[.]\n'''\n",
        "s = \"\"\"\n[!]\\\"\"\"\n\"\"\"\n",
        "[ \"quoted . key\" ]\n[[ 'lit' ]]\n",
        "[a]\n[ a.b ]\n[\ta.c\t]\n",
        "\u{FEFF}[a]\n",
    ])
    func headersTOMLAllowsStillParse(text: String) throws {
        _ = try ConfigFileParser.parse(text, file: "hooray.toml")
    }
}

/// A document of the toml-test corpus.
struct CorpusFile {
    /// Its path below the corpus folder, such as `invalid/table/dot.toml`.
    let name: String
    let path: String

    static let root: String = {
        // Tests/HoorayConfigTests/this file → the package root is three levels up.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/toml-test").path
    }()

    static func all(in folder: String) throws -> [CorpusFile] {
        let base = root + "/" + folder
        guard let enumerator = FileManager.default.enumerator(atPath: base) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: base])
        }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".toml") }.sorted().map {
            CorpusFile(name: folder + "/" + $0, path: base + "/" + $0)
        }
    }
}

extension ConfigDiagnostic {
    /// Whether it names a line and a column.
    var isPlaced: Bool { location.map { $0.line > 0 && $0.column > 0 } == true }
}
