import Foundation
import HoorayKit

/// Small helpers over POSIX Unix-domain stream sockets, for the control channel.
enum UnixSocket {
    /// Fills a `sockaddr_un` for `path`, or returns nil when the path is too long.
    static func address(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    static func setTimeouts(_ fd: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads one newline-terminated line (at most `limit` bytes).
    static func readLine(_ fd: Int32, limit: Int = 1 << 20) -> Data? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while data.count < limit {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return data.isEmpty ? nil : data }
            if let newline = buffer[0..<count].firstIndex(of: UInt8(ascii: "\n")) {
                data.append(contentsOf: buffer[0..<newline])
                return data
            }
            data.append(contentsOf: buffer[0..<count])
        }
        return nil
    }

    static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }
}

/// The daemon's end of the control channel: a `0600` Unix socket in the runtime directory.
///
/// Each connection carries one request line and one response line. Only the user can connect
/// (the socket's mode and the runtime directory's 0700), so the channel needs no authentication.
public final class ControlServer: @unchecked Sendable {
    // @unchecked: `fd` and `path` are immutable after init; the accept thread is the only user of `fd`
    // until `shutdown()`, which only calls `shutdown(2)` (thread-safe) to wake it.
    let fd: Int32
    let path: String

    /// Binds the socket, replacing a stale one left by a crashed daemon.
    ///
    /// Call only while holding the ``InstanceLock``: that is what makes the old socket stale.
    public init(path: String) throws {
        guard var address = UnixSocket.address(path) else {
            throw ControlError(message: "the control socket path \(path) is too long; set a shorter XDG_RUNTIME_DIR")
        }
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw ControlError(message: "cannot create the control socket: \(String(cString: strerror(errno)))")
        }
        let previousMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(previousMask)
        guard bound == 0, listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ControlError(message: "cannot listen on \(path): \(reason)")
        }
        chmod(path, 0o600)
        self.fd = fd
        self.path = path
    }

    /// Serves requests on a dedicated thread until ``shutdown()``.
    ///
    /// - Parameter handler: Answers one request. Called from a task, one connection at a time per task.
    public func start(handler: @escaping @Sendable (ControlRequest) async -> ControlResponse) {
        let thread = Thread { [fd] in
            nameThisThread("hooray-control")
            while true {
                let client = accept(fd, nil, nil)
                if client >= 0 { _ = fcntl(client, F_SETFD, FD_CLOEXEC) }
                if client < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    return
                }
                Task {
                    UnixSocket.setTimeouts(client, seconds: 5)
                    defer { close(client) }
                    let response: ControlResponse
                    if let line = UnixSocket.readLine(client),
                        let request = try? ControlCoding.decode(ControlRequest.self, from: line)
                    {
                        response = await handler(request)
                    } else {
                        response = ControlResponse(ok: false, message: "unreadable request")
                    }
                    if let data = try? ControlCoding.encode(response) {
                        _ = UnixSocket.writeAll(client, data)
                    }
                }
            }
        }
        thread.name = "hooray-control"
        thread.start()
    }

    /// Stops accepting and removes the socket file.
    public func shutdown() {
        unlink(path)
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }
}

/// The CLI's end of the control channel.
public enum ControlClient {
    /// Sends one request to the daemon and returns its answer.
    ///
    /// - Returns: `nil` when no daemon is listening (the socket is missing or refuses connections).
    /// - Throws: ``ControlError`` when a daemon is there but the exchange fails.
    public static func send(_ request: ControlRequest, socketPath: String, timeout: Int = 5) throws
        -> ControlResponse?
    {
        guard var address = UnixSocket.address(socketPath) else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        UnixSocket.setTimeouts(fd, seconds: timeout)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { return nil }
        guard UnixSocket.writeAll(fd, try ControlCoding.encode(request)) else {
            throw ControlError(message: "the daemon closed the control connection")
        }
        errno = 0
        guard let line = UnixSocket.readLine(fd) else {
            if errno == EAGAIN || errno == EWOULDBLOCK {
                throw ControlError(message: "the daemon did not answer within \(timeout) s")
            }
            throw ControlError(message: "the daemon closed the connection without answering; it may have stopped")
        }
        do {
            return try ControlCoding.decode(ControlResponse.self, from: line)
        } catch {
            throw ControlError(message: "the daemon's answer could not be read: \(error)")
        }
    }
}

/// A failure on the control channel.
public struct ControlError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    public var description: String { message }
}
