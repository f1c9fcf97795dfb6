import Foundation
import HooraySystemTesting
import Testing

/// The `hooray` command line, as a user types it.
@Suite(.timeLimit(.minutes(2)))
struct CLITests {
    @Test func configCheckReportsWrongTypesAndUnknownKeysWithTheirPlace() async throws {
        try await HoorayFixture.with { fixture in
            let path = try fixture.home.write(
                """
                [[plugins.reminders.reminder]]
                tittle = "Stretch"
                at = 1500

                """, to: "broken.toml")
            let result = try await fixture.hooray("config", "check", path)
            #expect(result.status == .exited(78))
            #expect(result.standardError.contains("\(path):3:6:"))
            #expect(result.standardError.contains("1500"))
            #expect(result.standardError.contains("\(path):2:1:"))
            #expect(result.standardError.contains("did you mean `title`"))
        }
    }

    @Test(
        "A file of 30,000 reminders, read and decoded in two halves at once, reports a mistake in either half at its place"
    )
    func configCheckOfALongListFindsAMistakeInEitherHalf() async throws {
        try await HoorayFixture.with { fixture in
            func list(wrongAt wrong: Int?) -> String {
                (0..<30_000).map { index in
                    "[[plugins.reminders.reminder]]\nid = \"r\(index)\"\ntitle = \"Reminder \(index)\"\n"
                        + "at = \"\(index == wrong ? "25:00" : "09:30")\"\n"
                }.joined(separator: "\n")
            }
            let good = try fixture.home.write(list(wrongAt: nil), to: "good.toml")
            let result = try await fixture.hooray("config", "check", good)
            #expect(result.status == .exited(0))
            #expect(result.standardOutput.contains("Configuration OK"))
            // Each entry is 5 lines: the `at` of entry N is on line 5 N + 4.
            for wrong in [7, 29_990] {
                let path = try fixture.home.write(list(wrongAt: wrong), to: "wrong-\(wrong).toml")
                let result = try await fixture.hooray("config", "check", path)
                #expect(result.status == .exited(78))
                #expect(result.standardError.contains("\(path):\(5 * wrong + 4):6:"), "\(result.standardError)")
                #expect(result.standardError.contains("25:00"))
            }
        }
    }

    @Test func configCheckReportsSyntaxErrorsWithLineAndColumn() async throws {
        try await HoorayFixture.with { fixture in
            let path = try fixture.home.write("[delivery\nicon = \"x\"\n", to: "syntax.toml")
            let result = try await fixture.hooray("config", "check", path)
            #expect(result.status == .exited(78))
            #expect(result.standardError.contains("\(path):1:"))
        }
    }

    @Test func configCheckPassesAGoodFileAndTheDocumentedDefaults() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(reminderTOML(title: "Stretch", body: "", at: "15:00", extra: "days = \"mon-fri\""))
            let result = try await fixture.hooray("config", "check")
            #expect(result.status == .exited(0))
            #expect(result.standardOutput.contains("Configuration OK"))
        }
    }

    @Test func nextWorksWithoutTheDaemonAndSaysSo() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(
                reminderTOML(title: "Stretch", body: "", at: "15:00", extra: "days = \"mon-fri\"")
                    + reminderTOML(
                        title: "Plants", body: "", at: "09:30", extra: "every = \"3d\"\nstart = \"2026-11-21\""))
            // Sunday 22 November 2026, 10:00 UTC.
            let result = try await fixture.hooray("next", fakeTime: "2026-11-22 10:00:00")
            #expect(result.status == .exited(0))
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.count == 3)
            #expect(lines[1].hasPrefix("tomorrow 15:00") && lines[1].contains("Stretch"))
            #expect(lines[2].hasPrefix("Tue 24 Nov 09:30") && lines[2].contains("Plants"))
            #expect(result.standardError.contains("hoorayd is not running"))
        }
    }

    @Test func pluginsListsTheRemindersPlugin() async throws {
        try await HoorayFixture.with { fixture in
            let result = try await fixture.hooray("plugins")
            #expect(result.status == .exited(0))
            #expect(result.standardOutput.contains("reminders"))
            #expect(result.standardOutput.contains("enabled"))
        }
    }

    @Test func badArgumentsExitNonZeroWithAHint() async throws {
        try await HoorayFixture.with { fixture in
            let result = try await fixture.hooray("next", "--limit", "0")
            #expect(result.status != .exited(0))
            #expect(result.standardError.contains("--limit must be at least 1"))
            let unknown = try await fixture.hooray("nexxt")
            #expect(unknown.status != .exited(0))
        }
    }

    @Test func versionIsPrinted() async throws {
        try await HoorayFixture.with { fixture in
            let result = try await fixture.hooray("--version")
            #expect(result.status == .exited(0))
            #expect(
                result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
            // The front door answers it alone (issue 37), with the full program's very line: a copy of
            // `hooray` with no `hooray-cli` beside it still prints it, and hands `help` over as before.
            let full = try await ProcessRunner.run(
                HoorayFixture.binDirectory + "/hooray-cli", arguments: ["--version"], environment: fixture.environment()
            )
            #expect(full.standardOutput == result.standardOutput)
            let alone = fixture.home.appending("front-door/hooray")
            try FileManager.default.createDirectory(
                atPath: fixture.home.appending("front-door"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: HoorayFixture.binDirectory + "/hooray", toPath: alone)
            let version = try await ProcessRunner.run(
                alone, arguments: ["--version"], environment: fixture.environment())
            #expect(version.status == .exited(0), "\(version.standardError)")
            #expect(version.standardOutput == result.standardOutput)
            let help = try await ProcessRunner.run(alone, arguments: ["help"], environment: fixture.environment())
            #expect(help.status == .exited(69), "no full program beside it: \(help.standardOutput)")
            #expect(help.standardError.contains("(hooray-cli) is missing"), "\(help.standardError)")
        }
    }
}

@Suite(.timeLimit(.minutes(2)))
struct AIConfigurationTests {
    @Test func configCheckValidatesTheAISectionWithPlaces() async throws {
        try await HoorayFixture.with { fixture in
            let path = try fixture.home.write(
                """
                [ai]
                provider = "gpt"
                endpont = "http://127.0.0.1:8080"

                """, to: "ai.toml")
            let result = try await fixture.hooray("config", "check", path)
            #expect(result.status == .exited(78))
            #expect(result.standardError.contains("\(path):2:12:"))
            #expect(result.standardError.contains("hooray"))
            #expect(result.standardError.contains("openai"))
            #expect(result.standardError.contains("did you mean `endpoint`"))
        }
    }

    @Test func aGoodAISectionChecksCleanAndTheDaemonMakesTheIdentityOnFirstRun() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(
                """
                [ai]
                provider = "openai"
                endpoint = "http://127.0.0.1:9"
                model = "llama3.2"

                """)
            let check = try await fixture.hooray("config", "check")
            #expect(check.status == .exited(0), "\(check.standardError)")
            let identityFile = fixture.home.appending("data/hooray/identity")
            #expect(!FileManager.default.fileExists(atPath: identityFile))
            let daemon = try await fixture.startDaemon()
            #expect(daemon.standardError.contains("AI praise from openai at http://127.0.0.1:9"))
            // The identity is made on a thread of its own; hoorayd says where once it is kept.
            #expect(
                await daemon.waitForOutput(
                    containing: "the anonymous id is kept in", in: .standardError, timeout: .seconds(15)),
                "\(daemon.standardError)")
            #expect(FileManager.default.fileExists(atPath: identityFile))
            await daemon.stop()
        }
    }

    @Test func aDamagedIdentityIsReportedAndTheDaemonRunsWithoutAI() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig("[ai]\nprovider = \"hooray\"\nendpoint = \"http://127.0.0.1:9\"\n")
            let identityFile = fixture.home.appending("data/hooray/identity")
            try FileManager.default.createDirectory(
                atPath: fixture.home.appending("data/hooray"), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            _ = FileManager.default.createFile(
                atPath: identityFile, contents: Data("not an identity\n".utf8), attributes: [.posixPermissions: 0o600])
            let daemon = try await fixture.startDaemon()
            // The identity is read on a thread of its own, which logs the fix when it cannot be.
            _ = await daemon.waitForOutput(containing: "mv ", in: .standardError, timeout: .seconds(15))
            #expect(daemon.isRunning)
            #expect(daemon.standardError.contains("mv "))
            // The damaged file is left as it was.
            #expect(try String(contentsOfFile: identityFile, encoding: .utf8) == "not an identity\n")
            await daemon.stop()
        }
    }
}
