import ArgumentParser
import Foundation
import HoorayCLIHost
import HoorayClient
import HoorayLauncher
import HoorayTerminal
import HoorayText

/// `hooray menu`: Hooray in rofi, wofi, fuzzel, bemenu or dmenu. The words typed are read as GNOME
/// Shell's search and KRunner read them (``Launcher``), and what is chosen runs the same `hooray`
/// command a terminal would.
struct Menu: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: Launcher.menuSummary,
        discussion: Launcher.menuHelp + """


            rofi (script mode): rofi -show hooray -modi "hooray:hooray menu --"
            Any dmenu-style menu: hooray menu --dmenu --launcher "fuzzel --dmenu"
            (without --launcher: $HOORAY_MENU, else the first of rofi, wofi, fuzzel, bemenu and dmenu \
            that is installed).
            With words and neither: does what a launcher would do with them, such as \
            hooray menu \(Launcher.example).
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Offer the lines to a dmenu-style menu and act on the chosen one.")
    var dmenu = false

    @Option(help: "The dmenu-style menu to run with --dmenu, such as \"fuzzel --dmenu\".")
    var launcher: String?

    @Argument(parsing: .remaining, help: "The words typed, or the line chosen (rofi passes it).")
    var words: [String] = []

    /// The words, without the `--` that keeps what rofi hands over from being read as options.
    var typed: String {
        (words.first == "--" ? Array(words.dropFirst()) : words).joined(separator: " ")
    }

    func run() async throws {
        let host = MenuHost(configFile: global.configFile)
        let environment = ProcessInfo.processInfo.environment
        if dmenu {
            try await runDmenu(host: host, environment: environment)
        } else if let state = environment["ROFI_RETV"].flatMap(Int.init) {
            await runRofi(state: state, info: environment["ROFI_INFO"], host: host)
        } else {
            try await runWords(host: host)
        }
    }

    // MARK: rofi's script mode

    /// One turn of rofi's script mode: rofi runs `hooray menu` (state 0) for the rows, then again with
    /// the chosen row (state 1, its id in `ROFI_INFO`) or the words typed (state 2). Rows printed
    /// after a choice are shown in its place; nothing printed closes rofi.
    func runRofi(state: Int, info: String?, host: MenuHost) async {
        var message = Launcher.startHint
        var offered: [LauncherResult]?
        switch state {
        case 1 where info != nil:
            switch await Launcher.perform(id: info ?? "", on: host) {
            case .done: return
            case .failed(let reason): message = "Not done: \(reason)"
            case .unknown: message = "Not done: that line is not one Hooray offered"
            }
        case 1, 2:
            let results = await Launcher.offers(for: typed, from: host)
            let doable = results.filter { $0.action.command != nil }
            if Launcher.namesOne(typed), doable.count == 1, let only = doable.first {
                switch await Launcher.perform(id: only.id, on: host) {
                case .done: return
                case .failed(let reason): message = "Not done: \(reason)"
                case .unknown: break
                }
            } else if doable.count > 1 {
                message = "Which one?"
                offered = doable
            } else if Launcher.wantsWinWords(typed) {
                message = Launcher.winHint
            } else if !doable.isEmpty || Launcher.intent(of: typed) == .today {
                message = Launcher.pickHint
            } else {
                message = Launcher.nothingMatches(Launcher.cleaned(String(typed.prefix(60))))
            }
        default:
            break
        }
        // rofi reads the message as Pango markup.
        var rows = ["\0prompt\u{1F}Hooray", "\0message\u{1F}\(BarLine.markupEscaped(Self.row(message)))"]
        let choices: [LauncherResult]
        if let offered {
            choices = offered
        } else {
            choices = await Launcher.offers(for: Launcher.checklistQuery, from: host)
        }
        rows += choices.map { "\(Self.row($0.title))\0info\u{1F}\(Self.field($0.id))" }
        if offered == nil {
            rows += await Launcher.offers(for: Launcher.todayQuery, from: host).map { result in
                "\(Self.row(Self.line(result)))\0nonselectable\u{1F}true"
            }
        }
        Swift.print(rows.joined(separator: "\n"))
    }

    // MARK: dmenu-style menus

    func runDmenu(host: MenuHost, environment: [String: String]) async throws {
        guard let command = launcher ?? environment["HOORAY_MENU"] ?? Self.installedMenu() else {
            throw CommandFailure(
                message:
                    "hooray menu: no dmenu-style menu found; install rofi, wofi, fuzzel, bemenu or dmenu, or name one: hooray menu --dmenu --launcher \"fuzzel --dmenu\""
            )
        }
        let choices = await Launcher.offers(for: Launcher.checklistQuery, from: host)
        let today = await Launcher.offers(for: Launcher.todayQuery, from: host)
        let lines = choices.map { Self.row($0.title) } + today.map { Self.row(Self.line($0)) }
        let chosen: String
        switch try Self.ask(command, lines: lines) {
        case .chosen(let line): chosen = line
        case .nothing: return
        case .failed(let reason):
            throw CommandFailure(message: "hooray menu: \(command) \(reason)")
        }
        if let choice = choices.first(where: { Self.row($0.title) == chosen }) {
            try await act(on: choice.id, host: host)
        } else if today.contains(where: { Self.row(Self.line($0)) == chosen }) {
            return
        } else {
            try await act(onWords: chosen, host: host)
        }
    }

    /// What a dmenu-style menu answered.
    enum Answer: Equatable {
        case chosen(String)
        /// Escape: nothing chosen.
        case nothing
        case failed(String)
    }

    /// Runs `command` with `sh -c`, the lines on its standard input, and reads the line chosen.
    static func ask(_ command: String, lines: [String]) throws -> Answer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            return .failed("could not be started: \(error.localizedDescription)")
        }
        // A menu that exits before reading its lines closes the pipe: that is its answer, not ours.
        signal(SIGPIPE, SIG_IGN)
        try? input.fileHandleForWriting.write(contentsOf: Data((lines.joined(separator: "\n") + "\n").utf8))
        try? input.fileHandleForWriting.close()
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = answer.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        if process.terminationStatus != 0 || line.isEmpty {
            // dmenu and its kin exit 1 on Escape.
            return process.terminationStatus <= 1 ? .nothing : .failed("ended with status \(process.terminationStatus)")
        }
        return .chosen(line)
    }

    /// The first dmenu-style menu installed, with the option that makes it read lines.
    static func installedMenu() -> String? {
        let known = [
            ("rofi", "rofi -dmenu -i -p Hooray"), ("wofi", "wofi --dmenu --prompt Hooray"),
            ("fuzzel", "fuzzel --dmenu --prompt 'Hooray: '"), ("bemenu", "bemenu -i -p Hooray"),
            ("dmenu", "dmenu -i -p Hooray"),
        ]
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return known.first { program, _ in
            path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
        }?.1
    }

    // MARK: Words given

    func runWords(host: MenuHost) async throws {
        guard !typed.trimmingCharacters(in: .whitespaces).isEmpty else {
            // What a launcher would list, one line each.
            let rows =
                await Launcher.offers(for: Launcher.checklistQuery, from: host)
                + Launcher.offers(for: Launcher.todayQuery, from: host)
            for row in rows { Swift.print(Self.row(Self.line(row))) }
            return
        }
        try await act(onWords: typed, host: host)
    }

    func act(onWords typed: String, host: MenuHost) async throws {
        let results = await Launcher.offers(for: typed, from: host).filter { $0.action.command != nil }
        guard Launcher.namesOne(typed), results.count == 1, let only = results.first else {
            let listed = results.map { "  " + TerminalText.safe($0.title) }.joined(separator: "\n")
            throw CommandFailure(
                message: results.isEmpty
                    ? "hooray menu: " + Launcher.nothingMatchesOnTerminal(TerminalText.safe(String(typed.prefix(60))))
                    : "hooray menu: “\(TerminalText.safe(String(typed.prefix(60))))” fits \(results.count == 1 ? "one" : "more than one"):\n\(listed)\nadd a word of the one you mean"
            )
        }
        try await act(on: only.id, host: host)
    }

    func act(on id: String, host: MenuHost) async throws {
        switch await Launcher.perform(id: id, on: host) {
        case .done: return
        case .failed(let reason): throw CommandFailure(message: "hooray menu: \(reason)")
        case .unknown:
            throw CommandFailure(message: "hooray menu: “\(TerminalText.safe(id))” is not something Hooray offers")
        }
    }

    // MARK: Rows

    /// An offer as one line: its title and, after a dot, its detail.
    static func line(_ result: LauncherResult) -> String {
        result.detail.isEmpty ? result.title : "\(result.title) · \(result.detail)"
    }

    /// `text` as one row of a menu: one line, without the bytes rofi's protocol gives a meaning.
    static func row(_ text: String) -> String {
        Launcher.cleaned(field(text))
    }

    /// `text` as the value of a row's option, kept as it is but for the bytes that would end it.
    static func field(_ text: String) -> String {
        text.replacing("\0", with: " ").replacing("\u{1F}", with: " ").replacing("\n", with: " ")
    }
}

/// `hooray menu`'s host: the commands run as `hooray` runs them, by this program in a process of
/// its own (through hoorayd when it runs, by itself when not), and the bar's snapshot from hoorayd
/// or, while it is not running, computed here.
struct MenuHost: LauncherHost {
    let configFile: String?

    func checklist() async -> [ChecklistItem]? {
        let ran = hooray(Launcher.checklistCommand.arguments)
        guard ran.status == 0 else { return nil }
        return try? JSONDecoder().decode([ChecklistItem].self, from: Data(ran.output.utf8))
    }

    func bar() async -> BarSnapshot? {
        guard let session = try? CLISession(configFile: configFile) else { return nil }
        if let response = try? session.send(.bar()), let snapshot = response.bar { return snapshot }
        return try? await session.offlineBarSnapshot(plugins: installedPlugins).snapshot
    }

    func run(_ action: LauncherAction) async -> LauncherOutcome {
        guard let arguments = action.arguments else { return .done }
        let ran = hooray(arguments)
        guard ran.status == 0 else {
            var said = Launcher.cleaned(ran.errors)
            // "hooray WORDS: why": the words are the menu's, not the user's.
            if said.hasPrefix("hooray"), let colon = said.firstRange(of: ": ") {
                said.removeSubrange(..<colon.upperBound)
            }
            return .failed(said.isEmpty ? "hooray \(arguments.first ?? "") ended with status \(ran.status)" : said)
        }
        return .done
    }

    /// Runs this program with `arguments` (and the `--config` the menu was given), nothing on its
    /// standard input.
    func hooray(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = (configFile.map { ["--config", $0] } ?? []) + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return (127, "", "could not run hooray: \(error.localizedDescription)")
        }
        // Both streams are read at once: a full pipe would stop the command.
        let said = ReadAll(errors.fileHandleForReading)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, printed, said.text())
    }
}

/// Reads a stream to its end on a thread of its own.
final class ReadAll: @unchecked Sendable {
    // @unchecked: `data` is written by the reading thread before `done` is signalled, and read after.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
