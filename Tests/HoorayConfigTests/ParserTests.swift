import Foundation
import HoorayConfig
import HoorayKit
import Testing

@Suite struct ParserTests {
    @Test func aSyntaxErrorNamesFileLineAndColumnInPlainWords() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "hooray.toml",
            """
            [scheduler]
            catch_up_within = "2h"

            [[plugins.reminders.reminder]]
            title = Stretch
            """)

        let found = diagnostics { try ConfigFileParser.parseFile(atPath: file) }

        #expect(found.count == 1)
        let description = found.description
        #expect(description.hasPrefix("\(file):5:9: error: "))
        #expect(description.contains("double quotes"))
        #expect(!description.contains("Error while parsing"))
    }

    @Test(
        arguments: [
            ("a = 1\na = 2\n", 2, 1, "`a` is set twice"),
            ("[log]\nlevel = \"info\"\n[log]\n", 3, 1, "the table [log] is defined twice"),
            ("at = 15:0\n", 1, 6, "not a complete TOML date or time"),
            ("n = 05\n", 1, 5, "must not start with 0"),
            ("title = \"Stretch\nbody = 1\n", 1, 17, "the string is not closed on this line"),
            ("a = 1 b = 2\n", 1, 7, "unexpected `b` after the value"),
            ("x = { a = 1,, }\n", 1, 13, "a key is missing before this comma"),
            ("a =\n", 1, 4, "the value is missing"),
            ("[plugins.reminders\nx = 1\n", 1, 19, "the table header is not closed"),
            ("[[r]]\nx = 1\n[r]\n", 3, 1, "`r` is already a list of tables ([[r]])"),
            ("b = 'open", 1, 10, "the string is not closed"),
        ])
    func syntaxErrorsAreTranslated(text: String, line: Int, column: Int, message: String) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("bad.toml", text)

        let found = diagnostics { try ConfigFileParser.parseFile(atPath: file) }

        #expect(found.first?.location == Location(file: file, line: line, column: column))
        #expect(found.first?.message.contains(message) == true, "\(found)")
    }

    @Test func keysAndValuesKnowWhereTheyAreWritten() throws {
        let directory = try TemporaryDirectory()
        let (root, file) = try parseFile(
            """
            # A comment with = and [brackets]
            top = "a # not a comment"
            [delivery]
              icon = 'x'
            "quoted key" = 1
            note = \"\"\"
            several [lines]
            title = "not a key"
            \"\"\"
            dotted.inner = true

            [[plugins.reminders.reminder]]
            title = "One"
            [[plugins.reminders.reminder]]
            title = "Two"
            days = ["mon",
                    "tue"]
            point = { x = 1, y = 2 }
            after = 3
            """, in: directory)

        func location(_ line: Int, _ column: Int) -> Location {
            Location(file: file, line: line, column: column)
        }
        #expect(root["top"]?.location == location(2, 7))
        #expect(root["delivery"]?.location == location(3, 1))
        #expect(root["delivery"]?["icon"]?.location == location(4, 10))
        #expect(root["delivery"]?.table?.keyLocation(of: "icon") == location(4, 3))
        #expect(root["delivery"]?["quoted key"]?.location == location(5, 16))
        #expect(root["delivery"]?["note"]?.location == location(6, 8))
        #expect(root["delivery"]?["dotted"]?["inner"]?.location == location(10, 16))
        #expect(root["delivery"]?["title"] == nil)
        let reminders = try #require(root.node(at: ["plugins", "reminders", "reminder"])?.array)
        #expect(reminders.count == 2)
        #expect(reminders[0].location == location(12, 1))
        #expect(reminders[1].location == location(14, 1))
        #expect(reminders[1]["title"]?.location == location(15, 9))
        #expect(reminders[1]["days"]?.array?[1].location == location(17, 9))
        #expect(reminders[1]["point"]?["y"]?.location == location(18, 22))
        #expect(reminders[1]["after"]?.location == location(19, 9))
    }

    @Test func windowsLineEndingsAndInlineArraysOfTablesAreLocated() throws {
        let directory = try TemporaryDirectory()
        let (root, file) = try parseFile(
            "[plugins.reminders]\r\nreminder = [\r\n  { title = \"A\", at = \"08:00\" },\r\n"
                + "  { title = \"B\", at = 9 },\r\n]\r\nsettings.volume = 3\r\n",
            in: directory)

        let reminders = try #require(root.node(at: ["plugins", "reminders", "reminder"])?.array)
        #expect(reminders[1]["at"]?.location == Location(file: file, line: 4, column: 23))
        #expect(
            root.node(at: ["plugins", "reminders", "settings"])?.location == Location(file: file, line: 6, column: 1))
        #expect(
            root.node(at: ["plugins", "reminders", "settings", "volume"])?.location
                == Location(file: file, line: 6, column: 19))
    }

    @Test func tablesKeepTheKeysInFileOrder() throws {
        let directory = try TemporaryDirectory()
        let (root, _) = try parseFile("zeta = 1\nalpha = 2\nmiddle = 3\n", in: directory)

        #expect(root.table?.keys == ["zeta", "alpha", "middle"])
    }

    @Test func datesAndTimesKeepTheirTextForm() throws {
        let directory = try TemporaryDirectory()
        let (root, _) = try parseFile(
            """
            offset = 2026-01-05T08:00:00+01:00
            utc = 2026-01-05 08:00:00Z
            local = 2026-01-05T08:00:00.5
            day = 2026-01-05
            time = 08:30:00
            """, in: directory)

        #expect(
            root["offset"]?.value == .dateTime(ConfigDateTime(kind: .offsetDateTime, text: "2026-01-05T08:00:00+01:00"))
        )
        #expect(root["utc"]?.value == .dateTime(ConfigDateTime(kind: .offsetDateTime, text: "2026-01-05T08:00:00Z")))
        #expect(root["local"]?.value == .dateTime(ConfigDateTime(kind: .localDateTime, text: "2026-01-05T08:00:00.5")))
        #expect(root["day"]?.value == .dateTime(ConfigDateTime(kind: .localDate, text: "2026-01-05")))
        #expect(root["time"]?.value == .dateTime(ConfigDateTime(kind: .localTime, text: "08:30:00")))
    }

    @Test func aMissingFileIsNoFile() throws {
        let directory = try TemporaryDirectory()

        #expect(try ConfigFileParser.parseFile(atPath: directory.path + "/absent.toml") == nil)
    }

    @Test func aDirectoryInPlaceOfAFileIsAnErrorNamingThePath() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/hooray.toml"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)

        let found = diagnostics { try ConfigFileParser.parseFile(atPath: path) }

        #expect(found.description.hasPrefix("\(path): error: cannot read \(path): it is a directory"))
    }

    @Test(.enabled(if: getuid() != 0, "root can read any file"))
    func anUnreadableFileIsAnErrorNamingThePath() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("hooray.toml", "a = 1\n")
        chmod(path, 0o000)

        let found = diagnostics { try ConfigFileParser.parseFile(atPath: path) }

        #expect(found.first?.message == "cannot read \(path): permission denied")
    }

    @Test func textThatIsNotUTF8IsReportedWhereItGoesWrong() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/latin1.toml"
        let bytes = Array("a = 1\nb = \"caf".utf8) + [0xE9] + Array("\"\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let found = diagnostics { try ConfigFileParser.parseFile(atPath: path) }

        #expect(found.first?.location == Location(file: path, line: 2, column: 9))
        #expect(found.first?.message == "the file is not UTF-8 text")
    }
}
