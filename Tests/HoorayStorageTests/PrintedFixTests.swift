import Foundation
import GRDB
import Testing

@testable import HoorayStorage

/// Runs a command with `/bin/sh -c`, the way a person pastes it, and returns its exit status and output.
func paste(_ command: String) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
}

/// The commands that storage errors print: complete, exact, and safe to paste whatever the path holds.
@Suite struct PrintedFixMessageTests {
    static let folder = "/home/a b/it's $HOME/hooray"
    static let quotedFolder = #"'/home/a b/it'\''s $HOME/hooray'"#
    static let time = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00:00 UTC

    func error(_ problem: StorageError.Problem) -> StorageError {
        StorageError(path: Self.folder + "/hooray.sqlite", problem: problem, time: Self.time)
    }

    @Test func aDamagedDatabaseMovesAsideWithEveryCompanionInOneCommand() {
        let error = error(.damaged("file is not a database", companions: ["-wal", "-shm"]))
        let aside = #"'/home/a b/it'\''s $HOME/hooray/damaged-20270115-080000'"#
        let expected =
            "mkdir \(aside) && mv \(#"'/home/a b/it'\''s $HOME/hooray/hooray.sqlite'"#) "
            + #"'/home/a b/it'\''s $HOME/hooray/hooray.sqlite-wal' '/home/a b/it'\''s $HOME/hooray/hooray.sqlite-shm' "#
            + "\(aside)/"
        #expect(error.fix == expected)
        #expect(error.description.contains("`\(expected)`"))
        #expect(error.description.contains("is damaged (file is not a database)"))
        #expect(error.description.contains("move it together with its -wal and -shm files aside"))
    }

    @Test func permissionDeniedFixesTheFolderAndEveryFileInIt() {
        let error = error(.permissionDenied(otherOwner: nil))
        #expect(error.fix == "chmod -R u+rwX,go-rwx \(Self.quotedFolder)")
        #expect(error.description.contains("`chmod -R u+rwX,go-rwx \(Self.quotedFolder)`"))
        #expect(error.description.contains("permission denied"))
    }

    @Test func filesOfAnotherUserAreTakenBackBeforeTheyAreMadePrivate() {
        let error = error(.permissionDenied(otherOwner: 4321))
        let sudo = geteuid() == 0 ? "" : "sudo "
        let expected =
            "\(sudo)chown -R \(geteuid()):\(getegid()) \(Self.quotedFolder) && chmod -R u+rwX,go-rwx \(Self.quotedFolder)"
        #expect(error.fix == expected)
        #expect(error.description.contains("uid 4321"))
    }

    @Test func aLockNamesItsHoldersAndTheKillThatFreesIt() {
        let error = error(.locked(by: [LockHolder(pid: 12, command: "hoorayd"), LockHolder(pid: 34, command: nil)]))
        #expect(error.fix == "kill 12 34")
        #expect(error.description.contains("locked for 10 s by hoorayd (pid 12), pid 34"))
        #expect(error.description.contains("`kill 12 34`"))
    }

    @Test func aLockWithoutAVisibleHolderSaysSo() {
        let error = error(.locked(by: []))
        #expect(error.fix == "systemctl --user stop hooray")
        #expect(error.description.contains("could not be identified"))
    }

    @Test func aReadOnlyFileSystemIsNamedWithoutACommandThatCannotHelp() {
        let error = error(.readOnlyFileSystem)
        #expect(error.fix == nil)
        #expect(error.description.contains("mounted read-only"))
    }

    @Test func lockHoldersAreReadFromTheKernelsTable() {
        let table = """
            1: FLOCK  ADVISORY  WRITE 17041 fe:00:16220338 0 EOF
            2: POSIX  ADVISORY  WRITE 300 fe:00:5343211 120 120
            2: -> POSIX  ADVISORY  WRITE 301 fe:00:5343211 120 120
            3: POSIX  ADVISORY  READ 302 fe:00:5343211 128 128
            4: OFDLCK ADVISORY  WRITE -1 fe:00:5343211 0 EOF
            5: POSIX  ADVISORY  WRITE 99 fe:00:5343211 0 EOF
            6: POSIX  ADVISORY  WRITE 300 00:2a:5343211 0 EOF
            """
        #expect(FileLocks.pids(in: table, inodes: [5_343_211], anyMode: false, excluding: 99) == [300])
        #expect(FileLocks.pids(in: table, inodes: [5_343_211], anyMode: true, excluding: 99) == [300, 302])
        #expect(FileLocks.pids(in: table, inodes: [16_220_338], anyMode: false, excluding: 99) == [17041])
    }

    @Test func aRealHolderIsFound() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-lock-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/held"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        // A POSIX record lock, the kind SQLite takes.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = [
            "-c", "import fcntl, sys, time; f = open(sys.argv[1], 'w'); fcntl.lockf(f, fcntl.LOCK_EX); time.sleep(30)",
            file,
        ]
        try holder.run()
        var found: [LockHolder] = []
        for _ in 0..<500 where found.isEmpty {
            found = FileLocks.holders(of: [file])
            if found.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(found.map(\.pid) == [holder.processIdentifier])
        #expect(found.first?.command?.hasPrefix("python3") == true)
        // SIGKILL: Foundation's Process may start the child with SIGTERM blocked.
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// With many files locked (a busy machine: every SQLite file in use has a lock), the kernel's
    /// table is longer than a page, and the holder's line is still found wherever it is.
    @Test func aHolderIsFoundInALongLockTable() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-locks-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        func lockMore(_ count: Int, from start: Int) {
            for index in start..<(start + count) {
                let fd = open(folder + "/other-\(index)", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
                if fd >= 0, flock(fd, LOCK_EX) == 0 { held.append(fd) }
            }
        }
        lockMore(200, from: 0)
        let file = folder + "/held"
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = [
            "-c",
            "import fcntl, sys, time; f = open(sys.argv[1], 'w'); fcntl.lockf(f, fcntl.LOCK_EX); print('L', flush=True); time.sleep(30)",
            file,
        ]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        _ = try output.fileHandleForReading.read(upToCount: 2)
        lockMore(200, from: 200)
        let table = (try? FileHandle(forReadingAtPath: "/proc/locks")?.readToEnd()) ?? nil
        #expect((table?.count ?? 0) > 8192, "the table is long enough to cross a page")
        #expect(FileLocks.holders(of: [file]).map(\.pid) == [holder.processIdentifier])
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
    }

    @Test(arguments: ["/plain/path", "/a b/c", "it's", "$HOME `id` \"x\"", "", "-dash", "tab\there", "ünïcode"])
    func aQuotedWordReadsBackExactly(word: String) throws {
        let echoed = try paste("printf %s \(ShellCommand.quoted(word))")
        #expect(echoed.status == 0)
        #expect(echoed.output == word)
    }

    @Test func theDamagedFixWorksWhenPastedAndANewDatabaseOpens() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hooray fix \(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/it's/hooray.sqlite"
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))

        let failure = #expect(throws: StorageError.self) { try HoorayDatabase(path: path) }
        let fix = try #require(failure?.fix)
        let pasted = try paste(fix)
        #expect(pasted.status == 0, "\(pasted.output)")

        _ = try HoorayDatabase(path: path)
        let folder = (path as NSString).deletingLastPathComponent
        let aside = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasPrefix("damaged-") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + aside + "/hooray.sqlite")).first == 0x41)
    }

    @Test func theIdentityOwnerFixTakesTheFileBackAndMakesItPrivate() {
        let error = IdentityError(path: "/home/a b/identity", problem: .wrongOwner(uid: 4321))
        let sudo = geteuid() == 0 ? "" : "sudo "
        #expect(
            error.description.contains(
                "`\(sudo)chown \(geteuid()):\(getegid()) '/home/a b/identity' && chmod 600 '/home/a b/identity'`"))
    }

    @Test func anUnreadableIdentityFileGetsTheFolderWideFix() {
        let error = IdentityError(path: "/home/a b/identity", problem: .unreadable("Permission denied"))
        #expect(error.description.contains("`chmod -R u+rwX,go-rwx '/home/a b'`"))
    }
}
