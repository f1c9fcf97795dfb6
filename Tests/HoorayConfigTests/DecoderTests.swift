import Foundation
import HoorayCalendar
import HoorayConfig
import HoorayKit
import HoorayText
import Testing

@Suite struct DecoderTests {
    /// Parses `text` from a real file and decodes the `[plugins.reminders]` section of it.
    private func decodeReminders(_ text: String) throws -> (
        result: Result<(TestRemindersConfiguration, [ConfigDiagnostic]), ConfigDiagnostics>, file: String
    ) {
        let directory = try TemporaryDirectory()
        let (root, file) = try parseFile(text, in: directory)
        let section = root.node(at: ["plugins", "reminders"])
        let result = Result { () throws(ConfigDiagnostics) in
            try decodeConfiguration(of: TestRemindersPlugin(), from: section)
        }
        return (result, file)
    }

    private func failure(_ result: Result<(TestRemindersConfiguration, [ConfigDiagnostic]), ConfigDiagnostics>)
        -> ConfigDiagnostics
    {
        if case .failure(let diagnostics) = result { return diagnostics }
        return []
    }

    @Test func aGoodSectionDecodes() throws {
        let (result, _) = try decodeReminders(
            """
            [plugins.reminders]
            enabled = true

            [[plugins.reminders.reminder]]
            title = "Stretch"
            at = "15:00"
            urgency = "critical"
            """)

        let (configuration, warnings) = try result.get()
        #expect(
            configuration.reminder == [
                TestReminder(title: "Stretch", body: nil, at: TimeOfDay(hour: 15)!, days: nil, urgency: .critical)
            ])
        #expect(warnings.isEmpty)
    }

    @Test(arguments: ["15:00", "15:00:00"])
    func aTimeWrittenWithoutQuotesIsThatTimeOfDay(written: String) throws {
        let (result, _) = try decodeReminders(
            """
            [[plugins.reminders.reminder]]
            title = "Stretch"
            at = \(written)
            """)

        let (configuration, warnings) = try result.get()
        #expect(configuration.reminder?.map(\.at) == [TimeOfDay(hour: 15)!])
        #expect(warnings.isEmpty)
    }

    @Test func aValueOfTheWrongTypeIsReportedAtTheValueWithItsKeyPath() throws {
        let (result, file) = try decodeReminders(
            """
            [[plugins.reminders.reminder]]
            title = "Stretch"
            at = "15:00"

            [[plugins.reminders.reminder]]
            title = "Water"
            at = 1500
            """)

        let found = failure(result)
        #expect(found.count == 1)
        #expect(
            found.description
                == "\(file):7:6: error: plugins.reminders.reminder[1].at: expected a string such as \"15:00\", "
                + "found integer 1500")
    }

    @Test func aMisspeltKeyIsWarnedAboutWithASuggestion() throws {
        let (result, file) = try decodeReminders(
            """
            [[plugins.reminders.reminder]]
            title = "Stretch"
            at = "15:00"
            bodyy = "Roll your shoulders."
            """)

        let (_, warnings) = try result.get()
        #expect(warnings.count == 1)
        #expect(warnings.first?.severity == .warning)
        #expect(warnings.first?.location == Location(file: file, line: 4, column: 1))
        #expect(warnings.first?.message == "plugins.reminders.reminder[0]: unknown key `bodyy`")
        #expect(warnings.first?.hint == "did you mean `body`?")
    }

    @Test func aMisspeltRequiredKeyIsMissingAndWarnedAbout() throws {
        let (result, file) = try decodeReminders(
            """
            [[plugins.reminders.reminder]]
            tittle = "Stretch"
            at = "15:00"
            """)

        let found = failure(result)
        let error = try #require(found.errors.first)
        #expect(error.location == Location(file: file, line: 1, column: 1))
        #expect(error.message == "plugins.reminders.reminder[0]: missing required key `title`")
        #expect(error.hint == "`tittle` is set here; did you mean `title`?")
        let warning = try #require(found.warnings.first)
        #expect(warning.location == Location(file: file, line: 2, column: 1))
        #expect(warning.description.contains("unknown key `tittle`\n    hint: did you mean `title`?"))
    }

    @Test func aMissingRequiredKeyIsReportedAtItsTable() throws {
        let (result, file) = try decodeReminders(
            """
            [plugins.reminders]

            [[plugins.reminders.reminder]]
            at = "09:00"
            """)

        let found = failure(result)
        #expect(found.count == 1)
        #expect(
            found.description
                == "\(file):3:1: error: plugins.reminders.reminder[0]: missing required key `title`")
    }

    @Test func aValueATypeRejectsIsReportedAtTheValueWithTheTypesMessage() throws {
        let (result, file) = try decodeReminders(
            """
            [[plugins.reminders.reminder]]
            title = "Late"
            at = "25:00"
            """)

        let found = failure(result)
        #expect(found.first?.location == Location(file: file, line: 3, column: 6))
        #expect(
            found.first?.message
                == "plugins.reminders.reminder[0].at: \"25:00\" is not a time of day; write it as HH:MM, e.g. \"15:00\""
        )
    }

    @Test func aBadEnumerationValueListsTheAllowedValues() throws {
        let (result, file) = try decodeReminders(
            """
            [[plugins.reminders.reminder]]
            title = "Stretch"
            at = "15:00"
            urgency = "urgent"
            """)

        let found = failure(result)
        #expect(found.first?.location == Location(file: file, line: 4, column: 11))
        #expect(
            found.first?.message
                == "plugins.reminders.reminder[0].urgency: \"urgent\" is not one of \"low\", \"normal\" or \"critical\""
        )
    }

    @Test func everyBadElementOfAnArrayIsReportedInOneRun() throws {
        let (result, file) = try decodeReminders(
            """
            [[plugins.reminders.reminder]]
            title = "One"
            at = 1

            [[plugins.reminders.reminder]]
            title = "Two"
            at = "10:00"

            [[plugins.reminders.reminder]]
            at = "11:00"

            [[plugins.reminders.reminder]]
            title = "Four"
            at = "12:00"
            urgency = "loud"
            """)

        let found = failure(result)
        #expect(found.map(\.location?.line) == [3, 9, 15])
        #expect(found.allSatisfy { $0.location?.file == file && $0.isError })
        #expect(
            found.map(\.path?.description) == [
                "plugins.reminders.reminder[0].at", "plugins.reminders.reminder[2]",
                "plugins.reminders.reminder[3].urgency",
            ])
    }

    @Test func nestedArraysOfTablesReportTheRightElement() throws {
        struct Item: Decodable { var at: TimeOfDay }
        struct Group: Decodable { var name: String; var item: [Item] }
        struct Configuration: Decodable { var group: [Group] }
        let directory = try TemporaryDirectory()
        let (root, file) = try parseFile(
            """
            [[group]]
            name = "morning"
            [[group.item]]
            at = "08:00"

            [[group]]
            name = "evening"
            [[group.item]]
            at = "20:00"
            [[group.item]]
            at = "8pm"
            """, in: directory)

        let found = diagnostics { try ConfigDecoder().decode(Configuration.self, from: root) }

        #expect(found.count == 1)
        #expect(found.first?.location == Location(file: file, line: 11, column: 6))
        #expect(found.first?.message.hasPrefix("group[1].item[1].at: \"8pm\" is not a time of day") == true)
    }

    @Test func integersServeForDoublesButFloatsDoNotServeForIntegers() throws {
        struct Configuration: Decodable { var ratio: Double; var count: Int }
        let directory = try TemporaryDirectory()
        let (good, _) = try parseFile("ratio = 2\ncount = 3\n", in: directory, name: "good.toml")
        let (bad, file) = try parseFile("ratio = 2.5\ncount = 3.0\n", in: directory, name: "bad.toml")

        let decoded = try ConfigDecoder().decode(Configuration.self, from: good).value
        let found = diagnostics { try ConfigDecoder().decode(Configuration.self, from: bad) }

        #expect(decoded.ratio == 2 && decoded.count == 3)
        #expect(found.first?.location == Location(file: file, line: 2, column: 9))
        #expect(found.first?.message == "count: expected a whole number, found float 3.0")
        #expect(found.first?.hint == "write it without the decimal point")
    }

    @Test func everyBadValueOfADictionaryIsReported() throws {
        struct Configuration: Decodable { var times: [String: TimeOfDay] }
        let directory = try TemporaryDirectory()
        let (root, _) = try parseFile(
            """
            [times]
            breakfast = "08:00"
            lunch = 1230
            tea = "16:00"
            dinner = "7pm"
            """, in: directory)

        let found = diagnostics { try ConfigDecoder().decode(Configuration.self, from: root) }

        #expect(found.map(\.path?.description) == ["times.lunch", "times.dinner"])
    }

    @Test func datesDecodeFromTOMLDateTimes() throws {
        struct Configuration: Decodable { var start: Date; var day: Date; var since: LocalDate }
        let directory = try TemporaryDirectory()
        let (root, _) = try parseFile(
            """
            start = 2026-01-05T08:00:00+01:00
            day = 2026-01-05
            since = 2026-01-05
            """, in: directory)

        let decoder = ConfigDecoder(timeZone: TimeZone(identifier: "UTC")!)
        let configuration = try decoder.decode(Configuration.self, from: root).value

        #expect(configuration.start == Date(timeIntervalSince1970: 1_767_596_400))
        #expect(configuration.day == Date(timeIntervalSince1970: 1_767_571_200))
        #expect(configuration.since == LocalDate(year: 2026, month: 1, day: 5))
    }

    @Test func permittedKeysAreNotUnknown() throws {
        struct Configuration: Decodable { var name: String? }
        let directory = try TemporaryDirectory()
        let (root, _) = try parseFile("enabled = false\nname = \"x\"\nextra = 1\n", in: directory)

        let warnings = try ConfigDecoder().decode(Configuration.self, from: root, permittedKeys: ["enabled"]).warnings

        #expect(warnings.map(\.message) == ["unknown key `extra`"])
        // What the host reads in the table (here `enabled`) is named too: the table takes it.
        #expect(warnings.first?.hint == "remove it or check its spelling; this table takes `name`, `enabled`")
    }

    @Test func aCollectorReportsSeveralBadSettingsOfOneTable() throws {
        struct Configuration: Decodable {
            var at: TimeOfDay?
            var count: Int?
            enum CodingKeys: String, CodingKey { case at, count }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                var errors = ConfigErrorCollector()
                at = errors.attempt { try container.decodeIfPresent(TimeOfDay.self, forKey: .at) } ?? nil
                count = errors.attempt { try container.decodeIfPresent(Int.self, forKey: .count) } ?? nil
                if let count, count < 0 {
                    errors.record(
                        DecodingError.dataCorruptedError(
                            forKey: .count, in: container, debugDescription: "must not be negative"))
                }
                try errors.throwIfAny()
            }
        }
        let directory = try TemporaryDirectory()
        let (root, _) = try parseFile("at = true\ncount = \"3\"\n", in: directory, name: "a.toml")
        let (negative, _) = try parseFile("count = -1\n", in: directory, name: "b.toml")

        let found = diagnostics { try ConfigDecoder().decode(Configuration.self, from: root) }
        let foundNegative = diagnostics { try ConfigDecoder().decode(Configuration.self, from: negative) }

        #expect(
            found.map(\.message) == [
                "at: expected a string such as \"15:00\", found boolean true",
                "count: expected a whole number, found string \"3\"",
            ])
        #expect(foundNegative.map(\.message) == ["count: must not be negative"])
        #expect(foundNegative.first?.location?.column == 9)
    }

    @Test(arguments: [
        ("tittle", "title"), ("Title", "title"), ("urgancy", "urgency"), ("catchup_within", "catch_up_within"),
    ])
    func typosFindTheirKey(typo: String, meant: String) {
        #expect(NameSuggestion.closest(to: typo, among: ["title", "body", "urgency", "catch_up_within"]) == meant)
    }

    @Test(arguments: ["colour", "x", "enabled"])
    func unrelatedNamesGetNoSuggestion(name: String) {
        #expect(NameSuggestion.closest(to: name, among: ["title", "body", "urgency"]) == nil)
    }
}
