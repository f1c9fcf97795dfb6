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

extension ControlClient {
    /// Sends one request to the daemon and returns its answer.
    ///
    /// - Returns: `nil` when no daemon is listening (the socket is missing or refuses connections).
    /// - Throws: ``ControlError`` when a daemon is there but the exchange fails.
    public static func send(_ request: ControlRequest, socketPath: String, timeout: Int = 5) throws
        -> ControlResponse?
    {
        guard let line = try exchange(line: try ControlCoding.encode(request), socketPath: socketPath, timeout: timeout)
        else { return nil }
        return try decodeAnswer(line)
    }

    /// Reads an answer line: refuses one of another protocol version, with what to do.
    package static func decodeAnswer(_ line: Data) throws -> ControlResponse {
        try ControlCoding.checkVersion(ofAnswer: line)
        do {
            return try ControlCoding.decode(ControlResponse.self, from: line)
        } catch {
            throw ControlError(message: "the daemon's answer could not be read: \(error)")
        }
    }
}

extension ControlConnection {
    /// Sends the request line.
    ///
    /// - Returns: Whether all of it was written; a daemon that turns the connection away (it is
    ///   busy) answers before reading and closes, and that answer is still there to read.
    @discardableResult
    public func send(_ request: ControlRequest) throws -> Bool {
        send(line: try ControlCoding.encode(request))
    }

    /// What came back within a wait.
    public enum Answer: Equatable {
        /// The daemon answered.
        case answered(ControlResponse)
        /// Nothing yet; waiting longer may bring the answer.
        case notYet
        /// The daemon closed the connection without answering: it stopped, or it refused the request.
        case closed
    }

    /// Waits up to `seconds` for the answer.
    ///
    /// - Throws: ``ControlError`` when the answer is too long, cannot be read or is of another protocol.
    public func receive(within seconds: Double) throws -> Answer {
        switch try receiveLine(within: seconds) {
        case .answered(let line): .answered(try ControlClient.decodeAnswer(line))
        case .notYet: .notYet
        case .closed: .closed
        }
    }
}

extension ControlFollower {
    /// Sends `request` and calls `answer` with each answer until the daemon closes the connection,
    /// or `answer` returns `false`.
    ///
    /// - Throws: ``ControlError`` for an answer that cannot be read or is of another protocol.
    public static func follow(
        _ request: ControlRequest, socketPath: String, answer: (ControlResponse) throws -> Bool
    ) throws -> End {
        try follow(line: try ControlCoding.encode(request), socketPath: socketPath) { line in
            try answer(try ControlClient.decodeAnswer(line))
        }
    }
}
