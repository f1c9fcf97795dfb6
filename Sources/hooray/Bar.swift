import ArgumentParser
import Foundation
import HoorayEngine
import HoorayKit

/// `hooray bar`: one line for a status bar (waybar, i3blocks, polybar), once or on every change.
struct Bar: AsyncParsableCommand, OffersJSON {
    static let configuration = CommandConfiguration(
        abstract: "Print one line for a status bar: the next reminder, today's counts, the best streak.",
        discussion: """
            With --follow, prints a new line whenever it changes, pushed by hoorayd (nothing polls), \
            and keeps going while hoorayd stops and starts again; Ctrl-C ends it.

            Formats: text (a line for a terminal), waybar (one JSON object per line with text, tooltip, \
            class, alt and percentage, for `return-type: json`), i3blocks (a line per update, for \
            `interval=persist`), polybar (a line per update, for `tail = true`). The class is `idle`, \
            `due-soon` (a reminder within 15 minutes), `quiet` (do not disturb) or `stopped` (hoorayd \
            is not running); percentage is what is done of what is due today.

            While hoorayd is not running the line is computed here and says so in the tooltip and class.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "The output format.")
    var format: BarLine.Format = .text

    @Flag(help: "Print a new line whenever it changes, until interrupted.")
    var follow = false

    @Flag(help: "Print each line as a JSON object (text, tooltip, class, percentage, running) instead of --format.")
    var json = false

    func run() async throws {
        let session = try CLISession(configFile: global.configFile)
        let printer = LinePrinter(format: format, json: json)
        guard follow else {
            let snapshot: BarSnapshot?
            do {
                snapshot = try session.send(.bar())?.bar
            } catch {
                warn("hooray bar: hoorayd is there but did not answer (\(error)); this line is computed here.")
                snapshot = nil
            }
            if let snapshot {
                printer.print(snapshot, running: true)
                noteConfiguration(session)
            } else {
                try await printer.print(offline: session)
            }
            return
        }
        // Ctrl-C and a bar that stops the script end it without an error.
        signal(SIGINT) { _ in _exit(0) }
        signal(SIGTERM) { _ in _exit(0) }
        signal(SIGPIPE, SIG_IGN)
        let socket = session.paths.controlSocket
        var last: BarSnapshot?
        if !ControlFollower.isListening(socket) { try await printer.print(offline: session) }
        while true {
            let end = try ControlFollower.follow(.bar(follow: true), socketPath: socket) { response in
                guard let snapshot = response.bar else {
                    throw CommandFailure(message: "hooray bar: hoorayd answered: \(response.message ?? "no bar")")
                }
                if last == nil { noteConfiguration(session) }
                last = snapshot
                printer.print(snapshot, running: true)
                return true
            }
            if end != .notRunning {
                // hoorayd went away: the last counts stay, marked stopped, until it is back.
                if let last { printer.print(last, running: false) } else { try await printer.print(offline: session) }
            }
            while !ControlFollower.isListening(socket) {
                if !ControlFollower.waitForSocket(socket) {
                    warn("hooray bar: cannot watch \(socket) for hoorayd to start; looking again in 30 s.")
                    try await Task.sleep(for: .seconds(30))
                }
            }
        }
    }

    /// With --config, says once that hoorayd's line comes from the configuration it started with.
    func noteConfiguration(_ session: CLISession) {
        guard let file = session.configFile else { return }
        warn(
            "Note: hoorayd made this line with the configuration it started with, not \(file); "
                + "give --config to hoorayd itself (or `hooray reload` after adding the file to ~/.config/hooray/conf.d/)."
        )
    }
}

extension BarLine.Format: ExpressibleByArgument {}

/// Prints formatted lines, each at once, and none twice in a row.
final class LinePrinter: @unchecked Sendable {
    // @unchecked: used from one task at a time.
    let format: BarLine.Format
    let json: Bool
    private var previous: String?

    init(format: BarLine.Format, json: Bool) {
        self.format = format
        self.json = json
    }

    func print(_ snapshot: BarSnapshot, running: Bool, timeZone: TimeZone = .current) {
        let built = BarLine(snapshot, running: running, now: Date(), timeZone: timeZone)
        let line = json ? built.json(running: running) : built.rendered(format)
        guard line != previous else { return }
        previous = line
        // Written at once, not buffered: a bar reads from a pipe and shows each line as it comes.
        // A bar that went away (EPIPE) ends the command quietly.
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { _exit(0) }
            offset += count
        }
    }

    /// The line computed in this process, for when hoorayd is not running.
    func print(offline session: CLISession) async throws {
        let (snapshot, timeZone, ignored) = try await session.offlineBarSnapshot(plugins: installedPlugins)
        for line in ignored { warn(TerminalText.safe(line, multiline: true)) }
        print(snapshot, running: false, timeZone: timeZone)
    }
}
