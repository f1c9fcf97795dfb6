import Foundation
import HoorayKit
import RemindersPlugin
import Testing

@testable import HoorayConfig

/// A reminder is read straight from its table when it is good, and through `init(from:)` when
/// anything is off; `hooray config check` must say the same either way.
@Suite struct ReminderEntryReadingTests {
    /// Good reminders, each as it is written in a file: read straight from the table.
    static let goodEntries = [
        "title = \"Stretch\"\nat = \"15:00\"",
        """
        id = "plants"
        title = "Water the plants"
        body = "The ficus too."
        at = "7:05"
        days = "fri-mon"
        zone = "Asia/Tokyo"
        urgency = "critical"
        """,
        "title = \"Run\"\nat = \"06:30\"\nevery = \"3d\"\nstart = \"2026-11-01\"",
        "title = \"Run\"\nat = \"06:30\"\nevery = \"2 weeks\"",
        "title = \"Unquoted\"\nat = 15:00\nevery = \"2d\"\nstart = 2026-11-01",
        "title = 09:30\nat = 09:30:00\ndays = \"weekends\"\nurgency = \"low\"",
        "at = \"23:59\"\ntitle = \"Keys in another order\"\nbody = \"\"\ndays = \" mon , wed \"",
        "title = 'Literal'\nbody = \"\"\"\nTwo\nlines\"\"\"\nat = \"00:00\"",
    ]

    /// Reminders with something off, each as it is written in a file: decoded through `init(from:)`.
    static let badEntries = [
        "title = \"Unknown key\"\nat = \"10:00\"\nbodyy = \"x\"",
        "title = \"Stranger\"\nat = \"10:00\"\ncolour = \"red\"",
        "title = \"Wrong type\"\nat = 1500",
        "title = \"Bad time\"\nat = \"25:00\"",
        "title = \"Seconds\"\nat = 15:00:30",
        "title = \"A date\"\nat = 2026-01-05",
        "title = \"Bad weekday\"\nat = \"10:00\"\ndays = \"mon-funday\"",
        "title = \"Urgent\"\nat = \"10:00\"\nurgency = \"critcal\"",
        "at = \"10:00\"",
        "titel = \"Typo\"\nat = \"10:00\"",
        "title = \"No time\"",
        "title = \"Both\"\nat = \"10:00\"\ndays = \"mon\"\nevery = \"2d\"",
        "title = \"Start only\"\nat = \"10:00\"\nstart = \"2026-01-05\"",
        "title = \" \"\nat = \"10:00\"",
        "title = \"\"\nat = \"10:00\"",
        "title = \"Reserved\"\nid = \"snoozed.x\"\nat = \"10:00\"",
        "title = \"Reserved\"\nid = \"notice.x\"\nat = \"10:00\"",
        "title = \"Zone\"\nat = \"10:00\"\nzone = \"Mars/Olympus\"",
        "title = \"Every bad\"\nat = \"10:00\"\nevery = \"0d\"",
        "title = \"Bad date\"\nat = \"10:00\"\nevery = \"2d\"\nstart = \"2026-13-01\"",
        "title = \"Float\"\nat = \"10:00\"\nbody = 1.5",
        "title = \"Flag\"\nat = \"10:00\"\nid = true",
        "title = \"List\"\nat = \"10:00\"\ndays = [\"mon\"]",
        "title = \"Nested\"\nat = \"10:00\"\nmore = { x = 1 }",
        "title = \"Upper\"\nAt = \"10:00\"",
    ]

    /// What became of `[plugins.reminders]` of `text`, decoded straight where it can be (`direct`)
    /// or all through `init(from:)`: the configuration, and every message as text.
    private struct Outcome: Equatable {
        var configuration: RemindersPlugin.Configuration?
        var messages: String
    }

    private func decode(_ text: String, direct: Bool) throws -> Outcome {
        let directory = try TemporaryDirectory()
        let (root, file) = try parseFile(text, in: directory)
        var decoder = ConfigDecoder()
        decoder.readsTablesDirectly = direct
        var outcome: Outcome
        do {
            let (value, warnings) = try decoder.decode(
                RemindersPlugin.Configuration.self, from: root.node(at: ["plugins", "reminders"]) ?? .emptyTable(),
                at: ["plugins", "reminders"], permittedKeys: PluginSection.hostKeys)
            outcome = Outcome(configuration: value, messages: ConfigDiagnostics(warnings).description)
        } catch {
            outcome = Outcome(configuration: nil, messages: error.description)
        }
        outcome.messages = outcome.messages.replacingOccurrences(of: file, with: "FILE")
        return outcome
    }

    private func file(of entries: [String]) -> String {
        entries.map { "[[plugins.reminders.reminder]]\n\($0)\n" }.joined(separator: "\n")
    }

    @Test(arguments: goodEntries + badEntries)
    func aReminderReadsTheSameStraightFromItsTableAsThroughDecodable(entry: String) throws {
        let text = file(of: [entry])
        #expect(try decode(text, direct: true) == decode(text, direct: false))
    }

    @Test func aFileOfGoodAndBadRemindersSaysTheSameEitherWay() throws {
        let text = file(of: Self.goodEntries + Self.badEntries + Self.goodEntries)
        let direct = try decode(text, direct: true)
        #expect(direct == (try decode(text, direct: false)))
        #expect(direct.messages.contains("FILE:"))
    }

    /// A reminder made in code, as a merge makes tables, rather than read from a file.
    @Test(
        arguments: [
            (["title": .string("Stretch"), "at": .dateTime(ConfigDateTime(kind: .localTime, text: "15:00:00"))], true),
            (
                [
                    "title": .string("Stretch"), "at": .string("15:00"), "days": .string("mon-fri"),
                    "urgency": .string("low"),
                ], true
            ),
            (["title": .string("Stretch"), "at": .integer(1500)], false),
            (["title": .string("Stretch"), "at": .string("15:00"), "bodyy": .string("x")], false),
        ] as [([String: ConfigNode.Value], Bool)])
    func aReminderMadeInCodeReadsTheSameStraightAsThroughDecodable(values: [String: ConfigNode.Value], good: Bool) {
        var table = ConfigTable()
        for key in values.keys.sorted() { table.set(ConfigNode(values[key]!), forKey: key, keyLocation: nil) }
        let node = ConfigNode(.table(table))
        #expect((readGoodTable(RemindersPlugin.Entry.self, from: node) != nil) == good)
        func decoded(direct: Bool) -> String {
            var decoder = ConfigDecoder()
            decoder.readsTablesDirectly = direct
            do {
                let (entry, warnings) = try decoder.decode(RemindersPlugin.Entry.self, from: node)
                return "\(entry) \(ConfigDiagnostics(warnings))"
            } catch {
                return error.description
            }
        }
        #expect(decoded(direct: true) == decoded(direct: false))
    }

    @Test func goodRemindersAreReadStraightFromTheirTablesAndBadOnesAreLeftToDecodable() throws {
        for (entries, good) in [(Self.goodEntries, true), (Self.badEntries, false)] {
            for entry in entries {
                let directory = try TemporaryDirectory()
                let (root, _) = try parseFile(file(of: [entry]), in: directory)
                let node = try #require(root.node(at: ["plugins", "reminders", "reminder", .index(0)]))
                let read = readGoodTable(RemindersPlugin.Entry.self, from: node)
                #expect((read != nil) == good, "\(entry)")
                if let read {
                    let decoded = try ConfigDecoder().decode(RemindersPlugin.Entry.self, from: node).value
                    #expect(read == decoded)
                }
            }
        }
    }

    /// Every kind of mistake in a reminder, among good ones: what `hooray config check` said of
    /// this file before good reminders were read straight from their tables, word for word.
    @Test func configCheckSaysWhatItSaidOfBadRemindersWordForWord() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "bad.toml",
            """
            [plugins.reminders]
            enabled = true
            extra = 1

            [[plugins.reminders.reminder]]
            title = "Good"
            at = "10:00"

            [[plugins.reminders.reminder]]
            title = "Unknown key"
            at = "10:00"
            bodyy = "x"

            [[plugins.reminders.reminder]]
            title = "Stranger"
            at = "10:00"
            colour = "red"

            [[plugins.reminders.reminder]]
            title = "Wrong type"
            at = 1500

            [[plugins.reminders.reminder]]
            title = "Bad time"
            at = "25:00"

            [[plugins.reminders.reminder]]
            title = "Bad weekday"
            at = "10:00"
            days = "mon-funday"

            [[plugins.reminders.reminder]]
            title = "Urgent"
            at = "10:00"
            urgency = "critcal"

            [[plugins.reminders.reminder]]
            at = "10:00"

            [[plugins.reminders.reminder]]
            titel = "Typo"
            at = "10:00"

            [[plugins.reminders.reminder]]
            title = "Both"
            at = "10:00"
            days = "mon"
            every = "2d"

            [[plugins.reminders.reminder]]
            title = "Start only"
            at = "10:00"
            start = "2026-01-05"

            [[plugins.reminders.reminder]]
            title = " "
            at = "10:00"

            [[plugins.reminders.reminder]]
            title = "Reserved"
            id = "snoozed.x"
            at = "10:00"

            [[plugins.reminders.reminder]]
            title = "Zone"
            at = "10:00"
            zone = "Mars/Olympus"

            [[plugins.reminders.reminder]]
            title = "Every bad"
            at = "10:00"
            every = "0d"

            [[plugins.reminders.reminder]]
            title = "Bad date"
            at = "10:00"
            every = "2d"
            start = "2026-13-01"

            [[plugins.reminders.reminder]]
            title = 15:00
            at = 15:00:00
            start = 2026-01-05
            every = "3d"

            [[plugins.reminders.reminder]]
            title = "Float"
            at = "10:00"
            body = 1.5

            [[plugins.reminders.reminder]]
            title = "Inline"
            at = "10:00"
            days = ["mon"]

            [[plugins.reminders.reminder]]
            title = "Good with all"
            id = "all"
            body = "b"
            at = "7:05"
            days = "weekdays"
            zone = "Europe/Berlin"
            urgency = "low"

            [[plugins.reminders.reminder]]
            title = "Nested"
            at = "10:00"
            [plugins.reminders.reminder.more]
            x = 1

            """)

        let report = ConfigLoader(paths: directory.paths, plugins: [RemindersPlugin()]).check(onlyFile: file)

        #expect(
            report.description.replacingOccurrences(of: file, with: "FILE")
                == """
                FILE:12:1: warning: plugins.reminders.reminder[1]: unknown key `bodyy`
                    hint: did you mean `body`?
                FILE:17:1: warning: plugins.reminders.reminder[2]: unknown key `colour`
                    hint: remove it or check its spelling; this table takes `id`, `title`, `body`, `at`, `days`, `every`, `start`, `zone`, `urgency`
                FILE:21:6: error: plugins.reminders.reminder[3].at: expected a string such as "15:00", found integer 1500
                FILE:25:6: error: plugins.reminders.reminder[4].at: "25:00" is not a time of day; write it as HH:MM, e.g. "15:00"
                FILE:30:8: error: plugins.reminders.reminder[5].days: "mon-funday" is not a list of weekdays ("funday" is not a day); use names like mon, tue, ... sun, ranges like mon-fri, or commas: mon,wed,fri
                FILE:35:11: error: plugins.reminders.reminder[6].urgency: "critcal" is not one of "low", "normal" or "critical"
                    hint: did you mean "critical"?
                FILE:37:1: error: plugins.reminders.reminder[7]: missing required key `title`
                FILE:40:1: error: plugins.reminders.reminder[8]: missing required key `title`
                    hint: `titel` is set here; did you mean `title`?
                FILE:41:1: warning: plugins.reminders.reminder[8]: unknown key `titel`
                    hint: did you mean `title`?
                FILE:48:9: error: plugins.reminders.reminder[9].every: use either `days` or `every` in one reminder, not both
                FILE:53:9: error: plugins.reminders.reminder[10].start: `start` only applies to `every = "Nd"` reminders; add `every` or remove `start`
                FILE:56:9: error: plugins.reminders.reminder[11].title: a reminder needs a title that is not empty
                FILE:61:6: error: plugins.reminders.reminder[12].id: a reminder id cannot start with "snoozed.", which Hooray keeps for snoozed notices; pick another id
                FILE:67:8: error: plugins.reminders.reminder[13].zone: "Mars/Olympus" is not a known time zone; use an IANA name such as "Europe/Berlin" (`timedatectl list-timezones` lists them)
                FILE:72:9: error: plugins.reminders.reminder[14].every: "0d" is not an interval of days; write it like "3d", "1 day" or "2w"
                FILE:78:9: error: plugins.reminders.reminder[15].start: "2026-13-01" is not a date; write it as YYYY-MM-DD, e.g. "2026-03-08"
                FILE:89:8: error: plugins.reminders.reminder[17].body: expected a string, found float 1.5
                    hint: put the value in double quotes
                FILE:94:8: error: plugins.reminders.reminder[18].days: expected a string, found an array
                FILE:108:29: warning: plugins.reminders.reminder[20]: unknown key `more`
                    hint: remove it or check its spelling; this table takes `id`, `title`, `body`, `at`, `days`, `every`, `start`, `zone`, `urgency`
                checked 1 file: 15 errors, 4 warnings
                """)
        #expect(report.hasErrors)
    }

    @Test func remindersInSeveralFilesAreReportedEachInItsOwnFileAsBefore() throws {
        let directory = try TemporaryDirectory()
        let user = try directory.write(
            "config/hooray/hooray.toml",
            "[[plugins.reminders.reminder]]\ntitle = \"User\"\nat = \"10:00\"\n\n"
                + "[[plugins.reminders.reminder]]\ntitle = \"User bad\"\nat = \"10:00\"\ndayz = \"mon\"\n")
        let dropIn = try directory.write(
            "config/hooray/conf.d/more.toml",
            "[[plugins.reminders.reminder]]\ntitle = \"Dropin\"\nat = \"11:00\"\nurgency = \"hi\"\n\n"
                + "[[plugins.reminders.reminder]]\ntitle = \"Dropin good\"\nat = \"12:00\"\n")
        try directory.write(
            "config/hooray/conf.d/good.toml",
            "[[plugins.reminders.reminder]]\ntitle = \"Dropin good 2\"\nat = \"12:30\"\n")

        let report = ConfigLoader(paths: directory.paths, plugins: [RemindersPlugin()]).check()

        #expect(
            report.description == """
                \(user):8:1: warning: plugins.reminders.reminder[1]: unknown key `dayz`
                    hint: did you mean `days`?
                \(dropIn):4:11: error: plugins.reminders.reminder[3].urgency: "hi" is not one of "low", "normal" or "critical"
                checked 3 files: 1 error, 1 warning
                """)
    }
}
