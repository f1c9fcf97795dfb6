import Foundation
import HoorayTOML
import Testing

/// Files made to hurt a parser: each is refused with a place or read, never a crash or a hang.
@Suite struct HostileInputTests {
    static let shipped: [UInt8] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? Data(contentsOf: root.appendingPathComponent("Config/hooray.toml"))).map { Array($0) } ?? []
    }()

    @Test func tenThousandNestedInlineTablesAreRefusedPastTheLimit() {
        let depth = 10_000
        let text = "a = " + String(repeating: "{b = ", count: depth) + "1" + String(repeating: "}", count: depth) + "\n"
        let document = TOMLDocument(parsing: text)
        #expect(document.diagnostics.count == 1)
        let diagnostic = document.diagnostics.first
        #expect(diagnostic?.message.contains("nested more than 128 deep") == true, "\(document.diagnostics)")
        #expect(diagnostic?.line == 1)
        #expect(document.text == text)
    }

    @Test func tenThousandNestedListsAreRefusedPastTheLimit() {
        let text =
            "x = 1\na = " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "\ny = 2"
        let document = TOMLDocument(parsing: text)
        #expect(document.diagnostics.map(\.line) == [2])
        #expect(document.root["x"]?.value == .integer(1))
        #expect(document.root["y"]?.value == .integer(2))
        #expect(document.text == text)
    }

    @Test func dottedKeysInsideNestedInlineTablesAreRefusedPastTheLimit() {
        let key = Array(repeating: "a", count: 128).joined(separator: ".")
        let text =
            "x = " + String(repeating: "{\(key) = ", count: 127) + "1" + String(repeating: "}", count: 127) + "\n"
        let document = TOMLDocument(parsing: text)
        #expect(document.diagnostics.count == 1, "\(document.diagnostics.prefix(3))")
        #expect(document.diagnostics.first?.message.contains("nested more than 128 deep") == true)
        #expect(document.text == text)
    }

    @Test func aBackslashBeforeALineBreakInAOneLineStringIsNamedOnOneLine() {
        for (text, shown) in [("a = \"x\\\ny\"\n", "`\\\\n`"), ("a = \"x\\\r\ny\"\n", "`\\\\r`")] {
            let document = TOMLDocument(parsing: text)
            let message = document.diagnostics.first?.message ?? ""
            #expect(message.contains("unknown escape sequence \(shown)"), "\(document.diagnostics)")
            #expect(!message.contains("\n") && !message.contains("\r"))
            #expect(document.diagnostics.first?.line == 1)
        }
    }

    @Test func nestingUpToTheLimitIsRead() {
        let text = "a = " + String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
        #expect(TOMLDocument(parsing: text).isValid)
        let tables = "a = " + String(repeating: "{b = ", count: 128) + "1" + String(repeating: "}", count: 128)
        #expect(TOMLDocument(parsing: tables).isValid)
    }

    @Test func aKeyOfTenThousandPartsIsRefused() {
        let text = Array(repeating: "a", count: 10_000).joined(separator: ".") + " = 1\n"
        let document = TOMLDocument(parsing: text)
        #expect(document.diagnostics.first?.message.contains("more than 128 parts") == true)
        let header = "[" + Array(repeating: "a", count: 10_000).joined(separator: ".") + "]\n"
        #expect(TOMLDocument(parsing: header).diagnostics.first?.message.contains("more than 128 parts") == true)
    }

    @Test func aTenMegabyteKeyIsRead() {
        let key = String(repeating: "k", count: 10_000_000)
        let document = TOMLDocument(parsing: key + " = 1\n")
        #expect(document.isValid)
        #expect(document.root[key]?.value == .integer(1))
        let unclosed = TOMLDocument(parsing: "a = \"" + key)
        #expect(unclosed.diagnostics.map(\.message) == ["the string is not closed"])
        #expect(unclosed.diagnostics.first?.column == 10_000_006)
    }

    @Test func bytesThatAreNotUTF8AreNamedWithTheirPlace() {
        var bytes = Array("title = \"ok\"\nbody = \"caf".utf8)
        bytes += [0xE9, 0x22, 0x0A]  // Latin-1 é
        bytes += Array("x = 1\n".utf8)
        let document = TOMLDocument(parsing: bytes)
        #expect(document.diagnostics.count == 1)
        let diagnostic = document.diagnostics.first
        #expect(
            diagnostic?.line == 2 && diagnostic?.column == 12 && diagnostic?.offset == 24, "\(document.diagnostics)")
        #expect(diagnostic?.message.contains("not UTF-8") == true)
        #expect(document.root["x"]?.value == .integer(1))
    }

    @Test func aLoneBracketIsRefusedWithItsPlace() {
        let document = TOMLDocument(parsing: "[")
        #expect(document.diagnostics.map(\.position) == [TOMLPosition(line: 1, column: 2, offset: 1)])
        #expect(document.diagnostics.first?.message == "the table header is not complete: the file ends after `[`")
        #expect(document.text == "[")
    }

    @Test func theShippedConfigurationCutAtEveryByteIsReadOrRefusedWithAPlace() {
        let bytes = Self.shipped
        #expect(bytes.count > 1000)
        #expect(TOMLDocument(parsing: bytes).isValid)
        var refused = 0
        for end in 0...bytes.count {
            let document = TOMLDocument(parsing: Array(bytes[..<end]))
            if !document.isValid { refused += 1 }
            for diagnostic in document.diagnostics {
                #expect(diagnostic.offset <= end && diagnostic.line >= 1 && diagnostic.column >= 1, "cut at \(end)")
            }
            if let text = String(bytes: bytes[..<end], encoding: .utf8) {
                #expect(document.text == text, "cut at \(end)")
            }
        }
        #expect(refused > 40)
    }

    @Test func everyMistakeOfAFileIsReportedInOnePassAndTheRestIsRead() {
        let text = """
            title = Stretch
            [good]
            a = 1
            [bad
            b = 2
            [other]
            c = [1, 2
            d = "x"
            a = 3
            e = true

            """
        let document = TOMLDocument(parsing: text)
        #expect(document.diagnostics.map(\.line) == [1, 4, 7], "\(document.diagnostics)")
        #expect(document.root["good"]?.value.table?["a"]?.value == .integer(1))
        #expect(document.root["other"]?.value.table?["e"]?.value == .boolean(true))
        #expect(document.root["other"]?.value.table?["a"]?.value == .integer(3))
        #expect(document.text == text)
    }

    @Test func aFileOfOnlyMistakesStopsListingThemAtAHundred() {
        let text = String(repeating: "= oops\n", count: 5000)
        let document = TOMLDocument(parsing: text)
        #expect(document.diagnostics.count == 101)
        #expect(document.diagnostics.last?.message == "4900 more mistakes follow that are not listed")
        #expect(document.text == text)
    }
}
