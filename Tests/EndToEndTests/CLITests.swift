import Foundation
import HooraySystemTesting
import Testing

/// The `hooray` command line, as a user types it.
@Suite(.timeLimit(.minutes(2)))
struct CLITests {
    @Test func configCheckReportsWrongTypesAndUnknownKeysWithTheirPlace() async throws {
        let fixture = try await HoorayFixture()
        defer { Task { await fixture.tearDown() } }
        let path = try fixture.home.write(
            """
            [[plugins.reminders.reminder]]
            tittle = "Stretch"
            at = 1500

            """, to: "broken.toml")
        let result = try await fixture.hooray("config", "check", path)
        #expect(result.status == .exited(1))
        #expect(result.standardError.contains("\(path):3:6:"))
        #expect(result.standardError.contains("1500"))
        #expect(result.standardError.contains("\(path):2:1:"))
        #expect(result.standardError.contains("did you mean `title`"))
    }

    @Test func configCheckReportsSyntaxErrorsWithLineAndColumn() async throws {
        let fixture = try await HoorayFixture()
        defer { Task { await fixture.tearDown() } }
        let path = try fixture.home.write("[delivery\nicon = \"x\"\n", to: "syntax.toml")
        let result = try await fixture.hooray("config", "check", path)
        #expect(result.status == .exited(1))
        #expect(result.standardError.contains("\(path):1:"))
    }

    @Test func configCheckPassesAGoodFileAndTheDocumentedDefaults() async throws {
        let fixture = try await HoorayFixture()
        defer { Task { await fixture.tearDown() } }
        try fixture.writeConfig(reminderTOML(title: "Stretch", body: "", at: "15:00", extra: "days = \"mon-fri\""))
        let result = try await fixture.hooray("config", "check")
        #expect(result.status == .exited(0))
        #expect(result.standardOutput.contains("Configuration OK"))
    }

    @Test func nextWorksWithoutTheDaemonAndSaysSo() async throws {
        let fixture = try await HoorayFixture()
        defer { Task { await fixture.tearDown() } }
        try fixture.writeConfig(
            reminderTOML(title: "Stretch", body: "", at: "15:00", extra: "days = \"mon-fri\"")
                + reminderTOML(title: "Plants", body: "", at: "09:30", extra: "every = \"3d\"\nstart = \"2026-11-21\""))
        // Sunday 22 November 2026, 10:00 UTC.
        let result = try await fixture.hooray("next", fakeTime: "2026-11-22 10:00:00")
        #expect(result.status == .exited(0))
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("tomorrow 15:00") && lines[1].contains("Stretch"))
        #expect(lines[2].hasPrefix("Tue 24 Nov 09:30") && lines[2].contains("Plants"))
        #expect(result.standardError.contains("hoorayd is not running"))
    }

    @Test func pluginsListsTheRemindersPlugin() async throws {
        let fixture = try await HoorayFixture()
        defer { Task { await fixture.tearDown() } }
        let result = try await fixture.hooray("plugins")
        #expect(result.status == .exited(0))
        #expect(result.standardOutput.contains("reminders"))
        #expect(result.standardOutput.contains("enabled"))
    }

    @Test func badArgumentsExitNonZeroWithAHint() async throws {
        let fixture = try await HoorayFixture()
        defer { Task { await fixture.tearDown() } }
        let result = try await fixture.hooray("next", "--limit", "0")
        #expect(result.status != .exited(0))
        #expect(result.standardError.contains("--limit must be at least 1"))
        let unknown = try await fixture.hooray("nexxt")
        #expect(unknown.status != .exited(0))
    }

    @Test func versionIsPrinted() async throws {
        let fixture = try await HoorayFixture()
        defer { Task { await fixture.tearDown() } }
        let result = try await fixture.hooray("--version")
        #expect(result.status == .exited(0))
        #expect(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }
}
