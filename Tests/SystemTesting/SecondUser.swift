import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Another user of the same computer, for tests of what one user can do to another: a numeric uid
/// with no account, reached with `setpriv` (util-linux). The tests run as root, so they can hand it
/// folders and run programs as it.
public enum SecondUser {
    /// The uid and gid of the other user.
    public static let uid: UInt32 = 4242

    /// The uid of the user running the tests.
    public static var testUser: UInt32 { getuid() }

    /// Whether the tests can act as the other user: they run as root and `setpriv` is there.
    public static var isAvailable: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }

    /// A command line that runs `arguments` as the other user, with no supplementary groups.
    public static func command(_ arguments: [String], uid: UInt32 = uid) -> [String] {
        ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--"] + arguments
    }

    /// A program and its arguments as a child process starts them: through `setpriv` as `user`
    /// when one is given (the program is then looked up on the child's `PATH` by `setpriv`), else
    /// unchanged.
    public static func commandLine(_ executable: String, _ arguments: [String], as user: UInt32?) -> (
        executable: String, arguments: [String]
    ) {
        guard let user else { return (executable, arguments) }
        let line = command([executable] + arguments, uid: user)
        return (line[0], Array(line.dropFirst()))
    }

    /// Gives a file or folder, and everything under it, to a user.
    public static func give(_ path: String, to owner: UInt32 = uid) throws {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var paths = [path]
        while let name = enumerator?.nextObject() as? String { paths.append(path + "/" + name) }
        for item in paths where lchown(item, owner, owner) != 0 {
            throw SystemTestingError.launchFailed(
                executable: "lchown", reason: "cannot give \(item) to uid \(owner): \(String(cString: strerror(errno)))"
            )
        }
    }

    /// The path of a built executable that the other user can run too. The build folder may sit in
    /// a folder only root can enter (a fresh clone in a private temporary folder): every folder
    /// above it is made enterable (`o+x`, not readable) by others, once per test process.
    public static func executable(named name: String) throws -> String {
        let path = try BuiltProducts.executable(named: name)
        try reachable.withLock { done in
            guard !done else { return }
            var folder = (BuiltProducts.directory as NSString).standardizingPath
            while folder != "/" && !folder.isEmpty {
                var info = stat()
                guard stat(folder, &info) == 0 else { break }
                if info.st_mode & S_IXOTH == 0, chmod(folder, info.st_mode & 0o7777 | S_IXOTH) != 0 {
                    throw SystemTestingError.launchFailed(
                        executable: name,
                        reason: "cannot let uid \(uid) enter \(folder): \(String(cString: strerror(errno)))")
                }
                folder = (folder as NSString).deletingLastPathComponent
            }
            done = true
        }
        return path
    }

    private static let reachable = Mutex(false)
}
