import Foundation
import HoorayClient

/// The CLI's end of the control channel.
public enum ControlClient {
    /// Sends one request to the daemon and returns its answer.
    ///
    /// - Returns: `nil` when no daemon is listening (the socket is missing or refuses connections).
    /// - Throws: ``ControlError`` when a daemon is there but the exchange fails.
    public static func send(_ request: ControlRequest, socketPath: String, timeout: Int = 5) throws
        -> ControlResponse?
    {
        guard let fd = try UnixSocket.connect(socketPath, timeout: timeout) else { return nil }
        defer { close(fd) }
        // A daemon that turns the connection away (it is busy) answers before reading, and
        // closes: its answer is still there to read after the write failed.
        let sent = UnixSocket.writeAll(fd, try ControlCoding.encode(request))
        errno = 0
        guard let line = UnixSocket.readLine(fd, limit: maxResponseBytes) else {
            guard sent else { throw ControlError(message: "the daemon closed the control connection") }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                throw ControlError(message: "the daemon did not answer within \(timeout) s")
            }
            throw ControlError(message: "the daemon closed the connection without answering; it may have stopped")
        }
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
