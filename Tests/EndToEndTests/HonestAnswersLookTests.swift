import Foundation
import HooraySystemTesting
import Testing

/// A look at a frozen daemon, and safe text in a plugin's failure (issue 13): a listing is not held
/// up, a look says it waited and leaves nothing in the spool; stored text quoted in an error cannot drive the terminal.
extension HonestAnswersTests {
    @Test func aLookAtAFrozenDaemonWaitsSaysSoAndKeepsNothing() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let win = try await fixture.hooray("win", "Watered the plants")
            #expect(win.status == .exited(0), "\(win.standardError)")
            #expect(await fixture.waitUntilSettled(daemon))

            daemon.send(SIGSTOP)
            // A listing reads the database itself (item 3): a frozen hoorayd does not hold it up.
            let listed = try await fixture.hooray("moments")
            #expect(listed.status == .exited(0), "\(listed.standardError)")
            #expect(listed.standardOutput.contains("Watered the plants"))
            let look = try await fixture.hooray("journey")
            #expect(look.status == .exited(75), "\(look.standardError)")
            #expect(
                look.standardError.contains("hoorayd did not answer in 15 s, so there is nothing to show yet"),
                "\(look.standardError)")
            #expect(!look.standardError.contains("Nothing was saved"))
            daemon.send(SIGCONT)

            let again = try await fixture.hooray("journey")
            #expect(again.status == .exited(0), "\(again.standardError)")
            #expect(again.standardOutput.contains("Watered the plants"))
            #expect(try fixture.spoolFiles().isEmpty)
            #expect(try server.notifications().count == 1)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func aPluginFailureQuotingAStoredNameCannotDriveTheTerminal() async throws {
        try await HoorayFixture.with { fixture in
            let name = "Read\u{1B}[31m \u{202E}red"
            let add = try await fixture.hooray("habit", "add", name)
            #expect(add.status == .exited(0), "\(add.standardError)")
            let resume = try await fixture.hooray("habit", "resume", name)
            #expect(resume.status == .exited(1))
            #expect(resume.standardError.contains("isn't paused"), "\(resume.standardError)")
            #expect(!resume.standardError.contains("\u{1B}"), "\(resume.standardError)")
            #expect(!resume.standardError.contains("\u{202E}"), "\(resume.standardError)")
            // The name is kept as it was given.
            let list = try await fixture.hooray("habit", "list", "--json")
            #expect(list.standardOutput.contains("\\u001b[31m"), "\(list.standardOutput)")
        }
    }
}

/// The tables of a fixture's database, read as another program would.
extension HonestAnswersTests {
    /// The tables of the real SQLite file, read by another program.
    func tables(_ fixture: HoorayFixture) async throws -> [String] {
        let read = try await ProcessRunner.run(
            "/usr/bin/python3",
            arguments: [
                "-c",
                """
                import sqlite3, sys
                db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
                for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"): print(name)
                """,
                fixture.home.appending("data/hooray/hooray.sqlite"),
            ])
        #expect(read.status == .exited(0), "\(read.standardError)")
        return read.standardOutput.split(separator: "\n").map(String.init)
    }
}
