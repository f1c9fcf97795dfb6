import Foundation
import HoorayKit
import HoorayStorage
import HoorayText

/// Where `hooray export -o` writes, looked at and written without following a symbolic link there
/// and without replacing a file someone else made: `-o` may name a file in a folder others may
/// write in (`/tmp`), where another user can plant a link to a file of yours, or a file of theirs.
///
/// The folder is opened once and everything happens relative to it (`openat`, `linkat`,
/// `renameat`), so that the folder looked at is the folder written. The new content goes to a new
/// file beside the target (`O_CREAT | O_EXCL | O_NOFOLLOW`, mode 600), which then takes the target's
/// name: by a hard link where nothing is there yet, which fails rather than replace what appeared
/// meanwhile; by a rename over a regular file of this user. A rename replaces the name, never
/// what a link there points to.
struct ExportTarget {
    /// Why the target is not written.
    enum Refusal: Error, Equatable {
        /// A symbolic link is there, pointing at this (as read, for the message).
        case symbolicLink(to: String)
        /// Something other than a regular file is there: "is a folder", "is a named pipe", …
        case notARegularFile(String)
        /// A regular file of another user is there.
        case anotherUsersFile(uid: uid_t)
        /// The folder cannot be opened or written, or the file not made: the system's reason.
        case cannotWrite(String)
    }

    /// The folder, open.
    let folder: Int32
    /// The folder's path, for messages.
    let folderPath: String
    /// The target's name in the folder.
    let name: String

    /// Opens the folder of `path` (absolute) and looks at what is at `path`.
    ///
    /// - Throws: ``Refusal`` when the folder cannot be opened, or when what is there may not be replaced.
    init(_ path: String) throws(Refusal) {
        folderPath = (path as NSString).deletingLastPathComponent
        name = (path as NSString).lastPathComponent
        folder = open(folderPath.isEmpty ? "/" : folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw .cannotWrite(Self.reason(errno, folder: folderPath)) }
        do {
            _ = try existing()
        } catch {
            _ = Glibc.close(folder)
            throw error
        }
    }

    /// Closes the folder.
    func close() { _ = Glibc.close(folder) }

    /// Whether a file is there now; throws when what is there may not be replaced.
    func existing() throws(Refusal) -> Bool {
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return false }
            throw .cannotWrite(String(cString: strerror(errno)))
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlinkat(folder, name, &buffer, Int(PATH_MAX))
            let pointed =
                length > 0 ? String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
            throw .symbolicLink(to: pointed)
        }
        guard type == S_IFREG else { throw .notARegularFile(ExportCommand.kind(type)) }
        guard info.st_uid == geteuid() else { throw .anotherUsersFile(uid: info.st_uid) }
        return true
    }

    /// Writes `data` to a new file beside the target and gives it the target's name.
    ///
    /// - Throws: ``Refusal``; the target is then as it was, and the new file is gone.
    func write(_ data: Data) throws(Refusal) {
        let scratch = ".hooray-export-\(UUID().uuidString)"
        let fd = openat(folder, scratch, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .cannotWrite(Self.reason(errno, folder: folderPath)) }
        var written = true
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    written = false
                    return
                }
                offset += count
            }
        }
        var problem = errno
        var synced = written
        if synced && fsync(fd) != 0 {
            problem = errno
            synced = false
        }
        _ = Glibc.close(fd)
        do throws(Refusal) {
            guard synced else { throw .cannotWrite(String(cString: strerror(problem == 0 ? EIO : problem))) }
            try place(scratch)
        } catch {
            unlinkat(folder, scratch, 0)
            throw error
        }
    }

    /// Gives the written file the target's name.
    private func place(_ scratch: String) throws(Refusal) {
        if try !existing() {
            // A new name: a hard link fails, rather than replace, when something appeared there since.
            if linkat(folder, scratch, folder, name, 0) == 0 {
                unlinkat(folder, scratch, 0)
                return
            }
            // A file system without hard links (FAT) takes the rename, after one more look.
            guard errno == EPERM || errno == EOPNOTSUPP, try !existing() else {
                if errno == EEXIST { _ = try existing() }
                throw .cannotWrite(String(cString: strerror(errno)))
            }
        }
        guard renameat(folder, scratch, folder, name) == 0 else {
            throw .cannotWrite(String(cString: strerror(errno)))
        }
    }

    /// The system's reason, in the words `hooray export` uses.
    static func reason(_ code: Int32, folder: String) -> String {
        switch code {
        case ENOENT: "the folder \(TerminalText.safe(folder)) does not exist"
        case EACCES, EPERM: "the folder \(TerminalText.safe(folder)) is not writable"
        case ENOTDIR: "\(TerminalText.safe(folder)) is not a folder"
        default: String(cString: strerror(code))
        }
    }

    /// What `hooray export` says of a refusal of `given`, with the fix, ending "Nothing was written."
    static func message(_ refusal: Refusal, given: String, fix: String) -> String {
        let path = TerminalText.safe(given)
        switch refusal {
        case .symbolicLink(let pointed):
            return "hooray export: \(path) is a symbolic link (to \(TerminalText.safe(pointed))), which hooray "
                + "export never writes through: in a folder others may write in, such a link may have been put "
                + "there to make you overwrite another file. Give -o the file itself, or a new name. Nothing was written."
        case .notARegularFile(let what):
            return "hooray export: \(path) \(what), not a regular file; \(fix). Nothing was written."
        case .anotherUsersFile(let uid):
            return "hooray export: \(path) belongs to another user (uid \(uid)), and hooray export replaces only "
                + "a file of yours; give -o a new name, or remove that file first. Nothing was written."
        case .cannotWrite(let reason):
            return "hooray export: cannot write \(path): \(reason). Give -o a file in a folder you can write, "
                + "such as -o ~/hooray-export.json. Nothing was written."
        }
    }
}
