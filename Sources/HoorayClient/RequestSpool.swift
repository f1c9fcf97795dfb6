import FoundationEssentials
import Glibc

/// The spool: every request that may change what is stored, written down by its client before it
/// is sent to `hoorayd`, so that nothing the user typed is lost while `hoorayd` is stopped, busy or
/// killed, and so that it runs once (docs/protocol.md, "One writer").
///
/// Each request is one file, `spool/ID.json` in the data folder, holding the request's line; `ID`
/// is its request id. `hoorayd` runs a request that carries a request id only once it has *taken*
/// the file: removed it, which succeeds for one caller alone. A request whose file is gone was taken
/// already and is not run again. A file left behind — its client gave up waiting, or `hoorayd` was
/// killed before it read the request — is taken and run by the next `hoorayd` that starts.
///
/// Clients never run such a request themselves while `hoorayd` answers: `hoorayd` is the one
/// writer of the database.
public struct RequestSpool: Sendable, Hashable {
    /// The folder, `$XDG_DATA_HOME/hooray/spool`.
    public let folder: String

    /// The spool of a data folder.
    public init(paths: HoorayPaths) {
        folder = paths.dataDirectory + "/spool"
    }

    /// The spool in `folder`.
    public init(folder: String) {
        self.folder = folder
    }

    /// Whether `id` can name a file of the spool: a request id as clients make them (a UUID, or up
    /// to 64 letters, digits and dashes), never a path.
    public static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64
            && id.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D
            }
    }

    /// The file of request `id`.
    public func file(_ id: String) -> String { folder + "/" + id + ".json" }

    /// Writes request `id` down: its line, whole or not at all (a hidden temporary file renamed
    /// into place), in a folder only this user can read.
    ///
    /// - Throws: ``SpoolError`` when the folder or the file cannot be written: then nothing may be
    ///   sent, as nothing would keep the request.
    public func keep(_ line: Data, id: String) throws(SpoolError) {
        guard Self.isValid(id) else { throw SpoolError(path: file(id), problem: "the request id is not valid") }
        try Self.makeFolder(folder)
        let temporary = folder + "/." + id + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw SpoolError(path: temporary, errno: errno) }
        let written = line.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        let failure = errno
        close(fd)
        guard written else {
            unlink(temporary)
            throw SpoolError(path: temporary, errno: failure)
        }
        guard rename(temporary, file(id)) == 0 else {
            let failure = errno
            unlink(temporary)
            throw SpoolError(path: file(id), errno: failure)
        }
    }

    /// Makes `folder` and the folders it is in, as needed, each only this user's.
    static func makeFolder(_ folder: String) throws(SpoolError) {
        if mkdir(folder, 0o700) == 0 || errno == EEXIST { return }
        guard errno == ENOENT, let slash = folder.lastIndex(of: "/"), slash > folder.startIndex else {
            throw SpoolError(path: folder, errno: errno)
        }
        try makeFolder(String(folder[..<slash]))
        if mkdir(folder, 0o700) != 0 && errno != EEXIST { throw SpoolError(path: folder, errno: errno) }
    }

    /// Takes request `id` off the spool: removes its file, which only one caller can do.
    ///
    /// - Returns: `true` when this caller took it (it is this caller's to run, or to drop); `false`
    ///   when there was no such file: someone took it first.
    /// - Throws: ``SpoolError`` when the file is there but cannot be removed.
    public func take(_ id: String) throws(SpoolError) -> Bool {
        guard Self.isValid(id) else { return false }
        if unlink(file(id)) == 0 { return true }
        if errno == ENOENT { return false }
        throw SpoolError(path: file(id), errno: errno)
    }

    /// Whether request `id` waits in the spool, not taken yet.
    public func holds(_ id: String) -> Bool {
        Self.isValid(id) && access(file(id), F_OK) == 0
    }

    /// A request that waits in the spool.
    public struct Waiting: Sendable, Equatable {
        /// Its request id.
        public var id: String
        /// When its file was written, in seconds since 1970.
        public var writtenAt: Double
    }

    /// The requests waiting, oldest first; temporary files a client left half written (it was
    /// killed) are removed once an hour old.
    public func waiting() -> [Waiting] {
        var found: [Waiting] = []
        for name in names() {
            var information = stat()
            guard stat(folder + "/" + name, &information) == 0 else { continue }
            let writtenAt = Double(information.st_mtim.tv_sec) + Double(information.st_mtim.tv_nsec) / 1e9
            if name.hasPrefix(".") {
                if name.hasSuffix(".tmp"), writtenAt < Double(time(nil)) - 3600 { unlink(folder + "/" + name) }
                continue
            }
            guard name.hasSuffix(".json") else { continue }
            let id = String(name.dropLast(5))
            if Self.isValid(id) { found.append(Waiting(id: id, writtenAt: writtenAt)) }
        }
        return found.sorted { ($0.writtenAt, $0.id) < ($1.writtenAt, $1.id) }
    }

    /// Removes everything in the spool: the requests waiting, half-written ones and those set aside
    /// as unreadable (`hooray delete-my-data`: they hold what the user typed).
    ///
    /// - Returns: How many requests that waited were removed.
    @discardableResult
    public func removeAll() -> Int {
        var removed = 0
        for name in names() where unlink(folder + "/" + name) == 0 {
            if !name.hasPrefix("."), name.hasSuffix(".json") { removed += 1 }
        }
        return removed
    }

    /// The names of the folder's entries, `.` and `..` left out; none when there is no folder.
    private func names() -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The line of request `id`, as its client wrote it; `nil` when it is gone or cannot be read.
    public func line(_ id: String) -> Data? {
        guard Self.isValid(id) else { return nil }
        let fd = open(file(id), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count <= 1 << 20 {
            let count = read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? data : nil }
            data.append(contentsOf: chunk[0..<count])
        }
        return nil
    }
}

/// The spool could not be written or read; the message names the file and the error.
public struct SpoolError: Error, Sendable, CustomStringConvertible {
    /// The file or folder.
    public let path: String
    /// What went wrong.
    public let problem: String

    /// An error about `path`.
    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    init(path: String, errno code: Int32) {
        self.init(path: path, problem: String(cString: strerror(code)))
    }

    public var description: String {
        "cannot keep the request in \(path): \(problem). Check that the data folder is yours and writable, and that the disk is not full"
    }
}
