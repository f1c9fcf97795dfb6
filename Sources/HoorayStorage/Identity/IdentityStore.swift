import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps the anonymous identity in a small private file, `~/.local/share/hooray/identity`.
///
/// The identity is made on first use and then read back unchanged by every later call, in this
/// process or another, until ``delete()`` removes it. The file is a versioned `key = value` text
/// (see the format below), mode 0600 in a 0700 folder, and belongs to the user.
///
/// ```
/// hooray-identity v1
/// # Hooray's anonymous id, made at random on this computer. `hooray identity` explains it.
/// user-id = 3f2a8c1e-5b7d-4e9a-8c3b-0d1e2f3a4b5c
/// created = 2026-11-22T10:00:00Z
/// ```
///
/// A new file is written in full to a private temporary file in the same folder, flushed to disk,
/// and then hard-linked into place. The link fails when the file already exists, so when two
/// processes make an identity at the same moment the first one wins and the other reads the
/// winner's: there is only ever one identity, and a reader never sees a half-written file.
///
/// A file that cannot be trusted (not this format, cut short, binary, too large, a user id that is
/// not a random UUID, readable by others or owned by someone else) is never replaced or repaired:
/// every call throws an ``IdentityError`` naming the file and the way to recover.
public struct IdentityStore: Sendable {
    /// The identity file.
    public let path: String
    private let now: @Sendable () -> Date

    /// Creates a store for the identity file at `path`; nothing is read or written yet.
    ///
    /// - Parameters:
    ///   - path: The identity file, normally `HoorayPaths.identityFile`.
    ///   - now: The clock that dates a new identity.
    public init(path: String, now: @escaping @Sendable () -> Date = { Date() }) {
        self.path = path
        self.now = now
    }

    private var folder: String { (path as NSString).deletingLastPathComponent }
    private var temporaryPrefix: String { "." + (path as NSString).lastPathComponent + "." }

    /// Returns the identity, making and saving a new one when there is none yet.
    ///
    /// - Returns: The same identity on every call, until ``delete()`` removes it.
    /// - Throws: ``IdentityError`` when the file is damaged or has unsafe permissions (it is left as
    ///   it is), or when a new one cannot be written.
    public func identity() throws(IdentityError) -> AnonymousIdentity {
        // A delete between another process's link and our read can leave nothing to read; try again.
        for _ in 0..<3 {
            if let existing = try existingIdentity() { return existing }
            if let created = try create() { return created }
        }
        throw IdentityError(path: path, problem: .cannotWrite("it was removed again while being made"))
    }

    /// Returns the identity when one has been made, without ever making one.
    ///
    /// - Returns: The stored identity, or `nil` when there is no identity file.
    /// - Throws: ``IdentityError`` when the file is damaged, has unsafe permissions or cannot be read.
    public func existingIdentity() throws(IdentityError) -> AnonymousIdentity? {
        // A folder someone else may write in could get their file, or a hard link, in the identity's place.
        if let problem = DataFolderSafety.folderProblem(folder) {
            throw failure(.folderUnusable("\(problem.what); \(problem.fix)"))
        }
        // O_NOFOLLOW: a link could point anywhere; O_NONBLOCK: opening a FIFO must not hang.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP { throw failure(.notARegularFile) }
            if code == ENOTDIR { throw failure(.folderUnusable(Self.reason(code))) }
            throw failure(.unreadable(Self.reason(code)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(.unreadable(Self.reason(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw failure(.notARegularFile) }
        guard status.st_uid == geteuid() else { throw failure(.wrongOwner(uid: status.st_uid)) }
        guard status.st_mode & 0o077 == 0 else { throw failure(.insecurePermissions(mode: status.st_mode)) }
        guard status.st_size <= IdentityFileFormat.maximumSize else {
            throw failure(.tooLarge(size: Int(status.st_size)))
        }
        let bytes = try readAll(descriptor, limit: IdentityFileFormat.maximumSize + 1)
        guard bytes.count <= IdentityFileFormat.maximumSize else { throw failure(.tooLarge(size: bytes.count)) }
        switch IdentityFileFormat.parse(bytes) {
        case .identity(let identity): return identity
        case .problem(let problem): throw failure(problem)
        }
    }

    /// Removes the identity, so that the next ``identity()`` makes a new one.
    ///
    /// A damaged file is removed too: this is how "delete my data" starts afresh. Leftover
    /// temporary files of an interrupted write, which hold an id as well, go with it.
    ///
    /// - Throws: ``IdentityError`` when the file exists but cannot be removed.
    public func delete() throws(IdentityError) {
        if unlink(path) != 0 && errno != ENOENT {
            throw failure(.cannotDelete(Self.reason(errno)))
        }
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in leftovers where name.hasPrefix(temporaryPrefix) && name.hasSuffix(".tmp") {
            unlink(folder + "/" + name)
        }
        syncFolder()
    }

    /// Writes a new identity unless one appears first; returns `nil` when the file vanished again.
    private func create() throws(IdentityError) -> AnonymousIdentity? {
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw failure(.folderUnusable("\(error.localizedDescription)"))
        }
        if let problem = DataFolderSafety.folderProblem(folder) {
            throw failure(.folderUnusable("\(problem.what); \(problem.fix)"))
        }
        guard let identity = AnonymousIdentity(userID: UUID(), createdAt: now()) else {
            throw failure(.cannotWrite("the system did not make a random (version 4) UUID"))
        }
        let temporary = folder + "/" + temporaryPrefix + UUID().uuidString.lowercased() + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure(.cannotWrite(Self.reason(errno))) }
        defer { unlink(temporary) }
        do {
            defer { close(descriptor) }
            // The umask may have taken bits away from 0600; the owner must be able to read it back.
            guard fchmod(descriptor, 0o600) == 0 else { throw failure(.cannotWrite(Self.reason(errno))) }
            try writeAll(descriptor, Array(IdentityFileFormat.render(identity).utf8))
            guard fsync(descriptor) == 0 else { throw failure(.cannotWrite(Self.reason(errno))) }
        }
        // link() never replaces an existing file: the first writer wins, the others read its identity.
        if link(temporary, path) == 0 {
            unlink(temporary)
            syncFolder()
            return identity
        }
        let code = errno
        guard code == EEXIST else { throw failure(.cannotWrite(Self.reason(code))) }
        return try existingIdentity()
    }

    private func readAll(_ descriptor: Int32, limit: Int) throws(IdentityError) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while bytes.count < limit {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(.unreadable(Self.reason(errno)))
            }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        return bytes
    }

    private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(IdentityError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(.cannotWrite(Self.reason(errno)))
            }
            offset += count
        }
    }

    /// Flushes the folder, so that a new or removed file name survives a power cut.
    private func syncFolder() {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private func failure(_ problem: IdentityError.Problem) -> IdentityError {
        IdentityError(path: path, problem: problem)
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
