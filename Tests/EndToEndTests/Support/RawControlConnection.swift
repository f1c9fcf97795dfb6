import Foundation

/// A connection to `hoorayd`'s control socket that sends whatever bytes a test likes, the way a
/// broken or hostile client would, with every read bounded by a deadline.
final class RawControlConnection {
    /// What the daemon did with a connection.
    enum Outcome: Equatable {
        /// It answered (the bytes up to the end of the stream) and closed the connection.
        case answered(Data)
        /// It closed the connection without a word, or reset it.
        case closed
        /// Nothing came and the connection stayed open until the deadline: the daemon hangs.
        case timedOut(Data)
    }

    let fd: Int32

    /// Connects to the socket at `path`.
    ///
    /// - Throws: `POSIXError` when the socket cannot be reached.
    init(path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes.prefix(raw.count - 1))
            raw[min(bytes.count, raw.count - 1)] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            close(fd)
            throw POSIXError(code)
        }
        // A daemon that stops reading must not block the test's writes for ever.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends `data`; returns `false` when the daemon closed its end first (which is allowed).
    @discardableResult
    func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    /// Says "no more from me" while still listening: a half-closed connection.
    func finishSending() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads what comes until `enough` holds for all received so far (the connection staying
    /// open, as a followed request's does), the daemon closes it, or `timeout` passes.
    ///
    /// - Returns: Everything received, and whether `enough` held.
    func receive(timeout: Duration, until enough: (String) -> Bool) -> (text: String, enough: Bool) {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let text = String(decoding: data, as: UTF8.self)
            if enough(text) { return (text, true) }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return (text, false) }
            let milliseconds = Int32(
                left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            var wanted = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&wanted, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return (text, false) }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// Reads until the daemon closes the connection or `timeout` passes.
    func receive(timeout: Duration) -> Outcome {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .timedOut(data) }
            let milliseconds = Int32(
                left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            var wanted = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&wanted, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return .timedOut(data) }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return data.isEmpty ? .closed : .answered(data) }  // reset by the daemon
            if count == 0 { return data.isEmpty ? .closed : .answered(data) }
            data.append(contentsOf: buffer[0..<count])
        }
    }
}

/// An answer of the daemon, as far as a test of the control channel cares.
struct ControlAnswer: Decodable {
    var ok: Bool
    var message: String?

    /// Reads the first line of `data`, or `nil` when it is not one JSON answer.
    init?(_ data: Data) {
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")),
            let answer = try? JSONDecoder().decode(Self.self, from: data[data.startIndex..<newline])
        else { return nil }
        self = answer
    }
}
