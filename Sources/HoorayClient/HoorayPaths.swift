import FoundationEssentials
import Glibc
import HoorayBasics

/// Where Hooray keeps its files, following the XDG base directory specification.
///
/// | what | where |
/// |---|---|
/// | database | `$XDG_DATA_HOME/hooray/hooray.sqlite` (default `~/.local/share/hooray/`) |
/// | anonymous identity | `$XDG_DATA_HOME/hooray/identity` |
/// | single-instance lock | `$XDG_DATA_HOME/hooray/hoorayd.lock`, and one next to the socket |
/// | control socket | `$XDG_RUNTIME_DIR/hooray/` (without it: `${TMPDIR:-/tmp}/hooray-UID/`, private and checked) |
/// | user configuration | `$XDG_CONFIG_HOME/hooray/` (default `~/.config/hooray/`) |
public struct HoorayPaths: Sendable, Hashable {
    /// The data directory, `$XDG_DATA_HOME/hooray`.
    public var dataDirectory: String
    /// The runtime directory, `$XDG_RUNTIME_DIR/hooray`, or the private fallback when that is unset.
    public var runtimeDirectory: String
    /// Whether ``runtimeDirectory`` is the fallback in a shared temporary folder, which anyone may
    /// have made first: it is used only once checked to be this user's alone (see ``checkRuntimeDirectory()``).
    public var runtimeDirectoryIsShared: Bool

    /// The database file.
    public var database: String { dataDirectory + "/hooray.sqlite" }
    /// The anonymous identity's file, read and written by `IdentityStore`.
    public var identityFile: String { dataDirectory + "/identity" }
    /// A file with no secret in it that says the identity was moved to the keyring (see `IdentityVault`).
    public var identityKeyringMarker: String { dataDirectory + "/identity-in-keyring" }
    /// The lock file that keeps one `hoorayd` per data folder, whatever its runtime folder.
    public var dataLockFile: String { dataDirectory + "/hoorayd.lock" }
    /// The lock file that keeps one `hoorayd` per control socket.
    public var lockFile: String { runtimeDirectory + "/hoorayd.lock" }
    /// The daemon's control socket.
    public var controlSocket: String { runtimeDirectory + "/control.sock" }

    /// Works out the paths from an environment.
    ///
    /// The home folder is `HOME` when that is an absolute path; a relative or empty one is never
    /// used to make paths (they would land in whatever folder the command was started from), and
    /// the home folder in the password database is used instead, as systemd and OpenSSH do.
    /// Relative `XDG_DATA_HOME` and `XDG_RUNTIME_DIR` are ignored, as the XDG specification says.
    ///
    /// When `XDG_RUNTIME_DIR` is unset (outside a login session) a folder named after the user id
    /// in `$TMPDIR` (or `/tmp`) is used instead: ``runtimeDirectoryIsShared`` is then `true`.
    ///
    /// - Throws: ``HomeFolderUnknown`` when neither `HOME` nor the password database gives an
    ///   absolute home folder and `XDG_DATA_HOME` does not say where the data goes.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(HomeFolderUnknown) {
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            dataDirectory = dataHome + "/hooray"
        } else {
            dataDirectory = try Self.homeFolder(environment) + "/.local/share/hooray"
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            runtimeDirectory = runtime + "/hooray"
            runtimeDirectoryIsShared = false
        } else {
            var temporary = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
            while temporary.count > 1 && temporary.hasSuffix("/") { temporary.removeLast() }
            runtimeDirectory = (temporary == "/" ? "" : temporary) + "/hooray-\(geteuid())"
            runtimeDirectoryIsShared = true
        }
    }

    /// The user's home folder: `HOME` when absolute, otherwise the password database's.
    ///
    /// - Throws: ``HomeFolderUnknown`` when neither is an absolute path.
    public static func homeFolder(_ environment: [String: String]) throws(HomeFolderUnknown) -> String {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        if let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir {
            let home = String(cString: directory)
            if home.hasPrefix("/") { return home }
        }
        throw HomeFolderUnknown(home: environment["HOME"])
    }

    /// The environment with `HOME` made absolute (see ``homeFolder(_:)``), for whatever else
    /// builds paths from it, such as the configuration's.
    public static func withAbsoluteHome(_ environment: [String: String]) -> [String: String] {
        guard environment["HOME"]?.hasPrefix("/") != true, let home = try? homeFolder(environment) else {
            return environment
        }
        var fixed = environment
        fixed["HOME"] = home
        return fixed
    }

    /// Checks, without creating anything, that the runtime folder is this user's alone when it
    /// exists: a real directory (not a symbolic link), owned by this user, with no permissions for
    /// anyone else. A missing folder is fine: no `hoorayd` is running there.
    ///
    /// `XDG_RUNTIME_DIR` itself, when it exists, must be a real directory owned by this user or
    /// root, that no one else may write in unless it is sticky (as `/tmp` is): otherwise its owner,
    /// or anyone who may write in it, could swap `hooray` for a folder of their own between two
    /// looks, and catch the requests sent to its socket.
    ///
    /// - Throws: ``UnsafeRuntimeDirectory`` naming the folder, what is wrong and the fix.
    public func checkRuntimeDirectory() throws(UnsafeRuntimeDirectory) {
        if !runtimeDirectoryIsShared {
            try checkRuntimeBase(Self.folder(of: runtimeDirectory))
        }
        var info = stat()
        guard lstat(runtimeDirectory, &info) == 0 else {
            if errno == ENOENT { return }
            throw UnsafeRuntimeDirectory(path: runtimeDirectory, problem: String(cString: strerror(errno)))
        }
        let type = info.st_mode & S_IFMT
        let remove = "remove it (`rm -r \(ShellWord.quoted(runtimeDirectory))`) if no hoorayd of yours uses it"
        if type == S_IFLNK {
            throw unsafe("it is a symbolic link, which someone else could have pointed anywhere", fix: remove)
        }
        if type != S_IFDIR {
            throw unsafe("it is not a folder", fix: remove)
        }
        if info.st_uid != geteuid() {
            throw unsafe(
                "it belongs to another user (uid \(info.st_uid)), who could read or replace what goes there",
                fix: "its owner, or root, must remove it (`sudo rm -r \(ShellWord.quoted(runtimeDirectory))`)")
        }
        if info.st_mode & 0o077 != 0 {
            throw unsafe(
                "other users may use it (mode \(String(info.st_mode & 0o777, radix: 8)); it must be 700), "
                    + "so they could read or replace what goes there",
                fix: "make it private with `chmod 700 \(ShellWord.quoted(runtimeDirectory))`")
        }
    }

    /// Checks that the control socket, when there is one, is a socket made by this user: the file
    /// of another user's socket, moved in, keeps its maker as its owner. The client also checks the
    /// process that answers there (`SO_PEERCRED`) each time it connects.
    ///
    /// - Throws: ``UnsafeRuntimeDirectory`` naming the socket, its owner and the fix.
    public func checkControlSocket() throws(UnsafeRuntimeDirectory) {
        var info = stat()
        guard lstat(controlSocket, &info) == 0 else { return }
        let remove = "remove it (`rm \(ShellWord.quoted(controlSocket))`) and start hoorayd again"
        if info.st_mode & S_IFMT != S_IFSOCK {
            throw UnsafeRuntimeDirectory(
                path: controlSocket, problem: "the control socket is not a socket", fix: remove)
        }
        if info.st_uid != geteuid() {
            throw UnsafeRuntimeDirectory(
                path: controlSocket,
                problem:
                    "the control socket belongs to another user (uid \(info.st_uid)), whose program could read what "
                    + "you send it",
                fix: remove + ", and check that XDG_RUNTIME_DIR is your own private folder")
        }
    }

    /// The folder `path` is in: what comes before its last `/` (`/` for one right under the root).
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Checks `XDG_RUNTIME_DIR` itself; see ``checkRuntimeDirectory()``.
    private func checkRuntimeBase(_ base: String) throws(UnsafeRuntimeDirectory) {
        var info = stat()
        guard lstat(base, &info) == 0 else {
            if errno == ENOENT { return }
            throw UnsafeRuntimeDirectory(path: base, problem: String(cString: strerror(errno)))
        }
        let yours = "set XDG_RUNTIME_DIR to your own private runtime folder (e.g. /run/user/\(geteuid()))"
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK {
            throw UnsafeRuntimeDirectory(
                path: base,
                problem: "XDG_RUNTIME_DIR is a symbolic link, which someone else could have pointed anywhere",
                fix: yours + ", the folder itself rather than a link to it")
        }
        if type != S_IFDIR {
            throw UnsafeRuntimeDirectory(path: base, problem: "XDG_RUNTIME_DIR is not a folder", fix: yours)
        }
        if info.st_uid != geteuid() && info.st_uid != 0 {
            throw UnsafeRuntimeDirectory(
                path: base,
                problem:
                    "XDG_RUNTIME_DIR belongs to another user (uid \(info.st_uid)), who could replace what goes there",
                fix: yours)
        }
        if info.st_mode & 0o022 != 0 && info.st_mode & S_ISVTX == 0 {
            throw UnsafeRuntimeDirectory(
                path: base,
                problem:
                    "other users may write in XDG_RUNTIME_DIR (mode \(String(info.st_mode & 0o777, radix: 8))) and it "
                    + "is not sticky, so they could replace what goes there",
                fix: yours + ", or make this one private with `chmod 700 \(ShellWord.quoted(base))`")
        }
    }

    private func unsafe(_ problem: String, fix: String) -> UnsafeRuntimeDirectory {
        guard runtimeDirectoryIsShared else {
            return UnsafeRuntimeDirectory(
                path: runtimeDirectory, problem: problem,
                fix: fix + ", or set XDG_RUNTIME_DIR to your own private runtime folder (e.g. /run/user/\(geteuid()))")
        }
        return UnsafeRuntimeDirectory(path: runtimeDirectory, problem: problem)
    }
}

/// No home folder to keep data in: `HOME` is relative or empty and the password database has none.
public struct HomeFolderUnknown: Error, Sendable, CustomStringConvertible {
    /// `HOME` as it was, when set.
    public let home: String?

    /// Creates the error.
    public init(home: String?) {
        self.home = home
    }

    public var description: String {
        let what = home.map { $0.isEmpty ? "HOME is empty" : "HOME (\($0)) is not an absolute path" } ?? "HOME is unset"
        return "\(what), and the password database has no home folder for this user, so Hooray does not know "
            + "where your data goes; nothing was done. Set HOME to your home folder (e.g. HOME=/home/you), or "
            + "XDG_DATA_HOME and XDG_CONFIG_HOME to absolute paths."
    }
}

/// The runtime folder, or `XDG_RUNTIME_DIR` holding it, is not this user's alone, so neither
/// `hoorayd` nor `hooray` puts or looks for the control socket and lock there.
public struct UnsafeRuntimeDirectory: Error, Sendable, CustomStringConvertible {
    /// The folder.
    public let path: String
    /// What is wrong with it.
    public let problem: String
    /// What to do; `nil` for the fallback used without `XDG_RUNTIME_DIR`, whose fix is to set it.
    public let fix: String?

    /// Creates the error.
    public init(path: String, problem: String, fix: String? = nil) {
        self.path = path
        self.problem = problem
        self.fix = fix
    }

    public var description: String {
        let start = "cannot use \(path) for hoorayd's control socket and lock: \(problem). "
        if let fix { return start + "Nothing was sent or saved; " + fix + "." }
        return start + "XDG_RUNTIME_DIR is not "
            + "set; set it to your private runtime "
            + "folder (a login session sets it, e.g. XDG_RUNTIME_DIR=/run/user/\(geteuid())), or remove "
            + "\(path) if it is not in use."
    }
}
