import ArgumentParser
import Foundation
import HoorayCLIHost
import HoorayClient
import HoorayCommands
import HoorayEngine
import HoorayKit
import HoorayTerminal

/// `hooray sync`: your data on every computer you use, through a folder something else keeps in
/// step (docs/sync.md).
struct SyncGroup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Keep what you log in step on every computer you use, through a folder.",
        discussion: """
            Syncthing, Nextcloud, Dropbox or a USB stick keeps the folder in step; Hooray writes only \
            sealed files of its own there, which only your computers can read. See docs/sync.md.
            """,
        subcommands: [SyncSetup.self, SyncStatusCommand.self])
}

/// `hooray sync setup FOLDER [--phrase PHRASE]`.
struct SyncSetup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Sync through FOLDER: on the first computer, then on each other with its phrase.",
        discussion: """
            On the first computer this makes the key and prints the pairing phrase; on each other \
            computer, give the phrase once the folder is there: it is asked for on a terminal, or \
            read from standard input with --phrase - (so that it stays out of your shell's history \
            and the process list). Writes [sync] folder \
            in your hooray.toml. Exits 64 for a wrong or mistyped phrase, or none where one is needed \
            (another computer set the folder up), 69 when hoorayd is not running, 1 when the folder \
            is not there.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The folder, such as ~/Sync/hooray.", valueName: "folder"), completion: .directory)
    var folder: String

    @Option(
        help: ArgumentHelp(
            "The pairing phrase the first computer showed; - reads it from standard input.", valueName: "phrase"))
    var phrase: String?

    @Flag(help: "Give this computer a new id: for a computer copied from another that syncs too.")
    var newId = false

    func run() async throws {
        let path = Self.absolute(folder)
        let session = try CLISession(configFile: GlobalArguments.current.config)
        var given = phrase
        if phrase == "-" {
            guard let line = readLine(), !line.trimmingCharacters(in: .whitespaces).isEmpty else {
                warn("hooray sync setup: --phrase - reads the phrase from standard input, and none came")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            given = line
        }
        let notRunning = "hoorayd is not running; start it (systemctl --user start hooray), then run this again."
        var response = try session.answer(
            .syncSetup(folder: path, phrase: given, newDevice: newId), for: "hooray sync setup", notRunning: notRunning)
        // The folder is another computer's: on a terminal, its phrase is asked for.
        if !response.ok, given == nil, response.invalidValue == "--phrase", isatty(STDIN_FILENO) == 1 {
            print("Another computer set sync up in \(Self.shown(path)).")
            print("Its pairing phrase (`hooray sync status --phrase` shows it there): ", terminator: "")
            if let typed = readLine(), !typed.trimmingCharacters(in: .whitespaces).isEmpty {
                given = typed
                response = try session.answer(
                    .syncSetup(folder: path, phrase: typed, newDevice: newId), for: "hooray sync setup",
                    notRunning: notRunning)
            }
        }
        guard response.ok else {
            warn("hooray sync setup: \(response.message ?? "sync was not set up")")
            throw ExitCode(response.invalidValue != nil ? ExitStatus.usage.rawValue : ExitStatus.failed.rawValue)
        }
        print("Sync is on through \(path).")
        if let message = response.message { print(message.prefix(1).uppercased() + message.dropFirst() + ".") }
        if let shown = response.syncPhrase, given == nil {
            print("\nOn each of your other computers, once the folder is there, run")
            print("  hooray sync setup \(Self.shown(path))")
            print("and type this pairing phrase when it asks for it:\n")
            print("  Pairing phrase: \(shown)\n")
            print(
                "Keep the phrase to yourself: it opens everything in the folder. `hooray sync status --phrase` shows it again."
            )
        }
    }

    /// `folder` as a full path: `~/` is your home folder, and a relative path is from here.
    static func absolute(_ folder: String) -> String {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        if folder == "~" { return home }
        if folder.hasPrefix("~/") { return home + folder.dropFirst(1) }
        if folder.hasPrefix("/") { return URL(fileURLWithPath: folder).standardizedFileURL.path }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(folder)
            .standardizedFileURL.path
    }

    /// `path` with your home folder as `~`, for a line to paste on another computer.
    static func shown(_ path: String) -> String {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        return !home.isEmpty && path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
    }
}

/// `hooray sync status [--phrase] [--json]`.
struct SyncStatusCommand: AsyncParsableCommand, OffersJSON {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "How sync is doing: the folder, the other computers, what waits, and what went wrong.",
        discussion: "Exits 69 when hoorayd is not running, 75 when it is too busy to answer.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Show the pairing phrase, for another computer.")
    var phrase = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let session = try CLISession(configFile: GlobalArguments.current.config)
        let response = try session.answer(
            .syncStatus(phrase: phrase), for: "hooray sync status",
            notRunning: "hoorayd is not running; start it (systemctl --user start hooray).")
        guard response.ok, let status = response.sync else {
            warn("hooray sync status: \(response.message ?? "hoorayd did not say")")
            throw ExitCode(ExitStatus.failed.rawValue)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            encoder.dateEncodingStrategy = .iso8601
            print(String(decoding: try encoder.encode(status), as: UTF8.self))
            return
        }
        guard let folder = status.folder else {
            print("Sync is off. `hooray sync setup FOLDER` turns it on (docs/sync.md).")
            return
        }
        print(
            "Sync folder: \(folder)\(status.folderPresent ? "" : " — not there now (a disk unplugged?); sync waits for it")"
        )
        if let device = status.device { print("This computer: \(device)") }
        print(
            status.peers.isEmpty
                ? "Other computers: none heard from yet"
                : "Other computers: "
                    + status.peers.map {
                        "\($0.device.prefix(8))… (\($0.segments) segment\($0.segments == 1 ? "" : "s"))"
                    }
                    .joined(separator: ", "))
        print("Waiting to be written: \(status.unsent) change\(status.unsent == 1 ? "" : "s")")
        if let sent = status.lastSent { print("Last written: \(Output.when(sent))") }
        if let received = status.lastReceived { print("Last read: \(Output.when(received))") }
        if let phrase = response.syncPhrase { print("Pairing phrase: \(phrase)") }
        if !status.problems.isEmpty {
            print("\nLately:")
            for problem in status.problems { print("  ! \(problem)") }
        }
    }
}
