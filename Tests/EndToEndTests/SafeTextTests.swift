import Foundation
import HooraySystemTesting
import Testing

/// What Hooray prints is safe and true, end to end: stored text cannot drive the terminal, columns
/// line up whatever the names hold, `--json` follows docs/json.md, and the messages say exactly
/// what happened.
@Suite(.timeLimit(.minutes(5)))
struct SafeTextTests {
    /// A win whose words try to set the window title, ring the bell, clear the screen and turn the
    /// rest of the terminal right-to-left.
    static let hostile = "\u{1B}]0;pwned\u{07}Cleaned \u{1B}[2Jthe desk \u{202E}olleh\u{9B}31m\u{7F}"
    /// How it reads on the terminal.
    static let shown = "␛]0;pwned␇Cleaned ␛[2Jthe desk olleh\u{FFFD}31m␡"

    /// Whether `text` holds anything that could drive a terminal.
    static func isRaw(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x00...0x08, 0x0B...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }

    @discardableResult
    func run(_ fixture: HoorayFixture, _ arguments: [String], at time: String? = nil) async throws -> ProcessOutput {
        let output = try await fixture.hooray(arguments: arguments, fakeTime: time)
        #expect(output.status == .exited(0), "\(arguments): \(output.standardError)")
        return output
    }

    // MARK: Safe text (9)

    @Test(arguments: [false, true])
    func storedControlCharactersAreShownAsSymbolsAndKeptExactInJSON(daemonRunning: Bool) async throws {
        try await HoorayFixture.with { fixture in
            let daemon = daemonRunning ? try await fixture.startDaemon() : nil
            let win = try await run(fixture, ["win", Self.hostile, "--note", "a note\u{1B}[5m"])
            #expect(!Self.isRaw(win.standardOutput), "win printed raw control characters")
            #expect(win.standardOutput.contains(Self.shown))
            try await run(fixture, ["habit", "add", "Read\u{1B}[31m \u{202E}red", "--remind", "20:00"])

            let outputs = [
                try await run(fixture, ["moments"]), try await run(fixture, ["journey"]),
                try await run(fixture, ["habit", "list"]),
                try await run(fixture, ["habit", "show", "Read\u{1B}[31m \u{202E}red"]),
                try await run(fixture, ["next"]), try await run(fixture, ["inbox", "--all"]),
            ]
            for output in outputs {
                #expect(!Self.isRaw(output.standardOutput), "raw control characters in:\n\(output.standardOutput)")
            }
            #expect(outputs[0].standardOutput.contains(Self.shown))
            #expect(outputs[1].standardOutput.contains("• \(Self.shown)"))
            #expect(outputs[2].standardOutput.contains("Read␛[31m red"))
            #expect(outputs[4].standardOutput.contains("Read␛[31m red"))
            #expect(outputs[5].standardOutput.contains(Self.shown))

            // The data keeps the exact text.
            let json = try await run(fixture, ["moments", "--json"])
            #expect(json.standardOutput.contains("\\u001b]0;pwned\\u0007"))
            let moments = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
            #expect(moments?.first?["text"] as? String == Self.hostile)
            #expect(moments?.first?["note"] as? String == "a note\u{1B}[5m")
            let habits = try await run(fixture, ["habit", "list", "--json"])
            let names = try JSONSerialization.jsonObject(with: Data(habits.standardOutput.utf8)) as? [[String: Any]]
            #expect(names?.first?["name"] as? String == "Read\u{1B}[31m \u{202E}red")
            #expect(try await storedMomentTexts(fixture) == [Self.hostile])
            await daemon?.stop()
        }
    }

    /// The texts of the moments in the real SQLite file, read by another program.
    func storedMomentTexts(_ fixture: HoorayFixture) async throws -> [String] {
        let read = try await ProcessRunner.run(
            "/usr/bin/python3",
            arguments: [
                "-c",
                """
                import json, sqlite3, sys
                db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
                rows = db.execute("SELECT value FROM record WHERE plugin = 'wins' AND kind = 'moment'")
                print(json.dumps([json.loads(value)["text"] for (value,) in rows]))
                """,
                fixture.home.appending("data/hooray/hooray.sqlite"),
            ])
        #expect(read.status == .exited(0), "\(read.standardError)")
        return try JSONDecoder().decode([String].self, from: Data(read.standardOutput.utf8))
    }

    @Test func notificationBodiesShowControlCharactersAsSymbols() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            try await run(fixture, ["win", "Rang\u{07} the <b>bell</b> \u{1B}[1m"])
            let shown = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(15)).first)
            #expect(shown.body.hasPrefix("Rang␇ the &lt;b&gt;bell&lt;/b&gt; ␛[1m\n"))
            await daemon.stop()
        }
    }

    // MARK: Width by display cells (16)

    /// The cells a line takes on a terminal, for the names these tests use: emoji and CJK take two.
    static func cells(_ text: some StringProtocol) -> Int {
        text.reduce(0) { total, character in
            let first = character.unicodeScalars.first!
            let wide = first.properties.isEmojiPresentation || (0x4E00...0x9FFF).contains(first.value)
            return total + (wide ? 2 : 1)
        }
    }

    /// The display column where `word` starts in `line`.
    static func column(of word: String, in line: some StringProtocol) -> Int? {
        guard let range = line.range(of: word) else { return nil }
        return cells(line[..<range.lowerBound])
    }

    static let names = ["Run 🏃", "読書", "Meditate 🧘 a bit", "Stretch"]

    @Test func habitListAndNextAlignColumnsByDisplayWidth() async throws {
        try await HoorayFixture.with { fixture in
            let now = "2026-11-23 09:00:00"
            for name in Self.names {
                try await run(fixture, ["habit", "add", name, "--remind", "20:00"], at: now)
            }
            let list = try await run(fixture, ["habit", "list"], at: now).standardOutput
            let lines = list.split(separator: "\n")
            try #require(lines.count == Self.names.count + 1, "\(list)")
            let streak = Self.column(of: "STREAK", in: lines[0])
            let schedule = Self.column(of: "SCHEDULE", in: lines[0])
            for line in lines.dropFirst() {
                #expect(Self.column(of: "0 days", in: line) == streak, "STREAK moved in:\n\(list)")
                #expect(Self.column(of: "every day", in: line) == schedule, "SCHEDULE moved in:\n\(list)")
            }

            let next = try await run(fixture, ["next"], at: now).standardOutput
            let rows = next.split(separator: "\n").prefix { !$0.isEmpty }
            try #require(rows.count == Self.names.count + 1, "\(next)")
            let plugin = Self.column(of: "PLUGIN", in: rows[0])
            let when = Self.column(of: "SCHEDULE", in: rows[0])
            for row in rows.dropFirst() {
                #expect(Self.column(of: "habits", in: row) == plugin, "PLUGIN moved in:\n\(next)")
                #expect(Self.column(of: "daily", in: row) ?? Self.column(of: "every", in: row) == when, "\(next)")
            }
        }
    }

    @Test func todaysMarkInTheCalendarKeepsTheNextDayApart() async throws {
        try await HoorayFixture.with { fixture in
            try await run(fixture, ["habit", "add", "Read"], at: "2026-11-01 09:00:00")
            let show = try await run(fixture, ["habit", "show", "Read"], at: "2026-11-23 09:00:00")
            #expect(show.standardOutput.contains("[23] 24  25"), "\(show.standardOutput)")
            #expect(!show.standardOutput.contains("]24"))
        }
    }

    // MARK: One JSON schema per record type (8)

    /// The keys docs/json.md lists for each record type, by the type's heading.
    static func documentedKeys() throws -> [String: Set<String>] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/json.md").standardizedFileURL.path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var types: [String: Set<String>] = [:]
        var current: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("## ") {
                current = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            } else if let current, line.hasPrefix("| `") {
                let key = line.dropFirst(3).prefix { $0 != "`" }
                types[current, default: []].insert(String(key))
            }
        }
        return types
    }

    /// The objects a command printed: the object itself, or each object of an array.
    func objects(_ output: ProcessOutput) throws -> [[String: Any]] {
        let value = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8))
        if let object = value as? [String: Any] { return [object] }
        return try #require(value as? [[String: Any]], "not JSON objects: \(output.standardOutput)")
    }

    @Test func everyCommandPrintsTheKeysDocsJSONListsForItsType() async throws {
        let documented = try Self.documentedKeys()
        #expect(
            Set(documented.keys)
                == [
                    "moment", "journeyDay", "habit", "habitMonth", "reminder", "notice", "status", "identity",
                    "waterDay",
                    "rejection",
                    "checkIn", "prep", "swap", "swapHistory", "swapsToday", "inspiration", "plugin", "pluginDetail",
                    "pluginTest", "missed", "reminderEntry", "importSummary", "importPart", "bar", "doctorCheck",
                    "recoveryDashboard", "recoveryPlan", "challenge", "templates", "swapEntry", "about", "configCheck",
                    "configProblem", "configFile", "configValue", "aiTest", "coachMessage", "weekReview",
                ])
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig("[plugins.water]\nenabled = true\n")
            var printed: [(type: String, command: [String], output: ProcessOutput)] = []
            func record(_ type: String, _ command: [String]) async throws {
                // `status` exits non-zero when hoorayd is not running; its JSON is what counts here.
                let output = try await fixture.hooray(arguments: command)
                printed.append((type, command, output))
            }
            // Without hoorayd, and without a notification server: notices wait in the inbox.
            try await record("moment", ["win", "Took a short walk", "--json"])
            try await record(
                "moment", ["win", "Called a friend", "--mood", "proud", "--note", "Long overdue", "--json"])
            try await record("moment", ["moments", "--json"])
            let id = try #require(try objects(printed.last!.output).first?["id"] as? String)
            #expect(id == id.lowercased())
            try await record(
                "moment", ["moments", "edit", String(id.prefix(8)), "--text", "Called an old friend", "--json"])
            try await record("journeyDay", ["journey", "--json"])
            try await run(fixture, ["habit", "add", "Read", "--remind", "20:00"])
            try await record("habit", ["habit", "list", "--json"])
            try await record("habitMonth", ["habit", "show", "Read", "--json"])
            try await record("habitMonth", ["habit", "show", "Read", "--month", "2026-02", "--json"])
            try await record("about", ["about", "--json"])
            try await record("reminder", ["next", "--json"])
            try await record("notice", ["inbox", "--all", "--json"])
            try await record("status", ["status", "--json"])
            try await record("doctorCheck", ["doctor", "--json"])
            try await record("plugin", ["plugins", "--json"])
            try await record("pluginDetail", ["plugins", "show", "water", "--json"])
            let stretch = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../examples/plugins/stretch").standardizedFileURL.path
            try await record("pluginTest", ["plugin", "test", stretch, "--json"])
            try await record("identity", ["identity", "--json"])
            try await record("waterDay", ["water", "drink", "--json"])
            try await record("waterDay", ["water", "today", "--json"])
            try await record("rejection", ["reject", "--type", "job", "--impact", "8", "--json"])
            try await record("rejection", ["reject", "Ghosted", "--type", "dating", "--impact", "3", "--json"])
            try await record("rejection", ["recovery", "list", "--json"])
            try await record("rejection", ["recovery", "okay", "--json"])
            try await record("checkIn", ["recovery", "checkin", "good", "--json"])
            try await record("recoveryPlan", ["recovery", "plan", "--json"])
            try await record("recoveryPlan", ["recovery", "plan", "--type", "job", "--json"])
            try await record("recoveryDashboard", ["recovery", "--json"])
            try await record("recoveryDashboard", ["recovery", "dashboard", "--weeks", "2", "--json"])
            try await record("challenge", ["challenge", "--json"])
            try await record("challenge", ["challenge", "done", "--json"])
            try await record("challenge", ["challenge", "skip", "--json"])
            try await record("templates", ["recovery", "templates", "--json"])
            try await record("templates", ["recovery", "templates", "--type", "job", "--fill", "Name=Sam", "--json"])
            try await record("prep", ["swap", "prep", "--json"])
            try await record("prep", ["swap", "prep", "Oatmeal instead of a pastry", "--json"])
            try await record("swap", ["swap", "Sparkling water instead of soda", "--json"])
            try await record("swap", ["swap", "Fruit for dessert", "--date", "yesterday", "--json"])
            try await record("swapHistory", ["swap", "history", "--json"])
            try await record("inspiration", ["swap", "inspire", "--json"])
            try await record("swapsToday", ["swap", "today", "--json"])
            try await run(fixture, ["coach", "I really want chocolate right now"])
            try await record("coachMessage", ["coach", "--history", "--json"])
            try await record("weekReview", ["review", "--json"])
            try fixture.writeConfig(
                "[plugins.water]\nenabled = true\n\n" + reminderTOML(title: "Stretch", body: "", at: "15:00"))
            try await record("reminderEntry", ["remind", "Call mom", "--at", "18:00", "--json"])
            try await record("reminderEntry", ["remind", "Tea", "--in", "20m", "--json"])
            try await record("reminderEntry", ["remind", "edit", "r1", "--days", "mon-fri", "--json"])
            try await record("reminderEntry", ["remind", "list", "--json"])
            let exported = fixture.home.appending("export.json")
            _ = try await fixture.hooray("export", "-o", exported)
            try await record("importSummary", ["import", exported, "--json"])
            try await record("bar", ["bar", "--json"])
            try await record("configValue", ["config", "get", "plugins.water.enabled", "--json"])
            try await record("configValue", ["config", "get", "log.level", "--json"])
            let rejectionID = try #require(
                try objects(try await fixture.hooray("recovery", "list", "--json")).first?["id"] as? String)
            // With hoorayd running, the same types have the same keys.
            let daemon = try await fixture.startDaemon()
            try await record("moment", ["win", "Watered the plants", "--json"])
            try await record("moment", ["moments", "--json"])
            try await record("status", ["status", "--json"])
            try await record("plugin", ["plugins", "--json"])
            try await record("pluginDetail", ["plugins", "show", "water", "--json"])
            try await record("reminder", ["next", "--json"])
            try await record("rejection", ["recovery", "edit", rejectionID, "--note", "", "--json"])
            try await record("checkIn", ["recovery", "checkin", "strong", "--note", "A good walk", "--json"])
            try await record("recoveryDashboard", ["recovery", "--json"])
            try await record("challenge", ["challenge", "--json"])
            try await record("swap", ["swap", "Tea instead of wine", "--json"])
            try await record("swapHistory", ["swap", "history", "--days", "7", "--json"])
            try await record("swapEntry", ["swap", "list", "--json"])
            let swapID = try #require(try objects(printed.last!.output).first?["id"] as? String)
            try await record("swapEntry", ["swap", "edit", String(swapID.prefix(8)), "Herbal tea", "--json"])
            try await record("reminderEntry", ["remind", "Read", "--on", "tomorrow", "--body", "Ten pages", "--json"])
            try await record("reminderEntry", ["remind", "list", "--json"])
            try await record("bar", ["--json", "bar"])

            for (type, command, output) in printed {
                let keys = try #require(documented[type])
                let objects = try objects(output)
                #expect(!objects.isEmpty, "\(command) printed nothing")
                for object in objects {
                    #expect(Set(object.keys) == keys, "\(command.joined(separator: " ")) differs from docs/json.md")
                }
            }
            // The objects inside a challenge and a template list have the keys their tables name.
            for (type, _, output) in printed where type == "challenge" {
                for object in try objects(output) {
                    let challenge = try #require(object["challenge"] as? [String: Any])
                    #expect(
                        Set(challenge.keys) == [
                            "id", "title", "description", "points", "timeEstimate", "type", "level",
                        ])
                }
            }
            for (type, _, output) in printed where type == "templates" {
                let templates = try objects(output).flatMap { $0["templates"] as? [[String: Any]] ?? [] }
                #expect(!templates.isEmpty)
                for template in templates {
                    #expect(
                        Set(template.keys)
                            == ["number", "id", "type", "title", "scenario", "tone", "text", "unfilled"])
                }
            }
            // Each part of an import's summary is an importPart.
            let summary = try #require(printed.first { $0.type == "importSummary" })
            let parts = try objects(summary.output).flatMap { $0["parts"] as? [[String: Any]] ?? [] }
            #expect(!parts.isEmpty)
            for part in parts {
                #expect(Set(part.keys) == documented["importPart"], "an import's part differs from docs/json.md")
            }
            await daemon.stop()
        }
    }

    // MARK: Photos (14)

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]

    @Test func aPhotoMustBeAnImageFileAndAnEmptyPathIsAUsageError() async throws {
        try await HoorayFixture.with { fixture in
            let empty = try await fixture.hooray("win", "Walked", "--photo", "")
            #expect(empty.status == .exited(64), "\(empty.standardError)")
            #expect(empty.standardError.contains("--photo needs a file"))

            let notes = fixture.home.appending("notes.jpg")
            try "just words, named like a photo\n".write(toFile: notes, atomically: true, encoding: .utf8)
            let text = try await fixture.hooray("win", "Walked", "--photo", notes)
            #expect(text.status == .exited(1))
            #expect(
                text.standardError.contains("--photo \(notes) is a text file, not an image"), "\(text.standardError)")

            let folder = try await fixture.hooray("win", "Walked", "--photo", fixture.home.path)
            #expect(folder.status == .exited(1))
            #expect(folder.standardError.contains("is a folder"))

            let device = try await fixture.hooray("win", "Walked", "--photo", "/dev/null")
            #expect(device.status == .exited(1))
            #expect(device.standardError.contains("/dev/null is not a regular file"), "\(device.standardError)")

            // Nothing was saved by the refused commands.
            #expect(try objectsOrEmpty(try await run(fixture, ["moments", "--json"])).isEmpty)

            let photo = fixture.home.appending("walk.png")
            try Data(Self.png).write(to: URL(fileURLWithPath: photo))
            let win = try await run(fixture, ["win", "Walked", "--photo", photo, "--json"])
            #expect(try objects(win).first?["photos"] as? [String] == [photo])
        }
    }

    func objectsOrEmpty(_ output: ProcessOutput) throws -> [[String: Any]] {
        output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "[]" ? [] : try objects(output)
    }

    // MARK: Wording (13)

    @Test func anUnknownMoodIsASentenceWithTheMoodsListed() async throws {
        try await HoorayFixture.with { fixture in
            let near = try await fixture.hooray("win", "Walked", "--mood", "hapy")
            #expect(near.status == .exited(64))
            #expect(
                near.standardError.contains(
                    "--mood \"hapy\" is not a mood I know; did you mean happy? The moods are calm, happy, proud"),
                "\(near.standardError)")
            let far = try await fixture.hooray("win", "Walked", "--mood", "zzz")
            #expect(far.standardError.contains("--mood \"zzz\" is not a mood I know. The moods are calm,"))
            #expect(far.standardError.contains("sad."))
        }
    }

    @Test func theJourneyCardOfAnEarlierDayDoesNotSayToday() async throws {
        try await HoorayFixture.with { fixture in
            let now = "2026-11-23 12:00:00"
            for ago in ["2d", "3d", "5d", "9d"] {
                try await run(fixture, ["win", "A moment \(ago) ago", "--ago", ago], at: now)
            }
            let journey = try await run(fixture, ["journey"], at: now).standardOutput
            #expect(journey.contains("Sat 21 Nov"))
            #expect(!journey.lowercased().contains("today"), "\(journey)")
        }
    }

    @Test func habitEditConfirmsEveryChangeItMade() async throws {
        try await HoorayFixture.with { fixture in
            let now = "2026-11-23 09:00:00"
            try await run(fixture, ["habit", "add", "Run"], at: now)
            let edit = try await run(
                fixture, ["habit", "edit", "Run", "--on", "tue,thu", "--remind", "18:00"], at: now)
            #expect(edit.standardOutput.contains("“Run”"))
            #expect(edit.standardOutput.contains("tue, thu"), "\(edit.standardOutput)")
            #expect(edit.standardOutput.contains("reminder at 18:00"), "\(edit.standardOutput)")
            let why = try await run(
                fixture, ["habit", "edit", "Run", "--why", "To sleep better.", "--remind", "off"], at: now)
            #expect(why.standardOutput.contains("note “To sleep better.”"), "\(why.standardOutput)")
            #expect(why.standardOutput.contains("reminder off"), "\(why.standardOutput)")
        }
    }
}
