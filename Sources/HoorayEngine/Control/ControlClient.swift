import CLinux
import Foundation
import HoorayStorage
import HoorayThreads

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
    static func decodeAnswer(_ line: Data) throws -> ControlResponse {
        // A hoorayd of another version (running on after an upgrade) speaks another protocol: it
        // refused the request without running it, so say which and how to put it right.
        let version = (try? ControlCoding.decode(VersionProbe.self, from: line))?.apiVersion
        guard version == controlAPIVersion else {
            throw ControlError(
                message:
                    "the running hoorayd speaks control protocol \(version.map(String.init) ?? "0") and this hooray speaks \(controlAPIVersion) (hoorayd is probably from before an upgrade), so nothing was done; restart it with `systemctl --user restart hooray` and try again",
                requestWasRefused: true)
        }
        do {
            return try ControlCoding.decode(ControlResponse.self, from: line)
        } catch {
            throw ControlError(message: "the daemon's answer could not be read: \(error)")
        }
    }
}

/// One request to the daemon whose answer is awaited in steps, so that a client can do something
/// else when the daemon is slow to answer — such as claim the request and run it itself — and then
/// go on waiting.
public final class ControlConnection {
    let fd: Int32
    private var buffer = Data()
    /// How much of `buffer` has been searched for the newline: a long answer arrives in many
    /// chunks, and searching it all again after each would take time growing with its square.
    private var searched = 0

    /// Connects to the daemon's socket.
    ///
    /// - Returns: `nil` when no daemon is listening (the socket is missing or refuses connections).
    /// - Throws: ``ControlError`` (refused: nothing was sent) when another user's process listens there.
    public init?(socketPath: String) throws(ControlError) {
        guard let fd = try UnixSocket.connect(socketPath, timeout: 5) else { return nil }
        self.fd = fd
    }

    /// Takes over a connection another process opened and sent a request on, such as the `hooray`
    /// front door's (``FrontDoorHandover``); it is closed on `exec` from now on.
    public init(adopting fd: Int32) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        UnixSocket.setTimeouts(fd, seconds: 5)
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends the request line.
    ///
    /// - Returns: Whether all of it was written; a daemon that turns the connection away (it is
    ///   busy) answers before reading and closes, and that answer is still there to read.
    @discardableResult
    public func send(_ request: ControlRequest) throws -> Bool {
        UnixSocket.writeAll(fd, try ControlCoding.encode(request))
    }

    /// Whether the daemon at the other end is stopped (SIGSTOP, or held by a debugger): such a daemon
    /// answers nothing until it is continued, however long one waits. `false` when it runs, however
    /// busy, and when that cannot be told.
    public var peerIsStopped: Bool {
        guard let peer = UnixSocket.peer(fd), peer.pid > 0,
            let stat = try? String(contentsOfFile: "/proc/\(peer.pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return false }
        // After "pid (comm) " comes the state: T is stopped by a signal, t by a debugger.
        let state = stat[stat.index(after: end)...].drop { $0 == " " }.first
        return state == "T" || state == "t"
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
        var deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let newline = buffer[(buffer.startIndex + searched)...].firstIndex(of: UInt8(ascii: "\n")) {
                return .answered(try ControlClient.decodeAnswer(buffer[buffer.startIndex..<newline]))
            }
            searched = buffer.count
            guard buffer.count <= maxResponseBytes else {
                throw ControlError(message: "the daemon's answer is longer than \(maxResponseBytes) bytes")
            }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .notYet }
            let (whole, fraction) = left.components
            let milliseconds = Int32(clamping: whole * 1000 + fraction / 1_000_000_000_000_000 + 1)
            var wanted = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&wanted, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else {
                if ready == 0 { return .notYet }
                return .closed
            }
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else {
                // An answer without its newline still counts when the daemon closed after it.
                guard !buffer.isEmpty else { return .closed }
                let line = buffer
                buffer = Data()
                searched = 0
                return .answered(try ControlClient.decodeAnswer(line))
            }
            buffer.append(contentsOf: chunk[0..<count])
            // The daemon is answering: a long answer that keeps coming is read to its end, and only
            // 5 s of silence in the middle of it counts as not answering.
            deadline = max(deadline, ContinuousClock.now.advanced(by: .seconds(5)))
        }
    }
}

/// The longest answer `hooray` reads from the daemon: a command's reply may be large (a list of
/// ten thousand habits), unlike a request, and the daemon is trusted.
let maxResponseBytes = 256 << 20

/// A failure on the control channel.
public struct ControlError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// Whether the daemon certainly did not act on the request (it speaks another protocol).
    public var requestWasRefused = false
    public var description: String { message }

    /// Another user's process listens on the control socket: nothing was sent to it.
    static func foreignServer(path: String, uid: uid_t?) -> ControlError {
        let who = uid.map { "a process of another user (uid \($0))" } ?? "a process whose user cannot be told"
        return ControlError(
            message:
                "the control socket \(path) is served by \(who), not by your hoorayd (you are uid \(geteuid())), "
                + "so nothing was sent to it. Someone may have put their own socket in your runtime folder: stop "
                + "using it, remove \(ShellCommand.quoted(path)) and start hoorayd again "
                + "(`systemctl --user restart hooray`); check that XDG_RUNTIME_DIR is your own private folder",
            requestWasRefused: true)
    }
}

/// The one member every answer of every protocol version has had since versions were numbered.
struct VersionProbe: Decodable {
    var apiVersion: Int?

    enum CodingKeys: String, CodingKey {
        case apiVersion = "api_version"
    }
}
