import Foundation
import HooraySystemTesting
import Testing

/// What another user of the same computer can do to a user's Hooray: plant a link or a socket in
/// a folder they share, reach a socket left open, put a plugin where it would run. Each is refused
/// with a message naming the path and the fix, and nothing of the user's reaches them. The other
/// user is a second uid, through `setpriv` (``SecondUser``).
@Suite(.timeLimit(.minutes(2)), .enabled(if: SecondUser.isAvailable, "needs root and setpriv to act as a second user"))
struct LocalBoundaryTests {
    /// A folder anyone may write in and no one may remove another's files from, as `/tmp`.
    func sharedFolder(_ fixture: HoorayFixture, _ name: String = "shared") throws -> String {
        let folder = fixture.home.appending(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        chmod(folder, 0o1777)
        // The second user must be able to reach it.
        chmod(fixture.home.path, 0o711)
        return folder
    }

    /// Runs a program as the second user.
    func asSecondUser(_ arguments: [String], _ environment: ProcessEnvironment = .inherited()) async throws
        -> ProcessOutput
    {
        let command = SecondUser.command(arguments)
        return try await ProcessRunner.run(command[0], arguments: Array(command.dropFirst()), environment: environment)
    }

    /// A stand-in for hoorayd run by the second user: it prints `listening`, then a line
    /// `received …` with what each connection sent before it closed.
    static let listener = """
        import os, socket, sys
        server = socket.socket(socket.AF_UNIX)
        server.bind(sys.argv[1])
        os.chmod(sys.argv[1], 0o777)
        server.listen(8)
        print("listening", flush=True)
        while True:
            client, _ = server.accept()
            data = b""
            while b"\\n" not in data:
                chunk = client.recv(65536)
                if not chunk:
                    break
                data += chunk
            print("received", repr(data), flush=True)
            client.close()
        """

    func startListener(at path: String) async throws -> ChildProcess {
        let command = SecondUser.command(["/usr/bin/python3", "-c", Self.listener, path])
        let child = try ChildProcess(command[0], arguments: Array(command.dropFirst()))
        #expect(await child.waitForOutput(containing: "listening", timeout: .seconds(10)))
        return child
    }

    /// Connects to the stand-in as this user and sends a marker: once it says it received it, every
    /// connection made before has been counted.
    func receivedBeforeMarker(_ listener: ChildProcess, at path: String) async throws -> [String] {
        let marker = try RawControlConnection(path: path)
        marker.send(Data("marker\n".utf8))
        #expect(await listener.waitForOutput(containing: "received b'marker\\n'", timeout: .seconds(10)))
        return listener.standardOutput.split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("received") && !$0.contains("marker")
        }
    }

    // MARK: - export -o in a shared folder

    @Test func exportRefusesALinkOrAFileAnotherUserPlantedInASharedFolderAndLeavesYourFileAlone() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.hooray("win", "Took a walk")
            let shared = try sharedFolder(fixture)
            let victim = fixture.home.appending("notes.txt")
            try "my notes\n".write(toFile: victim, atomically: false, encoding: .utf8)
            let link = shared + "/export.json"
            let planted = try await asSecondUser(["/bin/ln", "-s", victim, link])
            #expect(planted.status == .exited(0), "\(planted.standardError)")

            let output = try await fixture.hooray("export", "-o", link)
            #expect(output.status == .exited(1))
            #expect(
                output.standardError.contains("\(link) is a symbolic link (to \(victim)), which hooray export never"),
                "\(output.standardError)")
            #expect(output.standardError.contains("Give -o the file itself, or a new name. Nothing was written."))
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "my notes\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: shared) == ["export.json"])

            // A file of theirs is not replaced either: it would become the user's export, readable by them
            // until it is, and theirs to swap meanwhile.
            let theirs = shared + "/theirs.json"
            let made = try await asSecondUser(["/bin/sh", "-c", "echo theirs > \(theirs)"])
            #expect(made.status == .exited(0), "\(made.standardError)")
            let refused = try await fixture.hooray("export", "-o", theirs)
            #expect(refused.status == .exited(1))
            #expect(
                refused.standardError.contains("\(theirs) belongs to another user (uid \(SecondUser.uid))"),
                "\(refused.standardError)")
            #expect(try String(contentsOfFile: theirs, encoding: .utf8) == "theirs\n")

            // A new name in the shared folder is written, private.
            let mine = shared + "/mine.json"
            let written = try await fixture.hooray("export", "-o", mine)
            #expect(written.status == .exited(0), "\(written.standardError)")
            let attributes = try FileManager.default.attributesOfItem(atPath: mine)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            #expect(try String(contentsOfFile: mine, encoding: .utf8).contains("Took a walk"))
        }
    }

    // MARK: - The runtime folder and the control socket

    @Test func aRuntimeFolderAnotherUserMadeInASharedRuntimeDirIsRefusedByBothAndGetsNothing() async throws {
        try await HoorayFixture.with { fixture in
            let shared = try sharedFolder(fixture, "run")
            let made = try await asSecondUser(["/bin/mkdir", "-m", "777", shared + "/hooray"])
            #expect(made.status == .exited(0), "\(made.standardError)")
            let socket = shared + "/hooray/control.sock"
            let listener = try await startListener(at: socket)

            let environment = ["XDG_RUNTIME_DIR": shared]
            let daemon = try await ProcessRunner.run(
                HoorayFixture.binDirectory + "/hoorayd", environment: fixture.environment(overriding: environment),
                timeout: .seconds(20))
            let win = try await fixture.hooray("win", "A private win", environment: environment)
            for output in [daemon, win] {
                #expect(output.status == .exited(78), "\(output.standardError)")
                #expect(
                    output.standardError.contains(
                        "cannot use \(shared)/hooray for hoorayd's control socket and lock: it belongs to another user "
                            + "(uid \(SecondUser.uid))"), "\(output.standardError)")
                #expect(output.standardError.contains("sudo rm -r \(shared)/hooray"), "\(output.standardError)")
            }
            #expect(try await receivedBeforeMarker(listener, at: socket) == [])
            #expect(try await fixture.hooray("moments", "--json").standardOutput.contains("A private win") == false)
            await listener.stop()
        }
    }

    @Test func aSocketServedByAnotherUserIsRefusedByTheClientBeforeItSendsAnything() async throws {
        try await HoorayFixture.with { fixture in
            let theirs = try sharedFolder(fixture, "theirs")
            let listener = try await startListener(at: theirs + "/control.sock")
            // Moved into the user's own runtime folder (as root may), it keeps its maker as owner…
            let runtime = fixture.home.appending("runtime/hooray")
            try FileManager.default.createDirectory(
                atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            let socket = runtime + "/control.sock"
            #expect(rename(theirs + "/control.sock", socket) == 0)
            let status = try await fixture.hooray("status")
            #expect(status.status == .exited(78))
            #expect(
                status.standardError.contains(
                    "\(socket) for hoorayd's control socket and lock: the control socket belongs to another user "
                        + "(uid \(SecondUser.uid))"), "\(status.standardError)")

            // …and given to the user, the process answering there is still the other user's (SO_PEERCRED).
            #expect(lchown(socket, geteuid(), getegid()) == 0)
            let win = try await fixture.hooray("win", "A private win")
            #expect(win.status == .exited(78), "\(win.standardOutput)")
            #expect(
                win.standardError.contains(
                    "the control socket \(socket) is served by a process of another user (uid \(SecondUser.uid)), "
                        + "not by your hoorayd"), "\(win.standardError)")
            #expect(win.standardError.contains("so nothing was sent to it"))
            // Connecting is how the client learns who listens; not a byte more reached them.
            let received = try await receivedBeforeMarker(listener, at: socket)
            #expect(received.allSatisfy { $0 == "received b''" }, "\(received)")
            await listener.stop()
        }
    }

    @Test func aSocketLeftOpenToAllStillRefusesAnotherUsersRequestAndSavesNothing() async throws {
        try await HoorayFixture.with { fixture in
            let daemon = try await fixture.startDaemon()
            let socket = fixture.home.appending("runtime/hooray/control.sock")
            for folder in [
                fixture.home.path, fixture.home.appending("runtime"), fixture.home.appending("runtime/hooray"),
            ] {
                chmod(folder, 0o711)
            }
            chmod(socket, 0o666)
            let version = try await fixture.hooray("--version").standardOutput.trimmingCharacters(in: .newlines)
            // The request the `hooray` front door sends for `hooray win …`, sent by the other user.
            let caller =
                #"{"color":false,"data_directory":"\#(fixture.home.appending("data/hooray"))","home":"/","interactive":false,"version":"\#(version)","working_directory":"/"}"#
            let request =
                #"{"api_version":1,"arguments":["win","Injected"],"caller":\#(caller),"method":"run","request_id":"5d0f7a52-4b8e-4c1e-9a77-2f7b1d5e6c01"}"#
            let client = """
                import socket, sys
                connection = socket.socket(socket.AF_UNIX)
                connection.connect(sys.argv[1])
                try:
                    connection.sendall(sys.argv[2].encode() + b"\\n")
                except OSError:
                    pass
                print(connection.recv(65536).decode(), flush=True)
                """
            let injected = try await asSecondUser(["/usr/bin/python3", "-c", client, socket, request])
            #expect(
                injected.standardOutput.contains("answers only its own user, not uid \(SecondUser.uid)"),
                "\(injected.standardOutput) \(injected.standardError)")
            #expect(
                await daemon.waitForOutput(
                    containing: "refused a connection to the control socket from pid", in: .standardError,
                    timeout: .seconds(10)))
            #expect(daemon.standardError.contains("of another user (uid \(SecondUser.uid))"))

            // The user's own client refuses a runtime folder left open so; made private again, the
            // user's own win goes through, and is the only one.
            let open = try await fixture.hooray("win", "Mine")
            #expect(open.status == .exited(78))
            #expect(
                open.standardError.contains("chmod 700 \(fixture.home.appending("runtime/hooray"))"),
                "\(open.standardError)")
            chmod(fixture.home.appending("runtime/hooray"), 0o700)
            chmod(socket, 0o600)
            let mine = try await fixture.hooray("win", "Mine")
            #expect(mine.status == .exited(0), "\(mine.standardError)")
            let moments = try await fixture.hooray("moments", "--json").standardOutput
            #expect(moments.contains("Mine"), "\(moments)")
            #expect(!moments.contains("Injected"), "\(moments)")
            await daemon.stop()
        }
    }

    // MARK: - The database

    @Test func aSymlinkedDatabaseIsRefusedByBothAndWhatItPointsToIsUntouched() async throws {
        try await HoorayFixture.with { fixture in
            let folder = fixture.home.appending("data/hooray")
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            // A database of another program, which SQLite would open and Hooray fill with its tables.
            let target = fixture.home.appending("elsewhere.sqlite")
            let made = try await ProcessRunner.run(
                "/usr/bin/python3",
                arguments: [
                    "-c", "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('CREATE TABLE t (x)')", target,
                ])
            #expect(made.status == .exited(0), "\(made.standardError)")
            let before = try Data(contentsOf: URL(fileURLWithPath: target))
            try FileManager.default.createSymbolicLink(atPath: folder + "/hooray.sqlite", withDestinationPath: target)

            let win = try await fixture.hooray("win", "Took a walk")
            let daemon = try await ProcessRunner.run(
                HoorayFixture.binDirectory + "/hoorayd", environment: fixture.environment(), timeout: .seconds(20))
            for output in [win, daemon] {
                #expect(output.status != .exited(0))
                #expect(
                    output.standardError.contains(
                        "\(folder)/hooray.sqlite is a symbolic link (to \(target)); Hooray opens its database only"),
                    "\(output.standardError)")
                #expect(output.standardError.contains("remove the link (`rm \(folder)/hooray.sqlite`)"))
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
            #expect(!FileManager.default.fileExists(atPath: target + "-wal"))
        }
    }

    @Test func aDataFolderLinkedByAnotherUserIsRefusedAndYourOwnLinkWorks() async throws {
        try await HoorayFixture.with { fixture in
            let shared = try sharedFolder(fixture, "data-shared")
            let theirs = shared + "/their-folder"
            let made = try await asSecondUser([
                "/bin/sh", "-c", "mkdir -m 700 \(theirs) && ln -s \(theirs) \(shared)/hooray",
            ])
            #expect(made.status == .exited(0), "\(made.standardError)")
            let refused = try await fixture.hooray("win", "A private win", environment: ["XDG_DATA_HOME": shared])
            #expect(refused.status != .exited(0))
            #expect(
                refused.standardError.contains(
                    "the data folder \(shared)/hooray is a symbolic link (to \(theirs)) made by another user (uid \(SecondUser.uid))"
                ), "\(refused.standardError)")

            // The user's own link to a private folder of theirs (on another disk, say) is a setup people use.
            let disk = fixture.home.appending("big-disk")
            try FileManager.default.createDirectory(
                atPath: disk, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try FileManager.default.createSymbolicLink(
                atPath: fixture.home.appending("data/hooray"), withDestinationPath: disk)
            let win = try await fixture.hooray("win", "Took a walk")
            #expect(win.status == .exited(0), "\(win.standardError)")
            #expect(FileManager.default.fileExists(atPath: disk + "/hooray.sqlite"))
        }
    }

    // MARK: - Plugins

    /// Writes a plugin whose program only leaves a file behind in its data folder (all its sandbox
    /// lets it write), to show whether it ran.
    func writeMarkingPlugin(_ name: String, in plugins: String) throws -> String {
        let folder = plugins + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
        name = "\(name)"
        version = "1.0.0"
        api_version = 1
        description = "Leaves a mark."
        exec = ["run.sh"]
        """.write(toFile: folder + "/plugin.toml", atomically: false, encoding: .utf8)
        try writeProgram("#!/bin/sh\ntouch \"$HOORAY_PLUGIN_DATA/ran\"\n", to: folder + "/run.sh")
        return folder
    }

    @Test func pluginFoldersOthersMayWriteAreRefusedByNameAndNeverRun() async throws {
        try await HoorayFixture.with { fixture in
            let plugins = fixture.home.appending("data/hooray/plugins")
            func marker(_ name: String) -> String { fixture.home.appending("data/hooray/plugin-data/\(name)/ran") }
            let open = try writeMarkingPlugin("open", in: plugins)
            chmod(open, 0o777)
            let theirs = try writeMarkingPlugin("theirs", in: plugins)
            try SecondUser.give(theirs)
            _ = try writeMarkingPlugin("mine", in: plugins)

            let daemon = try await fixture.startDaemon()
            // The safe plugin's program ran: the others had their chance.
            let ran = await pollUntil(timeout: .seconds(20), interval: .milliseconds(100)) {
                FileManager.default.fileExists(atPath: marker("mine")) ? true : nil
            }
            #expect(ran == true, "\(daemon.standardError)")
            struct Listed: Decodable {
                let name: String
                let state: String
                let lastError: String?
            }
            let listing = try await fixture.hooray("plugins", "--json")
            let listed = try JSONDecoder().decode([Listed].self, from: Data(listing.standardOutput.utf8))
            let openReason = listed.first { $0.name == "open" && $0.state == "refused" }?.lastError ?? ""
            #expect(openReason.contains("\(open) may be written by every user (mode 777)"), "\(listed)")
            #expect(openReason.contains("`chmod go-w \(open)`"), "\(openReason)")
            let theirsReason = listed.first { $0.name == "theirs" && $0.state == "refused" }?.lastError ?? ""
            #expect(theirsReason.contains("\(theirs) belongs to another user (uid \(SecondUser.uid))"), "\(listed)")
            #expect(!FileManager.default.fileExists(atPath: marker("open")))
            #expect(!FileManager.default.fileExists(atPath: marker("theirs")))
            await daemon.stop()
        }
    }

    // MARK: - hoorayd's memory

    @Test func hoorayDaemonsMemoryIsNotDumpableSoItsProcFilesAreRoots() async throws {
        try await HoorayFixture.with { fixture in
            // Run as the second user: root's own files are root's whether or not it is dumpable.
            let home = fixture.home.appending("second")
            for folder in ["", "/data", "/config", "/runtime"] {
                try FileManager.default.createDirectory(
                    atPath: home + folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            try SecondUser.give(home)
            chmod(fixture.home.path, 0o711)
            let hoorayd = try SecondUser.executable(named: "hoorayd")
            let command = SecondUser.command([hoorayd])
            let daemon = try ChildProcess(
                command[0], arguments: Array(command.dropFirst()),
                environment: fixture.environment(
                    overriding: [
                        "HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config",
                        "XDG_RUNTIME_DIR": home + "/runtime", "HOORAY_SYSCONFDIR": home + "/etc",
                        "HOORAY_SYSTEM_PLUGIN_DIR": home + "/system-plugins",
                    ], withoutBus: true))
            #expect(
                await daemon.waitForOutput(containing: "hoorayd is running", in: .standardError, timeout: .seconds(30)),
                "\(daemon.standardError)")
            var info = stat()
            #expect(stat("/proc/\(daemon.pid)/environ", &info) == 0)
            #expect(info.st_uid == 0, "hoorayd's /proc files belong to uid \(info.st_uid)")
            let status = try String(contentsOfFile: "/proc/\(daemon.pid)/status", encoding: .utf8)
            #expect(status.contains("Uid:\t\(SecondUser.uid)"), "the daemon runs as the second user")
            await daemon.stop()
        }
    }
}
