import ArgumentParser
import Foundation
import HoorayCLIHost
import HoorayClient
import HoorayEngine
import HoorayKit
import HoorayTerminal
import HoorayText

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
            `due-soon` (a reminder within 15 minutes), `quiet` (do not disturb or quiet hours) or `stopped` \
            (hoorayd is not running); percentage is what is done of what is due today. A reminder due \
            in quiet hours shows when they end.

            While hoorayd is not running the line is computed here and says so in the tooltip and class; \
            so it is while hoorayd is busy (--follow then waits and tries again) or older than this \
            hooray (restart it with `systemctl --user restart hooray`).
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
            let response: ControlResponse?
            do {
                response = try session.send(.bar())
            } catch {
                warn("hooray bar: hoorayd is there but did not answer (\(error)); this line is computed here.")
                try await printer.print(offline: session, source: .busyDaemon)
                return
            }
            guard let response else {
                try await printer.print(offline: session, source: .stopped)
                return
            }
            if let snapshot = response.bar {
                printer.print(snapshot, source: .daemon)
                noteConfiguration(session)
                return
            }
            let refusal = Refusal(response)
            warn("hooray bar: \(refusal.message); this line is computed here.")
            try await printer.print(offline: session, source: refusal.source)
            return
        }
        // Ctrl-C and a bar that stops the script end it without an error.
        signal(SIGINT) { _ in _exit(0) }
        signal(SIGTERM) { _ in _exit(0) }
        signal(SIGPIPE, SIG_IGN)
        let socket = session.paths.controlSocket
        var last: BarSnapshot?
        // Waits after a refusal: 1 s, then twice as long each time up to a minute, until lines come.
        var pause: Duration = .seconds(1)
        var told: String?
        if !ControlFollower.isListening(socket) { try await printer.print(offline: session, source: .stopped) }
        while true {
            var refusal: Refusal?
            let end = try ControlFollower.follow(.bar(follow: true), socketPath: socket) { response in
                guard let snapshot = response.bar else {
                    refusal = Refusal(response)
                    return false
                }
                if last == nil { noteConfiguration(session) }
                last = snapshot
                pause = .seconds(1)
                told = nil
                printer.print(snapshot, source: .daemon)
                return true
            }
            if let refusal {
                if told != refusal.message {
                    warn(
                        "hooray bar: \(refusal.message)\(refusal.source == .busyDaemon ? "; this bar will follow once there is room" : "")."
                    )
                    told = refusal.message
                }
                switch refusal.source {
                case .busyDaemon:
                    try await Task.sleep(for: pause)
                    pause = min(pause * 2, .seconds(60))
                case .outdatedDaemon:
                    // The line is made here until hoorayd is restarted, which makes its socket anew.
                    try await printer.print(offline: session, source: .outdatedDaemon)
                    if !ControlFollower.waitForSocket(socket, replaced: true) {
                        try await Task.sleep(for: .seconds(60))
                    }
                default:
                    throw CommandFailure(message: "hooray bar: hoorayd answered: \(refusal.message)")
                }
                continue
            }
            if end != .notRunning {
                // hoorayd went away: the last counts stay, marked stopped, until it is back.
                if let last {
                    printer.print(last, source: .stopped)
                } else {
                    try await printer.print(offline: session, source: .stopped)
                }
            } else if ControlFollower.isListening(socket) {
                // Taken and closed without a word: wait before asking again.
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(60))
            }
            while !ControlFollower.isListening(socket) {
                if !ControlFollower.waitForSocket(socket) {
                    warn("hooray bar: cannot watch \(socket) for hoorayd to start; looking again in 30 s.")
                    try await Task.sleep(for: .seconds(30))
                }
            }
        }
    }

    /// Why hoorayd answered without a bar.
    struct Refusal {
        let message: String
        let source: BarLine.Source

        init(_ response: ControlResponse) {
            let said = response.message ?? "no bar"
            if response.busy == true {
                (message, source) = (said, .busyDaemon)
            } else if said.contains("unknown method") {
                // A hoorayd from before `bar` existed, running on after an upgrade.
                (message, source) = (BarLine.outdatedDaemon, .outdatedDaemon)
            } else {
                (message, source) = (said, .daemon)
            }
        }
    }

    /// With --config, says once that hoorayd's line comes from the configuration it started with.
    func noteConfiguration(_ session: CLISession) {
        guard let file = session.configFile else { return }
        warn(
            "Note: hoorayd made this line with the configuration it started with, not \(file); "
                + "give --config to hoorayd itself (or `hooray reload` after adding the file to \(UserPaths.configDropIns)/)."
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

    func print(_ snapshot: BarSnapshot, source: BarLine.Source, timeZone: TimeZone = .current) {
        let built = BarLine(snapshot, source: source, now: Date(), timeZone: timeZone)
        let line = json ? built.json(running: source.running) : built.rendered(format)
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

    /// The line computed in this process, for when hoorayd cannot make it.
    func print(offline session: CLISession, source: BarLine.Source) async throws {
        let (snapshot, timeZone, ignored) = try await session.offlineBarSnapshot(plugins: installedPlugins)
        for line in ignored { warn(TerminalText.safe(line, multiline: true)) }
        print(snapshot, source: source, timeZone: timeZone)
    }
}
