import Foundation

/// Puts a command's ``HoorayKit/CommandReply/clipboard`` text on the user's clipboard, from `hooray`
/// itself: the command may have run in `hoorayd`, which is not in the user's desktop session, while
/// `hooray` runs with the user's own `WAYLAND_DISPLAY`, `DISPLAY` and `PATH`.
enum Clipboard {
    /// A program that takes text on its standard input and puts it on the clipboard.
    struct Tool: Equatable {
        /// The program's name, as the user would look for it: `wl-copy` or `xclip`.
        var name: String
        /// Its arguments.
        var arguments: [String]
        /// The Debian package that installs it.
        var package: String
        /// The variable that says its kind of desktop session is there.
        var display: String

        static let wayland = Tool(name: "wl-copy", arguments: [], package: "wl-clipboard", display: "WAYLAND_DISPLAY")
        static let x11 = Tool(
            name: "xclip", arguments: ["-selection", "clipboard"], package: "xclip", display: "DISPLAY")
    }

    /// What became of the text.
    enum Outcome: Equatable {
        /// Copied with this tool.
        case copied(Tool)
        /// Not copied; a message for a person that says why and what to do.
        case notCopied(String)
    }

    /// Copies `text` with the first tool whose session is there and that is installed: `wl-copy` on
    /// Wayland, else `xclip` on X11.
    static func copy(_ text: String, environment: [String: String]) -> Outcome {
        let sessions = [Tool.wayland, Tool.x11].filter { !(environment[$0.display] ?? "").isEmpty }
        guard !sessions.isEmpty else {
            return .notCopied(
                "there is no desktop session here (neither WAYLAND_DISPLAY nor DISPLAY is set), so nothing was "
                    + "copied; copy the text above by hand, or run the command in a terminal of your desktop")
        }
        let path = environment["PATH"] ?? ""
        let installed = sessions.compactMap { tool in find(tool.name, in: path).map { (tool, $0) } }
        guard !installed.isEmpty else {
            let installs = sessions.map { "`sudo apt install \($0.package)` for \($0.name)" }
            return .notCopied(
                "nothing was copied: \(sessions.map(\.name).joined(separator: " and ")) "
                    + "\(sessions.count == 1 ? "is" : "are") not installed. Install it with "
                    + installs.joined(separator: ", or ") + "; meanwhile copy the text above by hand")
        }
        // One that fails (a Wayland socket gone stale) leaves the next its turn.
        var outcome = Outcome.notCopied("")
        for (tool, program) in installed {
            outcome = run(program, tool: tool, input: text)
            if case .copied = outcome { break }
        }
        return outcome
    }

    /// The executable file called `name` in the first folder of `path` that has one.
    static func find(_ name: String, in path: String) -> String? {
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), !isFolder.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate)
            {
                return candidate
            }
        }
        return nil
    }

    /// Runs the tool with the text on its standard input, and waits up to five seconds for it.
    static func run(_ program: String, tool: Tool, input: String) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = tool.arguments
        let pipe = Pipe()
        process.standardInput = pipe
        // Both tools leave a process behind that serves the clipboard: it must not hold our output open.
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .notCopied(
                "nothing was copied: \(tool.name) could not be started (\(error)); copy the text above by hand")
        }
        // A tool that quits before reading all must cost the write an EPIPE, not hooray a SIGPIPE;
        // everything else is printed by now.
        signal(SIGPIPE, SIG_IGN)
        try? pipe.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try? pipe.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            return .notCopied(
                "nothing was copied: \(tool.name) did not finish within 5 seconds; check that your desktop session "
                    + "is running, or copy the text above by hand")
        }
        guard process.terminationStatus == 0 else {
            return .notCopied(
                "nothing was copied: \(tool.name) stopped with status \(process.terminationStatus); check that "
                    + "\(tool.display) names your running session, or copy the text above by hand")
        }
        return .copied(tool)
    }
}
