import Foundation
import HoorayCalendar
import HooraySystemTesting
import Testing

/// `hooray export` and `hooray import` refusing what they cannot use — a bad file, a path that cannot
/// be written, a target that is not a regular file — and reading Loop Habit Tracker's CSV export.
extension ExportImportTests {
    @Test func aBadFileIsRefusedByNameAndChangesNothing() async throws {
        try await HoorayFixture.with { fixture in
            try await makeData(fixture)
            let good = fixture.home.appending("good.json")
            _ = try await fixture.hooray("export", "-o", good)
            let text = try read(good)
            _ = try await fixture.hooray("delete-my-data", "--yes")
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            // A record repeated: the second copy of the habit, right after the first.
            let habit = try #require(
                text.range(
                    of: #"\{\s*"day" : "[^"]*",\s*"id" : "[^"]*",\s*"kind" : "habit"[\s\S]*?\n        \}"#,
                    options: .regularExpression))
            let duplicated = text.replacingCharacters(in: habit, with: text[habit] + ",\n" + text[habit])
            // The line of the second copy's opening brace: after the first copy's last line and the comma.
            let duplicateLine = text[..<habit.upperBound].filter { $0 == "\n" }.count + 2
            let cases: [(name: String, content: String, words: [String])] = [
                (
                    "cut.json", lines.prefix(lines.count / 2).joined(separator: "\n"),
                    ["cut short", "line \(lines.count / 2)"]
                ),
                (
                    "other.json", #"{"name": "my-app", "version": 3, "items": []}"#,
                    ["another program", "\"hooray-export\""]
                ),
                (
                    "newer.json", text.replacingOccurrences(of: "\"version\" : 2", with: "\"version\" : 3"),
                    ["version 3", "reads: version 2", "Update Hooray"]
                ),
                ("twice.json", duplicated, ["line \(duplicateLine)", "plugins.habits.records[1]", "repeats the id"]),
                ("notes.csv", "Date,Note\n2026-11-20,hello\n", ["not a Hooray export", "--from loop"]),
                (
                    "hooray.csv", "version,plugin,table,kind,id,day,instant,value\r\n",
                    ["Hooray's CSV export", "made for spreadsheets", "hooray export -o FILE"]
                ),
                (
                    "hooray-1.csv", "plugin,table,kind,id,day,instant,value\r\n",
                    ["Hooray's CSV export", "hooray export -o FILE"]
                ),
            ]
            for bad in cases {
                let path = try fixture.home.write(bad.content, to: bad.name)
                for extra in [[], ["--apply"]] {
                    let output = try await fixture.hooray(arguments: ["import", path] + extra)
                    #expect(output.status == .exited(1), "\(bad.name): \(output.standardError)")
                    for word in bad.words + ["Nothing was imported."] {
                        #expect(output.standardError.contains(word), "\(bad.name): \(output.standardError)")
                    }
                }
            }
            let export = try await fixture.hooray("export")
            #expect(!export.standardOutput.contains("Water the ferns"), "nothing was imported")
        }
    }

    @Test func anExportPathThatCannotBeWrittenSaysWhyAndWritesNothing() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.hooray("habit", "add", "Stretch")
            let missing = fixture.home.appending("no-such-folder/a.json")
            let output = try await fixture.hooray("export", "-o", missing)
            #expect(output.status == .exited(1))
            #expect(output.standardError.contains("does not exist"), "\(output.standardError)")
            #expect(output.standardError.contains("-o ~/hooray-export.json"))
            #expect(output.standardError.contains("Nothing was written."))
            #expect(!FileManager.default.fileExists(atPath: missing))

            let unknown = try await fixture.hooray("export", "--plugin", "habbits")
            #expect(unknown.status == .exited(64))
            #expect(unknown.standardError.contains("did you mean --plugin habits?"), "\(unknown.standardError)")
            let folder = fixture.home.appending("one")
            let one = try await fixture.hooray("export", "--plugin", "habits", "--format", "csv", "-o", folder)
            #expect(one.status == .exited(0), "\(one.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["habits.csv"])
        }
    }

    @Test func aTargetThatIsNotARegularFileIsRefusedAndALinkToOneIsFollowed() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.hooray("habit", "add", "Stretch")
            let folder = fixture.home.appending("exports")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            func type(_ path: String) -> mode_t {
                var info = stat()
                return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
            }
            func refused(_ path: String, saying what: String) async throws {
                let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
                let output = try await fixture.hooray("export", "-o", path)
                #expect(output.status == .exited(1), "\(path): \(output.standardOutput)")
                #expect(output.standardError.contains("\(path) \(what), not a regular file"), "\(output.standardError)")
                #expect(
                    output.standardError.contains(
                        "write to a regular file, or use standard output: `hooray export > FILE`. Nothing was written.")
                )
                #expect(!output.standardOutput.contains("Exported"))
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before)
            }

            // A named pipe stays a named pipe: nothing replaced it, and nothing was left beside it.
            let pipe = folder + "/pipe"
            #expect(mkfifo(pipe, 0o600) == 0)
            try await refused(pipe, saying: "is a named pipe")
            #expect(type(pipe) == S_IFIFO)

            // A symbolic link is never written through: to the pipe, to nowhere, or to a regular file,
            // which stays as it was, and the link stays a link.
            func refusedLink(_ link: String, to pointed: String) async throws {
                let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
                let output = try await fixture.hooray("export", "-o", link)
                #expect(output.status == .exited(1), "\(link): \(output.standardOutput)")
                #expect(
                    output.standardError.contains(
                        "\(link) is a symbolic link (to \(pointed)), which hooray export never writes through"),
                    "\(output.standardError)")
                #expect(output.standardError.contains("Give -o the file itself, or a new name. Nothing was written."))
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before)
                #expect(type(link) == S_IFLNK)
            }
            let toPipe = folder + "/to-pipe.json"
            try FileManager.default.createSymbolicLink(atPath: toPipe, withDestinationPath: pipe)
            try await refusedLink(toPipe, to: pipe)
            #expect(type(pipe) == S_IFIFO)
            let dangling = folder + "/dangling.json"
            try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: folder + "/none/x.json")
            try await refusedLink(dangling, to: folder + "/none/x.json")
            try await refused(folder, saying: "is a folder")

            let file = folder + "/real.json"
            try "old\n".write(toFile: file, atomically: false, encoding: .utf8)
            let link = folder + "/link.json"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
            try await refusedLink(link, to: file)
            #expect(try read(file) == "old\n")
        }
    }

    static let loopSample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/loop").path

    @Test func loopsCSVExportImportsWithTheSameDaysAndStreaks() async throws {
        try await HoorayFixture.with { fixture in
            // Loop's sample was exported on 25 January 2015.
            let day = "2015-01-25 12:00:00"
            let habits = Self.loopSample + "/Habits.csv"
            let preview = try await fixture.hooray("import", "--from", "loop", habits, fakeTime: day)
            #expect(preview.status == .exited(0), "\(preview.standardError)")
            #expect(preview.standardOutput.contains("habits: 2 habits to add"), "\(preview.standardOutput)")
            #expect(preview.standardOutput.contains("“Wake up early” is 2 in 3 days in Loop"))
            #expect(try await fixture.hooray("habit", "list").standardOutput.contains("Wake up early") == false)

            let applied = try await fixture.hooray("import", "--from", "loop", habits, "--apply", fakeTime: day)
            #expect(applied.status == .exited(0), "\(applied.standardError)")
            // Loop's streaks: 16–23 January (8 days), then 25 January after the NO of the 24th.
            let today = try await fixture.hooray("habit", "show", "Wake up early", fakeTime: day)
            #expect(today.standardOutput.contains("Streak: 1 day"), "\(today.standardOutput)")
            let before = try await fixture.hooray("habit", "show", "Wake up early", fakeTime: "2015-01-23 20:00:00")
            #expect(before.standardOutput.contains("Streak: 8 days"), "\(before.standardOutput)")
            let json = try await fixture.hooray("habit", "list", "--json", fakeTime: day)
            #expect(json.standardOutput.contains("\"Meditate\""))

            // The folder works as well as its Habits.csv, and a second import adds nothing.
            let again = try await fixture.hooray("import", "--from", "loop", Self.loopSample, "--apply", fakeTime: day)
            #expect(again.standardOutput.contains("2 habits already there"), "\(again.standardOutput)")
            #expect(again.standardOutput.contains("nothing was added"))
            // The same sample as Loop wrote it before 2.3.1, without headers, is the same habits.
            let older = try await fixture.hooray(
                "import", "--from", "loop", Self.loopSample + "-before-2.3.1", "--apply", fakeTime: day)
            #expect(older.status == .exited(0), "\(older.standardError)")
            #expect(older.standardOutput.contains("2 habits already there"), "\(older.standardOutput)")

            // Two days later Loop has two more days: a new export adds them to the habit already here.
            let sample = { (name: String) in try String(contentsOfFile: Self.loopSample + "/" + name, encoding: .utf8) }
            let wake = "002 Wake up early/Checkmarks.csv"
            let newer = try sample(wake).replacingOccurrences(
                of: "Date,Value,Notes\n", with: "Date,Value,Notes\n2015-01-27,YES_MANUAL,\n2015-01-26,YES_MANUAL,\n")
            #expect(newer != (try sample(wake)))
            _ = try fixture.home.write(try sample("Habits.csv"), to: "later/Habits.csv")
            _ = try fixture.home.write(newer, to: "later/" + wake)
            _ = try fixture.home.write(
                try sample("001 Meditate/Checkmarks.csv"), to: "later/001 Meditate/Checkmarks.csv")
            let later = "2015-01-27 12:00:00"
            let look = try await fixture.hooray(
                "import", "--from", "loop", fixture.home.appending("later"), fakeTime: later)
            #expect(
                look.standardOutput.contains("“Wake up early” is already here; 2 days from Loop to add."),
                "\(look.standardOutput)")
            let update = try await fixture.hooray(
                "import", "--from", "loop", fixture.home.appending("later"), "--apply", fakeTime: later)
            #expect(update.status == .exited(0), "\(update.standardError)")
            #expect(
                update.standardOutput.contains("habits: 1 habit brought up to date, 1 habit already there"),
                "\(update.standardOutput)")
            #expect(update.standardOutput.contains("“Wake up early” is already here; 2 days from Loop added."))
            let updated = try await fixture.hooray("habit", "show", "Wake up early", fakeTime: later)
            #expect(updated.standardOutput.contains("Streak: 3 days"), "\(updated.standardOutput)")

            let wrong = try await fixture.hooray("import", "--from", "lop", habits)
            #expect(wrong.status == .exited(64))
            #expect(wrong.standardError.contains("did you mean --from loop?"), "\(wrong.standardError)")
            let notLoop = try fixture.home.write("Date,Value\n2015-01-01,2\n", to: "Habits.csv")
            let refused = try await fixture.hooray("import", "--from", "loop", notLoop)
            #expect(refused.status == .exited(1))
            #expect(refused.standardError.contains("line 1"), "\(refused.standardError)")
            #expect(refused.standardError.contains("Nothing was imported."))
        }
    }
}
