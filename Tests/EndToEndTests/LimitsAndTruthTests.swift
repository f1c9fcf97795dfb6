import Foundation
import HoorayKit
import HooraySystemTesting
import HoorayText
import Testing

/// Issue 29, items 8 and 11: `hooray remind` keeps to the limits every other text has and lists
/// neatly; `config check`, `doctor`, `identity`, `status` and `ai` say what is true; `hooray ai
/// test` asks the service once and says how it went.
@Suite(.timeLimit(.minutes(3)))
struct LimitsAndTruthTests {
    func reminders(_ fixture: HoorayFixture) async throws -> String {
        let output = try await fixture.hooray("remind", "list", "--json")
        #expect(output.status == .exited(0), "\(output.standardError)")
        return output.standardOutput
    }

    @Test("Item 8: a reminder's title takes at most 200 characters and its body 2,000, as habits and wins")
    func remindKeepsTheSharedLimits() async throws {
        try await HoorayFixture.with { fixture in
            let long = try await fixture.hooray("remind", String(repeating: "a", count: 201), "--at", "18:00")
            #expect(long.status == .exited(64))
            #expect(
                long.standardError.contains("the title is 201 characters long; it takes at most 200"),
                "\(long.standardError)")
            let body = try await fixture.hooray(
                "remind", "Call mom", "--at", "18:00", "--body", String(repeating: "b", count: 2001))
            #expect(body.status == .exited(64))
            #expect(
                body.standardError.contains("the body is 2001 characters long; it takes at most 2000"),
                "\(body.standardError)")
            #expect(!(try await reminders(fixture)).contains("\"id\""), "nothing was saved")

            // At the limits, both are kept.
            let atLimit = try await fixture.hooray(
                "remind", String(repeating: "a", count: 200), "--at", "18:00", "--body",
                String(repeating: "b", count: 2000))
            #expect(atLimit.status == .exited(0), "\(atLimit.standardError)")
            // A habit's name has the same limit and the same words.
            let habit = try await fixture.hooray("habit", "add", String(repeating: "h", count: 201))
            #expect(habit.status == .exited(64))
            #expect(habit.standardError.contains("at most 200"), "\(habit.standardError)")
        }
    }

    @Test("Item 8: a control character in a reminder's title is refused, so nothing raw reaches the server")
    func remindRefusesControlCharacters() async throws {
        try await HoorayFixture.with { fixture in
            for title in ["Tea\u{1B}]0;pwned\u{07}", "Tea\nand cake", "Tea\u{202E}won"] {
                let refused = try await fixture.hooray("remind", title, "--in", "5m")
                #expect(refused.status == .exited(64), "\(refused.standardError)")
                #expect(refused.standardError.contains("the title holds a"), "\(refused.standardError)")
                #expect(refused.standardError.contains("; leave it out\n"), "\(refused.standardError)")
            }
            #expect(!(try await reminders(fixture)).contains("\"id\""), "nothing was saved")
        }
    }

    @Test("Item 8: remind list aligns wide letters and emoji, and cuts a long title with an ellipsis")
    func remindListAlignsByDisplayWidth() async throws {
        try await HoorayFixture.with { fixture in
            let long = String(repeating: "Stretch and breathe ", count: 9)
            for title in ["読書の時間", "Run 🏃", "Tea", long] {
                let added = try await fixture.hooray("remind", title, "--at", "18:00")
                #expect(added.status == .exited(0), "\(added.standardError)")
            }
            let list = try await fixture.hooray("remind", "list")
            #expect(list.status == .exited(0), "\(list.standardError)")
            let rows = list.standardOutput.split(separator: "\n").map(String.init).prefix(5)
            #expect(rows.count == 5, "\(list.standardOutput)")
            // Every row's schedule starts in the same terminal column as the header's.
            func scheduleColumn(_ row: String, _ marker: String) -> Int? {
                row.range(of: marker).map { TerminalText.width(String(row[..<$0.lowerBound])) }
            }
            let header = try #require(scheduleColumn(rows[0], "SCHEDULE"))
            for row in rows.dropFirst() {
                #expect(scheduleColumn(row, "every day") == header, "\(list.standardOutput)")
            }
            // The long title is cut to the column's width with an ellipsis; --json keeps it whole.
            #expect(rows.contains { $0.contains("Stretch and breathe Stretch and breathe…") }, "\(list.standardOutput)")
            #expect(rows.allSatisfy { TerminalText.width($0) < 120 }, "\(list.standardOutput)")
            #expect(try await reminders(fixture).contains(long.trimmingCharacters(in: .whitespaces)))
        }
    }

    @Test("Item 11: config check names plugins and ai among the top-level keys and reports every unknown table")
    func configCheckReportsEveryUnknownTable() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(
                """
                [log]
                level = "loud"

                [colours]
                theme = "dark"

                [pluginz.wins]
                welcome = false
                """)
            let check = try await fixture.hooray("config", "check")
            #expect(check.status == .exited(78))
            let lines = check.standardError.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.contains("log.level") }, "\(check.standardError)")
            // Each warning, then its hint on the next line.
            func hint(_ key: String) -> String? {
                lines.firstIndex { $0.contains("unknown key `\(key)`") }.flatMap {
                    $0 + 1 < lines.count ? lines[$0 + 1] : nil
                }
            }
            #expect(hint("pluginz") == "    hint: did you mean `plugins`?", "\(check.standardError)")
            let colours = hint("colours") ?? ""
            #expect(colours.contains("`plugins`") && colours.contains("`ai`"), "\(check.standardError)")
        }
    }

    @Test("Item 11: config check --json gives each problem's file, line, column, severity, message and hint")
    func configCheckOffersJSON() async throws {
        try await HoorayFixture.with { fixture in
            let file = try fixture.writeConfig("[log]\nlevel = \"loud\"\n\n[pluginz.wins]\nwelcome = false\n")
            let check = try await fixture.hooray("config", "check", "--json")
            #expect(check.status == .exited(78), "\(check.standardError)")
            #expect(check.standardError.isEmpty, "\(check.standardError)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any],
                "\(check.standardOutput)")
            #expect(object["ok"] as? Bool == false)
            #expect(object["errors"] as? Int == 1)
            let problems = try #require(object["diagnostics"] as? [[String: Any]])
            let documented = try SafeTextTests.documentedKeys()
            #expect(Set(object.keys) == documented["configCheck"], "differs from docs/json.md")
            #expect(problems.allSatisfy { Set($0.keys) == documented["configProblem"] }, "differs from docs/json.md")
            let level = try #require(problems.first { $0["key"] as? String == "log.level" })
            #expect(level["file"] as? String == file)
            #expect(level["line"] as? Int == 2)
            #expect(level["column"] as? Int == 9)
            #expect(level["severity"] as? String == "error")
            #expect((level["message"] as? String)?.isEmpty == false)
            let pluginz = try #require(problems.first { $0["key"] as? String == "pluginz" })
            #expect(pluginz["severity"] as? String == "warning")
            #expect(pluginz["line"] as? Int == 4)
            #expect(pluginz["hint"] as? String == "did you mean `plugins`?")

            try fixture.writeConfig("")
            let fine = try await fixture.hooray("--json", "config", "check")
            #expect(fine.status == .exited(0), "\(fine.standardError)")
            #expect(fine.standardOutput.contains("\"ok\" : true"), "\(fine.standardOutput)")
        }
    }

    @Test("Item 11: ai set-key --help says a refused key exits 64, the code it exits with")
    func setKeyHelpSaysTheRealExitCode() async throws {
        try await HoorayFixture.with { fixture in
            let help = try await fixture.hooray("ai", "set-key", "--help")
            #expect(help.standardOutput.contains("Exits 64 when the key is refused"), "\(help.standardOutput)")
            #expect(!help.standardOutput.contains("65"), "\(help.standardOutput)")
            let keyring = try await AIKeyTests.startKeyring(fixture)
            let refused = try await fixture.hooray(arguments: ["ai", "set-key"], input: "short\n")
            #expect(refused.status == .exited(64), "\(refused.standardError)")
            #expect(refused.standardError.contains("The key was not stored"), "\(refused.standardError)")
            // With no [ai] section, the advice names the real configuration file.
            let stored = try await fixture.hooray(arguments: ["ai", "set-key"], input: AIKeyTests.makeKey() + "\n")
            #expect(stored.status == .exited(0), "\(stored.standardError)")
            #expect(
                stored.standardOutput.contains("in the [ai] section of \(RealPathsTests.configFile);"),
                "\(stored.standardOutput)")
            await keyring.stop()
        }
    }

    @Test("Item 11: identity says whether AI is on, as the configuration says")
    func identitySaysWhetherAIIsOn() async throws {
        try await HoorayFixture.with { fixture in
            let off = try await fixture.hooray("identity")
            #expect(off.status == .exited(0), "\(off.standardError)")
            #expect(off.standardOutput.contains("AI is off, so it is sent nowhere."), "\(off.standardOutput)")
            try fixture.writeConfig("[ai]\nprovider = \"hooray\"\nendpoint = \"http://127.0.0.1:9/\"\n")
            let on = try await fixture.hooray("identity")
            #expect(on.status == .exited(0), "\(on.standardError)")
            #expect(on.standardOutput.contains("AI is on: it goes to 127.0.0.1 (hooray)."), "\(on.standardOutput)")
            #expect(!on.standardOutput.contains("AI is off"), "\(on.standardOutput)")
        }
    }

    @Test("Item 11: status says the id stays in its file when the keyring has no default collection")
    func statusSaysTheIdStaysWithoutADefaultCollection() async throws {
        try await HoorayFixture.with { fixture in
            let keyring = try await AIKeyTests.startKeyring(fixture)
            // No default collection: the login collection (which "default" names) deleted, as a
            // keyring set up without one has none.
            let unset = try await ProcessRunner.run(
                "/usr/bin/gdbus",
                arguments: [
                    "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path",
                    KeyringDaemon.loginCollection, "--method", "org.freedesktop.Secret.Collection.Delete",
                ], environment: keyring.environment())
            #expect(unset.status == .exited(0), "\(unset.standardError)")
            let made = try await fixture.hooray("identity")
            #expect(made.status == .exited(0), "\(made.standardError)")
            #expect(made.standardOutput.contains("Kept in: "), "\(made.standardOutput)")
            #expect(
                FileManager.default.fileExists(atPath: fixture.home.appending("data/hooray/identity")),
                "\(made.standardOutput)")

            // `status` waits a second for the keyring; a busy computer can take longer, once.
            let said = await pollUntil(timeout: .seconds(30), interval: .milliseconds(200)) { () -> String? in
                let said = try? await fixture.hooray("status").standardOutput
                return said?.contains("Anonymous id: not known now") == true ? nil : said
            }
            let status = try #require(said)
            #expect(status.contains("it stays there, because your keyring"), "\(status)")
            #expect(status.contains("has no default collection"), "\(status)")
            #expect(!status.contains("moves to your keyring"), "\(status)")
            await keyring.stop()
        }
    }

    @Test("Item 11: doctor says an AI HTTP 500 is the service's problem and a 401 is the key, not the [ai] section")
    func doctorSaysWhoseProblemItIs() async throws {
        try await HoorayFixture.with { fixture in
            try await withAIServer { ai in
                _ = try await fixture.startServer()
                func aiLine(_ mode: String) async throws -> String {
                    try fixture.writeConfig("[ai]\nprovider = \"hooray\"\nendpoint = \"\(ai.endpoint(mode))\"\n")
                    let doctor = try await fixture.hooray("doctor")
                    #expect(doctor.status == .exited(1))
                    return doctor.standardOutput.split(separator: "\n").map(String.init)
                        .first { $0.hasPrefix("✗ AI service:") } ?? doctor.standardOutput
                }
                let failing = try await aiLine("status-500")
                #expect(failing.contains("HTTP status 500"), "\(failing)")
                #expect(failing.contains("Fix: Nothing on your side"), "\(failing)")
                #expect(failing.contains("your [ai] section is fine"), "\(failing)")
                #expect(!failing.contains("fix the [ai] section"), "\(failing)")
                let refused = try await aiLine("status-401")
                #expect(refused.contains("Fix: The service refused the API key"), "\(refused)")
            }
        }
    }

    @Test("Item 11: ai test shows the provider, host, status, time and praise, and the fix when it fails")
    func aiTestShowsTheFigures() async throws {
        try await HoorayFixture.with { fixture in
            try await withAIServer { ai in
                func test(_ mode: String, json: Bool = false) async throws -> ProcessOutput {
                    try fixture.writeConfig(
                        """
                        [ai]
                        provider = "openai"
                        endpoint = "\(ai.endpoint(mode))"
                        model = "test-model"
                        api_key_env = "HOORAY_TEST_KEY"
                        """)
                    return try await fixture.hooray(
                        arguments: ["ai", "test"] + (json ? ["--json"] : []),
                        environment: ["HOORAY_TEST_KEY": "sk-test-0123456789"])
                }
                let good = try await test("good")
                #expect(good.status == .exited(0), "\(good.standardError)")
                let lines = good.standardOutput.split(separator: "\n").map(String.init)
                #expect(lines.first == "Provider: openai, model test-model", "\(lines)")
                #expect(lines.contains("Endpoint: 127.0.0.1 (\(ai.endpoint("good")))"), "\(lines)")
                #expect(lines.contains("Status:   HTTP 200"), "\(lines)")
                #expect(lines.contains { $0.hasPrefix("Time:     ") && $0.hasSuffix(" s") }, "\(lines)")
                #expect(lines.contains { $0.hasPrefix("Praise:   ") && $0.count > 12 }, "\(lines)")
                #expect(try ai.requests().count == 1, "one request")

                let failing = try await test("status-500")
                #expect(failing.status == .exited(75), "\(failing.standardError)")
                #expect(failing.standardOutput.contains("Status:   HTTP 500"), "\(failing.standardOutput)")
                #expect(failing.standardOutput.contains("Fix: Nothing on your side"), "\(failing.standardOutput)")

                let refused = try await test("status-401", json: true)
                #expect(refused.status == .exited(1), "\(refused.standardError)")
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(refused.standardOutput.utf8)) as? [String: Any])
                #expect(Set(object.keys) == (try SafeTextTests.documentedKeys())["aiTest"], "differs from docs/json.md")
                #expect(object["ok"] as? Bool == false)
                #expect(object["status"] as? Int == 401)
                #expect(object["host"] as? String == "127.0.0.1")
                #expect((object["fix"] as? String)?.contains("hooray ai set-key") == true, "\(object)")
            }
            // Nothing listens there any more.
            let gone = try await TestAIServer()
            let endpoint = gone.endpoint("good")
            await gone.stop()
            try fixture.writeConfig("[ai]\nprovider = \"hooray\"\nendpoint = \"\(endpoint)\"\n")
            let unreachable = try await fixture.hooray("ai", "test")
            #expect(unreachable.status == .exited(69), "\(unreachable.standardError)")
            #expect(unreachable.standardOutput.contains("Status:   no HTTP answer"), "\(unreachable.standardOutput)")
            #expect(
                unreachable.standardOutput.contains("Fix: Check that the AI service is running"),
                "\(unreachable.standardOutput)")
        }
    }
}
