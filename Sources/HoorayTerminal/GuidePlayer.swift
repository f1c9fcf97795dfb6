import Foundation
import HoorayCLIHost
import HoorayClient
import HoorayCommandLine
import HoorayEngine
import HoorayKit
import HoorayText

#if canImport(Glibc)
    import Glibc
#endif

/// Plays a command's ``HoorayKit/CommandReply/guide`` in the user's terminal, from `hooray` itself:
/// the command may have run in `hoorayd`, which has no terminal.
///
/// On a terminal the title comes first, then each step's cue with a bar that fills over its seconds
/// and the time left in the whole guide, redrawn in place ten times a second with the cursor hidden.
/// With `TERM=dumb` (or no `TERM`) nothing is redrawn: one line per step as it begins. Without a
/// terminal, or with `--json`, the steps are printed at once (``HoorayKit/TerminalGuide/listing``)
/// and nothing waits.
///
/// Ctrl-C (`SIGINT`), `SIGTERM`, `SIGHUP` and Ctrl-\ end a guide at once and cleanly: the line is
/// cleared, the cursor shown again, "Stopped. Come back any time." printed, and `hooray` exits 0, as
/// the command did what was asked. Ctrl-Z shows the cursor before the process stops, and the guide
/// goes on where it was after `fg`. Standard input is never read, and the terminal's modes are left
/// as they are.
public enum GuidePlayer {
    /// How a guide is shown.
    public enum Mode: Equatable {
        /// The cue and a bar, redrawn in place; the bar coloured when `color`.
        case animated(color: Bool)
        /// One line per step as it begins, for a terminal that cannot redraw.
        case lines
        /// The steps at once, on standard output or, with `--json`, standard error.
        case listing(toStandardError: Bool)
    }

    /// How a guide ended.
    public enum Outcome: Equatable {
        /// All its steps were played, or listed.
        case finished
        /// The user (or a signal) ended it early.
        case stopped
    }

    /// The line printed when a guide is stopped early.
    public static let stoppedLine = "Stopped. Come back any time."
    /// The hint shown under the title while a guide plays.
    public static let hint = "Ctrl-C ends it whenever you like."
    /// How often the bar is redrawn, and how long a step line waits at most before it looks for a
    /// signal or a continue.
    public static let frameMilliseconds: Int32 = 100
    /// The widest the bar gets, in cells.
    public static let barCells = 30
    /// The most a guide moves on between two frames, in seconds: more passed only while the process
    /// was stopped (Ctrl-Z, then `fg`) or the computer slept, and the guide goes on where it was.
    public static let longestFrame = 0.5

    /// How to show a guide, from the reply's `--json`, whether standard output is a terminal, `TERM`
    /// and whether colour is wanted.
    public static func mode(json: Bool, environment: [String: String], color: Bool) -> Mode {
        if json { return .listing(toStandardError: true) }
        guard isatty(STDOUT_FILENO) == 1 else { return .listing(toStandardError: false) }
        let term = environment["TERM"] ?? ""
        return term.isEmpty || term == "dumb" ? .lines : .animated(color: color)
    }

    /// Plays the guide and returns when it has ended.
    @discardableResult
    public static func play(_ guide: TerminalGuide, mode: Mode) -> Outcome {
        let guide = safe(guide)
        switch mode {
        case .listing(let toStandardError):
            if toStandardError { warn(guide.listing) } else { print("\n" + guide.listing) }
            return .finished
        case .lines, .animated:
            fflush(nil)
            return Playback(guide: guide, mode: mode).run()
        }
    }

    /// The guide with text fit for a terminal, whoever wrote it, and every step 1 to 600 seconds
    /// long, as ``HoorayKit/TerminalGuide/Step/seconds`` promises, so no guide runs for hours.
    public static func safe(_ guide: TerminalGuide) -> TerminalGuide {
        TerminalGuide(
            title: TerminalText.safe(guide.title),
            steps: guide.steps.map { .init(cue: TerminalText.safe($0.cue), seconds: min(max($0.seconds, 1), 600)) },
            closing: TerminalText.safe(guide.closing))
    }

    // MARK: What is drawn

    /// Where a guide is after `elapsed` seconds: the step, and how far into it (0 to 1); `nil` once
    /// it is over.
    public static func position(in steps: [TerminalGuide.Step], at elapsed: Double) -> (step: Int, fraction: Double)? {
        var start = 0.0
        for (index, step) in steps.enumerated() {
            let end = start + Double(step.seconds)
            if elapsed < end { return (index, max(0, elapsed - start) / Double(step.seconds)) }
            start = end
        }
        return nil
    }

    /// `1:26 left`: whole seconds, rounded up, so the last second reads `0:01`.
    public static func timeLeft(_ seconds: Double) -> String {
        let whole = Int(max(0, seconds).rounded(.up))
        return "\(whole / 60):" + String(format: "%02d", whole % 60) + " left"
    }

    /// The live line: `  Breathe in slowly    ██████░░░░░░░░  1:26 left`, at most `columns - 1`
    /// cells wide so that the terminal never wraps it (a wrapped line could not be redrawn with `\r`).
    ///
    /// - Parameters:
    ///   - cue: The step's cue, safe for the terminal.
    ///   - cueWidth: The widest cue of the guide, so the bar stays put from step to step.
    ///   - fraction: How far into the step, 0 to 1.
    ///   - secondsLeft: The time left in the whole guide.
    ///   - columns: The terminal's width.
    ///   - color: Whether the bar is coloured.
    public static func frame(
        cue: String, cueWidth: Int, fraction: Double, secondsLeft: Double, columns: Int, color: Bool
    ) -> String {
        let left = timeLeft(secondsLeft)
        let room = columns - 1
        let label = "  " + TerminalText.padding(cue, toWidth: cueWidth) + "  "
        let cells = min(barCells, room - TerminalText.width(label) - 2 - left.count)
        guard cells >= 5 else {
            // Too narrow for a bar: the cue alone, cut to fit.
            var short = "  " + cue
            while TerminalText.width(short) > room, !short.isEmpty { short.removeLast() }
            return short
        }
        let filled = min(cells, Int((min(max(fraction, 0), 1) * Double(cells)).rounded(.down)))
        let full = String(repeating: "█", count: filled)
        let empty = String(repeating: "░", count: cells - filled)
        let bar = color ? "\u{1B}[36m\(full)\u{1B}[2m\(empty)\u{1B}[0m" : full + empty
        return label + bar + "  " + left
    }

    // MARK: Playing

    /// One guide being played on the terminal.
    private struct Playback {
        let guide: TerminalGuide
        let mode: Mode

        var animated: Bool {
            if case .animated = mode { return true }
            return false
        }

        var color: Bool { mode == .animated(color: true) }

        func run() -> Outcome {
            guard !guide.steps.isEmpty else { return .finished }
            let signals = GuideSignals(hidingCursor: animated)
            defer { signals.end() }
            let title = color ? "\u{1B}[1m\(guide.title)\u{1B}[0m" : guide.title
            let hint = color ? "\u{1B}[2m\(GuidePlayer.hint)\u{1B}[0m" : GuidePlayer.hint
            GuideSignals.write("\n\(title)\n\(hint)\n\n")
            if animated { GuideSignals.write(GuideSignals.hideCursor) }

            let clock = SuspendingClock()
            let total = Double(guide.totalSeconds)
            let cueWidth = guide.steps.map { TerminalText.width($0.cue) }.max() ?? 0
            var elapsed = 0.0
            var last = clock.now
            var shownStep = -1
            var shownLine = ""
            while true {
                let now = clock.now
                elapsed += min(seconds(last.duration(to: now)), GuidePlayer.longestFrame)
                last = now
                guard let (step, fraction) = GuidePlayer.position(in: guide.steps, at: elapsed) else { break }
                if animated {
                    let line = GuidePlayer.frame(
                        cue: guide.steps[step].cue, cueWidth: cueWidth, fraction: fraction,
                        secondsLeft: total - elapsed, columns: TerminalColumns.of(STDOUT_FILENO), color: color)
                    if line != shownLine { GuideSignals.write("\r" + line + "\u{1B}[K") }
                    shownLine = line
                } else if step != shownStep {
                    GuideSignals.write("\(guide.steps[step].cue) — \(guide.steps[step].seconds) s\n")
                }
                shownStep = step
                if signals.wait(milliseconds: GuidePlayer.frameMilliseconds) {
                    // "\r" also moves past a `^C` the terminal may have echoed.
                    GuideSignals.write((animated ? "\r\u{1B}[K" : "\r") + GuidePlayer.stoppedLine + "\n")
                    return .stopped
                }
            }
            GuideSignals.write((animated ? "\r\u{1B}[K" : "") + guide.closing + "\n")
            return .finished
        }

        func seconds(_ duration: Duration) -> Double {
            let (whole, fraction) = duration.components
            return Double(whole) + Double(fraction) / 1e18
        }
    }
}

/// The signals a playing guide answers, through handlers that only set a flag and write a byte to
/// a pipe the player waits on (both async-signal-safe), so the player itself ends the guide at once.
///
/// Ending signals (`SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`) stop the guide; one the process was
/// started ignoring (a background job's `SIGINT`) stays ignored. While the cursor is hidden, `SIGTSTP`
/// shows it and stops the process, and `SIGCONT` hides it again.
private final class GuideSignals {
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"

    private static let endingSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    private var previousActions: [Int32: sigaction] = [:]
    private let hidingCursor: Bool

    init(hidingCursor: Bool) {
        self.hidingCursor = hidingCursor
        var ends: [Int32] = [0, 0]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            // The handler must never block on a full pipe.
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            guideWake = (ends[0], ends[1])
        }
        guideEnding = 0
        guideHidesCursor = hidingCursor ? 1 : 0
        for signal in Self.endingSignals { install(noteEnding, for: signal, keepIgnored: true) }
        if hidingCursor {
            install(hideCursorAgain, for: SIGCONT, keepIgnored: false)
            install(showCursorAndStop, for: SIGTSTP, keepIgnored: true)
        }
    }

    /// Waits up to `milliseconds`, or until a signal comes; `true` when an ending signal came.
    func wait(milliseconds: Int32) -> Bool {
        guard guideEnding == 0 else { return true }
        if guideWake.read >= 0 {
            var descriptor = pollfd(fd: guideWake.read, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, milliseconds) > 0 {
                var drained = [UInt8](repeating: 0, count: 16)
                _ = read(guideWake.read, &drained, drained.count)
            }
        } else {
            usleep(useconds_t(milliseconds) * 1000)
        }
        return guideEnding != 0
    }

    /// Shows the cursor, and puts the signal handlers back as they were.
    func end() {
        if hidingCursor { Self.write(Self.showCursor) }
        guideHidesCursor = 0
        for (signal, var action) in previousActions { _ = sigaction(signal, &action, nil) }
        previousActions = [:]
        if guideWake.read >= 0 {
            close(guideWake.read)
            close(guideWake.write)
            guideWake = (-1, -1)
        }
    }

    /// Writes to standard output at once, whole, past interruptions; a terminal that went away
    /// (`SIGHUP`) is not an error worth more than silence.
    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if count > 0 {
                offset += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    private func install(_ handler: @convention(c) (Int32) -> Void, for signal: Int32, keepIgnored: Bool) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        var previous = sigaction()
        guard sigaction(signal, &action, &previous) == 0 else { return }
        let ignored =
            unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        if keepIgnored && ignored {
            _ = sigaction(signal, &previous, nil)
        } else {
            previousActions[signal] = previous
        }
    }
}

// The handlers run on whatever thread the signal reaches; they touch only these values, set before
// the handlers are installed, and make async-signal-safe calls only.
nonisolated(unsafe) private var guideWake: (read: Int32, write: Int32) = (-1, -1)
nonisolated(unsafe) private var guideEnding: sig_atomic_t = 0
nonisolated(unsafe) private var guideHidesCursor: sig_atomic_t = 0

/// Wakes the player.
private func wakeGuide() {
    var byte: UInt8 = 1
    _ = write(guideWake.write, &byte, 1)
}

// The bytes the handlers write, made before any handler runs: a String literal passed to `write`
// would be converted on the heap, and a signal handler must not allocate.
nonisolated(unsafe) private var hideCursorBytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
    0x1B, 0x5B, 0x3F, 0x32, 0x35, 0x6C
)
nonisolated(unsafe) private var showCursorBytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
    0x1B, 0x5B, 0x3F, 0x32, 0x35, 0x68
)

/// An ending signal: the player stops the guide.
private func noteEnding(_ signal: Int32) {
    let saved = errno
    guideEnding = signal
    wakeGuide()
    errno = saved
}

/// Continued after a stop: the cursor is hidden again.
private func hideCursorAgain(_ signal: Int32) {
    let saved = errno
    if guideHidesCursor != 0 { _ = write(STDOUT_FILENO, &hideCursorBytes, 6) }
    errno = saved
}

/// Ctrl-Z: shows the cursor, stops, and on `fg` takes the stop handler again.
private func showCursorAndStop(_ signal: Int32) {
    let saved = errno
    _ = write(STDOUT_FILENO, &showCursorBytes, 6)
    stopFromHandler()
    if guideHidesCursor != 0 { handleStopAgain(with: showCursorAndStop, flags: SA_RESTART) }
    errno = saved
}
