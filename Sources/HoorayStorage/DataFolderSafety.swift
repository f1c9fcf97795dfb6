import Foundation

/// What is checked before SQLite opens the database: that no one else can put a file of their
/// choosing, or a link to one, where Hooray keeps its data.
///
/// SQLite opens the database by name, following symbolic links; so the files it opens are looked
/// at first (`lstat`: a link is never followed) and the folder holding them must be this user's and
/// writable by no one else. Then only this user (and root) can change what is there between the
/// look and the open, so the look holds.
///
/// A data folder that is itself a symbolic link is allowed when the link and the folder it points to
/// are this user's (or root's) and no one else may write in that folder: keeping the data on another
/// disk with `ln -s /mnt/big/hooray ~/.local/share/hooray` is a setup people use, and such a link
/// can only be changed by whoever may write the folder holding it, already trusted with the data.
/// A link of another user, or to a folder of another user or open to others, is refused.
enum DataFolderSafety {
    /// Checks the folder of `database` and the database's files.
    ///
    /// - Throws: ``StorageError`` with ``StorageError/Problem/unsafe(_:fix:)`` naming what is wrong and the fix.
    static func check(database path: String) throws(StorageError) {
        func unsafe(_ what: String, _ fix: String) -> StorageError {
            StorageError(path: path, problem: .unsafe(what, fix: fix))
        }
        if let problem = folderProblem((path as NSString).deletingLastPathComponent) {
            throw unsafe(problem.what, problem.fix)
        }
        var info = stat()
        for suffix in [""] + StorageError.companionSuffixes {
            let file = path + suffix
            guard lstat(file, &info) == 0 else { continue }
            let type = info.st_mode & S_IFMT
            if type == S_IFLNK {
                let pointed = (try? FileManager.default.destinationOfSymbolicLink(atPath: file)) ?? "?"
                throw unsafe(
                    "\(ShellCommand.quoted(file)) is a symbolic link (to \(pointed)); Hooray opens its database only "
                        + "as a file of its own, never through a link, which could make it read or overwrite another file",
                    "remove the link (`rm \(ShellCommand.quoted(file))`); to keep your data elsewhere, link the "
                        + "whole data folder instead, or set XDG_DATA_HOME")
            }
            if type != S_IFREG {
                throw unsafe(
                    "\(ShellCommand.quoted(file)) is not a regular file",
                    "move it away (`mv \(ShellCommand.quoted(file)) \(ShellCommand.quoted(file + ".aside"))`)")
            }
        }
    }
    /// What is wrong with the data folder, when something is: a link of another user, a folder of
    /// another user, or one others may write in.
    ///
    /// - Returns: What is wrong, naming the folder, and the fix; `nil` when it is safe or missing.
    static func folderProblem(_ folder: String) -> (what: String, fix: String)? {
        let shown = ShellCommand.quoted(folder)
        var link = stat()
        if lstat(folder, &link) == 0, link.st_mode & S_IFMT == S_IFLNK, link.st_uid != geteuid(), link.st_uid != 0 {
            let pointed = (try? FileManager.default.destinationOfSymbolicLink(atPath: folder)) ?? "?"
            return (
                "the data folder \(shown) is a symbolic link (to \(pointed)) made by another user "
                    + "(uid \(link.st_uid)), who chose where your data goes",
                "remove the link (`rm \(shown)`), and move your data folder there if it is yours"
            )
        }
        var info = stat()
        guard stat(folder, &info) == 0 else { return nil }
        if info.st_uid != geteuid() {
            let takeBack =
                ShellCommand.takeBack(folder, recursive: true) + " && " + ShellCommand.makePrivate(folder: folder)
            return (
                "the data folder \(shown) belongs to another user (uid \(info.st_uid)), who could put any file "
                    + "in your data's place", "take it back with `\(takeBack)`"
            )
        }
        if WriteAccess.othersMayWrite(mode: info.st_mode, group: info.st_gid) {
            return (
                "other users may write in the data folder \(shown) (mode "
                    + "\(String(info.st_mode & 0o777, radix: 8))), so they could put a link or a file of "
                    + "theirs in your data's place",
                "make it private with `\(ShellCommand.makePrivate(folder: folder))`"
            )
        }
        return nil
    }
}
