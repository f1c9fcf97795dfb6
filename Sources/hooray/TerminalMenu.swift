import Foundation
import HoorayCLIHost
import HoorayCommandLine
import HoorayEngine
import HoorayKit
import HoorayTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// A question with a one-key menu (``CommandSpec/Option/menu``), asked when its value was left out.
///
/// With standard input and output both terminals, one key answers without Enter. With only standard
/// input a terminal (`hooray COMMAND > out.txt`), the question goes to standard error and a line
/// answers: a key or a value.
struct MenuQuestion {
    /// The question, such as `Which one?`.
    let text: String
    /// The answers, in the order shown.
    let choices: [MenuChoice]
    /// Whether Enter may leave the value out: options and optional arguments.
    let isOptional: Bool

    /// What the user did.
    enum Answer: Equatable {
        case picked(String)
        case leftOut
        case cancelled
    }

    /// What is said when the user cancels at a menu; the command then exits 1.
    static let cancelledMessage = "Cancelled; nothing was saved."

    /// Asks on the terminal and waits for the answer.
    func ask() -> Answer {
        if isatty(STDOUT_FILENO) == 1, let answer = askWithKeys() { return answer }
        return askWithLine()
    }

    /// The choice a key or typed word names: its key, or its value in any case.
    func choice(for typed: String) -> MenuChoice? {
        let word = typed.trimmingCharacters(in: .whitespaces)
        return choices.first { $0.key == word } ?? choices.first { $0.key.lowercased() == word.lowercased() }
            ?? choices.first { $0.value.lowercased() == word.lowercased() }
    }

    /// The question and the choices, wrapped to `width` columns:
    /// `  1 💔 Dating   2 💼 Job   3 👥 Social`.
    func lines(width: Int) -> [String] {
        var lines = [text]
        var line = ""
        for choice in choices {
            // `8 😣` under key 8 is shown once, not as `8 8 😣`.
            let entry = choice.label.hasPrefix(choice.key + " ") ? choice.label : "\(choice.key) \(choice.label)"
            let candidate = line.isEmpty ? "  " + entry : line + "   " + entry
            if !line.isEmpty && Self.columns(candidate) >= width {
                lines.append(line)
                line = "  " + entry
            } else {
                line = candidate
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// How many terminal columns `text` takes: emoji take two.
    static func columns(_ text: String) -> Int {
        text.reduce(0) { sum, character in
            sum + (character.unicodeScalars.contains { $0.properties.isEmojiPresentation } ? 2 : 1)
        }
    }

    // MARK: One key

    /// Shows the menu and reads keys until one answers; `nil` when the terminal's modes cannot be
    /// changed (then a line is asked instead).
    private func askWithKeys() -> Answer? {
        guard let keys = SingleKeys() else { return nil }
        defer { keys.end() }
        let width = TerminalColumns.of(STDOUT_FILENO)
        let menu = lines(width: width).joined(separator: "\n") + "\n"
        Terminal.write(menu)
        var hinted = false
        while true {
            let key = keys.next()
            // A hint stands on the line below the menu; the answer replaces it.
            if hinted { Terminal.write("\r\u{1B}[K") }
            hinted = false
            switch key {
            case .resumed:
                // Back from Ctrl-Z: the shell's messages hid the menu.
                Terminal.write(menu)
            case .cancel:
                return .cancelled
            case .enter where isOptional:
                Terminal.write("→ left out\n")
                return .leftOut
            case .character(let typed):
                if let choice = choices.first(where: { $0.key == String(typed) })
                    ?? choices.first(where: { $0.key.lowercased() == String(typed).lowercased() })
                {
                    Terminal.write("→ \(choice.echo ?? choice.label)\n")
                    return .picked(choice.value)
                }
                fallthrough
            case .enter, .other:
                let enter = isOptional ? "Enter leaves it out, " : ""
                Terminal.write("Press one of the keys above (\(enter)Esc cancels).")
                hinted = true
            }
        }
    }

    // MARK: A line

    /// Asks with a line on standard error, as standard output may be a file, and reads one from
    /// standard input; end of input cancels.
    private func askWithLine() -> Answer {
        warn(lines(width: 80).joined(separator: "\n"))
        while true {
            FileHandle.standardError.write(Data("> ".utf8))
            guard let line = readLine() else { return .cancelled }
            if line.trimmingCharacters(in: .whitespaces).isEmpty, isOptional { return .leftOut }
            if let choice = choice(for: line) { return .picked(choice.value) }
            let values = choices.map(\.value).joined(separator: ", ")
            warn("Type a key or one of \(values)\(isOptional ? "; Enter leaves it out" : ""); Ctrl-D cancels.")
        }
    }
}

/// Writing to the terminal at once, after what `print` left in its buffer.
enum Terminal {
    static func write(_ text: String) {
        fflush(nil)
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// Standard input read one key at a time: canonical mode and echo off, and signal keys as bytes
/// (so Ctrl-C cancels like Esc, through the same path that restores the terminal).
///
/// The terminal's modes are put back by ``end()`` on every normal way out and, through signal
/// handlers, when the process is terminated, hung up or stopped (`kill -TSTP`; Ctrl-Z is handled as
/// a key and raises the same signal). A stopped process takes the keys again on `fg`. A signal the
/// process was started ignoring (a background job's SIGINT) stays ignored.
final class SingleKeys {
    /// A key pressed, as the menu needs it.
    enum Key: Equatable {
        case character(Character)
        case enter
        /// Esc, Ctrl-C (the terminal's interrupt key) or Ctrl-D (its end-of-file key).
        case cancel
        /// An escape sequence (an arrow key), or several characters at once (a paste).
        case other
        /// The process was stopped and continued: the menu is to be shown again.
        case resumed
    }

    private static let endingSignals = [SIGINT, SIGQUIT, SIGTERM, SIGHUP]
    private var previousActions: [Int32: sigaction] = [:]
    private let interrupt: UInt8
    private let endOfFile: UInt8
    private let suspend: UInt8

    /// Changes the modes of standard input; `nil` when it is not a terminal whose modes can be read.
    init?() {
        var modes = termios()
        guard tcgetattr(STDIN_FILENO, &modes) == 0 else { return nil }
        (interrupt, endOfFile, suspend) = withUnsafeBytes(of: modes.c_cc) { cc in
            (cc[Int(VINTR)], cc[Int(VEOF)], cc[Int(VSUSP)])
        }
        savedModes = modes
        modes.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        // One byte is enough for read to return, and it waits as long as it takes.
        withUnsafeMutableBytes(of: &modes.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        keyModes = modes
        // The handlers must find the saved modes before the terminal is changed.
        terminalState = TerminalState.keys
        for signal in Self.endingSignals { install(restoreAndRaise, for: signal) }
        install(restoreAndStop, for: SIGTSTP)
        // TCSANOW, not TCSAFLUSH: a key typed as the menu appears is kept.
        guard tcsetattr(STDIN_FILENO, TCSANOW, &keyModes) == 0 else {
            end()
            return nil
        }
    }

    /// Puts the terminal's modes and the signal handlers back as they were.
    func end() {
        guard terminalState != TerminalState.unchanged else { return }
        // Ending first: a stop from now on must not take the keys again on `fg`, while a signal
        // that ends the process still puts the modes back.
        terminalState = TerminalState.ending
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedModes)
        terminalState = TerminalState.unchanged
        for (signal, var action) in previousActions { _ = sigaction(signal, &action, nil) }
        previousActions = [:]
    }

    deinit { end() }

    /// Bytes read and not yet taken as keys. They outlive one menu: keys typed ahead (`28`) answer
    /// the menus that follow in turn.
    nonisolated(unsafe) private static var pending: [UInt8] = []

    /// Waits for the next key.
    func next() -> Key {
        if Self.pending.isEmpty {
            switch fill() {
            case .read: break
            case .resumed: return .resumed
            // The terminal went away: nothing more will be typed.
            case .nothing: return .cancel
            }
        }
        let first = Self.pending.removeFirst()
        switch first {
        case 0x1B:
            // Esc alone cancels; an arrow key's sequence (Esc [ A) starts with it, its rest at once.
            if Self.pending.isEmpty && fill(waiting: 50) != .read { return .cancel }
            dropEscapeSequence()
            return .other
        // A key the user turned off (`stty susp undef`) reads as 0, _POSIX_VDISABLE: not a NUL typed.
        case interrupt where interrupt != 0, endOfFile where endOfFile != 0:
            return .cancel
        case suspend where suspend != 0:
            // Ctrl-Z. This thread may be one of the runtime's, which block signals: unblocked, the
            // signal runs the handler here and now, and the process stops inside it.
            var stop = sigset_t()
            sigemptyset(&stop)
            sigaddset(&stop, SIGTSTP)
            var previous = sigset_t()
            pthread_sigmask(SIG_UNBLOCK, &stop, &previous)
            raise(SIGTSTP)
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            resumedFromStop = 0
            return .resumed
        case 0x0D, 0x0A:
            return .enter
        default:
            // A character of several UTF-8 bytes (é, 💔) may come in two reads.
            let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
            var bytes = [first]
            while bytes.count < length {
                if Self.pending.isEmpty && fill(waiting: 50) != .read { break }
                bytes.append(Self.pending.removeFirst())
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard text.count == 1, let character = text.first else { return .other }
            return .character(character)
        }
    }

    /// Drops the rest of an escape sequence after its Esc: `[`, parameters and a final letter
    /// (arrows, function keys), `O` and a letter, or one key (Alt with a key).
    private func dropEscapeSequence() {
        guard !Self.pending.isEmpty else { return }
        let introducer = Self.pending.removeFirst()
        if introducer == UInt8(ascii: "[") {
            while let byte = Self.pending.first, (0x20...0x3F).contains(byte) { Self.pending.removeFirst() }
        }
        if introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O"),
            let byte = Self.pending.first, (0x40...0x7E).contains(byte)
        {
            Self.pending.removeFirst()
        }
    }

    private enum Fill { case read, resumed, nothing }

    /// Reads what was typed into ``pending``, waiting for it up to `milliseconds` (-1: as long as
    /// it takes).
    private func fill(waiting milliseconds: Int32 = -1) -> Fill {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        if milliseconds >= 0 && poll(&descriptor, 1, milliseconds) <= 0 { return .nothing }
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count > 0 {
                Self.pending += buffer[0..<count]
                return .read
            }
            guard count < 0 && errno == EINTR else { return .nothing }
            if resumedFromStop != 0 {
                resumedFromStop = 0
                return .resumed
            }
        }
    }

    private func install(_ handler: @convention(c) (Int32) -> Void, for signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        // No SA_RESTART: a read interrupted by a stop and continue returns, and the menu is shown
        // again (when the signal reached the thread reading; otherwise the keys still work).
        action.sa_flags = 0
        var previous = sigaction()
        guard sigaction(signal, &action, &previous) == 0 else { return }
        if unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        {
            _ = sigaction(signal, &previous, nil)
        } else {
            previousActions[signal] = previous
        }
    }
}

// The handlers run on whatever thread the signal reaches; they use async-signal-safe calls only,
// and these values, written before the handlers are installed and after they are removed.
nonisolated(unsafe) private var savedModes = termios()
nonisolated(unsafe) private var keyModes = termios()
nonisolated(unsafe) private var terminalState: sig_atomic_t = TerminalState.unchanged
nonisolated(unsafe) private var resumedFromStop: sig_atomic_t = 0
nonisolated(unsafe) private var newline: UInt8 = 0x0A

/// What the signal handlers are to do with the terminal's modes. The handlers compare with the
/// numbers themselves: a static constant may be initialised lazily, which a handler must not do.
private enum TerminalState {
    /// Nothing: the modes are the user's.
    static let unchanged: sig_atomic_t = 0
    /// Put them back before the process ends or stops, and take the keys again after a stop.
    static let keys: sig_atomic_t = 1
    /// Put them back before the process ends or stops; ``SingleKeys/end()`` is doing so.
    static let ending: sig_atomic_t = 2
}

/// Puts the terminal back and ends the process by the signal, as it would have ended without us.
private func restoreAndRaise(_ signal: Int32) {
    if terminalState != 0 /* TerminalState.unchanged */ {
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedModes)
        // A byte written before the handlers were installed: a String here would be converted,
        // and allocating is not safe in a signal handler.
        _ = write(STDOUT_FILENO, &newline, 1)
    }
    _ = Glibc.signal(signal, SIG_DFL)
    _ = raise(signal)
}

/// Puts the terminal back, stops, and on `fg` takes the keys again.
private func restoreAndStop(_ signal: Int32) {
    let saved = errno
    if terminalState != 0 /* TerminalState.unchanged */ { _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedModes) }
    stopFromHandler()
    if terminalState == 1 /* TerminalState.keys */ {
        handleStopAgain(with: restoreAndStop, flags: 0)
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &keyModes)
        resumedFromStop = 1
    }
    errno = saved
}
