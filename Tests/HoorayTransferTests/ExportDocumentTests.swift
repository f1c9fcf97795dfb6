import Foundation
import HoorayCalendar
import HoorayKit
import HoorayStorage
import Testing
import WinsPlugin

@testable import HoorayTransfer

/// The export file: written the same way every time, read back exactly, refused with the fix.
@Suite struct ExportDocumentTests {
    static let sample = UserData(plugins: [
        "wins": UserData.Plugin(
            records: [
                StoredRecord(
                    kind: "moment", id: "b", date: .instant(Date(timeIntervalSince1970: 1_795_683_600.25)),
                    data: Data(#"{"text":"Sent the email","at":1795683600.25,"tags":["a/b"]}"#.utf8)),
                StoredRecord(
                    kind: "moment", id: "a", date: .instant(Date(timeIntervalSince1970: 1_795_000_000)),
                    data: Data(#"{"text":"Took a walk"}"#.utf8)),
            ],
            values: [
                StoredValue(key: "flag.first", data: Data("true".utf8)),
                StoredValue(key: "blob", data: Data([0xFF, 0x00, 0x01])),
            ]),
        "habits": UserData.Plugin(records: [
            StoredRecord(
                kind: "habit", id: "h1", date: .day(LocalDate(year: 2026, month: 11, day: 20)!),
                data: Data(#"{"name":"Read","done":"AQ=="}"#.utf8))
        ]),
    ])

    func canonical(_ data: UserData) -> UserData {
        UserData(
            plugins: data.plugins.mapValues { plugin in
                UserData.Plugin(
                    records: plugin.records.map {
                        StoredRecord(kind: $0.kind, id: $0.id, date: $0.date, data: UserData.canonical($0.data))
                    },
                    values: plugin.values.map { StoredValue(key: $0.key, data: UserData.canonical($0.data)) })
            })
    }

    @Test func whatIsWrittenReadsBackAndWritesTheSameBytes() throws {
        let text = ExportDocument.json(Self.sample)
        let read = try ExportDocument.read(Data(text.utf8), file: "a.json")
        #expect(read == canonical(Self.sample))
        #expect(ExportDocument.json(read) == text)
        // Plugins, kinds and ids in order; bytes that are not JSON kept as base64.
        let habits = try #require(text.range(of: "\"habits\""))
        let wins = try #require(text.range(of: "\"wins\""))
        #expect(habits.lowerBound < wins.lowerBound)
        #expect(try #require(text.range(of: "Took a walk")).lowerBound < text.range(of: "Sent the email")!.lowerBound)
        #expect(text.contains("\"base64\" : \"/wAB\""))
        #expect(text.contains("\"at\" : \"2026-11-26T09:00:00.25Z\""), "instants as ISO 8601, fraction kept")
        #expect(text.contains("\"version\" : 2"))
        #expect(text.contains("\"day\" : \"2026-11-20\""))
        #expect(text.hasSuffix("}\n"))
    }

    @Test func bracketsWithSpacesInsideAUsersTextSurviveTheRoundTrip() throws {
        let texts = ["Inbox [ ] zero", "{ } and [\t]", "[  ]", "{\n}"]
        let data = UserData(plugins: [
            "wins": UserData.Plugin(
                records: texts.enumerated().map { index, text in
                    StoredRecord(
                        kind: "moment", id: "m\(index)", date: .day(LocalDate(year: 2026, month: 11, day: 20)!),
                        data: Data(JSONValue.object(["text": .string(text), "tags": .array([])]).text().utf8))
                })
        ])
        let file = ExportDocument.json(data)
        #expect(file.contains(#""tags" : []"#), "an empty array is still written on one line")
        let read = try ExportDocument.read(Data(file.utf8), file: "a.json")
        let back = try read.plugins["wins"]!.records.map {
            try JSONValue(json: String(decoding: $0.data, as: UTF8.self))
        }
        #expect(back.map { $0["text"]?.stringValue } == texts)
        #expect(ExportDocument.json(read) == file)
    }

    @Test func csvIsOneTablePerKindWithAHeaderRowAndCRLF() throws {
        let files = ExportDocument.csv(Self.sample, timeZone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(files.map(\.name) == ["other-records.csv", "values.csv"], "records of no known type, then values")
        let records = files[0].text.components(separatedBy: "\r\n")
        #expect(records.first == "plugin,kind,id,date,time,value")
        // By date: the habit's day, then the moments in Berlin time.
        #expect(records[1] == #"habits,habit,h1,2026-11-20,,"{""done"":""AQ=="",""name"":""Read""}""#)
        #expect(records[3].hasPrefix("wins,moment,b,2026-11-26,10:00,"), "\(records)")
        #expect(records.last == "", "every line ends with CRLF")
        #expect(files[1].text.hasPrefix("plugin,key,value\r\n"))
        #expect(ExportDocument.csv(UserData(), timeZone: .gmt).isEmpty)
    }

    @Test(arguments: [
        (
            #"{"format": "hooray-export", "version": 2, "plugins": {"wins": {"records": [{"kind": "moment", "id": "a", "instant": 1, "value": {}}]}}}"#,
            "plugins.wins.records[0] needs either \"day\" (YYYY-MM-DD) or \"at\""
        ),
        (
            #"{"format": "hooray-export", "version": 2, "plugins": {"wins": {"records": [{"kind": "moment", "id": "a", "at": "1795683600", "value": {}}]}}}"#,
            "plugins.wins.records[0].at: \"1795683600\" is not an instant written as ISO 8601"
        ),
        (
            #"{"format": "hooray-export", "version": 2, "plugins": {"wins": {"records": [{"kind": "moment", "id": "a", "day": "2026-02-30", "value": {}}]}}}"#,
            "plugins.wins.records[0].day: \"2026-02-30\" is not a date"
        ),
    ])
    func aVersion2EnvelopeThatIsWrongIsRefusedByField(content: String, words: String) {
        #expect {
            try ExportDocument.read(Data(content.utf8), file: "a.json")
        } throws: { error in
            "\(error)".contains(words) && "\(error)".hasSuffix("Nothing was imported.")
        }
    }

    @Test(arguments: [
        ("", "is empty"),
        ("{\n  \"format\" : \"hooray-export\",\n  \"plugins\" : {\n", "ends at line 3 before its JSON does"),
        (#"{"format": "hooray-export", "version": 1, "plugins": {}} trailing"#, "is not valid JSON"),
        (#"[1, 2]"#, "JSON from another program"),
        (#"{"format": "hooray-export", "version": 7, "plugins": {}}"#, "version 7, newer than this Hooray"),
        (#"{"format": "hooray-export", "version": "1", "plugins": {}}"#, "version is not a whole number"),
        (
            #"{"format": "hooray-export", "version": 1, "plugins": {"Wins": {}}}"#,
            "plugins.Wins is not a plugin's name"
        ),
        (
            #"{"format": "hooray-export", "version": 1, "plugins": {"wins": {"records": [{"kind": "moment", "id": "a", "value": 1}]}}}"#,
            "plugins.wins.records[0] needs either \"day\""
        ),
        (
            #"{"format": "hooray-export", "version": 1, "plugins": {"wins": {"values": [{"key": "k", "value": 1}, {"key": "k", "value": 2}]}}}"#,
            "line 1, plugins.wins.values[1] repeats the id of plugins.wins.values[0]"
        ),
    ])
    func aBadFileIsRefusedNamingWhatIsWrong(content: String, words: String) {
        #expect {
            try ExportDocument.read(Data(content.utf8), file: "a.json")
        } throws: { error in
            "\(error)".contains(words) && "\(error)".hasSuffix("Nothing was imported.")
        }
    }

    @Test func aRepeatedRecordIsFoundByItsPlaceNotByTheSameWordsInsideAValue() throws {
        let text = """
            {
              "format" : "hooray-export",
              "plugins" : {
                "habits" : {
                  "records" : [
                    {
                      "day" : "2026-11-20",
                      "id" : "h1",
                      "kind" : "habit",
                      "value" : {}
                    },
                    {
                      "day" : "2026-11-20",
                      "id" : "n1",
                      "kind" : "note",
                      "value" : { "id" : "h1", "text" : "[ \\"id\\" : \\"h1\\" ]" }
                    },
                    {
                      "day" : "2026-11-20",
                      "id" : "h1",
                      "kind" : "habit",
                      "value" : {}
                    }
                  ]
                }
              },
              "version" : 1
            }

            """
        #expect {
            try ExportDocument.read(Data(text.utf8), file: "a.json")
        } throws: { error in
            "\(error)".contains("line 18, plugins.habits.records[2] repeats the id of plugins.habits.records[0]")
        }
    }

    @Test func aRecordWhoseValueItsPluginCannotReadIsRefusedByPath() throws {
        let text = ExportDocument.json(Self.sample)
        let refusal = "its field \"start\" is missing"
        #expect {
            try ExportDocument.read(Data(text.utf8), file: "a.json") { plugin, kind, _ in
                plugin == "wins" && kind == "moment" ? refusal : nil
            }
        } throws: { error in
            let message = "\(error)"
            return message.contains("plugins.wins.records[0].value is not a moment Hooray can read: \(refusal)")
                && message.contains("line 20,") && message.hasSuffix("Nothing was imported.")
        }
        // Every record accepted: read as before.
        #expect(try ExportDocument.read(Data(text.utf8), file: "a.json") { _, _, _ in nil } == canonical(Self.sample))
    }

    @Test func aVersion1RecordOfAKindItsInstalledPluginDoesNotKeepIsRefusedByField() throws {
        let forms = ExportDocument.Forms(recordTypes: ["wins": [Moment.self]])
        let file = #"""
            {"format": "hooray-export", "version": 1, "plugins": {"wins": {"records": [
              {"kind": "moment", "id": "a", "instant": 1795683600, "value": {}},
              {"kind": "momnet", "id": "b", "instant": 1795683600, "value": {}}
            ]}, "garden": {"records": [{"kind": "bed", "id": "c", "day": "2026-11-20", "value": {}}]}}}
            """#
        #expect {
            try ExportDocument.read(Data(file.utf8), file: "a.json", forms: forms)
        } throws: { error in
            let message = "\(error)"
            let words = "\"momnet\" is not a kind of record the wins plugin keeps; it keeps \"moment\""
            return message.contains("plugins.wins.records[1].kind: " + words)
                && message.hasSuffix("Nothing was imported.")
        }
        // The known kind, and any kind of a plugin without record types here, are read.
        let accepted = file.replacingOccurrences(of: "momnet", with: "moment").replacingOccurrences(
            of: "\"id\": \"b\"", with: "\"id\": \"b2\"")
        let data = try ExportDocument.read(Data(accepted.utf8), file: "a.json", forms: forms)
        #expect(data.plugins["wins"]?.records.count == 2)
        #expect(data.plugins["garden"]?.records.map(\.kind) == ["bed"])
    }

    @Test(arguments: [
        ("=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""), ("+1", "'+1"), ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("\r=1", "\"'\r=1\""), ("a=b", "a=b"), ("", ""),
        ("Took a walk", "Took a walk"),
    ])
    func aCellASpreadsheetWouldRunAsAFormulaStartsWithAQuote(cell: String, written: String) {
        #expect(ExportDocument.quoted(cell) == written)
    }

    @Test func aFileThatIsNotJSONSuggestsOnlyTheImportersThatAreInstalled() {
        var error = ImportFileError(file: "notes.csv", problem: .notJSON)
        #expect(!error.description.contains("--from"))
        error.importers = ["loop"]
        #expect(error.description.contains("use `hooray import --from loop FILE`"))
        error.importers = ["strides"]
        #expect(error.description.contains("`hooray import --from NAME FILE` reads it when NAME is one of: strides."))
    }
}
