import Foundation
import HooraySystemTesting
import Testing

/// Item 2: a data folder that cannot be written still lists and exports; only a command that must
/// write says it cannot, why, and how to fix it.
@Suite(.timeLimit(.minutes(3)))
struct ReadOnlyDataTests {
    static let canMount = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")

    /// Runs `hooray` in a mount namespace of its own where the data folder is mounted read-only, as
    /// on a read-only disk: root's permissions do not get past that.
    func hoorayOnReadOnlyMount(_ fixture: HoorayFixture, _ arguments: String...) async throws -> ProcessOutput {
        let data = fixture.home.appending("data")
        return try await ProcessRunner.run(
            "/usr/bin/unshare",
            arguments: [
                "-m", "/bin/sh", "-c", #"mount --bind -o ro "$0" "$0" && exec "$@""#, data,
                HoorayFixture.binDirectory + "/hooray",
            ] + arguments,
            environment: fixture.environment())
    }

    func expectNoBareErrorPrefix(_ output: ProcessOutput, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            !output.standardError.contains("Error:"), "\(output.standardError)", sourceLocation: sourceLocation)
    }

    @Test(
        "Item 2: on a read-only mount, moments, habit list, next and export work and a win says why it cannot be saved",
        .enabled(if: canMount, "needs root and unshare to mount a folder read-only"))
    func aReadOnlyMountReadsAndExports() async throws {
        try await HoorayFixture.with { fixture in
            #expect(try await fixture.hooray("win", "Watered the plants").status == .exited(0))
            #expect(try await fixture.hooray("habit", "add", "Stretch").status == .exited(0))
            let probe = try await hoorayOnReadOnlyMount(fixture, "moments")
            try #require(!probe.standardError.contains("mount:"), "cannot mount here: \(probe.standardError)")

            #expect(probe.status == .exited(0), "\(probe.standardError)")
            #expect(probe.standardOutput.contains("Watered the plants"))
            expectNoBareErrorPrefix(probe)

            let json = try await hoorayOnReadOnlyMount(fixture, "moments", "--json", "--limit", "5")
            #expect(json.status == .exited(0), "\(json.standardError)")
            #expect(json.standardOutput.contains("\"text\" : \"Watered the plants\""))

            let habits = try await hoorayOnReadOnlyMount(fixture, "habit", "list")
            #expect(habits.status == .exited(0), "\(habits.standardError)")
            #expect(habits.standardOutput.contains("Stretch"))
            expectNoBareErrorPrefix(habits)

            let next = try await hoorayOnReadOnlyMount(fixture, "next")
            #expect(next.status == .exited(0), "\(next.standardError)")
            expectNoBareErrorPrefix(next)

            let file = fixture.home.appending("rescue.json")
            let export = try await hoorayOnReadOnlyMount(fixture, "export", "-o", file)
            #expect(export.status == .exited(0), "\(export.standardError)")
            expectNoBareErrorPrefix(export)
            let exported = try String(contentsOfFile: file, encoding: .utf8)
            #expect(exported.contains("Watered the plants"))
            #expect(exported.contains("Stretch"))

            let refused = try await hoorayOnReadOnlyMount(fixture, "win", "Called my sister")
            #expect(refused.status == .exited(1))
            #expect(refused.standardError.contains("mounted read-only"), "\(refused.standardError)")
            #expect(refused.standardError.contains("Remount it read-write"), "\(refused.standardError)")
            expectNoBareErrorPrefix(refused)

            let after = try await fixture.hooray("moments")
            #expect(after.standardOutput.contains("Watered the plants"))
            #expect(!after.standardOutput.contains("Called my sister"))
        }
    }

    /// With `walLeftBehind`, a program that did not close the database (killed, say) left changes in
    /// its `-wal` file: SQLite then opens the file it may not write without a word, and only a write
    /// would fail.
    @Test(
        "Item 2: a folder and database this user may not write still list and export; a write says permission denied",
        arguments: [false, true]
    )
    func aFolderThatCannotBeWrittenReadsAndExports(walLeftBehind: Bool) async throws {
        try await HoorayFixture.with { fixture in
            try await fixture.handOverHome()
            let logged = try await fixture.hoorayAsUser("win", "Watered the plants")
            #expect(logged.status == .exited(0), "\(logged.standardError)")
            let folder = fixture.awkwardDataFolder
            if walLeftBehind {
                let left = try await fixture.runAsUser(
                    "/usr/bin/python3",
                    [
                        "-c",
                        """
                        import os, sqlite3, sys
                        db = sqlite3.connect(sys.argv[1], isolation_level=None)
                        db.execute("CREATE TABLE scratch (x)")
                        db.execute("DROP TABLE scratch")
                        os._exit(0)
                        """,
                        folder + "/hooray.sqlite",
                    ])
                #expect(left.status == .exited(0), "\(left.standardError)")
                var wal = stat()
                #expect(
                    stat(folder + "/hooray.sqlite-wal", &wal) == 0 && wal.st_size > 0, "a -wal with changes is left")
            }
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                chmod(folder + "/" + name, 0o400)
            }
            chmod(folder, 0o500)

            let moments = try await fixture.hoorayAsUser("moments")
            #expect(moments.status == .exited(0), "\(moments.standardError)")
            #expect(moments.standardOutput.contains("Watered the plants"))
            expectNoBareErrorPrefix(moments)

            let file = fixture.home.appending("rescue.json")
            let export = try await fixture.hoorayAsUser("export", "-o", file)
            #expect(export.status == .exited(0), "\(export.standardError)")
            expectNoBareErrorPrefix(export)
            #expect(try String(contentsOfFile: file, encoding: .utf8).contains("Watered the plants"))

            let next = try await fixture.hoorayAsUser("next")
            #expect(next.status == .exited(0), "\(next.standardError)")
            expectNoBareErrorPrefix(next)

            let refused = try await fixture.hoorayAsUser("win", "Called my sister")
            #expect(refused.status == .exited(1))
            #expect(refused.standardError.contains("permission denied"), "\(refused.standardError)")
            #expect(printedFix(in: refused)?.contains("chmod") == true, "\(refused.standardError)")
            // Said when the database is opened, before any plugin starts on it.
            #expect(!refused.standardError.contains("could not start"), "\(refused.standardError)")
            expectNoBareErrorPrefix(refused)
            await fixture.restoreAccess()
        }
    }
}
