import Foundation
import HooraySystemTesting
import Testing

/// Where `hoorayd` and `hooray` put their files, and what they leave in them: a private runtime
/// folder, one daemon per data folder, no paths made from a relative `HOME`, no writes while idle,
/// and nothing left of deleted data.
@Suite(.timeLimit(.minutes(2)))
struct RuntimeSafetyTests {
    // MARK: - The runtime folder without XDG_RUNTIME_DIR

    /// The environment without `XDG_RUNTIME_DIR`, with the fixture's own temporary folder as `TMPDIR`.
    func withoutRuntimeDirectory(_ fixture: HoorayFixture) throws -> (ProcessEnvironment, fallback: String) {
        let temporary = fixture.home.appending("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        chmod(temporary, 0o1777)
        let environment = fixture.environment(overriding: ["TMPDIR": temporary], removing: ["XDG_RUNTIME_DIR"])
        return (environment, temporary + "/hooray-\(geteuid())")
    }

    func runHooray(_ arguments: [String], _ environment: ProcessEnvironment) async throws -> ProcessOutput {
        try await ProcessRunner.run(
            HoorayFixture.binDirectory + "/hooray", arguments: arguments, environment: environment)
    }

    func runDaemon(_ environment: ProcessEnvironment) async throws -> ProcessOutput {
        try await ProcessRunner.run(
            HoorayFixture.binDirectory + "/hoorayd", environment: environment, timeout: .seconds(20))
    }

    @Test func withoutXDGRuntimeDirTheDaemonMakesAPrivateFolderAndTheCLIFindsIt() async throws {
        try await HoorayFixture.with { fixture in
            let (environment, fallback) = try withoutRuntimeDirectory(fixture)
            let daemon = try await fixture.startDaemon(
                environment: ["TMPDIR": fixture.home.appending("tmp")], removing: ["XDG_RUNTIME_DIR"])
            var info = stat()
            #expect(lstat(fallback, &info) == 0)
            #expect(info.st_mode & S_IFMT == S_IFDIR)
            #expect(info.st_mode & 0o777 == 0o700)
            #expect(FileManager.default.fileExists(atPath: fallback + "/control.sock"))
            let status = try await runHooray(["status"], environment)
            #expect(status.status == .exited(0), "\(status.standardError)")
            #expect(status.standardOutput.contains("hoorayd is running (pid \(daemon.pid)"))
            await daemon.stop()
        }
    }

    /// Another user's folder open to all, the case; a folder of ours others may use; a symlink.
    enum Unsafe: String, CaseIterable, Sendable {
        case anotherUsersOpenFolder, ourOpenFolder, symlink
    }

    @Test(arguments: Unsafe.allCases)
    func withoutXDGRuntimeDirAnUnsafeFolderIsRefusedByBothWithTheFix(_ unsafe: Unsafe) async throws {
        try await HoorayFixture.with { fixture in
            let (environment, fallback) = try withoutRuntimeDirectory(fixture)
            let expected: String
            switch unsafe {
            case .anotherUsersOpenFolder:
                try FileManager.default.createDirectory(atPath: fallback, withIntermediateDirectories: false)
                chmod(fallback, 0o777)
                #expect(chown(fallback, 65534, 65534) == 0)
                expected = "belongs to another user (uid 65534)"
            case .ourOpenFolder:
                try FileManager.default.createDirectory(atPath: fallback, withIntermediateDirectories: false)
                chmod(fallback, 0o777)
                expected = "other users may use it (mode 777"
            case .symlink:
                let elsewhere = fixture.home.appending("elsewhere")
                try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
                chmod(elsewhere, 0o700)
                try FileManager.default.createSymbolicLink(atPath: fallback, withDestinationPath: elsewhere)
                expected = "it is a symbolic link"
            }

            let daemon = try await runDaemon(environment)
            #expect(daemon.status == .exited(78), "\(daemon.standardError)")
            let win = try await runHooray(["win", "Took a walk"], environment)
            #expect(win.status == .exited(78), "\(win.standardError)")
            for output in [daemon, win] {
                #expect(output.standardError.contains("cannot use \(fallback)"))
                #expect(output.standardError.contains(expected), "\(output.standardError)")
                #expect(output.standardError.contains("set it to your private runtime folder"))
                #expect(output.standardError.contains("or remove \(fallback)"))
            }
            // Help and the completion scripts touch no file, so they still answer.
            #expect(try await runHooray(["--help"], environment).status == .exited(0))
            #expect(try await runHooray(["--generate-completion-script", "bash"], environment).status == .exited(0))
            // Nothing was put there, and nothing was saved elsewhere either.
            let inside = try FileManager.default.contentsOfDirectory(atPath: fallback)
            #expect(inside.isEmpty, "\(inside)")
            #expect(!FileManager.default.fileExists(atPath: fixture.home.appending("data/hooray/hooray.sqlite")))
        }
    }

    // MARK: - One daemon per data folder

    @Test func aSecondDaemonForTheSameDataIsRefusedWhateverItsRuntimeFolder() async throws {
        try await HoorayFixture.with { fixture in
            let first = try await fixture.startDaemon()
            let otherRuntime = fixture.home.appending("runtime-2")
            try FileManager.default.createDirectory(
                atPath: otherRuntime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            let second = try await runDaemon(fixture.environment(overriding: ["XDG_RUNTIME_DIR": otherRuntime]))
            #expect(second.status == .exited(75), "\(second.standardError)")
            #expect(second.standardError.contains("hoorayd is already running (pid \(first.pid))"))
            #expect(second.standardError.contains("kill \(first.pid)"))
            #expect(!FileManager.default.fileExists(atPath: otherRuntime + "/hooray/control.sock"))
            #expect(first.isRunning)
            await first.stop()
        }
    }

    // MARK: - A relative HOME

    /// Run as `nobody`, whose home in the password database is `/nonexistent`: what would be made
    /// there cannot be, so nothing of the real home is touched, and the error names where it went.
    @Test(.enabled(if: HoorayFixture.dropsPrivileges, "needs root to run as nobody"))
    func aRelativeHomeIsReplacedByThePasswordDatabasesAndNothingIsMadeWhereTheCommandRuns() async throws {
        try await HoorayFixture.with { fixture in
            let here = fixture.home.appending("here")
            try FileManager.default.createDirectory(atPath: here, withIntermediateDirectories: false)
            try await fixture.handOverHome()
            let environment = fixture.environment(
                overriding: ["HOME": "relative"], withoutBus: true, removing: ["XDG_DATA_HOME", "XDG_CONFIG_HOME"])
            func asNobody(_ arguments: String...) async throws -> ProcessOutput {
                try await ProcessRunner.run(
                    "/usr/bin/setpriv",
                    arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all"]
                        + [HoorayFixture.userBinDirectory + "/hooray"] + arguments,
                    environment: environment, workingDirectory: here)
            }
            let inbox = try await asNobody("inbox")
            #expect(inbox.status == .exited(0), "\(inbox.standardError)")
            #expect(inbox.standardOutput.contains("Your inbox is empty"))
            let win = try await asNobody("win", "Took a walk")
            #expect(win.status != .exited(0))
            #expect(win.standardError.contains("/nonexistent/.local/share/hooray"), "\(win.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: here).isEmpty)
            await fixture.restoreAccess()
        }
    }

    @Test func readingTheInboxStatusOrNextCreatesNoDataFolder() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(reminderTOML(title: "Stretch", body: "", at: "15:00"))
            let inbox = try await fixture.hooray("inbox")
            #expect(inbox.status == .exited(0))
            #expect(inbox.standardOutput.contains("Your inbox is empty"))
            _ = try await fixture.hooray("status")
            // The plan is still worked out from the configuration.
            let next = try await fixture.hooray("next")
            #expect(next.status == .exited(0), "\(next.standardError)")
            #expect(next.standardOutput.contains("Stretch"))
            #expect(!FileManager.default.fileExists(atPath: fixture.home.appending("data/hooray")))
        }
    }

    // MARK: - Quiet while no notification server answers

    static let retryLine = "still no notification server"

    func count(_ text: String, in output: String) -> Int {
        output.components(separatedBy: text).count - 1
    }

    /// What the database files hold, to see whether anything was written.
    func databaseFiles(_ fixture: HoorayFixture) -> [String: Data] {
        var files: [String: Data] = [:]
        for suffix in ["", "-wal"] {
            let path = fixture.home.appending("data/hooray/hooray.sqlite" + suffix)
            files[suffix] = FileManager.default.contents(atPath: path) ?? Data()
        }
        return files
    }

    @Test func withNoServerTheIdleDaemonWritesNothingAndTheInboxSaysWhyOnce() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig("[delivery]\nretry_every = \"1s\"\n\n[log]\nlevel = \"debug\"\n")
            let daemon = try await fixture.startDaemon()
            for text in ["Took a walk", "Drank water"] {
                let win = try await fixture.hooray("win", text)
                #expect(win.status == .exited(0), "\(win.standardError)")
            }
            // A retry after both notices were noted as waiting...
            let noted = await pollUntil(timeout: .seconds(20), interval: .milliseconds(50)) { () -> Int? in
                let inbox = try? await fixture.hooray("inbox")
                guard let text = inbox?.standardOutput, text.contains("Waiting for a notification server:") else {
                    return nil
                }
                return count(Self.retryLine, in: daemon.standardError)
            }
            let start = try #require(noted, "\(daemon.standardError)")
            #expect(
                await pollUntil(timeout: .seconds(20)) {
                    count(Self.retryLine, in: daemon.standardError) > start ? true : nil
                } ?? false)
            // ...then three more retries change nothing in the files.
            let before = databaseFiles(fixture)
            let retried = count(Self.retryLine, in: daemon.standardError)
            let more = await pollUntil(timeout: .seconds(30), interval: .milliseconds(100)) { () -> Bool? in
                count(Self.retryLine, in: daemon.standardError) >= retried + 3 ? true : nil
            }
            #expect(more == true, "\(daemon.standardError)")
            #expect(databaseFiles(fixture) == before)

            let inbox = try await fixture.hooray("inbox")
            let reasonLines = inbox.standardOutput.split(separator: "\n").filter {
                $0.hasPrefix("Waiting for a notification server: ")
            }
            #expect(reasonLines.count == 1, "\(inbox.standardOutput)")
            let reason = String(reasonLines.first?.dropFirst("Waiting for a notification server: ".count) ?? "")
            #expect(!reason.isEmpty)
            #expect(count(reason, in: inbox.standardOutput) == 1, "\(inbox.standardOutput)")
            #expect(inbox.standardOutput.contains("Took a walk") || inbox.standardOutput.contains("Drank water"))
            #expect(count("[wins, waiting]", in: inbox.standardOutput) == 2, "\(inbox.standardOutput)")
            await daemon.stop()
        }
    }

    // MARK: - Deleted means gone from the files

    @Test func deletedTextIsInNoFileOfTheDataFolderWhileTheDaemonRuns() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let word = "Zanzibarquokka\(UInt32.random(in: 100_000...999_999))"
            let win = try await fixture.hooray("win", "Walked past the \(word) tree")
            #expect(win.status == .exited(0), "\(win.standardError)")
            _ = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            let folder = fixture.home.appending("data/hooray")
            func filesWithWord() throws -> [String] {
                try FileManager.default.contentsOfDirectory(atPath: folder).filter { name in
                    let data = FileManager.default.contents(atPath: folder + "/" + name) ?? Data()
                    return data.range(of: Data(word.utf8)) != nil
                }
            }
            #expect(try !filesWithWord().isEmpty, "the word should be stored before it is deleted")

            let deleted = try await fixture.hooray("delete-my-data", "--yes")
            #expect(deleted.status == .exited(0), "\(deleted.standardError)")
            #expect(!deleted.standardError.contains("may still be in the files"))
            #expect(try filesWithWord().isEmpty)
            #expect(daemon.isRunning)
            await daemon.stop()
        }
    }
}
