/// Why a system-test helper could not do its job.
///
/// These errors describe a broken test environment (a missing program, a helper that never became
/// ready) rather than a product bug, and say what to check.
public enum SystemTestingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `mkdtemp` failed; the message is the system's reason.
    case cannotCreateTemporaryDirectory(String)
    /// No executable with this name was found on `PATH`.
    case executableNotFound(String)
    /// The program exists but could not be started.
    case launchFailed(executable: String, reason: String)
    /// A helper process did not report readiness in time; its output is attached.
    case notReady(what: String, output: String)
    /// A command finished with a failure status.
    case commandFailed(command: String, status: ExitStatus, standardError: String)
    /// Waiting for something took longer than allowed.
    case timedOut(waitingFor: String)
    /// A line of a notification server's record file is not the JSON the server writes.
    case unreadableRecord(file: String, line: Int, reason: String)

    public var description: String {
        switch self {
        case .cannotCreateTemporaryDirectory(let reason):
            return "Cannot create a temporary directory in /tmp: \(reason). Check that /tmp exists and is writable."
        case .executableNotFound(let name):
            return "The program '\(name)' was not found on PATH. Install it (see the test's documentation) "
                + "or pass an absolute path."
        case .launchFailed(let executable, let reason):
            return "Could not start '\(executable)': \(reason)."
        case .notReady(let what, let output):
            return "\(what) did not become ready in time. Its output was:\n\(output)"
        case .commandFailed(let command, let status, let standardError):
            return "'\(command)' failed (\(status)): \(standardError)"
        case .timedOut(let waitingFor):
            return "Timed out waiting for \(waitingFor)."
        case .unreadableRecord(let file, let line, let reason):
            return "Line \(line) of \(file) is not a notification record: \(reason). "
                + "Was the file written by notification_server.py?"
        }
    }
}
