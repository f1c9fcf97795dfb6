import Foundation
import HoorayCommandLine
import HoorayKit
import Testing

@testable import HabitsPlugin

/// Loop Habit Tracker's CSV export, read into habits.
@Suite struct LoopImportTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/loop").path
    /// The same sample as Loop wrote it before 2.3.1: habit files without a header row.
    static let sampleBeforeHeaders = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/loop-before-2.3.1").path

    func importer(_ path: String, apply: Bool = false) -> LoopImporter {
        LoopImporter(
            request: ImportRequest(
                importer: "loop", path: path, now: Date(timeIntervalSince1970: 1_422_187_200),
                timeZone: TimeZone(identifier: "UTC")!, apply: apply))
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

    @Test func anExportFromBeforeLoop231WithoutHeadersGivesTheSameHabits() throws {
        let plan = try importer(Self.sampleBeforeHeaders).plan(existing: [])
        let imported = try habits(plan)
        #expect(imported.map(\.name) == ["Meditate", "Wake up early"])
        #expect(imported[0].completions.isEmpty, "an empty Checkmarks.csv is a habit without entries")
        let wake = imported[1]
        #expect(Array(wake.completions) == days("2015-01-16", through: "2015-01-23") + [day("2015-01-25")])
        #expect(wake.streak(today: day("2015-01-23")).days == 8)
        #expect(wake.streak(today: day("2015-01-25")).days == 1)
        // The same habits as the export with headers.
        let current = try habits(try importer(Self.sample).plan(existing: []))
        #expect(imported.map(\.completions) == current.map(\.completions))
        #expect(imported.map(\.id) == current.map(\.id))
    }

    @Test func anUpdatedExportAddsItsNewDaysAndPausesToTheHabitAlreadyThere() throws {
        let habitsFile = """
            Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
            001,Run,YES_NO,,,1,1,#FF8F00,,,,false

            """
        let first = try export([
            "Habits.csv": habitsFile,
            "001 Run/Checkmarks.csv": "Date,Value,Notes\n2026-11-02,YES_MANUAL,\n2026-11-01,YES_MANUAL,\n",
        ])
        let mine = try #require(try habits(try importer(first).plan(existing: [])).first)
        let later = try export([
            "Habits.csv": habitsFile,
            "001 Run/Checkmarks.csv": """
            Date,Value,Notes
            2026-11-06,YES_MANUAL,
            2026-11-05,SKIP,
            2026-11-04,SKIP,
            2026-11-03,YES_MANUAL,
            2026-11-02,YES_MANUAL,
            2026-11-01,YES_MANUAL,

            """,
        ])
        let plan = try importer(later).plan(existing: [mine])
        #expect(plan.records.isEmpty)
        let updated = try #require(try plan.updates.map { try RecordBook<Habit>.decode($0.data) }.first)
        #expect(updated.id == mine.id)
        #expect(
            Array(updated.completions) == [day("2026-11-01"), day("2026-11-02"), day("2026-11-03"), day("2026-11-06")])
        #expect(updated.pauses == [HabitPause(from: day("2026-11-04"), through: day("2026-11-05"))])
        #expect(updated.streak(today: day("2026-11-06")).days == 4)
        #expect(plan.notes.contains("“Run” is already here; 4 days from Loop to add."), "\(plan.notes)")
        #expect(plan.alreadyThere.isEmpty)
        let applied = try importer(later, apply: true).plan(existing: [mine])
        #expect(applied.notes.contains("“Run” is already here; 4 days from Loop added."), "\(applied.notes)")
        // Once they are in, the same export adds nothing.
        let again = try importer(later).plan(existing: [updated])
        #expect(again.updates.isEmpty && again.records.isEmpty)
        #expect(again.alreadyThere == ["habit": 1])
    }

    @Test func weeklyTargetsAreLeftOutAndSoAreHabitsWithoutDataAndArchivedOnesComePaused() throws {
        let folder = try export([
            "Habits.csv": """
            Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
            001,Run,NUMERICAL,,,1,7,#FF8F00,km,AT_LEAST,20.0,false
            002,Read,NUMERICAL,,,1,30,#FF8F00,books,AT_LEAST,2.0,false
            003,Stretch,YES_NO,,,1,1,#FF8F00,,,,false
            004,Guitar,YES_NO,,,1,1,#FF8F00,,,,true
            005,Floss,YES_NO,,,1,1,#FF8F00,,,,false

            """,
            // A single-habit export: Habits.csv lists them all, the folders are only the chosen ones'.
            "001 Run/Checkmarks.csv": "Date,Value,Notes\n2015-01-20,8000,\n2015-01-19,7000,\n",
            "002 Read/Checkmarks.csv": "Date,Value,Notes\n2015-01-20,1000,\n",
            "004 Guitar/Checkmarks.csv": "Date,Value,Notes\n2015-01-21,YES_MANUAL,\n2015-01-20,YES_MANUAL,\n",
            "Checkmarks.csv": "Date,Run,Read,Guitar,\n2015-01-20,8000,1000,YES_MANUAL,\n",
        ])
        let plan = try importer(folder).plan(existing: [])
        let imported = try habits(plan)
        #expect(imported.map(\.name) == ["Guitar"])
        #expect(
            plan.notes.contains {
                $0.contains("“Run” was left out: Loop measures it per week (at least 20 km a week)")
            }, "\(plan.notes)")
        #expect(plan.notes.contains { $0.contains("“Read” was left out: Loop measures it per month") })
        #expect(
            plan.notes.contains {
                $0.hasPrefix("“Stretch”, “Floss” have no days in this export") && $0.contains("Export all habits")
            }, "\(plan.notes)")
        let guitar = imported[0]
        #expect(Array(guitar.completions) == [day("2015-01-20"), day("2015-01-21")])
        // Archived in Loop: paused from the day of the import (25 January 2015) on.
        #expect(guitar.pauses == [HabitPause(from: day("2015-01-25"))])
        #expect(plan.notes.contains { $0.contains("“Guitar” is archived in Loop, so it comes in paused") })
    }

    @Test func quotedFieldsKeepCommasQuotesAndLineBreaks() {
        let rows = CSVTable.parse("a,b\n\"x, y\",\"say \"\"hi\"\"\nthere\"\nlast,row")
        #expect(rows.map(\.fields) == [["a", "b"], ["x, y", "say \"hi\"\nthere"], ["last", "row"]])
        #expect(rows.map(\.line) == [1, 2, 4])
    }
}
