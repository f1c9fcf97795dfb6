import CLinux
import Foundation
import HoorayClient
import HoorayEngine
import HoorayThreads

/// The daemon's end of the control channel: a `0600` Unix socket in the runtime directory.
///
/// Each connection carries one request line and one response line — except a followed request
/// (`bar` with `follow`), answered with a line per change until either side leaves. Only the user can connect
/// (the socket's mode and the runtime directory's 0700), so the channel needs no authentication.
///
/// Every connection is read on a thread of its own, never on the cooperative thread pool: a
/// client that connects and sends nothing must not stall the engine or keep `hooray status`
/// waiting. A request must arrive whole within ``requestTimeout`` and be at most
/// ``maxRequestBytes``; past ``maxConnections`` open connections a new one is told the daemon is
/// busy and closed. A followed request leaves those slots to requests once it is read, for slots
/// of its own: past ``maxFollowers`` a new follower is told so and closed.
public final class ControlServer: @unchecked Sendable {
    // @unchecked: `fd` and `path` are immutable after init; the accept thread is the only user of `fd`
    // until `shutdown()`, which only calls `shutdown(2)` (thread-safe) to wake it.
    let fd: Int32
    let path: String

    /// The longest request line, in bytes. The largest real request (a win with its text, note and
    /// twenty photo paths) is far below it.
    public static let maxRequestBytes = 1 << 20
    /// How long a client has to send its whole request line.
    public static let requestTimeout: Duration = .seconds(5)
    /// How many connections are served at once, not counting followers.
    public static let maxConnections = 64
    /// How many followed requests (status bars) are served at once, besides ``maxConnections``.
    public static let maxFollowers = 16

    /// Opens the answers to a followed request; called only once the follower has a slot.
    public typealias Feed = @Sendable () -> AsyncStream<ControlResponse>

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
        guard bound == 0, listen(fd, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ControlError(message: "cannot listen on \(path): \(reason)")
        }
        chmod(path, 0o600)
        self.fd = fd
        self.path = path
    }

    /// Serves requests until ``shutdown()``: accepts on a dedicated thread, and reads and answers
    /// each connection on a thread of its own.
    ///
    /// - Parameters:
    ///   - follow: For a request that is followed rather than answered once (`bar` with `follow`):
    ///     what opens its answers, written one line each until the stream ends or the client goes
    ///     away; `nil` for every other request, which `handler` answers.
    ///   - answered: Runs on the connection's thread once it is closed: after the client has its
    ///     answer, off its path.
    ///   - refused: Runs on the accepting thread for a connection from a process of another user
    ///     (`SO_PEERCRED`; its pid and uid, `nil` when they cannot be told), which was told so and
    ///     closed unread.
    ///   - turnedAway: Runs on the accepting thread for a connection told the daemon is busy
    ///     (``maxConnections`` are open) and closed unread.
    ///   - handler: Answers one well-formed request.
    public func start(
        follow: @escaping @Sendable (ControlRequest) -> Feed? = { _ in nil },
        answered: @escaping @Sendable () -> Void = {},
        refused: @escaping @Sendable (_ pid: pid_t?, _ uid: uid_t?) -> Void = { _, _ in },
        turnedAway: @escaping @Sendable () -> Void = {},
        handler: @escaping @Sendable (ControlRequest) async -> ControlResponse
    ) {
        let slots = ConnectionSlots()
        let thread = Thread { [fd] in
            nameThisThread("hooray-control")
            while true {
                let client = accept(fd, nil, nil)
                if client >= 0 { _ = fcntl(client, F_SETFD, FD_CLOEXEC) }
                if client < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    // Out of descriptors: the clients holding them go within their timeout.
                    if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                        usleep(50_000)
                        continue
                    }
                    return
                }
                UnixSocket.setTimeouts(client, seconds: 5)
                // The socket's mode keeps other users out; should it be opened to them (by mistake, or
                // by someone who may), a request of theirs is still never read.
                let peer = UnixSocket.peer(client)
                guard let peer, peer.uid == geteuid() else {
                    Self.answer(client, Self.refusal(of: peer?.uid))
                    close(client)
                    refused(peer?.pid, peer?.uid)
                    continue
                }
                guard slots.enter() else {
                    Self.answer(
                        client,
                        ControlResponse(
                            ok: false,
                            message:
                                "hoorayd is busy with \(Self.maxConnections) other connections, so nothing was done; try again in a moment",
                            busy: true))
                    close(client)
                    turnedAway()
                    continue
                }
                let worker = Thread {
                    nameThisThread("hooray-client")
                    let followed = Self.serve(client, slots: slots, follow: follow, handler: handler)
                    // The slot is free before the client sees the end of the stream.
                    slots.leave(follower: followed)
                    close(client)
                    answered()
                }
                worker.start()
            }
        }
        thread.name = "hooray-control"
        thread.start()
    }

    /// Reads one request from `client`, answers it, and leaves closing to the caller.
    ///
    /// - Returns: Whether the connection moved to a follower's slot (``ConnectionSlots/follow()``).
    @discardableResult
    static func serve(
        _ client: Int32, slots: ConnectionSlots = ConnectionSlots(),
        follow: @Sendable (ControlRequest) -> Feed? = { _ in nil },
        handler: @escaping @Sendable (ControlRequest) async -> ControlResponse
    ) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: requestTimeout)
        let response: ControlResponse
        switch UnixSocket.readLine(client, limit: maxRequestBytes, deadline: deadline) {
        case .nothing:
            return false
        case .timedOut:
            response = ControlResponse(
                ok: false, message: "no whole request line within \(requestTimeout); send one line of JSON")
        case .tooLong:
            response = ControlResponse(
                ok: false, message: "the request is longer than \(maxRequestBytes) bytes; send one line of JSON")
        case .line(let line):
            do {
                let request = try ControlCoding.decode(ControlRequest.self, from: line)
                if let feed = follow(request) {
                    guard slots.follow() else {
                        answer(
                            client,
                            ControlResponse(
                                ok: false,
                                message:
                                    "too many bars follow hoorayd (\(maxFollowers) already), so this one waits; close a bar you no longer use",
                                busy: true))
                        return false
                    }
                    stream(feed, to: client)
                    return true
                }
                let answer = ResponseBox()
                Task { answer.set(await handler(request)) }
                response = answer.wait()
            } catch {
                response = ControlResponse(ok: false, message: "unreadable request: \(ControlCoding.reason(error))")
            }
        }
        answer(client, response)
        return false
    }

    /// Opens `feed` and writes each of its answers as a line, skipping one identical to the line
    /// before, until the stream ends, a write fails (the client stopped reading for
    /// ``requestTimeout`` or went away: `EPIPE`, never `SIGPIPE`) or the client closes the connection.
    ///
    /// The thread waits in `poll` on the client and on an `eventfd` the answers' task rings, so a
    /// client that goes away is noticed at once, not at the next change. Before the `eventfd` is
    /// closed, the task is cancelled and waited for: it must never ring a closed descriptor, whose
    /// number may already belong to another connection.
    static func stream(_ feed: Feed, to client: Int32) {
        let wake = eventfd(0, Int32(EFD_CLOEXEC))
        guard wake >= 0 else {
            // The feed is not opened: nothing stays subscribed.
            answer(
                client,
                ControlResponse(ok: false, message: "hoorayd cannot follow now (no eventfd); try again", busy: true))
            return
        }
        let answers = feed()
        let latest = LatestLine()
        let ended = DispatchSemaphore(value: 0)
        let task = Task {
            for await response in answers {
                if let line = try? ControlCoding.encode(response) { latest.put(line) }
                eventfd_write(wake, 1)
            }
            latest.finish()
            eventfd_write(wake, 1)
            ended.signal()
        }
        writeLines(latest, wake: wake, to: client)
        // Cancelling ends the iteration, and with it the follower's subscription.
        task.cancel()
        ended.wait()
        close(wake)
    }

    /// Writes the lines `latest` holds each time `wake` rings, until the stream is finished, a
    /// write fails or the client closes the connection.
    private static func writeLines(_ latest: LatestLine, wake: Int32, to client: Int32) {
        var written: Data?
        var readsClient = true
        while true {
            var watched = [
                pollfd(fd: client, events: readsClient ? Int16(POLLIN) : 0, revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&watched, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return }
            // Closed entirely (or failed): the reader is gone.
            if watched[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return }
            if watched[0].revents & Int16(POLLIN) != 0 {
                var ignored = [UInt8](repeating: 0, count: 512)
                let count = recv(client, &ignored, ignored.count, Int32(MSG_DONTWAIT))
                // A client that only closed its writing side may still read; what it sends is ignored.
                if count == 0 { readsClient = false }
                if count < 0 && errno != EAGAIN && errno != EINTR { return }
            }
            if watched[1].revents & Int16(POLLIN) != 0 {
                var count: eventfd_t = 0
                eventfd_read(wake, &count)
                let (line, finished) = latest.take()
                if let line, line != written {
                    guard UnixSocket.writeAll(client, line) else { return }
                    written = line
                }
                if finished { return }
            }
        }
    }

    /// What a process of another user is told before its connection is closed unread.
    static func refusal(of uid: uid_t?) -> ControlResponse {
        let who = uid.map { "uid \($0)" } ?? "a user that cannot be told"
        return ControlResponse(
            ok: false,
            message:
                "this hoorayd belongs to uid \(geteuid()) and answers only its own user, not \(who), so nothing was "
                + "done; start your own hoorayd, with XDG_RUNTIME_DIR set to your own private runtime folder")
    }

    private static func answer(_ client: Int32, _ response: ControlResponse) {
        if let data = try? ControlCoding.encode(response) {
            _ = UnixSocket.writeAll(client, data)
        }
    }

    /// Stops accepting and removes the socket file.
    public func shutdown() {
        unlink(path)
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }
}

/// The connections being served, so that a crowd of idle clients is refused, not queued: requests
/// and followers counted apart, so that status bars never take the slots commands need.
final class ConnectionSlots: @unchecked Sendable {
    // @unchecked: the counts are only touched under `lock`.
    private let lock = NSLock()
    private var connections = 0
    private var followers = 0

    /// Counts one more connection, or returns `false` when ``ControlServer/maxConnections`` are open already.
    func enter() -> Bool {
        lock.withLock {
            guard connections < ControlServer.maxConnections else { return false }
            connections += 1
            return true
        }
    }

    /// Moves a connection that turned out to follow to a follower's slot, or returns `false` (and
    /// leaves it where it is) when ``ControlServer/maxFollowers`` follow already.
    func follow() -> Bool {
        lock.withLock {
            guard followers < ControlServer.maxFollowers else { return false }
            followers += 1
            connections -= 1
            return true
        }
    }

    /// Frees the connection's slot: a follower's, or a request's.
    func leave(follower: Bool) {
        lock.withLock {
            if follower { followers -= 1 } else { connections -= 1 }
        }
    }
}

/// The newest line a follower's task computed, for its connection's thread to write.
private final class LatestLine: @unchecked Sendable {
    // @unchecked: the fields are only touched under `lock`.
    private let lock = NSLock()
    private var line: Data?
    private var finished = false

    func put(_ new: Data) { lock.withLock { line = new } }

    func finish() { lock.withLock { finished = true } }

    /// The newest line not taken yet, and whether no more will come.
    func take() -> (Data?, Bool) {
        lock.withLock {
            defer { line = nil }
            return (line, finished)
        }
    }
}

/// Hands a response from the task that computed it to the connection's thread waiting for it.
private final class ResponseBox: @unchecked Sendable {
    // @unchecked: `value` is written once under `condition` and read under it.
    private let condition = NSCondition()
    private var value: ControlResponse?

    func set(_ response: ControlResponse) {
        condition.withLock {
            value = response
            condition.signal()
        }
    }

    /// Blocks this (non-pool) thread until the response is there.
    func wait() -> ControlResponse {
        condition.withLock {
            while value == nil { condition.wait() }
            return value!
        }
    }
}
