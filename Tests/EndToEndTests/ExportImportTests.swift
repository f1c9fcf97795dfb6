import Foundation
import HoorayCalendar
import HooraySystemTesting
import Testing

/// `hooray export` and `hooray import` with the real binaries: the round trip, bad files, and Loop
/// Habit Tracker's CSV export.
@Suite(.timeLimit(.minutes(3)))
struct ExportImportTests {
    static let day = "2026-11-23 10:00:00"

    /// Logs two moments; a habit done on 15, 16, 22 and 23 November, paused 17–18 and reset on the
    /// 20th, and another on some weekdays; two rejections, one recovered, a check-in and the day's
    /// challenge; a prep and a swap; a reminder on two weekdays.
    func makeData(_ fixture: HoorayFixture) async throws {
        for (time, words) in [
            ("2026-11-15 08:00:00", ["habit", "add", "Water the ferns", "--start", "2026-11-15", "--remind", "20:00"]),
            ("2026-11-15 08:00:00", ["habit", "add", "Stretch", "--on", "mon,wed,fri", "--start", "2026-11-16"]),
            ("2026-11-15 20:00:00", ["habit", "done", "Water the ferns"]),
            ("2026-11-16 20:00:00", ["habit", "done", "Water the ferns"]),
            ("2026-11-17 09:00:00", ["habit", "pause", "Water the ferns", "--for", "2d"]),
            ("2026-11-20 09:00:00", ["habit", "reset", "Water the ferns", "--note", "Forgot while travelling"]),
            (Self.day, ["habit", "done", "Water the ferns", "--date", "yesterday"]),
            (Self.day, ["habit", "done", "Water the ferns"]),
            (Self.day, ["win", "Answered one message", "--mood", "proud", "--note", "First of many"]),
            // Brackets with spaces inside, which a careless pretty-printer would squeeze.
            (Self.day, ["win", "Inbox [ ] zero { } at last"]),
            (Self.day, ["reject", "--type", "job", "--impact", "8", "--note", "No reply"]),
            (Self.day, ["reject", "--type", "dating", "--impact", "3"]),
            (Self.day, ["recovery", "okay"]),
            (Self.day, ["recovery", "checkin", "good"]),
            (Self.day, ["challenge", "done"]),
            (Self.day, ["swap", "prep", "Oatmeal instead of a pastry"]),
            (Self.day, ["swap", "Sparkling water instead of soda"]),
            (Self.day, ["remind", "Call mom", "--at", "18:00", "--days", "mon,thu"]),
        ] {
            let output = try await fixture.hooray(arguments: words, fakeTime: time)
            #expect(output.status == .exited(0), "\(words): \(output.standardError)")
        }
    }

    /// The JSON of a file, as objects and arrays.
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A plugin's records in an export.
    func records(_ document: [String: Any], _ plugin: String) -> [[String: Any]] {
        ((document["plugins"] as? [String: Any])?[plugin] as? [String: Any])?["records"] as? [[String: Any]] ?? []
    }

    @Test func theExportWritesDaysAndInstantsAsTextInThePublicSchemasAndNoBase64() async throws {
        try await HoorayFixture.with { fixture in
            try await makeData(fixture)
            let output = try await fixture.hooray("export")
            #expect(output.status == .exited(0), "\(output.standardError)")
            let text = output.standardOutput
            let document = try json(text)
            #expect(document["version"] as? Int == 2)

            let habits = records(document, "habits")
            let ferns = try #require(
                habits.first { ($0["value"] as? [String: Any])?["name"] as? String == "Water the ferns" })
            let value = try #require(ferns["value"] as? [String: Any])
            #expect(value["done"] as? [String] == ["2026-11-15", "2026-11-16", "2026-11-22", "2026-11-23"])
            #expect(value["paused"] as? [[String: String]] == [["from": "2026-11-17", "through": "2026-11-18"]])
            #expect(
                value["resets"] as? [[String: String]] == [["day": "2026-11-20", "note": "Forgot while travelling"]])
            #expect(value["schedule"] as? [String: String] == ["every": "day"])
            #expect(value["remindAt"] as? String == "20:00")
            #expect((value["createdAt"] as? String)?.hasPrefix("2026-11-15T08:0") == true, "\(value)")
            let stretch = try #require(habits.first { $0["id"] as? String != ferns["id"] as? String })
            #expect(
                (stretch["value"] as? [String: Any])?["schedule"] as? [String: [String]] == [
                    "days": ["mon", "wed", "fri"]
                ])

            let moment = try #require(
                records(document, "wins").first {
                    ($0["value"] as? [String: Any])?["text"] as? String == "Answered one message"
                })
            let fields = try #require(moment["value"] as? [String: Any])
            #expect(fields["mood"] as? String == "proud" && fields["note"] as? String == "First of many")
            #expect(moment["at"] as? String == fields["happenedAt"] as? String)
            for kind in ["rejection", "checkin", "challenge"] {
                #expect(records(document, "recovery").contains { $0["kind"] as? String == kind }, "\(kind)")
            }
            #expect(records(document, "swaps").map { $0["kind"] as? String ?? "" }.sorted() == ["prep", "swap"])
            let reminder = try #require(records(document, "reminders").first)
            #expect((reminder["value"] as? [String: Any])?["days"] as? [String] == ["mon", "thu"])

            // Every instant is ISO 8601 in UTC, every day YYYY-MM-DD; no seconds since 1970, no base64,
            // and the id once per record.
            let instant = #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/#
            let day = #/^\d{4}-\d{2}-\d{2}$/#
            var instants = 0
            func walk(_ node: Any, key: String, path: String) {
                switch node {
                case let object as [String: Any]:
                    #expect(object["base64"] == nil && object["bits"] == nil, "\(path)")
                    for (name, child) in object { walk(child, key: name, path: path + "." + name) }
                case let array as [Any]:
                    for (index, child) in array.enumerated() { walk(child, key: key, path: "\(path)[\(index)]") }
                case let number as NSNumber:
                    #expect(number.doubleValue < 1_000_000, "\(path) = \(number) looks like seconds since 1970")
                case let string as String:
                    // A reminder's `at` and a habit's `remindAt` are times of day, HH:MM.
                    if key == "at" || key == "once" || key.hasSuffix("At") || key == "followUpShown",
                        string.wholeMatch(of: #/\d{2}:\d{2}/#) == nil
                    {
                        #expect(string.wholeMatch(of: instant) != nil, "\(path) = \(string)")
                        instants += 1
                    }
                    if ["day", "done", "start", "from", "through", "on", "anchor"].contains(key) {
                        #expect(string.wholeMatch(of: day) != nil, "\(path) = \(string)")
                    }
                default: break
                }
            }
            walk(document, key: "", path: "")
            #expect(instants > 10)
            for plugin in ["habits", "wins", "recovery", "swaps", "reminders"] {
                for record in records(document, plugin) {
                    #expect((record["value"] as? [String: Any])?["id"] == nil, "\(plugin): the id once")
                }
            }
            #expect(!text.contains("recentPraise"), "the praise rotation is this computer's cache")
            #expect(!text.contains("syncAttempts"))
        }
    }

    @Test func aVersion1ExportImportsAndExportsAgainAsVersion2() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig("[plugins.water]\nenabled = true\n")
            let applied = try await fixture.hooray("import", Self.versionOne, "--apply")
            #expect(applied.status == .exited(0), "\(applied.standardError)")
            for words in [
                "habits: 3 habits added", "wins: 2 moments added", "2 rejections added", "2 reminders added",
                "1 drink added", "1 swap added",
            ] {
                #expect(applied.standardOutput.contains(words), "\(applied.standardOutput)")
            }
            let show = try await fixture.hooray("habit", "show", "Water the ferns", fakeTime: "2026-11-23 21:00:00")
            #expect(show.standardOutput.contains("Streak: 2 days"), "\(show.standardOutput)")
            #expect(try await fixture.hooray("moments").standardOutput.contains("Sent the scary email"))

            let first = try await fixture.hooray("export").standardOutput
            let document = try json(first)
            #expect(document["version"] as? Int == 2)
            let ferns = try #require(
                records(document, "habits").first {
                    ($0["value"] as? [String: Any])?["name"] as? String == "Water the ferns"
                })
            let value = try #require(ferns["value"] as? [String: Any])
            #expect(
                value["done"] as? [String] == ["2026-11-15", "2026-11-16", "2026-11-17", "2026-11-22", "2026-11-23"])
            #expect(value["paused"] as? [[String: String]] == [["from": "2026-11-18", "through": "2026-11-19"]])
            #expect(!first.contains("base64") && !first.contains("recentPraise"), "\(first)")
            #expect(first.contains("\"text\" : \"2026-11-23\""), "a value that is text but not JSON, as text")

            // Version 2 from then on, the same bytes through a round trip.
            let file = try fixture.home.write(first, to: "v2.json")
            #expect(try await fixture.hooray("delete-my-data", "--yes").status == .exited(0))
            #expect(try await fixture.hooray("import", file, "--apply").status == .exited(0))
            #expect(try await fixture.hooray("export").standardOutput == first)
        }
    }

    @Test func aVersion2FileWithAWrongDayARepeatedDayOrAnUnknownKindIsRefusedByRecordAndField() async throws {
        try await HoorayFixture.with { fixture in
            try await makeData(fixture)
            let text = try await fixture.hooray("export").standardOutput
            let document = try json(text)
            let habits = records(document, "habits")
            let index = try #require(
                habits.firstIndex { ($0["value"] as? [String: Any])?["name"] as? String == "Water the ferns" })
            func edited(_ change: (inout [String: Any]) -> Void) throws -> String {
                var record = habits[index]
                change(&record)
                var all = habits
                all[index] = record
                var plugins = try #require(document["plugins"] as? [String: Any])
                var content = try #require(plugins["habits"] as? [String: Any])
                content["records"] = all
                plugins["habits"] = content
                var changed = document
                changed["plugins"] = plugins
                return String(
                    decoding: try JSONSerialization.data(
                        withJSONObject: changed, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self)
            }
            func days(_ days: [String]) -> (inout [String: Any]) -> Void {
                { record in
                    var value = record["value"] as! [String: Any]
                    value["done"] = days
                    record["value"] = value
                }
            }
            let path = "plugins.habits.records[\(index)]"
            let cases: [(String, String, [String])] = [
                (
                    "not-a-date.json", try edited(days(["2026-11-15", "2026-11-31"])),
                    ["\(path).value.done[1]", "\"2026-11-31\" is not a date"]
                ),
                (
                    "twice.json", try edited(days(["2026-11-15", "2026-11-16", "2026-11-15"])),
                    ["\(path).value.done[2]", "2026-11-15 is listed twice (also done[0])"]
                ),
                (
                    "kind.json", try edited { $0["kind"] = "habbit" },
                    ["\(path).kind", "\"habbit\" is not a kind of record the habits plugin keeps"]
                ),
            ]
            #expect(try await fixture.hooray("delete-my-data", "--yes").status == .exited(0))
            let before = try await fixture.hooray("export").standardOutput
            for (name, content, words) in cases {
                let file = try fixture.home.write(content, to: name)
                for extra in [[], ["--apply"]] {
                    let output = try await fixture.hooray(arguments: ["import", file] + extra)
                    #expect(output.status == .exited(1), "\(name): \(output.standardError)")
                    for word in words + ["line ", "Nothing was imported."] {
                        #expect(output.standardError.contains(word), "\(name): \(output.standardError)")
                    }
                }
            }
            #expect(try await fixture.hooray("export").standardOutput == before, "nothing was changed")
            // The same file unedited imports.
            let good = try fixture.home.write(try edited { _ in }, to: "good.json")
            #expect(try await fixture.hooray("import", good, "--apply").status == .exited(0))
        }
    }

    func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func exportDeleteImportExportGivesTheSameFileAndASecondImportAddsNothing() async throws {
        try await HoorayFixture.with { fixture in
            try await makeData(fixture)
            let first = fixture.home.appending("a.json")
            let exported = try await fixture.hooray("export", "-o", first)
            #expect(exported.status == .exited(0), "\(exported.standardError)")
            let text = try read(first)
            for word in ["Answered one message", "Water the ferns", "Sparkling water instead of soda", "\"job\""] {
                #expect(text.contains(word), "the export holds \(word)")
            }
            #expect(text.contains("\"format\" : \"hooray-export\""))
            #expect(!text.contains("hooray.celebrations"), "Hooray's own memory is not the user's data")
            let mode = try FileManager.default.attributesOfItem(atPath: first)[.posixPermissions] as? Int
            #expect(mode == 0o600)

            let deleted = try await fixture.hooray("delete-my-data", "--yes")
            #expect(deleted.status == .exited(0))
            #expect(try await fixture.hooray("habit", "list").standardOutput.contains("Water the ferns") == false)

            // The preview changes nothing.
            let preview = try await fixture.hooray("import", first)
            #expect(preview.status == .exited(0), "\(preview.standardError)")
            #expect(preview.standardOutput.contains("habits: 2 habits to add"), "\(preview.standardOutput)")
            #expect(preview.standardOutput.contains("--apply"))
            #expect(try await fixture.hooray("moments").standardOutput.contains("Answered one message") == false)

            let applied = try await fixture.hooray("import", first, "--apply")
            #expect(applied.status == .exited(0), "\(applied.standardError)")
            #expect(applied.standardOutput.contains("habits: 2 habits added"), "\(applied.standardOutput)")
            #expect(applied.standardOutput.contains("wins: 2 moments added"), "\(applied.standardOutput)")
            let show = try await fixture.hooray("habit", "show", "Water the ferns", fakeTime: Self.day)
            #expect(show.standardOutput.contains("Streak: 2 days"), "\(show.standardOutput)")
            let moments = try await fixture.hooray("moments").standardOutput
            #expect(moments.contains("Answered one message"))
            #expect(moments.contains("Inbox [ ] zero { } at last"), "\(moments)")

            let second = fixture.home.appending("b.json")
            #expect(try await fixture.hooray("export", "-o", second).status == .exited(0))
            #expect(try read(second) == text, "the round trip gives the same bytes")
            // Standard output gets the same bytes as -o.
            #expect(try await fixture.hooray("export").standardOutput == text)

            let again = try await fixture.hooray("import", first, "--apply")
            #expect(again.status == .exited(0))
            #expect(again.standardOutput.contains("nothing was added"), "\(again.standardOutput)")
            #expect(again.standardOutput.contains("habits: 2 habits already there\n"), "\(again.standardOutput)")
            #expect(again.standardOutput.contains("wins: 2 moments already there"), "\(again.standardOutput)")
            let third = fixture.home.appending("c.json")
            _ = try await fixture.hooray("export", "-o", third)
            #expect(try read(third) == text)
        }
    }

    /// The stored value of every moment, read from the database with Python's sqlite3.
    func storedMoments(_ fixture: HoorayFixture) async throws -> String {
        let output = try await ProcessRunner.run(
            "/usr/bin/python3",
            arguments: [
                "-c",
                "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); "
                    + "print('\\n'.join(str(v) for (v,) in db.execute(\"SELECT value FROM record WHERE plugin = 'wins'\")))",
                fixture.home.appending("data/hooray/hooray.sqlite"),
            ])
        #expect(output.status == .exited(0), "\(output.standardError)")
        return output.standardOutput
    }

    @Test func importingYourOwnExportIntoTheSameDataFindsEverythingAlreadyThere() async throws {
        try await HoorayFixture.with { fixture in
            try await withAIServer { ai in
                // Moments praised by the AI service keep its id, which the export leaves out.
                try fixture.writeConfig(
                    """
                    [ai]
                    provider = "hooray"
                    endpoint = "\(ai.endpoint("good").absoluteString)"
                    timeout = "3s"
                    connect_timeout = "2s"
                    """)
                try await makeData(fixture)
                let before = try await storedMoments(fixture)
                #expect(before.contains("srv-"), "\(before)")
                let file = fixture.home.appending("mine.json")
                #expect(try await fixture.hooray("export", "-o", file).status == .exited(0))

                let preview = try await fixture.hooray("import", file)
                #expect(preview.status == .exited(0), "\(preview.standardError)")
                #expect(
                    preview.standardOutput.contains("Everything in it is already here; there is nothing to add."),
                    "\(preview.standardOutput)")
                #expect(preview.standardOutput.contains("wins: 2 moments already there"), "\(preview.standardOutput)")
                #expect(!preview.standardOutput.contains("different here"), "\(preview.standardOutput)")
                let summary = try json(try await fixture.hooray("import", file, "--json").standardOutput)
                let parts = try #require(summary["parts"] as? [[String: Any]])
                #expect(parts.count > 5)
                for part in parts {
                    #expect(part["added"] as? Int == 0 && part["updated"] as? Int == 0, "\(part)")
                    #expect((part["conflicts"] as? [String])?.isEmpty == true, "\(part)")
                }

                let replaced = try await fixture.hooray("import", file, "--replace", "--apply")
                #expect(replaced.status == .exited(0), "\(replaced.standardError)")
                #expect(
                    replaced.standardOutput.contains("Everything in it was already here; nothing was added."),
                    "\(replaced.standardOutput)")
                #expect(try await storedMoments(fixture) == before, "what the export leaves out is kept")
            }
        }
    }

    @Test func aRunningDaemonPlansTheRemindersOfWhatWasImported() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.hooray("habit", "add", "Stretch", "--remind", "20:00")
            let file = fixture.home.appending("a.json")
            _ = try await fixture.hooray("export", "-o", file)
            _ = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            #expect(try await fixture.hooray("delete-my-data", "--yes").status == .exited(0))
            #expect(try await fixture.nextEntries().contains { $0.title == "Stretch" } == false)

            let applied = try await fixture.hooray("import", file, "--apply")
            #expect(applied.status == .exited(0), "\(applied.standardError)")
            #expect(applied.standardOutput.contains("hoorayd has it too."), "\(applied.standardOutput)")
            #expect(try await fixture.nextEntries().contains { $0.title == "Stretch" })
            #expect(daemon.isRunning)
            await daemon.stop()
        }
    }

    @Test func theRoundTripHoldsWithHoorayDRunningAndItsOwnBookkeepingWrittenAgain() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(
                reminderTOML(title: "Water the ferns", body: "A little water", at: "18:00", extra: "every = \"3d\""))
            _ = try await fixture.startServer()
            // hoorayd first ran in January: it remembers that day as the first of the ferns' rhythm.
            var daemon = try await fixture.startDaemon(fakeTime: "2026-01-05 10:00:00")
            await daemon.stop()
            daemon = try await fixture.startDaemon()
            let added = try await fixture.hooray("remind", "Call mom", "--at", "18:00")
            #expect(added.status == .exited(0), "\(added.standardError)")
            #expect(try await fixture.hooray("win", "Inbox [ ] zero").status == .exited(0))
            let first = fixture.home.appending("a.json")
            #expect(try await fixture.hooray("export", "-o", first).status == .exited(0))
            let text = try read(first)
            for words in ["\"anchor.water-the-ferns\"", "\"value\" : \"2026-01-05\"", "remind.next-number", "Call mom"]
            {
                #expect(text.contains(words), "the export holds \(words):\n\(text)")
            }

            #expect(try await fixture.hooray("delete-my-data", "--yes").status == .exited(0))
            // hoorayd took the reminder up again at once, and wrote today as the first day of its rhythm.
            let meanwhile = try await fixture.hooray("export").standardOutput
            #expect(meanwhile.contains("\"anchor.water-the-ferns\""), "\(meanwhile)")
            #expect(!meanwhile.contains("2026-01-05"))

            let preview = try await fixture.hooray("import", first)
            #expect(preview.standardOutput.contains("1 stored value to bring up to date"), "\(preview.standardOutput)")
            #expect(!preview.standardOutput.contains("different here"), "\(preview.standardOutput)")
            let applied = try await fixture.hooray("import", first, "--apply")
            #expect(applied.status == .exited(0), "\(applied.standardError)")
            #expect(applied.standardOutput.contains("reminders: 1 reminder added"), "\(applied.standardOutput)")
            #expect(applied.standardOutput.contains("hoorayd has it too."), "\(applied.standardOutput)")
            let second = fixture.home.appending("b.json")
            #expect(try await fixture.hooray("export", "-o", second).status == .exited(0))
            #expect(try read(second) == text, "the round trip gives the same bytes with hoorayd running")
            let listed = try await fixture.hooray("remind", "list").standardOutput
            #expect(listed.contains("Call mom") && listed.contains("Water the ferns"), "\(listed)")
            #expect(try await fixture.hooray("moments").standardOutput.contains("Inbox [ ] zero"))

            let again = try await fixture.hooray("import", first, "--apply")
            #expect(again.standardOutput.contains("Everything in it was already here"), "\(again.standardOutput)")
            // The next number goes on from the imported one.
            let next = try await fixture.hooray("remind", "Stretch", "--at", "19:00")
            #expect(next.standardOutput.hasPrefix("Added r2: Stretch"), "\(next.standardOutput)")
            #expect(daemon.isRunning)
            await daemon.stop()
        }
    }

    @Test func aRecordEditedSoThatItNoLongerReadsIsRefusedByPathEvenToReplace() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.hooray("habit", "add", "Stretch", "--start", "2026-11-20")
            let file = fixture.home.appending("a.json")
            _ = try await fixture.hooray("export", "-o", file)
            let broken = try read(file).replacingOccurrences(of: "\"start\" : \"2026-11-20\"", with: "\"begin\" : 1")
            #expect(broken != (try read(file)))
            let path = try fixture.home.write(broken, to: "broken.json")
            for extra in [[], ["--apply"], ["--apply", "--replace"]] {
                let output = try await fixture.hooray(arguments: ["import", path] + extra)
                #expect(output.status == .exited(1), "\(extra): \(output.standardError)")
                #expect(
                    output.standardError.contains(
                        "plugins.habits.records[0].value.start: it is missing"
                    ),
                    "\(output.standardError)")
                #expect(output.standardError.contains("Nothing was imported."))
            }
            let show = try await fixture.hooray("habit", "show", "Stretch")
            #expect(show.status == .exited(0), "the good habit is still there: \(show.standardError)")
        }
    }

    @Test func aPreviewMakesNoDatabaseAndARefusedReloadIsSaid() async throws {
        try await HoorayFixture.with { fixture in
            let database = fixture.home.appending("data/hooray/hooray.sqlite")
            _ = try await fixture.hooray("win", "Asked for help")
            let file = fixture.home.appending("a.json")
            #expect(try await fixture.hooray("export", "-o", file).status == .exited(0))
            // A new computer: the export, and no database yet.
            for name in try FileManager.default.contentsOfDirectory(atPath: fixture.home.appending("data/hooray")) {
                try FileManager.default.removeItem(atPath: fixture.home.appending("data/hooray/\(name)"))
            }
            let preview = try await fixture.hooray("import", file)
            #expect(preview.status == .exited(0), "\(preview.standardError)")
            #expect(preview.standardOutput.contains("wins: 1 moment to add"), "\(preview.standardOutput)")
            #expect(!FileManager.default.fileExists(atPath: database), "looking creates nothing")

            _ = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            try fixture.writeConfig("[plugins.reminders\n")
            let applied = try await fixture.hooray("import", file, "--apply")
            #expect(applied.status == .exited(0), "\(applied.standardError)")
            #expect(applied.standardOutput.contains("wins: 1 moment added"), "\(applied.standardOutput)")
            #expect(!applied.standardOutput.contains("hoorayd has it too"))
            #expect(applied.standardError.contains("hoorayd refused to reload"), "\(applied.standardError)")
            #expect(applied.standardError.contains("Fix the configuration, then `hooray reload`"))
            #expect(daemon.isRunning)
            await daemon.stop()
        }
    }

    @Test func aChangedRecordIsAConflictKeptUnlessReplace() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.hooray("habit", "add", "Stretch", fakeTime: Self.day)
            let file = fixture.home.appending("a.json")
            _ = try await fixture.hooray("export", "-o", file)
            let renamed = try read(file).replacingOccurrences(of: "\"Stretch\"", with: "\"Stretch gently\"")
            _ = try fixture.home.write(renamed, to: "renamed.json")
            let preview = try await fixture.hooray("import", fixture.home.appending("renamed.json"))
            #expect(preview.standardOutput.contains("1 habit different here"), "\(preview.standardOutput)")
            #expect(preview.standardOutput.contains("--replace"))
            _ = try await fixture.hooray("import", fixture.home.appending("renamed.json"), "--apply")
            #expect(try await fixture.hooray("habit", "list").standardOutput.contains("Stretch gently") == false)
            let replaced = try await fixture.hooray(
                "import", fixture.home.appending("renamed.json"), "--apply", "--replace")
            #expect(replaced.status == .exited(0))
            #expect(try await fixture.hooray("habit", "list").standardOutput.contains("Stretch gently"))

            // Data of a plugin that is not installed is kept for when it is.
            let other = try read(file).replacingOccurrences(of: "\"habits\" : {", with: "\"garden\" : {")
            let moved = try fixture.home.write(other, to: "garden.json")
            let kept = try await fixture.hooray("import", moved, "--apply")
            #expect(kept.status == .exited(0), "\(kept.standardError)")
            #expect(
                kept.standardOutput.contains("The plugin garden is not installed; its data is kept for when it is."))
            #expect(try await fixture.hooray("export", "--plugin", "garden").standardOutput.contains("Stretch"))
        }
    }
}
