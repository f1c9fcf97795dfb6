import Foundation
import HoorayCommands
import HoorayEngine
import HoorayKit

/// Where a listing's output goes: standard output, through a pager on a terminal, as git does.
///
/// The pager is `$PAGER` (`less -FRX` when it is unset and `less` is installed; `LESS=FRX` is set
/// for it when `LESS` is unset, so that a short list prints and returns). It is left out when
/// standard output is not a terminal, with `--no-pager`, and when `PAGER` is empty or `cat`.
/// Output is written in 64 KiB blocks, so a long listing costs few system calls.
final class ListingOutput: @unchecked Sendable {
    // @unchecked: `buffer` is only touched while holding `lock`.
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    /// The reader went away (the pager was quit): what is left is dropped.
    private var readerGone = false
    private let fd: Int32
    private let pager: Process?

    /// Standard output, or a pager started for it.
    init(environment: [String: String], noPager: Bool = GlobalArguments.current.noPager) {
        guard !noPager, isatty(STDOUT_FILENO) == 1, let command = Self.pagerCommand(environment: environment) else {
            fd = STDOUT_FILENO
            pager = nil
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var variables = environment
        if variables["LESS"] == nil { variables["LESS"] = "FRX" }
        if variables["LV"] == nil { variables["LV"] = "-c" }
        process.environment = variables
        let pipe = Pipe()
        process.standardInput = pipe
        do {
            // Quitting the pager part-way closes its end: the write then fails with EPIPE and the
            // listing ends quietly, rather than the signal killing hooray (exit 141), as git does.
            signal(SIGPIPE, SIG_IGN)
            try process.run()
            fd = dup(pipe.fileHandleForWriting.fileDescriptor)
            try? pipe.fileHandleForWriting.close()
            pager = process
        } catch {
            fd = STDOUT_FILENO
            pager = nil
        }
    }

    /// The pager to run: `$PAGER`, else `less -FRX` when `less` is on the `PATH`; `nil` for none.
    static func pagerCommand(environment: [String: String]) -> String? {
        if let chosen = environment["PAGER"] {
            let trimmed = chosen.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
        }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        let found = path.split(separator: ":").contains { access("\($0)/less", X_OK) == 0 }
        return found ? "less -FRX" : nil
    }

    /// Writes text; it reaches the terminal in blocks, and all of it at ``close()``.
    func write(_ text: String) {
        lock.withLock {
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= 1 << 16 { flushLocked() }
        }
    }

    /// Writes what is left and waits for the pager to be quit.
    func close() {
        lock.withLock { flushLocked() }
        guard let pager else { return }
        Glibc.close(fd)
        pager.waitUntilExit()
    }

    private func flushLocked() {
        var offset = 0
        while !readerGone, offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            // The reader went away (the pager was quit): the rest has no one to read it.
            guard written > 0 else {
                readerGone = true
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
