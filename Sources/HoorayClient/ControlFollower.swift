import CLinux
import FoundationEssentials
import Glibc

/// The client's end of a followed request (`bar` with `follow`): one answer line after another
/// until the daemon goes away, and a way to wait, without polling, for a daemon to appear.
public enum ControlFollower {
    /// What ended a follow.
    public enum End: Sendable, Equatable {
        /// No daemon listens on the socket: nothing was received.
        case notRunning
        /// The daemon closed the connection (it stopped) after this many answers.
        case closed(answers: Int)
    }

    /// Sends the request `line` (with its newline) and calls `answer` with each answer line
    /// (without its newline) until the daemon closes the connection, or `answer` returns `false`.
    ///
    /// - Throws: ``ControlError`` for an answer too long, or a server of another user; what
    ///   `answer` throws.
    public static func follow(line request: Data, socketPath: String, answer: (Data) throws -> Bool) throws -> End {
        guard let connection = try ControlConnection(socketPath: socketPath) else { return .notRunning }
        // Answers come when something changes, however long that takes; writing still times out.
        var never = timeval(tv_sec: 0, tv_usec: 0)
        setsockopt(connection.fd, SOL_SOCKET, SO_RCVTIMEO, &never, socklen_t(MemoryLayout<timeval>.size))
        // A daemon that turns the connection away (it is busy) answers before reading and closes:
        // the write may fail, and the answer is still there to read.
        _ = connection.send(line: request)
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var count = 0
        while true {
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[buffer.index(after: newline)...])
                count += 1
                guard try answer(Data(line)) else { return .closed(answers: count) }
            }
            guard buffer.count <= maxResponseBytes else {
                throw ControlError(message: "the daemon's answer is longer than \(maxResponseBytes) bytes")
            }
            let received = recv(connection.fd, &chunk, chunk.count, 0)
            if received < 0 && errno == EINTR { continue }
            guard received > 0 else {
                // An answer without its newline still counts when the daemon closed after it.
                if !buffer.isEmpty {
                    count += 1
                    _ = try answer(buffer)
                    buffer = Data()
                }
                return count == 0 ? .notRunning : .closed(answers: count)
            }
            buffer.append(contentsOf: chunk[0..<received])
        }
    }

    /// Blocks until something may listen on `socketPath`: the socket file or its folder was
    /// created, replaced or had its mode set (the daemon sets it once it listens). Uses inotify on
    /// the nearest existing folder, so nothing wakes while no daemon starts.
    ///
    /// Returns at once when a connection to the socket succeeds already, unless `replaced`. Returns
    /// `false` when the folders cannot be watched (then the caller may give up, or wait some other way).
    ///
    /// - Parameters:
    ///   - socketPath: The daemon's socket.
    ///   - replaced: Wait even while a daemon listens, for another to take its place (one that was
    ///     restarted makes its socket anew).
    public static func waitForSocket(_ socketPath: String, replaced: Bool = false) -> Bool {
        if !replaced && isListening(socketPath) { return true }
        let folder = HoorayPaths.folder(of: socketPath)
        let parent = HoorayPaths.folder(of: folder)
        let inotify = inotify_init1(Int32(IN_CLOEXEC))
        guard inotify >= 0 else { return false }
        defer { close(inotify) }
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        // The socket's folder, or, while there is none yet, the folder it will be made in.
        var watched = inotify_add_watch(inotify, folder, mask)
        if watched < 0 {
            watched = inotify_add_watch(inotify, parent, mask)
            guard watched >= 0 else { return false }
        }
        // What happened between the first look and the watch.
        if !replaced && isListening(socketPath) { return true }
        var events = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(inotify, &events, events.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            // Something changed where the socket is or will be: the caller looks again.
            return true
        }
    }

    /// Whether a daemon accepts connections on `socketPath` now; also a process of another user,
    /// which a follower then refuses, saying so.
    public static func isListening(_ socketPath: String) -> Bool {
        do {
            return try ControlConnection(socketPath: socketPath) != nil
        } catch {
            return true
        }
    }
}
