import FoundationEssentials
import Glibc

/// The client's end of the control channel: one request line, one answer line.
public enum ControlClient {
    /// Sends one request line to the daemon and returns its answer line (without its newline).
    ///
    /// - Parameters:
    ///   - line: The request, with its newline.
    ///   - socketPath: The daemon's control socket.
    ///   - timeout: How long, in seconds, connecting, writing and each wait for the answer may take.
    /// - Returns: `nil` when no daemon is listening (the socket is missing or refuses connections).
    /// - Throws: ``ControlError`` when a daemon is there but the exchange fails, or another user's
    ///   process listens there (nothing was sent).
    public static func exchange(line: Data, socketPath: String, timeout: Int = 5) throws(ControlError) -> Data? {
        guard let fd = try UnixSocket.connect(socketPath, timeout: timeout) else { return nil }
        defer { close(fd) }
        // A daemon that turns the connection away (it is busy) answers before reading, and
        // closes: its answer is still there to read after the write failed.
        let sent = UnixSocket.writeAll(fd, line)
        errno = 0
        guard let answer = UnixSocket.readLine(fd, limit: maxResponseBytes) else {
            guard sent else { throw ControlError(message: "the daemon closed the control connection") }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                throw ControlError(message: "the daemon did not answer within \(timeout) s")
            }
            throw ControlError(message: "the daemon closed the connection without answering; it may have stopped")
        }
        return answer
    }
}
