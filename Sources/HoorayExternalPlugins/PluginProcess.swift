import Foundation
import HoorayKit
import HoorayText
import HoorayThreads

#if canImport(Glibc)
    import Glibc
#endif

/// What a plugin's process did, in the order it did it.
enum PluginProcessEvent: Sendable {
    /// A frame's body arrived on standard output.
    case frame(Data)
    /// Standard output broke the framing; the process is being killed.
    case violation(String)
    /// A line on standard error.
    case logLine(String)
    /// A line on standard error left out of the log (too many lines) that says a process could not
    /// be started: passed on at most once a second, for the process limit's check.
    case forkRefused(String)
    /// The process ended: its exit status, or the signal that ended it.
    case exited(status: Int32, signalled: Bool)
}

/// One run of a plugin's program: started with a clean environment in its folder, with its standard
/// output cut into frames on a thread of its own and its standard input written on another, so that
/// nothing the plugin does or leaves undone blocks the host.
package final class PluginProcess: @unchecked Sendable {
    // @unchecked: `queued`, `inputClosed` and `foundInit` are guarded by `lock`; the rest is set once in `init`.
    /// The running program, once started.
    private(set) var child: SpawnedChild!
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    let events: AsyncStream<PluginProcessEvent>
    let continuation: AsyncStream<PluginProcessEvent>.Continuation
    /// Writes to the plugin's standard input: a thread of its own, not a `DispatchQueue` (whose
    /// worker pool would wake hoorayd once a second from then on).
    let writer: SerialThread
    private let lock = NSLock()
    private var queued = 0
    private var inputClosed = false

    /// The most bytes waiting for the plugin to read before it is stopped.
    static let maximumQueued = 8 << 20
    /// The most frames read but not yet handled before the plugin is stopped: it sends faster than
    /// anything could be done with its messages.
    static let maximumBacklog = 2000
    /// Frames read and not yet handled (``handled()`` counts them down).
    let backlog = Backlog()

    /// Whether the program runs inside bubblewrap: its exit status is then bubblewrap's, which says
    /// a signal that ended the program as 128 + the signal's number.
    let sandboxed: Bool

    /// Starts the program.
    ///
    /// - Parameter launch: What to run: the plugin's program, or `hooray-sandbox` around it.
    /// - Throws: When the program cannot be started at all.
    init(launch: PluginLaunch) throws {
        (events, continuation) = AsyncStream.makeStream(of: PluginProcessEvent.self, bufferingPolicy: .unbounded)
        writer = SerialThread(name: "hooray-plugin-w")
        sandboxed = launch.sandboxed
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        // The pipes are this plugin's alone: another program the host starts meanwhile must not
        // inherit them, or the plugin would never see its standard input close. (The plugin gets
        // its ends as 0, 1 and 2, which do not keep the flag.)
        for pipe in [input, output, errors] {
            for handle in [pipe.fileHandleForReading, pipe.fileHandleForWriting] {
                _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
            }
        }
        let continuation = continuation
        // What the plugin wrote before it exited — an answer, the traceback of a crash — comes
        // before its exit: the exit waits briefly for both readers to reach the end of their pipes.
        let readers = DispatchGroup()
        readers.enter()
        readers.enter()
        let sandboxed = sandboxed
        let ended: @Sendable (SpawnedChild) -> Void = { child in
            _ = readers.wait(timeout: .now() + 0.5)
            guard let (status, signalled) = Self.ending(of: child, sandboxed: sandboxed) else { return }
            continuation.yield(.exited(status: status, signalled: signalled))
            continuation.finish()
        }
        child = try SpawnedChild.spawn(
            launch.executable, arguments: launch.arguments, environment: launch.environment, folder: launch.folder,
            standardInput: input.fileHandleForReading.fileDescriptor,
            standardOutput: output.fileHandleForWriting.fileDescriptor,
            standardError: errors.fileHandleForWriting.fileDescriptor, ended: ended)
        // The plugin's ends of the pipes are its own now.
        try? input.fileHandleForReading.close()
        try? output.fileHandleForWriting.close()
        try? errors.fileHandleForWriting.close()
        // Each reader owns its handle until it is done: the descriptor is never closed under it and
        // handed to another file while it still reads.
        let outputHandle = output.fileHandleForReading
        let errorHandle = errors.fileHandleForReading
        let pid = child.pid
        let backlog = backlog
        Thread.detachNewThread { [continuation] in
            withExtendedLifetime(outputHandle) {
                Self.readFrames(from: outputHandle.fileDescriptor, pid: pid, backlog: backlog, into: continuation)
            }
            readers.leave()
        }
        Thread.detachNewThread { [continuation] in
            withExtendedLifetime(errorHandle) {
                Self.readLines(from: errorHandle.fileDescriptor, into: continuation)
            }
            readers.leave()
        }
    }

    /// How the program ended: its exit status, or the signal that ended it; `nil` while it runs.
    package var ending: (status: Int32, signalled: Bool)? { Self.ending(of: child, sandboxed: sandboxed) }

    /// How a program ended; in the sandbox, bubblewrap says a signal as 128 + its number.
    static func ending(of child: SpawnedChild, sandboxed: Bool) -> (status: Int32, signalled: Bool)? {
        guard let (status, signalled) = child.exit else { return nil }
        if sandboxed, !signalled, (129...192).contains(status) { return (status - 128, true) }
        return (status, signalled)
    }

    /// The process id.
    var pid: Int32 { child.pid }

    /// Why the program could not be started, for a person: a script whose `#!` line names an
    /// interpreter that is not there is said so, since the system only says that a file is missing.
    static func whyNotStarted(_ error: any Error, program: String) -> String {
        missingInterpreter(program: program, sandboxed: false) ?? error.localizedDescription
    }

    /// What is wrong with the `#!` line of a script that could not be run: an interpreter that is not
    /// there, or, in the sandbox, one outside what the sandbox shows (`/usr` and the plugin's folder).
    static func missingInterpreter(program: String, sandboxed: Bool) -> String? {
        guard let handle = FileHandle(forReadingAtPath: program) else { return nil }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 256)) ?? Data(), as: UTF8.self)
        guard head.hasPrefix("#!"), let line = head.dropFirst(2).split(separator: "\n").first else { return nil }
        let interpreter = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
        if !FileManager.default.isExecutableFile(atPath: interpreter) {
            return
                "its first line asks for \(TerminalText.safe(interpreter)), which is not there; fix its #! line (such as #!/usr/bin/env python3)"
        }
        let folder = (program as NSString).deletingLastPathComponent
        let shown = ["/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", folder + "/"]
        if sandboxed, !shown.contains(where: interpreter.hasPrefix) {
            return "its first line asks for \(TerminalText.safe(interpreter)), which its sandbox does not show "
                + "(only /usr, /etc and its own folder are there); use an interpreter under /usr, such as #!/usr/bin/env python3"
        }
        return nil
    }

    /// Queues bytes for the plugin's standard input.
    ///
    /// - Returns: `false` when more than ``maximumQueued`` bytes wait unread: the plugin is not reading.
    func send(_ data: Data) -> Bool {
        let accepted = lock.withLock { () -> Bool in
            guard !inputClosed else { return true }
            guard queued + data.count <= Self.maximumQueued else { return false }
            queued += data.count
            return true
        }
        guard accepted else { return false }
        let fd = input.fileHandleForWriting.fileDescriptor
        writer.async { [weak self] in
            guard let self, self.lock.withLock({ !self.inputClosed }) else { return }
            data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    offset += written
                }
            }
            self.lock.withLock { self.queued -= data.count }
        }
        return true
    }

    /// Closes the plugin's standard input once what is queued has been written.
    package func closeInput() {
        writer.async { [weak self] in
            guard let self else { return }
            let close = self.lock.withLock { () -> Bool in
                defer { self.inputClosed = true }
                return !self.inputClosed
            }
            if close { try? self.input.fileHandleForWriting.close() }
        }
    }

    /// Sends a signal to the process, if it still runs.
    package func signal(_ number: Int32) {
        guard child.isRunning else { return }
        Self.signal(child.pid, number)
    }

    /// Signals the program and, when it leads a process group of its own, every process it
    /// started: a shell script's children do not outlive it holding its pipes.
    static func signal(_ pid: Int32, _ number: Int32) {
        if getpgid(pid) == pid { kill(-pid, number) }
        kill(pid, number)
    }

    /// bubblewrap's process inside the sandbox, whose `/proc/PID/root/proc` lists the plugin's
    /// processes: found once, the first time it is asked for.
    var sandboxInit: Int32? {
        lock.withLock {
            if foundInit == nil, sandboxed { foundInit = ProcessTree.firstChild(of: child.pid) }
            return foundInit
        }
    }
    private var foundInit: Int32?

    /// Counts a frame as handled.
    func handled() {
        backlog.add(-1)
    }

    static func readFrames(
        from fd: Int32, pid: Int32, backlog: Backlog, into continuation: AsyncStream<PluginProcessEvent>.Continuation
    ) {
        var decoder = FrameDecoder()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            decoder.append(buffer[0..<count])
            do {
                while let body = try decoder.next() {
                    guard backlog.add(1) <= maximumBacklog else {
                        continuation.yield(
                            .violation(
                                "sent more than \(maximumBacklog) messages faster than they could be handled"))
                        signal(pid, SIGKILL)
                        return
                    }
                    continuation.yield(.frame(body))
                }
            } catch {
                continuation.yield(.violation(error.description))
                signal(pid, SIGKILL)
                break
            }
        }
    }

    /// Reads standard error line by line, passing on at most 20 lines in 10 seconds, then one line
    /// that says how many were left out: a plugin that floods its log costs the host nothing more.
    static func readLines(from fd: Int32, into continuation: AsyncStream<PluginProcessEvent>.Continuation) {
        var window = (start: ContinuousClock.now, lines: 0, dropped: 0)
        var lastForkLine = ContinuousClock.now - .seconds(2)
        func pass(_ line: String) {
            let now = ContinuousClock.now
            if now - window.start > .seconds(10) {
                if window.dropped > 0 {
                    continuation.yield(.logLine("(\(window.dropped) more line(s) of its standard error were left out)"))
                }
                window = (now, 0, 0)
            }
            guard window.lines < 20 else {
                window.dropped += 1
                if saysForkFailed(line), now - lastForkLine > .seconds(1) {
                    lastForkLine = now
                    continuation.yield(.forkRefused(line))
                }
                return
            }
            window.lines += 1
            continuation.yield(.logLine(line))
        }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                pass(String(decoding: pending[..<newline].prefix(2000), as: UTF8.self))
                pending.removeSubrange(...newline)
            }
            if pending.count > 4000 {
                pass(String(decoding: pending.prefix(2000), as: UTF8.self) + "…")
                pending.removeAll()
            }
        }
        if !pending.isEmpty { pass(String(decoding: pending.prefix(2000), as: UTF8.self)) }
        if window.dropped > 0 {
            continuation.yield(.logLine("(\(window.dropped) more line(s) of its standard error were left out)"))
        }
    }
}

/// A count shared by a reader thread and the task that handles what it read.
final class Backlog: @unchecked Sendable {
    // @unchecked: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0

    /// Adds to the count and returns the new count.
    @discardableResult
    func add(_ delta: Int) -> Int {
        lock.withLock {
            count += delta
            return count
        }
    }
}

/// Whether a line of a plugin's standard error says that a process could not be started.
func saysForkFailed(_ line: String) -> Bool {
    let said = line.lowercased()
    return ["resource temporarily unavailable", "cannot fork", "can't fork", "fork: retry", "blockingioerror"]
        .contains(where: said.contains)
}
