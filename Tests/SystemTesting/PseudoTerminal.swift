import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal for a test: a program started on it (``ChildProcess/init(_:arguments:environment:terminal:)``)
/// sees a real terminal on its standard input, output and error, with a size and modes, while the
/// test reads what it shows and types keys.
///
/// ```swift
/// let terminal = try PseudoTerminal()
/// let child = try ChildProcess("/usr/bin/hooray", arguments: ["reject"], terminal: terminal)
/// _ = await child.waitForOutput(containing: "What kind of rejection?", timeout: .seconds(10))
/// try child.write(toStandardInput: "2")
/// ```
public final class PseudoTerminal: Sendable {
    /// The controller (master) side, kept open as long as this object lives so that the terminal
    /// outlives the program on it.
    private let controller: Int32
    /// The path of the program's side, such as `/dev/pts/7`.
    public let path: String
    /// The terminal's modes when it was made, before any program ran on it.
    public let initialModes: TerminalModes

    /// Makes a terminal of the given size, with the system's default modes (canonical, echo,
    /// signal keys).
    ///
    /// - Parameters:
    ///   - columns: Its width.
    ///   - rows: Its height.
    /// - Throws: ``SystemTestingError/launchFailed(executable:reason:)`` when the system has no
    ///   pseudo-terminal to give.
    public init(columns: Int = 100, rows: Int = 30) throws {
        guard let openpt = Calls.openpt, let grantpt = Calls.grantpt, let unlockpt = Calls.unlockpt,
            let ptsname = Calls.ptsname
        else { throw SystemTestingError.launchFailed(executable: "pseudo-terminal", reason: "no posix_openpt here") }
        let controller = openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard controller >= 0 else { throw Self.failure("posix_openpt") }
        var name = [CChar](repeating: 0, count: 128)
        guard grantpt(controller) == 0, unlockpt(controller) == 0, ptsname(controller, &name, name.count) == 0 else {
            let error = Self.failure("grantpt/unlockpt/ptsname_r")
            close(controller)
            throw error
        }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(controller, UInt(TIOCSWINSZ), &size)
        self.controller = controller
        path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            initialModes = try Self.modes(of: path)
        } catch {
            close(controller)
            throw error
        }
    }

    deinit { close(controller) }

    /// The terminal's modes now, as a program on it would read them with `tcgetattr`.
    public func modes() throws -> TerminalModes {
        try Self.modes(of: path)
    }

    /// A new descriptor of the controller side, closed on `exec`.
    func duplicateController() throws -> Int32 {
        let copy = fcntl(controller, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw Self.failure("dup") }
        return copy
    }

    private static func modes(of path: String) throws -> TerminalModes {
        // Opened without becoming anyone's controlling terminal, and closed at once: while the
        // program's side is open here, reading the controller side would never end.
        let descriptor = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open \(path)") }
        defer { close(descriptor) }
        var modes = termios()
        guard tcgetattr(descriptor, &modes) == 0 else { throw failure("tcgetattr") }
        return TerminalModes(modes)
    }

    /// The pseudo-terminal calls, which Swift's Glibc module leaves out (they need `_XOPEN_SOURCE`).
    private enum Calls {
        typealias Open = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32
        static let openpt: Open? = Spawn.symbol("posix_openpt")
        static let grantpt: Open? = Spawn.symbol("grantpt")
        static let unlockpt: Open? = Spawn.symbol("unlockpt")
        static let ptsname: Name? = Spawn.symbol("ptsname_r")
    }

    private static func failure(_ call: String) -> SystemTestingError {
        .launchFailed(executable: "pseudo-terminal", reason: "\(call): \(String(cString: strerror(errno)))")
    }
}

/// A terminal's modes (`termios`), comparable: what `stty -a` shows.
public struct TerminalModes: Sendable, Hashable, CustomStringConvertible {
    /// Input modes (`c_iflag`).
    public var input: UInt32
    /// Output modes (`c_oflag`).
    public var output: UInt32
    /// Control modes (`c_cflag`).
    public var control: UInt32
    /// Local modes (`c_lflag`): canonical input, echo, signal keys.
    public var local: UInt32
    /// The special characters (`c_cc`), such as the interrupt key.
    public var characters: [UInt8]

    init(_ modes: termios) {
        input = modes.c_iflag
        output = modes.c_oflag
        control = modes.c_cflag
        local = modes.c_lflag
        characters = withUnsafeBytes(of: modes.c_cc) { Array($0) }
    }

    /// Whether a line is edited before a program reads it (`ICANON`).
    public var isCanonical: Bool { local & UInt32(ICANON) != 0 }
    /// Whether typed keys are shown (`ECHO`).
    public var echoes: Bool { local & UInt32(ECHO) != 0 }
    /// Whether Ctrl-C, Ctrl-Z and Ctrl-\ send signals (`ISIG`).
    public var sendsSignals: Bool { local & UInt32(ISIG) != 0 }

    public var description: String {
        "icanon \(isCanonical), echo \(echoes), isig \(sendsSignals), lflag \(String(local, radix: 16))"
    }
}
