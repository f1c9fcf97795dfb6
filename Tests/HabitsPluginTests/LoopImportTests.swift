import Foundation
import HoorayKit
import Testing

@testable import HabitsPlugin

/// Loop Habit Tracker's CSV export, read into habits.
@Suite struct LoopImportTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/loop").path

    func importer(_ path: String) -> LoopImporter {
        LoopImporter(
            request: ImportRequest(
                importer: "loop", path: path, now: Date(timeIntervalSince1970: 1_422_187_200),
                timeZone: TimeZone(identifier: "UTC")!))
    }

    func habits(_ plan: ImportPlan) throws -> [Habit] {
        try plan.records.map { try RecordBook<Habit>.decode($0.data) }
    }

    /// Writes an export made as Loop's HabitsCSVExporter writes one, and returns its folder.
    func export(_ files: [String: String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loop-\(UUID().uuidString)").path
        for (name, text) in files {
            let path = folder + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test func loopsOwnSampleGivesItsDaysAndStreaks() throws {
        let plan = try importer(Self.sample + "/Habits.csv").plan(existing: [])
        let imported = try habits(plan)
        #expect(imported.map(\.name) == ["Meditate", "Wake up early"])
        let wake = imported[1]
        // YES_MANUAL and YES_AUTO days (2 times in 3 days keeps Loop's streak going); not the NO of the 24th.
        #expect(Array(wake.completions) == days("2015-01-16", through: "2015-01-23") + [day("2015-01-25")])
        #expect(wake.streak(today: day("2015-01-23")).days == 8)
        #expect(wake.streak(today: day("2015-01-25")).days == 1)
        #expect(wake.start == day("2015-01-16"))
        #expect(imported[0].completions.isEmpty)
        #expect(plan.notes.contains { $0.contains("“Wake up early” is 2 in 3 days") })
        // Ids come from names: the same export gives the same habits.
        let again = try habits(try importer(Self.sample).plan(existing: []))
        #expect(again.map(\.id) == imported.map(\.id))
        // Imported once, they are already there.
        let second = try importer(Self.sample).plan(existing: imported)
        #expect(second.records.isEmpty)
        #expect(second.alreadyThere == ["habit": 2])
    }

    @Test func skippedDaysArePausesAndMeasurableHabitsCountWhenTheyMeetTheTarget() throws {
        let folder = try export([
            "Habits.csv": """
            Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
            001,Run,YES_NO,Did you run today?,"Feel strong, sleep well",1,1,#FF8F00,,,,false
            002,Pages,NUMERICAL,How many pages?,,1,1,#00897B,pages,AT_LEAST,10.0,false
            003,Coffee,NUMERICAL,How many cups?,,1,1,#00897B,cups,AT_MOST,2.0,false

            """,
            "001 Run/Checkmarks.csv": """
            Date,Value,Notes
            2026-11-05,YES_MANUAL,
            2026-11-04,SKIP,"Rest day, knee"
            2026-11-03,SKIP,
            2026-11-02,YES_MANUAL,
            2026-11-01,YES_AUTO,

            """,
            "002 Pages/Checkmarks.csv": "Date,Value,Notes\n2026-11-02,12000,\n2026-11-01,9500,\n",
            "003 Coffee/Checkmarks.csv": "Date,Value,Notes\n2026-11-02,3000,\n2026-11-01,1000,\n",
        ])
        let imported = try habits(try importer(folder).plan(existing: []))
        let run = try #require(imported.first { $0.name == "Run" })
        #expect(run.why == "Feel strong, sleep well")
        // Every day in Loop: YES_AUTO does not occur, and does not count.
        #expect(Array(run.completions) == [day("2026-11-02"), day("2026-11-05")])
        #expect(run.pauses == [HabitPause(from: day("2026-11-03"), through: day("2026-11-04"))])
        #expect(run.streak(today: day("2026-11-05")).days == 2)
        #expect(Array(try #require(imported.first { $0.name == "Pages" }).completions) == [day("2026-11-02")])
        #expect(Array(try #require(imported.first { $0.name == "Coffee" }).completions) == [day("2026-11-01")])
    }

    @Test func anOlderExportWithNumbersAndNoFoldersReadsTheOverview() throws {
        let folder = try export([
            "Habits.csv": "Position,Name,Question,Description,NumRepetitions,Interval,Color\n001,Floss,,,1,1,#FF0000\n",
            "Checkmarks.csv": "Date,Floss,\n2026-11-03,2,\n2026-11-02,0,\n2026-11-01,2,\n",
        ])
        let floss = try #require(try habits(try importer(folder + "/Habits.csv").plan(existing: [])).first)
        #expect(Array(floss.completions) == [day("2026-11-01"), day("2026-11-03")])
    }

    @Test func aHabitOfTheSameNameIsLeftAsItIs() throws {
        let mine = makeHabit("wake UP early", start: "2026-11-01")
        let plan = try importer(Self.sample).plan(existing: [mine])
        #expect(try habits(plan).map(\.name) == ["Meditate"])
        #expect(plan.notes.contains { $0.contains("You already track a habit named “wake UP early”") })
    }

    @Test(arguments: [
        ("Habits.csv", "Date,Value\n2015-01-01,2\n", "line 1: there is no Position and Name column"),
        ("x.zip", "PK", "unzip it first"),
    ])
    func whatIsNotLoopsExportIsRefusedWithTheFix(name: String, content: String, words: String) throws {
        let folder = try export([name: content])
        #expect {
            try importer(folder + "/" + name).plan(existing: [])
        } throws: { error in
            "\(error)".contains(words)
        }
    }

    @Test func aBadValueNamesItsFileAndLine() throws {
        let folder = try export([
            "Habits.csv": "Position,Name\n001,Run\n",
            "001 Run/Checkmarks.csv": "Date,Value,Notes\n2026-11-02,YES_MANUAL,\n2026-11-01,MAYBE,\n",
        ])
        #expect {
            try importer(folder).plan(existing: [])
        } throws: { error in
            "\(error)".contains("001 Run/Checkmarks.csv line 3: “MAYBE” is not one of Loop's values")
        }
    }

    @Test func quotedFieldsKeepCommasQuotesAndLineBreaks() {
        let rows = CSVTable.parse("a,b\n\"x, y\",\"say \"\"hi\"\"\nthere\"\nlast,row")
        #expect(rows.map(\.fields) == [["a", "b"], ["x, y", "say \"hi\"\nthere"], ["last", "row"]])
        #expect(rows.map(\.line) == [1, 2, 4])
    }
}
