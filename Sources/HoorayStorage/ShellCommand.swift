import Foundation
import HoorayBasics

/// Commands that an error message suggests, written so that a person can paste them into a shell as they are.
public enum ShellCommand {
    /// The word as a shell word: left as it is when it holds only safe characters, otherwise in single quotes.
    ///
    /// - Parameter word: A path or argument, which may hold spaces, quotes or `$`.
    /// - Returns: Text that the shell reads back as exactly `word`.
    public static func quoted(_ word: String) -> String {
        ShellWord.quoted(word)
    }

    /// A command that makes a folder and everything in it belong to the user alone: read and write for
    /// files, and also enter for folders.
    ///
    /// - Parameter folder: The folder, such as `~/.local/share/hooray`.
    /// - Returns: `chmod -R u+rwX,go-rwx FOLDER`.
    public static func makePrivate(folder: String) -> String {
        "chmod -R u+rwX,go-rwx \(quoted(folder))"
    }

    /// A command that gives files back to this user, through `sudo` unless this is already root.
    ///
    /// - Parameters:
    ///   - path: The file or folder.
    ///   - recursive: Whether to include everything inside a folder.
    /// - Returns: For example `sudo chown -R 1000:1000 FOLDER`.
    public static func takeBack(_ path: String, recursive: Bool) -> String {
        let sudo = geteuid() == 0 ? "" : "sudo "
        return "\(sudo)chown \(recursive ? "-R " : "")\(geteuid()):\(getegid()) \(quoted(path))"
    }
}
