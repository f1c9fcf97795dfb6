import Foundation
import HoorayEngine
import HoorayStorage

/// The lock that keeps a single `hoorayd` per data folder and per control socket.
///
/// An exclusive `flock` on a lock file, held for the life of the process: `hoorayd` takes one in
/// the data folder (one daemon per database, whatever its `XDG_RUNTIME_DIR`) and one next to its
/// control socket. The kernel drops it when the process dies, even by `kill -9`, so a crash never
/// leaves a stale lock behind. The file holds the owner's pid, for the error message.
public final class InstanceLock: Sendable {
    let descriptor: Int32

    /// Takes the lock.
    ///
    /// - Throws: ``AlreadyRunning`` when another `hoorayd` holds it, or an error naming the file
    ///   when it cannot be opened.
    public init(path: String) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw LockFileError(path: path, reason: String(cString: strerror(errno)))
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(fd, &buffer, buffer.count, 0)
            let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
            close(fd)
            // The kernel knows who holds the lock; the pid in the file is the fallback when it cannot be seen.
            let holder = FileLocks.holders(of: [path]).first?.pid
            throw AlreadyRunning(
                pid: holder ?? Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), lockFile: path)
        }
        ftruncate(fd, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }
}

/// Another `hoorayd` holds the lock: it runs for the same data folder or the same control socket.
public struct AlreadyRunning: Error, Sendable, CustomStringConvertible {
    /// The running daemon's pid, when known.
    public let pid: Int32?
    /// The lock file it holds.
    public let lockFile: String

    /// Creates the error.
    public init(pid: Int32?, lockFile: String) {
        self.pid = pid
        self.lockFile = lockFile
    }

    /// The command that stops the running daemon.
    public var fix: String {
        pid.map { "kill \($0)" } ?? "systemctl --user stop hooray"
    }

    public var description: String {
        let rule = "only one may use the same data folder or control socket at a time"
        guard let pid else {
            return "hoorayd is already running; \(rule). Stop it with `\(fix)` and start it again. "
                + "(lock: \(ShellCommand.quoted(lockFile)))"
        }
        return "hoorayd is already running (pid \(pid)); \(rule). Stop it with `\(fix)` "
            + "(or `systemctl --user stop hooray` when it runs as a service), then start it again. "
            + "(lock: \(ShellCommand.quoted(lockFile)))"
    }
}

/// The lock file could not be opened.
public struct LockFileError: Error, Sendable, CustomStringConvertible {
    /// The lock file.
    public let path: String
    /// The system's reason.
    public let reason: String

    public var description: String {
        let folder = ShellCommand.quoted((path as NSString).deletingLastPathComponent)
        return "cannot open the lock file \(path): \(reason). Check that \(folder) is yours and writable "
            + "(`chmod -R u+rwX,go-rwx \(folder)` fixes its permissions when it is yours)."
    }
}
