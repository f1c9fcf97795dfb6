import FoundationEssentials
import Glibc

/// One request to the daemon whose answer is awaited in steps, so that a client can do something
/// else when the daemon is slow to answer — such as see whether it is stopped, or take its request
/// back off the spool — and then go on waiting.
public final class ControlConnection {
    /// The connected socket.
    public let fd: Int32
    private var buffer = Data()
    /// How much of `buffer` has been searched for the newline: a long answer arrives in many
    /// chunks, and searching it all again after each would take time growing with its square.
    private var searched = 0
    /// Once an answer has begun, how long it may take in all to arrive whole; `nil`: it is read to
    /// its end however long, and only 5 s of silence in the middle of it counts as not answering.
    public var answerRest: Duration?

    /// Connects to the daemon's socket; sending and receiving wait at most `timeout` seconds each.
    ///
    /// - Returns: `nil` when no daemon is listening (the socket is missing or refuses connections).
    /// - Throws: ``ControlError`` (refused: nothing was sent) when another user's process listens there.
    public init?(socketPath: String, timeout: Int = 5) throws(ControlError) {
        guard let fd = try UnixSocket.connect(socketPath, timeout: timeout) else { return nil }
        self.fd = fd
    }

    /// Wraps a socket already connected (one end of a `socketpair`, in tests); it is closed on
    /// `exec`, and when this object goes.
    package init(adopting fd: Int32) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        UnixSocket.setTimeouts(fd, seconds: 5)
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends a request line (with its newline).
    ///
    /// - Returns: Whether all of it was written; a daemon that turns the connection away (it is
    ///   busy) answers before reading and closes, and that answer is still there to read.
    @discardableResult
    public func send(line: Data) -> Bool {
        UnixSocket.writeAll(fd, line)
    }

    /// Whether the daemon at the other end is stopped (SIGSTOP, or held by a debugger): such a daemon
    /// answers nothing until it is continued, however long one waits. `false` when it runs, however
    /// busy, and when that cannot be told.
    public var peerIsStopped: Bool {
        guard let peer = UnixSocket.peer(fd), peer.pid > 0 else { return false }
        let file = open("/proc/\(peer.pid)/stat", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return false }
        defer { close(file) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, 4096) }
        guard count > 0, let end = bytes[0..<count].lastIndex(of: UInt8(ascii: ")")) else { return false }
        // After "pid (comm) " comes the state: T is stopped by a signal, t by a debugger.
        let state = bytes[(end + 1)..<count].first { $0 != UInt8(ascii: " ") }
        return state == UInt8(ascii: "T") || state == UInt8(ascii: "t")
    }

    /// What came back within a wait.
    public enum Line: Equatable {
        /// The daemon answered with this line (without its newline).
        case answered(Data)
        /// Nothing yet; waiting longer may bring the answer.
        case notYet
        /// The daemon closed the connection without answering: it stopped, or it refused the request.
        case closed
    }

    /// Waits up to `seconds` for the answer's line to begin.
    ///
    /// - Throws: ``ControlError`` when the answer is too long.
    public func receiveLine(within seconds: Double) throws(ControlError) -> Line {
        var deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let newline = buffer[(buffer.startIndex + searched)...].firstIndex(of: UInt8(ascii: "\n")) {
                return .answered(Data(buffer[buffer.startIndex..<newline]))
            }
            searched = buffer.count
            guard buffer.count <= maxResponseBytes else {
                throw ControlError(message: "the daemon's answer is longer than \(maxResponseBytes) bytes")
            }
            // What came already is read even when the wait is over.
            let left = max(.zero, ContinuousClock.now.duration(to: deadline))
            let (whole, fraction) = left.components
            let milliseconds =
                left == .zero ? 0 : Int32(clamping: whole * 1000 + fraction / 1_000_000_000_000_000 + 1)
            var wanted = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&wanted, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else {
                // An answer cut off past its time to end is not one.
                if ready == 0 { return buffer.isEmpty || answerRest == nil ? .notYet : .closed }
                return .closed
            }
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else {
                // An answer without its newline still counts when the daemon closed after it, unless
                // it had a time to end in (it was cut off).
                guard !buffer.isEmpty, answerRest == nil else { return .closed }
                let line = buffer
                buffer = Data()
                searched = 0
                return .answered(line)
            }
            if let answerRest {
                // The daemon is answering: the answer has this long in all to end.
                if buffer.isEmpty { deadline = max(deadline, ContinuousClock.now.advanced(by: answerRest)) }
            } else {
                // The daemon is answering: a long answer that keeps coming is read to its end, and
                // only 5 s of silence in the middle of it counts as not answering.
                deadline = max(deadline, ContinuousClock.now.advanced(by: .seconds(5)))
            }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}
