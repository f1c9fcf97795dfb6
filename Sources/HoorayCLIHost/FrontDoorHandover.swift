import Foundation
import HoorayClient

/// Where the `hooray` front door left a request it sent to `hoorayd`, when it handed the command
/// line over to the full program: in `HOORAY_FRONT_DOOR` (and `HOORAY_FRONT_DOOR_ANSWER`), which
/// only the front door sets.
public struct FrontDoorHandover: Sendable, Equatable {
    /// What became of the request.
    public enum State: Sendable, Equatable {
        /// The daemon ran the command and answered with this line, leaving the rest (a clipboard
        /// text, a guide) to the full program.
        case answered(String)
        /// No answer within `waited` seconds on the connection `fd`, which is still open.
        case waiting(fd: Int32, waited: Double)
        /// The daemon closed the connection `fd` without answering, after up to `waited` seconds.
        case closed(fd: Int32, waited: Double)
    }

    /// The request's id.
    public var requestID: String
    /// What became of it.
    public var state: State

    /// Reads what the front door said, from `HOORAY_FRONT_DOOR` (`answered ID`, with the answer in
    /// `HOORAY_FRONT_DOOR_ANSWER`; `answered ID FD`, with the answer in the file open on `FD`, for
    /// one over 64 KiB; `waiting ID FD MILLISECONDS`; `closed ID FD MILLISECONDS`).
    ///
    /// - Returns: `nil` when the variable is missing or is not the front door's.
    public init?(variable: String?, answer: String?) {
        guard let parts = variable?.split(separator: " ").map(String.init), parts.count >= 2 else { return nil }
        requestID = parts[1]
        switch parts[0] {
        case "answered" where parts.count == 3:
            // An answer too long for a variable, in a file open on this descriptor.
            guard let fd = Int32(parts[2]), fd > 2, fcntl(fd, F_GETFD) >= 0 else { return nil }
            let file = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            guard let data = try? file.readToEnd(), let text = String(data: data, encoding: .utf8) else {
                return nil
            }
            state = .answered(text)
        case "answered":
            guard let answer else { return nil }
            state = .answered(answer)
        case "waiting", "closed":
            guard parts.count == 4, let fd = Int32(parts[2]), fd > 2, let waited = Double(parts[3]),
                fcntl(fd, F_GETFD) >= 0
            else { return nil }
            // Kept from the programs this one starts.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            state =
                parts[0] == "waiting" ? .waiting(fd: fd, waited: waited / 1000) : .closed(fd: fd, waited: waited / 1000)
        default:
            return nil
        }
    }

    /// The front door's handover to this process, taken out of the environment so that no program
    /// this one starts sees it; `nil` when there is none.
    public static func take() -> FrontDoorHandover? {
        let variable = getenv("HOORAY_FRONT_DOOR").map { String(cString: $0) }
        let answer = getenv("HOORAY_FRONT_DOOR_ANSWER").map { String(cString: $0) }
        unsetenv("HOORAY_FRONT_DOOR")
        unsetenv("HOORAY_FRONT_DOOR_ANSWER")
        return FrontDoorHandover(variable: variable, answer: answer)
    }
}
