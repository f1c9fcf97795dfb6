import Foundation
import HoorayCalendar
import HoorayKit
import Testing

/// The public form of records: instants as ISO 8601 that read back to the same text, and errors
/// that name the field.
@Suite struct ExportFormTests {
    @Test(arguments: [
        (1_795_435_200.0, "2026-11-23T12:00:00Z"),
        (1_795_435_200.25, "2026-11-23T12:00:00.25Z"),
        (1_795_435_200.063575, "2026-11-23T12:00:00.063575Z"),
        (-0.5, "1969-12-31T23:59:59.5Z"),
    ])
    func anInstantIsWrittenInUTCWithItsFractionOnlyWhenItHasOne(seconds: Double, text: String) throws {
        #expect(ExportForm.instant(Date(timeIntervalSince1970: seconds)) == text)
        let back = try #require(ExportForm.instant(parsing: text))
        #expect(ExportForm.instant(back) == text, "read back and written again, the text is the same")
    }

    @Test func aStoredInstantWithMoreDigitsGivesTextThatIsStableFromThenOn() throws {
        let stored = Date(timeIntervalSince1970: 1_795_168_800.319306)
        let text = ExportForm.instant(stored)
        #expect(text == "2026-11-20T10:00:00.319306Z")
        #expect(ExportForm.instant(try #require(ExportForm.instant(parsing: text))) == text)
    }

    @Test func anOffsetIsReadAsTheSameInstant() {
        #expect(
            ExportForm.instant(parsing: "2026-11-22T11:00:00+01:00")
                == ExportForm.instant(parsing: "2026-11-22T10:00:00Z"))
    }

    @Test(arguments: [
        "1795435200", "2026-11-22", "2026-11-22T10:00:00", "2026-11-22T25:00:00Z", "2026-13-01T10:00:00Z",
        "2026-11-22T10:00:00.Z", "2026-11-22T10:00:00Zjunk",
    ])
    func textThatIsNotAnInstantIsRefused(text: String) {
        #expect(ExportForm.instant(parsing: text) == nil)
    }

    struct Glass: PluginRecord, Identifiable, Equatable {
        static let recordKind = "glass"
        var id: UUID
        var drunkAt: Date
        var day: LocalDate
        var recordDate: RecordDate { .instant(drunkAt) }
    }

    @Test func theDefaultFormWritesInstantsAsTextAndTheIdOnce() throws {
        let glass = Glass(
            id: UUID(), drunkAt: Date(timeIntervalSince1970: 1_795_435_200),
            day: LocalDate(year: 2026, month: 11, day: 22)!)
        let value = try glass.exportValue()
        #expect(value == .object(["drunkAt": .string("2026-11-23T12:00:00Z"), "day": .string("2026-11-22")]))
        let stored = try Glass.storedRecord(fromExport: value, id: glass.recordID)
        #expect(stored.date == .instant(glass.drunkAt))
        #expect(try RecordBook<Glass>.decode(stored.data) == glass)
    }

    @Test(arguments: [
        (#"{"day": "2026-11-22"}"#, "drunkAt: it is missing"),
        (#"{"drunkAt": 1795435200, "day": "2026-11-22"}"#, "drunkAt: it is not a string"),
        (#"{"drunkAt": "2026-11-22 10:00", "day": "2026-11-22"}"#, "drunkAt: \"2026-11-22 10:00\" is not an instant"),
        (#"{"drunkAt": "2026-11-22T10:00:00Z", "day": "2026-11-31"}"#, "day: \"2026-11-31\" is not a date"),
        (#"[1]"#, "it is not an object of fields"),
    ])
    func aWrongFieldIsNamed(json: String, words: String) throws {
        let value = try JSONValue(json: json)
        #expect {
            _ = try Glass.storedRecord(fromExport: value, id: UUID().uuidString.lowercased())
        } throws: { error in
            "\(error)".contains(words)
        }
    }

    @Test func anIdThatIsNotTheValuesIsRefused() throws {
        let value = try JSONValue(
            json:
                #"{"id": "3f2a9c1b-5d6e-4f70-8a9b-0c1d2e3f4a5b", "drunkAt": "2026-11-22T10:00:00Z", "day": "2026-11-22"}"#
        )
        #expect {
            _ = try Glass.storedRecord(fromExport: value, id: "other")
        } throws: { error in
            "\(error)".contains("its fields give it the id \"3f2a9c1b-5d6e-4f70-8a9b-0c1d2e3f4a5b\", not \"other\"")
        }
    }

    @Test func aRhythmOfWeekdaysIsStoredInWeekOrderSoTheSameRhythmGivesTheSameBytes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let rhythm = DueDays.weekdays([.friday, .monday, .wednesday])
        let text = String(decoding: try encoder.encode(rhythm), as: UTF8.self)
        #expect(text == #"{"weekdays":{"_0":[1,3,5]}}"#)
        #expect(try JSONDecoder().decode(DueDays.self, from: Data(text.utf8)) == rhythm)
        for other in [DueDays.daily, .everyNDays(3)] {
            #expect(try JSONDecoder().decode(DueDays.self, from: encoder.encode(other)) == other)
        }
        #expect(String(decoding: try encoder.encode(DueDays.daily), as: UTF8.self) == #"{"daily":{}}"#)
    }
}
