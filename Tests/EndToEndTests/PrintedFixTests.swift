import Foundation
import HooraySystemTesting
import Testing

/// Every fix an error prints is complete: each test breaks something the way it happens to people, runs
/// the command, pastes the fix the message prints into `/bin/sh -c`, and runs the command again.
@Suite(.timeLimit(.minutes(3)))
struct PrintedFixTests {
    /// Logs a moment in the awkward data home and checks that `hooray moments` lists it.
    func expectMomentIsLogged(_ text: String, _ fixture: HoorayFixture, asUser: Bool) async throws {
        let logged = try await asUser ? fixture.hoorayAsUser("win", text) : fixture.hoorayInAwkwardHome("win", text)
        #expect(logged.status == .exited(0), "\(logged.standardError)")
        let moments = try await asUser ? fixture.hoorayAsUser("moments") : fixture.hoorayInAwkwardHome("moments")
        #expect(moments.status == .exited(0), "\(moments.standardError)")
        #expect(moments.standardOutput.contains(text))
    }

    /// Checks that a command failed with a fix, pastes the fix, and returns it.
    @discardableResult
    func followFix(_ failed: ProcessOutput, _ fixture: HoorayFixture, asUser: Bool, expecting part: String)
        async throws -> String
    {
        #expect(failed.status != .exited(0))
        let fix = try #require(printedFix(in: failed), "no command printed: \(failed.standardError)")
        #expect(fix.contains(part), "\(failed.standardError)")
        let pasted = try await fixture.paste(fix, asUser: asUser)
        #expect(pasted.status == .exited(0), "`\(fix)` failed: \(pasted.standardError)")
        return fix
    }

    func dataFiles(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("hooray.sqlite") }.sorted()
    }

    @Test func readOnlyDataFilesAreFixedByThePrintedCommand() async throws {
        try await HoorayFixture.with { fixture in
            try await fixture.handOverHome()
            try await expectMomentIsLogged("Watered the plants", fixture, asUser: true)
            // The case: every data file made read-only, with the -wal and -shm a running hoorayd keeps.
            let folder = fixture.awkwardDataFolder
            for file in [folder + "/hooray.sqlite-wal", folder + "/hooray.sqlite-shm"]
            where !FileManager.default.fileExists(atPath: file) {
                #expect(FileManager.default.createFile(atPath: file, contents: Data()))
            }
            try await fixture.handOverHome()
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                chmod(folder + "/" + name, 0o400)
            }

            let refused = try await fixture.hoorayAsUser("win", "Called my sister")
            #expect(refused.standardError.contains("permission denied"), "\(refused.standardError)")
            try await followFix(refused, fixture, asUser: true, expecting: "chmod -R u+rwX,go-rwx")

            try await expectMomentIsLogged("Called my sister", fixture, asUser: true)
            let moments = try await fixture.hoorayAsUser("moments")
            #expect(moments.standardOutput.contains("Watered the plants"))
            await fixture.restoreAccess()
        }
    }

    @Test func aDataFolderThatIsNotWritableIsFixedByThePrintedCommand() async throws {
        try await HoorayFixture.with { fixture in
            // SQLite creates the database, its -wal and -shm in the folder: a closed folder stops it.
            try FileManager.default.createDirectory(
                atPath: fixture.awkwardDataFolder, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o500])
            try await fixture.handOverHome()

            let refused = try await fixture.hoorayAsUser("win", "Went for a run")
            try await followFix(refused, fixture, asUser: true, expecting: "chmod -R u+rwX,go-rwx")

            try await expectMomentIsLogged("Went for a run", fixture, asUser: true)
            await fixture.restoreAccess()
        }
    }

    @Test func aDamagedDatabaseIsMovedAsideWithItsCompanionsByThePrintedCommand() async throws {
        try await HoorayFixture.with { fixture in
            try await expectMomentIsLogged("Before the damage", fixture, asUser: false)
            let folder = fixture.awkwardDataFolder
            let database = folder + "/hooray.sqlite"
            let handle = try #require(FileHandle(forWritingAtPath: database))
            try handle.write(contentsOf: Data(repeating: 0x41, count: 4096))
            try handle.close()
            let damaged = try Data(contentsOf: URL(fileURLWithPath: database))

            let refused = try await fixture.hoorayInAwkwardHome("win", "After the damage")
            #expect(refused.standardError.contains("is damaged"), "\(refused.standardError)")
            // Whatever SQLite keeps beside the database (-wal, -shm) goes with it: the log holds its latest changes.
            let brokenSet = try dataFiles(folder)
            try await followFix(refused, fixture, asUser: false, expecting: "mv ")

            // The damaged set is kept together, untouched, in one folder beside the new database.
            let asides = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("damaged-") }
            let aside = folder + "/" + (try #require(asides.first))
            #expect(asides.count == 1)
            #expect(try dataFiles(aside) == brokenSet)
            #expect(try Data(contentsOf: URL(fileURLWithPath: aside + "/hooray.sqlite")) == damaged)
            #expect(try dataFiles(folder).isEmpty)

            try await expectMomentIsLogged("After the damage", fixture, asUser: false)
            let moments = try await fixture.hoorayInAwkwardHome("moments")
            #expect(!moments.standardOutput.contains("Before the damage"))
        }
    }

    @Test func aLockHeldTooLongNamesTheHolderAndThePrintedKillFreesIt() async throws {
        try await HoorayFixture.with { fixture in
            try await expectMomentIsLogged("Made tea", fixture, asUser: false)
            let database = fixture.awkwardDataFolder + "/hooray.sqlite"
            // Another program takes the write lock and keeps it.
            let holder = try ChildProcess(
                "/usr/bin/python3",
                arguments: [
                    "-c",
                    """
                    import sqlite3, sys, time
                    db = sqlite3.connect(sys.argv[1], isolation_level=None)
                    db.execute("BEGIN EXCLUSIVE")
                    print("LOCKED", flush=True)
                    time.sleep(600)
                    """,
                    database,
                ])
            #expect(await holder.waitForOutput(containing: "LOCKED", timeout: .seconds(10)))

            let refused = try await fixture.hoorayInAwkwardHome("win", "Read a chapter")
            #expect(refused.standardError.contains("(pid \(holder.pid))"), "\(refused.standardError)")
            let fix = try await followFix(refused, fixture, asUser: false, expecting: "kill")
            #expect(fix == "kill \(holder.pid)")
            #expect(await holder.waitForExit(timeout: .seconds(10)) != nil)

            try await expectMomentIsLogged("Read a chapter", fixture, asUser: false)
            await holder.stop()
        }
    }

    @Test func aSecondDaemonPrintsTheKillThatLetsItStart() async throws {
        try await HoorayFixture.with { fixture in
            let first = try await fixture.startDaemon()
            let second = try await ProcessRunner.run(
                HoorayFixture.binDirectory + "/hoorayd", environment: fixture.environment(), timeout: .seconds(20))
            #expect(second.status == .exited(75))
            let fix = try #require(printedFix(in: second), "\(second.standardError)")
            #expect(fix == "kill \(first.pid)")
            let pasted = try await ProcessRunner.run("/bin/sh", arguments: ["-c", fix])
            #expect(pasted.status == .exited(0))
            #expect(await first.waitForExit(timeout: .seconds(10)) == .exited(0))

            let again = try await fixture.startDaemon()
            #expect(again.isRunning)
            await again.stop()
            await first.stop()
        }
    }

    @Test func anIdentityFileOthersCanReadIsFixedByThePrintedCommand() async throws {
        try await HoorayFixture.with { fixture in
            try await fixture.handOverHome()
            let made = try await fixture.hoorayAsUser("identity", "--json")
            #expect(made.status == .exited(0), "\(made.standardError)")
            chmod(fixture.awkwardDataFolder + "/identity", 0o644)

            let refused = try await fixture.hoorayAsUser("identity", "--json")
            try await followFix(refused, fixture, asUser: true, expecting: "chmod 600")

            let again = try await fixture.hoorayAsUser("identity", "--json")
            #expect(again.status == .exited(0), "\(again.standardError)")
            #expect(again.standardOutput == made.standardOutput)
            await fixture.restoreAccess()
        }
    }

    @Test func anUnreadableIdentityFileIsFixedByThePrintedCommand() async throws {
        try await HoorayFixture.with { fixture in
            try await fixture.handOverHome()
            let made = try await fixture.hoorayAsUser("identity", "--json")
            #expect(made.status == .exited(0), "\(made.standardError)")
            chmod(fixture.awkwardDataFolder + "/identity", 0o000)

            let refused = try await fixture.hoorayAsUser("identity", "--json")
            try await followFix(refused, fixture, asUser: true, expecting: "chmod -R u+rwX,go-rwx")

            let again = try await fixture.hoorayAsUser("identity", "--json")
            #expect(again.status == .exited(0), "\(again.standardError)")
            #expect(again.standardOutput == made.standardOutput)
            await fixture.restoreAccess()
        }
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func anIdentityFileOfAnotherUserIsTakenBackByThePrintedCommand() async throws {
        try await HoorayFixture.with { fixture in
            let made = try await fixture.hoorayInAwkwardHome("identity", "--json")
            #expect(made.status == .exited(0), "\(made.standardError)")
            let identity = fixture.awkwardDataFolder + "/identity"
            #expect(chown(identity, 65534, 65534) == 0)
            chmod(identity, 0o644)

            let refused = try await fixture.hoorayInAwkwardHome("identity", "--json")
            #expect(refused.standardError.contains("another user (uid 65534)"), "\(refused.standardError)")
            try await followFix(refused, fixture, asUser: false, expecting: "chown 0:0")

            let again = try await fixture.hoorayInAwkwardHome("identity", "--json")
            #expect(again.status == .exited(0), "\(again.standardError)")
            #expect(again.standardOutput == made.standardOutput)
        }
    }
}
