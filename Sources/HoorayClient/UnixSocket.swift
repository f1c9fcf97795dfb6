import FoundationEssentials
import Glibc

/// Small helpers over POSIX Unix-domain stream sockets, for the control channel.
package enum UnixSocket {
    /// Fills a `sockaddr_un` for `path`, or returns nil when the path is too long.
    package static func address(_ path: String) -> sockaddr_un? {
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

    /// The process at the other end of a connected socket, as the kernel saw it connect
    /// (`SO_PEERCRED`); `nil` when it cannot be told.
    package static func peer(_ fd: Int32) -> (pid: pid_t, uid: uid_t)? {
        // struct ucred (pid, uid, gid), which Glibc shows to Swift only with _GNU_SOURCE.
        var credentials: (pid: pid_t, uid: uid_t, gid: gid_t) = (0, 0, 0)
        var size = socklen_t(MemoryLayout<(pid_t, uid_t, gid_t)>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0 else { return nil }
        return (credentials.pid, credentials.uid)
    }

    /// Connects to the daemon's socket at `path`, and makes sure the process listening there runs
    /// as this user: a socket someone else put in its place (in a runtime folder that was not
    /// private for a moment, or one left open to all) must not get a request, which may be private.
    ///
    /// - Returns: The connected descriptor; `nil` when nothing listens there.
    /// - Throws: ``ControlError`` (refused: nothing was sent) when another user's process listens
    ///   there, or when the daemon's queue of connections stays full for `timeout` seconds.
    package static func connect(_ path: String, timeout: Int) throws(ControlError) -> Int32? {
        guard var address = address(path) else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        setTimeouts(fd, seconds: timeout)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let failure = errno
            close(fd)
            // A daemon whose queue of connections is full (it is stopped, or swamped) is there:
            // never taken for one that is not running.
            if failure == EAGAIN || failure == EWOULDBLOCK {
                throw ControlError(
                    message:
                        "hoorayd is not taking connections (its queue is full: it is stopped or very busy), so nothing was done; try again in a moment",
                    requestWasRefused: true, isBusy: true)
            }
            return nil
        }
        let peer = peer(fd)
        guard let peer, peer.uid == geteuid() else {
            close(fd)
            throw ControlError.foreignServer(path: path, uid: peer?.uid)
        }
        return fd
    }

    package static func setTimeouts(_ fd: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads one newline-terminated line (at most `limit` bytes).
    package static func readLine(_ fd: Int32, limit: Int = 1 << 20) -> Data? {
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

    /// What came in on a connection before the first newline.
    package enum Received: Equatable {
        /// A line, without its newline; also the text before an end of stream (a half-closed request).
        case line(Data)
        /// The peer closed without sending anything.
        case nothing
        /// More than the limit arrived without a newline.
        case tooLong
        /// The deadline passed before a whole line arrived.
        case timedOut
    }

    /// Reads one newline-terminated line of at most `limit` bytes, all of it before `deadline`.
    ///
    /// Unlike a receive timeout, which restarts with every byte, the deadline bounds the whole
    /// read, so a client trickling a byte at a time cannot hold the connection open for long.
    package static func readLine(_ fd: Int32, limit: Int, deadline: ContinuousClock.Instant) -> Received {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .timedOut }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var wanted = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&wanted, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return ready == 0 ? .timedOut : .nothing }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            // A failed read (a reset connection) leaves only part of a request: nothing to answer.
            guard count >= 0 else { return .nothing }
            // A clean end of stream after some text is a request without its newline.
            guard count > 0 else { return data.isEmpty ? .nothing : .line(data) }
            if let newline = buffer[0..<count].firstIndex(of: UInt8(ascii: "\n")) {
                guard data.count + newline <= limit else { return .tooLong }
                data.append(contentsOf: buffer[0..<newline])
                return .line(data)
            }
            data.append(contentsOf: buffer[0..<count])
            guard data.count <= limit else { return .tooLong }
        }
    }

    /// Writes all of `data`, or returns `false` when the peer is gone or stops reading.
    ///
    /// `MSG_NOSIGNAL`: a peer that hung up must cost this write an `EPIPE`, not the process a
    /// `SIGPIPE`, whose default action ends it.
    package static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }
}
