import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A configuration file as it was read for an edit, and the atomic write that replaces it only if
/// nobody changed it meanwhile.
public struct ConfigFileSnapshot: Sendable {
    /// The path the edit names (shown in messages).
    public var path: String
    /// The file written: `path` with its symbolic links followed, so that a hooray.toml linked from
    /// a dotfiles folder is changed there and stays a link.
    public var target: String
    /// The bytes read; `nil` when there was no file.
    public var bytes: [UInt8]?
    /// The file's permission bits, kept by the write.
    public var mode: mode_t?
    /// The file's owner and group, kept by the write where the user may give them (root editing
    /// another user's file leaves it theirs).
    public var owner: (user: uid_t, group: gid_t)?

    /// The text read, empty when there was no file.
    public var text: String { bytes.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// Reads a file for an edit.
    ///
    /// - Throws: ``ConfigEditRefusal`` when it exists but cannot be read, is a folder or is not UTF-8.
    public static func read(_ path: String) throws(ConfigEditRefusal) -> ConfigFileSnapshot {
        let target = resolved(path)
        var status = stat()
        guard stat(target, &status) == 0 else {
            let code = errno
            guard code == ENOENT else { throw ioRefusal("cannot read \(path): \(String(cString: strerror(code)))") }
            return ConfigFileSnapshot(path: path, target: target, bytes: nil, mode: nil, owner: nil)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw ioRefusal("\(path) is not a regular file", hint: "name a .toml file")
        }
        // Renaming over a read-only file would work, and undo the owner's choice.
        guard access(target, W_OK) == 0 else {
            throw ioRefusal(
                "\(path) is read-only, so it was left as it is",
                hint: "make it writable (chmod u+w), or edit it by hand")
        }
        guard let data = FileManager.default.contents(atPath: target) else {
            throw ioRefusal("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        let bytes = [UInt8](data)
        if let bad = FileReader.firstInvalidUTF8(in: bytes) {
            throw ConfigEditRefusal(
                .configuration, "\(path):\(bad.line):\(bad.column): the file is not UTF-8 text",
                hint: "save it with UTF-8 encoding, then run the command again")
        }
        return ConfigFileSnapshot(
            path: path, target: target, bytes: bytes, mode: status.st_mode & 0o7777,
            owner: (status.st_uid, status.st_gid))
    }

    /// Replaces the file with new text: written to a temporary file in the same folder, flushed,
    /// given the old file's mode and renamed over it, so a reader sees the old file or the new one,
    /// never half of one.
    ///
    /// - Parameters:
    ///   - text: The new text.
    ///   - beforeWrite: Run after the last check's read and before the write (for tests of a file
    ///     changed meanwhile).
    /// - Throws: ``ConfigEditRefusal`` of kind ``ConfigEditRefusal/Kind/changed`` when the file is no
    ///   longer what was read, or ``ConfigEditRefusal/Kind/io`` when it cannot be written; the file is
    ///   then as it was.
    public func write(_ text: String, beforeWrite: (() -> Void)? = nil) throws(ConfigEditRefusal) {
        beforeWrite?()
        let folder = (target as NSString).deletingLastPathComponent
        if bytes == nil {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw Self.ioRefusal("cannot create the folder \(folder): \(error.localizedDescription)")
            }
        }
        let current = FileManager.default.contents(atPath: target).map { [UInt8]($0) }
        guard current == bytes else {
            throw ConfigEditRefusal(
                .changed,
                current == nil
                    ? "\(path) was removed while hooray was changing it; nothing was written"
                    : "\(path) was changed by another program while hooray was changing it; nothing was written",
                hint: "run the command again: it starts from the file as it is now")
        }
        var template = Array((folder + "/.hooray.toml.XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw Self.ioRefusal("cannot write in \(folder): \(String(cString: strerror(errno)))")
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: String?
        let utf8 = Array(text.utf8)
        var written = 0
        while written < utf8.count, failure == nil {
            let count = utf8[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno != EINTR { failure = String(cString: strerror(errno)) }
            } else {
                written += count
            }
        }
        // A new file gets the mode a new file gets from an editor (0666 less the umask).
        let mode = self.mode ?? Self.newFileMode
        if failure == nil, let owner, owner != (getuid(), getgid()) {
            // Only root may give a file away; for anyone else the file stays as the rename makes it.
            _ = fchown(descriptor, owner.user, owner.group)
        }
        if failure == nil, fchmod(descriptor, mode) != 0 { failure = String(cString: strerror(errno)) }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil, rename(temporary, target) != 0 { failure = String(cString: strerror(errno)) }
        guard let failure else {
            let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if folderDescriptor >= 0 {
                fsync(folderDescriptor)
                close(folderDescriptor)
            }
            return
        }
        unlink(temporary)
        throw Self.ioRefusal("cannot write \(path): \(failure); it is as it was")
    }

    static var newFileMode: mode_t {
        let mask = umask(0o022)
        umask(mask)
        return 0o666 & ~mask
    }

    /// The absolute path with symbolic links followed; for a file that does not exist yet, its
    /// folder's (so that `--config hooray.toml` run in /etc/hooray is known for what it is). A link
    /// to a file that does not exist yet leads to that file, which an edit then creates, as `ln -s`
    /// users expect: the link stays a link.
    static func resolved(_ path: String, links: Int = 0) -> String {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let name = (absolute as NSString).lastPathComponent
        let folder = (absolute as NSString).deletingLastPathComponent
        // At most 40 links, as the kernel follows (ELOOP past that): a loop is left as it is.
        if links < 40, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: absolute) {
            return resolved(target.hasPrefix("/") ? target : folder + "/" + target, links: links + 1)
        }
        guard !name.isEmpty, name != ".", name != "..", folder != absolute else {
            return (absolute as NSString).standardizingPath
        }
        let resolvedFolder = resolved(folder, links: links)
        return (resolvedFolder.hasSuffix("/") ? resolvedFolder : resolvedFolder + "/") + name
    }

    static func ioRefusal(_ message: String, hint: String? = nil) -> ConfigEditRefusal {
        ConfigEditRefusal(.io, message, hint: hint)
    }
}
