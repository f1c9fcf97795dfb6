import Foundation
import HooraySystemTesting
import Testing

/// `hooray export --format csv`: one table per kind of record, in a folder or a zip.
extension ExportImportTests {
    /// Cells of a CSV file (RFC 4180; Swift reads CRLF as one character).
    func csv(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            index += 1
            if quoted {
                if character != "\"" {
                    field.append(character)
                } else if index < characters.count, characters[index] == "\"" {
                    field.append("\"")
                    index += 1
                } else {
                    quoted = false
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                row.append(field)
                field = ""
            } else if character == "\r\n" {
                row.append(field)
                rows.append(row)
                (row, field) = ([], "")
            } else {
                field.append(character)
            }
        }
        return rows
    }

    @Test func theCSVExportIsOneTablePerKindInAFolderOrAZip() async throws {
        try await HoorayFixture.with { fixture in
            try await makeData(fixture)
            let refused = try await fixture.hooray("export", "--format", "csv")
            #expect(refused.status == .exited(64), "\(refused.standardError)")
            #expect(refused.standardError.contains("-o FOLDER"), "\(refused.standardError)")

            let folder = fixture.home.appending("csv")
            let written = try await fixture.hooray("export", "--format", "csv", "-o", folder)
            #expect(written.status == .exited(0), "\(written.standardError)")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            for name in [
                "moments.csv", "habits.csv", "habit-days.csv", "rejections.csv", "check-ins.csv", "swaps.csv",
                "preps.csv", "challenges.csv", "reminders.csv", "values.csv",
            ] {
                #expect(names.contains(name), "\(names)")
            }
            func table(_ name: String) throws -> [[String]] {
                let text = try read(folder + "/" + name)
                #expect(text.hasSuffix("\r\n") && !text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
                return csv(text)
            }
            let moments = try table("moments.csv")
            #expect(Array(moments[0].prefix(6)) == ["date", "time", "text", "mood", "note", "praise"])
            #expect(
                moments.contains {
                    Array($0.prefix(5)) == ["2026-11-23", "10:00", "Answered one message", "proud", "First of many"]
                }, "\(moments)")
            #expect(moments.allSatisfy { $0.count == moments[0].count }, "every row has every column")
            let days = try table("habit-days.csv")
            #expect(days[0] == ["habit", "date", "status", "note"])
            let ferns = days.filter { $0[0] == "Water the ferns" }.map { Array($0.dropFirst()) }
            #expect(
                ferns == [
                    ["2026-11-15", "done", ""], ["2026-11-16", "done", ""], ["2026-11-17", "paused", ""],
                    ["2026-11-18", "paused", ""], ["2026-11-20", "reset", "Forgot while travelling"],
                    ["2026-11-22", "done", ""], ["2026-11-23", "done", ""],
                ])
            let habits = try table("habits.csv")
            #expect(habits.contains { $0.first == "Stretch" && $0.contains("mon, wed, fri") }, "\(habits)")
            let rejections = try table("rejections.csv")
            #expect(Array(rejections[0].prefix(3)) == ["id", "date", "time"] && rejections[0].contains("impact"))
            #expect(rejections.count == 3)
            #expect(try table("check-ins.csv").count == 2)
            #expect(try table("swaps.csv").contains { $0.contains("Sparkling water instead of soda") })

            let zip = fixture.home.appending("hooray.zip")
            let zipped = try await fixture.hooray("export", "--format", "csv", "-o", zip)
            #expect(zipped.status == .exited(0), "\(zipped.standardError)")
            let mode = try FileManager.default.attributesOfItem(atPath: zip)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            let unzip = fixture.home.appending("unzipped")
            try await self.unzip(zip, into: unzip)
            #expect(try FileManager.default.contentsOfDirectory(atPath: unzip).sorted() == names)
            #expect(try read(unzip + "/habit-days.csv") == (try read(folder + "/habit-days.csv")))

            // Neither is read back: the message names the JSON export.
            for (file, words) in [(folder + "/moments.csv", "Hooray's CSV export"), (zip, "is a zip file")] {
                let output = try await fixture.hooray("import", file)
                #expect(output.status == .exited(1))
                #expect(
                    output.standardError.contains(words) && output.standardError.contains("hooray export -o FILE"),
                    "\(output.standardError)")
            }
        }
    }

    /// Unpacks a zip with Python's zipfile, which `make test` installs (unzip it does not).
    func unzip(_ zip: String, into folder: String) async throws {
        let output = try await ProcessRunner.run("/usr/bin/python3", arguments: ["-m", "zipfile", "-e", zip, folder])
        #expect(output.status == .exited(0), "\(output.standardError)")
    }

    /// The permission bits of a file or folder.
    func mode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    @Test func aCSVExportReplacesAnEarlierOneWholeAndRefusesAFolderWithOtherFiles() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.hooray("win", "Took a walk")
            // An earlier export's folder, with a table this export does not write.
            let folder = fixture.home.appending("csv")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try "habit,date,status\r\nOld habit,2026-01-01,done\r\n".write(
                toFile: folder + "/habit-days.csv", atomically: false, encoding: .utf8)
            try "stale\r\n".write(toFile: folder + "/moments.csv", atomically: false, encoding: .utf8)
            let written = try await fixture.hooray("export", "--format", "csv", "-o", folder)
            #expect(written.status == .exited(0), "\(written.standardError)")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            #expect(!names.contains("habit-days.csv"), "no table of the earlier export stays: \(names)")
            #expect(names.contains("moments.csv"), "\(names)")
            #expect(try read(folder + "/moments.csv").contains("Took a walk"))
            #expect(try mode(folder) == 0o700)
            for name in names { #expect(try mode(folder + "/" + name) == 0o600, "\(name)") }
            let beside = try FileManager.default.contentsOfDirectory(atPath: fixture.home.path)
            #expect(!beside.contains { $0.hasPrefix(".hooray-export") }, "nothing left beside it: \(beside)")

            // A folder holding anything but tables is refused, and nothing in it changes.
            let mixed = fixture.home.appending("documents")
            try FileManager.default.createDirectory(atPath: mixed, withIntermediateDirectories: true)
            try "mine\n".write(toFile: mixed + "/letter.txt", atomically: false, encoding: .utf8)
            try "old\r\n".write(toFile: mixed + "/moments.csv", atomically: false, encoding: .utf8)
            let refused = try await fixture.hooray("export", "--format", "csv", "-o", mixed)
            #expect(refused.status == .exited(1), "\(refused.standardOutput)")
            for words in [
                "the folder \(mixed) holds letter.txt", "Give -o a new folder", "or empty this one",
                "Nothing was written.",
            ] {
                #expect(refused.standardError.contains(words), "\(refused.standardError)")
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: mixed).sorted() == ["letter.txt", "moments.csv"])
            #expect(try read(mixed + "/moments.csv") == "old\r\n")
            #expect(!refused.standardOutput.contains("Exported"))

            // An empty folder is written into.
            let empty = fixture.home.appending("empty")
            try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
            #expect(try await fixture.hooray("export", "--format", "csv", "-o", empty).status == .exited(0))
            #expect(try FileManager.default.contentsOfDirectory(atPath: empty).contains("moments.csv"))
        }
    }

    @Test func aCSVZipOrFolderThroughASymbolicLinkIsRefusedAndWhatItPointsToKept() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.hooray("win", "Took a walk")
            let zip = fixture.home.appending("real.zip")
            try "old\n".write(toFile: zip, atomically: false, encoding: .utf8)
            let folder = fixture.home.appending("real-csv")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            try "old\n".write(toFile: folder + "/moments.csv", atomically: false, encoding: .utf8)
            for (link, pointed) in [
                (fixture.home.appending("link.zip"), zip), (fixture.home.appending("link"), folder),
            ] {
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pointed)
                let output = try await fixture.hooray("export", "--format", "csv", "-o", link)
                #expect(output.status == .exited(1), "\(output.standardOutput)")
                #expect(
                    output.standardError.contains(
                        "\(link) is a symbolic link (to \(pointed)), which hooray export never writes through"),
                    "\(output.standardError)")
                #expect(output.standardError.contains("Nothing was written."))
                #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == pointed, "the link is kept")
            }
            #expect(try read(zip) == "old\n")
            #expect(try read(folder + "/moments.csv") == "old\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["moments.csv"])
        }
    }

    /// Tests/Fixtures/exports/hooray-export-v1.json, written by `hooray export` of version 1.
    static let versionOne = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/exports/hooray-export-v1.json").path
}
