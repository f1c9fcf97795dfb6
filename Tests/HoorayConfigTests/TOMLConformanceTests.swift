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
    /// Documents TOML 1.0 refuses and TOML 1.1, which Hooray reads, allows: times without seconds,
    /// line breaks and a trailing comma in inline tables, `\x` escapes.
    static let validInTOML11: Set<String> = {
        let list = try? String(contentsOfFile: CorpusFile.root + "/valid-in-toml-1.1", encoding: .utf8)
        return Set((list ?? "").split(separator: "\n").map(String.init))
    }()

    @Test func everyInvalidDocumentIsRefusedWithItsLineAndColumn() throws {
        let files = try CorpusFile.all(in: "invalid")
        #expect(files.count == 509)
        var accepted: Set<String> = []
        var unplaced: [String] = []
        for file in files {
            let found = diagnostics(of: { try ConfigFileParser.parseFile(atPath: file.path) })
            guard !found.errors.isEmpty else {
                accepted.insert(file.name)
                continue
            }
            for error in found.errors where !error.isPlaced {
                unplaced.append("\(file.name): \(error)")
            }
        }
        #expect(accepted == Self.validInTOML11, "accepted although invalid: \(accepted)")
        #expect(unplaced.isEmpty, "refused without a line and column: \(unplaced)")
    }

    @Test func everyValidDocumentIsRead() throws {
        let files = try CorpusFile.all(in: "valid")
        #expect(files.count == 268)
        var refused: [String] = []
        for file in files {
            let found = diagnostics(of: { try ConfigFileParser.parseFile(atPath: file.path) })
            if let error = found.errors.first { refused.append("\(file.name): \(error)") }
        }
        #expect(refused.isEmpty, "valid TOML refused: \(refused)")
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
        ("d = 1979-05-27T=7:32:00\n", 1, 5, "this is not a complete TOML date or time"),
        ("d = [1979-05-27 1]\n", 1, 17, "`1` cannot stand in a list here"),
        // Found in review: toml++ stepped back further than it keeps.
        ("a = 2026-11-24" + String(repeating: "_", count: 117) + " \n", 1, 15, "a date cannot hold `_`"),
        ("a = 2026-11-24" + String(repeating: "_", count: 116) + " 1", 1, 15, "a date cannot hold `_`"),
        ("a = 2026-11-24" + String(repeating: "_", count: 115) + " 00:00:00\n", 1, 15, "a date cannot hold `_`"),
        ("a = 2026-11-24" + String(repeating: "_", count: 116) + " 1 \n", 1, 15, "a date cannot hold `_`"),
        ("a = [2026-11-24" + String(repeating: "_", count: 116) + " 00]\n", 1, 16, "a date cannot hold `_`"),
    ])
    func aHeaderWithoutANameIsAnErrorNotACrash(text: String, line: Int, column: Int, message: String) {
        let found = diagnostics(of: { try ConfigFileParser.parse(text, file: "hooray.toml") })
        // Every mistake is reported: the first is the one in question.
        #expect(!found.errors.isEmpty)
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
