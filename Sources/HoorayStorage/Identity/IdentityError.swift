import Foundation

/// A problem with the identity file, described for a person: which file, what is wrong, what to do.
///
/// The store never replaces a file it cannot read, so nothing is lost: the description tells the
/// user how to move a damaged file aside (a new anonymous id is then made) or how to fix its
/// permissions. The user id itself never appears in a description.
public struct IdentityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Hashable {
        /// The file does not start with the `hooray-identity` header.
        case notAnIdentityFile
        /// The file is in a format version this Hooray does not know, such as one written by a newer Hooray.
        case unsupportedVersion(String)
        /// The file ends part-way: a line without its newline, or a required key missing.
        case truncated
        /// The file holds bytes that are not UTF-8 text.
        case notText
        /// The file is larger than any identity file could be.
        case tooLarge(size: Int)
        /// A line that is neither `key = value`, a comment nor blank.
        case malformedLine(Int)
        /// A key the format does not have.
        case unknownKey(String, line: Int)
        /// A key given twice.
        case duplicateKey(String, line: Int)
        /// The `user-id` is not a UUID in canonical 8-4-4-4-12 form.
        case malformedUserID
        /// The `user-id` is a UUID but not a random (version 4) one.
        case notARandomUserID
        /// The `created` time is not an ISO 8601 date and time.
        case malformedCreated
        /// Others than the owner may read or write the file; holds its permission bits.
        case insecurePermissions(mode: UInt32)
        /// The file belongs to another user; holds that user's id.
        case wrongOwner(uid: UInt32)
        /// The path is a symbolic link, directory or other non-regular file.
        case notARegularFile
        /// The file could not be read; holds the system's reason.
        case unreadable(String)
        /// The data folder could not be created or is not a folder; holds the system's reason.
        case folderUnusable(String)
        /// A new identity could not be written; holds the system's reason.
        case cannotWrite(String)
        /// The file could not be removed; holds the system's reason.
        case cannotDelete(String)
    }

    /// The identity file.
    public let path: String
    /// What is wrong.
    public let problem: Problem

    /// Creates an error about the identity file at `path`.
    ///
    /// - Parameters:
    ///   - path: The identity file.
    ///   - problem: What is wrong with it.
    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// Whether the file's contents are damaged, as opposed to its permissions or the file system.
    ///
    /// A damaged file is recovered by moving it aside; a new identity is made the next time.
    public var isDamaged: Bool {
        switch problem {
        case .notAnIdentityFile, .unsupportedVersion, .truncated, .notText, .tooLarge, .malformedLine, .unknownKey,
            .duplicateKey, .malformedUserID, .notARandomUserID, .malformedCreated, .notARegularFile:
            true
        case .insecurePermissions, .wrongOwner, .unreadable, .folderUnusable, .cannotWrite, .cannotDelete:
            false
        }
    }

    /// What is wrong, where, and how to recover.
    public var description: String {
        "The anonymous identity file \(path) \(what). \(recovery)"
    }

    private var what: String {
        switch problem {
        case .notAnIdentityFile: "is not a Hooray identity file (its first line is not `hooray-identity v1`)"
        case .unsupportedVersion(let version):
            "is in format \(version), which this version of Hooray does not know (it reads v1)"
        case .truncated: "is incomplete: it ends before the user id and creation time were written in full"
        case .notText: "holds binary data instead of text"
        case .tooLarge(let size):
            "is \(size) bytes long; an identity file is under \(IdentityFileFormat.maximumSize) bytes"
        case .malformedLine(let line): "has a line that is not `key = value` (line \(line))"
        case .unknownKey(let key, let line): "has an unknown key `\(key)` (line \(line))"
        case .duplicateKey(let key, let line): "has the key `\(key)` twice (line \(line))"
        case .malformedUserID: "has a user-id that is not a UUID (8-4-4-4-12 hexadecimal digits)"
        case .notARandomUserID: "has a user-id that is not a random (version 4) UUID"
        case .malformedCreated: "has a created time that is not an ISO 8601 time such as 2026-11-22T10:00:00Z"
        case .insecurePermissions(let mode):
            "can be read or changed by other users (mode \(String(mode & 0o7777, radix: 8)); it must be 600)"
        case .wrongOwner(let uid): "belongs to another user (uid \(uid)), not to you (uid \(geteuid()))"
        case .notARegularFile: "is not a regular file (it is a symbolic link, folder or device)"
        case .unreadable(let reason): "cannot be read: \(reason)"
        case .folderUnusable(let reason): "cannot be kept because its folder cannot be made or used: \(reason)"
        case .cannotWrite(let reason): "cannot be written: \(reason)"
        case .cannotDelete(let reason): "cannot be removed: \(reason)"
        }
    }

    private var recovery: String {
        let path = ShellCommand.quoted(self.path)
        let folder = (self.path as NSString).deletingLastPathComponent
        switch problem {
        case .insecurePermissions:
            return "Make it private with `chmod 600 \(path)`."
        case .wrongOwner:
            let takeBack = ShellCommand.takeBack(self.path, recursive: false)
            return "Take it back with `\(takeBack) && chmod 600 \(path)`, or " + moveAside
        case .unsupportedVersion:
            return "Update Hooray to the version that wrote it, or " + moveAside
        case .unreadable:
            // The folder may be what is closed: fix both at once.
            return "Make it and its folder readable by you alone with `\(ShellCommand.makePrivate(folder: folder))`."
        case .folderUnusable, .cannotWrite, .cannotDelete:
            let folder = ShellCommand.quoted(folder)
            return "Check that the folder \(folder) exists, belongs to you and is writable (`ls -ld \(folder)`)."
        default:
            return "To recover, " + moveAside
        }
    }

    private var moveAside: String {
        let path = ShellCommand.quoted(self.path)
        let aside = ShellCommand.quoted(self.path + ".damaged")
        return "move it aside: `mv \(path) \(aside)`. A new anonymous id is made the next time Hooray starts "
            + "(your data stays; only its link to the AI service's history is reset)."
    }
}
