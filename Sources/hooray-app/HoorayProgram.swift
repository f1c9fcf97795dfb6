import Foundation
import Glibc
import HoorayGtk

/// The `hooray` program, run for what only it does: your anonymous id, export and import, deleting
/// your data, the AI key and `hooray about`. The window asks it as a user would in a terminal —
/// one code path for both — and shows what it says; it talks to hoorayd itself where it must.
enum HoorayProgram {
    /// What a run printed, and how it ended.
    struct Outcome: Sendable, Equatable {
        /// The exit status: 0 when it did what was asked.
        var status: Int32
        var output: String
        var errors: String

        /// What to tell the user: the standard output when it worked, with any warning it gave
        /// after it; else its complaint (standard error), or the status. The `hooray: ` a line starts
        /// with is left out.
        var said: String {
            let text = status == 0 ? output + errors : (errors.isEmpty ? output : errors)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.hasPrefix("hooray: ") ? line.dropFirst("hooray: ".count) : line
            }
            let words = lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            return words.isEmpty ? localized("hooray ended with status %ld", Int(status)) : words
        }
    }

    /// The program: `hooray` beside this one (installed together), else the first on `PATH`.
    static var path: String? {
        let fileManager = FileManager.default
        if let own = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let beside = (own as NSString).deletingLastPathComponent + "/hooray"
            if fileManager.isExecutableFile(atPath: beside) { return beside }
        }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/hooray" }.first { fileManager.isExecutableFile(atPath: $0) }
    }

    /// Runs `hooray ARGUMENTS…` off GTK's thread, `input` on its standard input (nothing else
    /// reads it: a question it would ask fails rather than waits).
    ///
    /// - Returns: What it printed, or why it could not be run.
    static func run(_ arguments: [String], input: String? = nil) async -> Result<Outcome, RunProblem> {
        guard let path else {
            return .failure(
                RunProblem(
                    message: localized(
                        "the hooray program is not installed beside this window, nor on PATH; reinstall Hooray")))
        }
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: runNow(path, arguments, input: input))
            }
        }
    }

    /// Why `hooray` could not be run at all.
    struct RunProblem: Error, Sendable, Equatable {
        var message: String
    }

    private static func runNow(_ path: String, _ arguments: [String], input: String?) -> Result<Outcome, RunProblem> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        do {
            try process.run()
        } catch {
            let said = "\(path): \(error.localizedDescription)"
            return .failure(RunProblem(message: localized("hooray could not be started: %@", said)))
        }
        // Both read at once, before anything is written: a long answer on one stream must not stop
        // the program, nor the program stop the window's writing.
        let collected = ReadBoth(output: output, errors: errors)
        if let input { try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        let (printed, complained) = collected.wait()
        return .success(Outcome(status: process.terminationStatus, output: printed, errors: complained))
    }

    /// Reads a program's two streams to their ends, each on a thread of its own.
    private final class ReadBoth: @unchecked Sendable {
        private let group = DispatchGroup()
        private var output = Data()
        private var errors = Data()

        init(output: Pipe, errors: Pipe) {
            group.enter()
            Thread.detachNewThread { [self] in
                self.output = output.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }
            group.enter()
            Thread.detachNewThread { [self] in
                self.errors = errors.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }
        }

        func wait() -> (String, String) {
            group.wait()
            return (String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
        }
    }
}
