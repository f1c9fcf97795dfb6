import Foundation
import HoorayKit
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
    /// The process ended: its exit status, or the signal that ended it.
    case exited(status: Int32, signalled: Bool)
}

/// One run of a plugin's program: started with a clean environment in its folder, with its standard
/// output cut into frames on a thread of its own and its standard input written on another, so that
/// nothing the plugin does or leaves undone blocks the host.
final class PluginProcess: @unchecked Sendable {
    // @unchecked: `queued` and `stopped` are guarded by `lock`; the rest is set once in `init`.
    let process = Process()
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

    /// Starts the program.
    ///
    /// - Parameters:
    ///   - manifest: The plugin.
    ///   - environment: Its whole environment.
    /// - Throws: When the program cannot be started at all.
    init(manifest: PluginManifest, environment: [String: String]) throws {
        (events, continuation) = AsyncStream.makeStream(of: PluginProcessEvent.self, bufferingPolicy: .unbounded)
        writer = SerialThread(name: "hooray-plugin-w")
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        process.executableURL = URL(fileURLWithPath: manifest.exec[0])
        process.arguments = Array(manifest.exec.dropFirst())
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: manifest.folder, isDirectory: true)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
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
        process.terminationHandler = { process in
            _ = readers.wait(timeout: .now() + 0.5)
            continuation.yield(
                .exited(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal))
            continuation.finish()
        }
        try process.run()
        // Each reader owns its handle until it is done: the descriptor is never closed under it and
        // handed to another file while it still reads.
        let outputHandle = output.fileHandleForReading
        let errorHandle = errors.fileHandleForReading
        let pid = process.processIdentifier
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

    /// The process id.
    var pid: Int32 { process.processIdentifier }

    /// Why the program could not be started, for a person: a script whose `#!` line names an
    /// interpreter that is not there is said so, since the system only says that a file is missing.
    static func whyNotStarted(_ error: any Error, program: String) -> String {
        if let handle = FileHandle(forReadingAtPath: program) {
            defer { try? handle.close() }
            let head = String(decoding: (try? handle.read(upToCount: 256)) ?? Data(), as: UTF8.self)
            if head.hasPrefix("#!"), let line = head.dropFirst(2).split(separator: "\n").first {
                let interpreter = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
                if !FileManager.default.isExecutableFile(atPath: interpreter) {
                    return
                        "its first line asks for \(TerminalText.safe(interpreter)), which is not there; fix its #! line (such as #!/usr/bin/env python3)"
                }
            }
        }
        return error.localizedDescription
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
    func closeInput() {
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
    func signal(_ number: Int32) {
        guard process.isRunning else { return }
        Self.signal(process.processIdentifier, number)
    }

    /// Signals the program and, when it leads a process group of its own, every process it
    /// started: a shell script's children do not outlive it holding its pipes.
    static func signal(_ pid: Int32, _ number: Int32) {
        if getpgid(pid) == pid { kill(-pid, number) }
        kill(pid, number)
    }

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
