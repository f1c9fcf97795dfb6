import Foundation

/// Making Hooray's folders, with the reason a person can act on when it fails.
public enum Folders {
    /// A folder could not be made; says which part of its path and why, in plain words.
    public struct NotMade: Error, Sendable, CustomStringConvertible {
        /// The folder asked for.
        public let path: String
        /// The first folder of the path that could not be made.
        public let failedAt: String
        /// The system's reason, such as `Permission denied`.
        public let reason: String

        public var description: String {
            failedAt == path ? reason.lowercased() : "\(reason.lowercased()) (making \(ShellCommand.quoted(failedAt)))"
        }
    }

    /// Makes a folder and the folders above it that are missing, each with `mode`, as `mkdir -p`
    /// does.
    ///
    /// - Throws: ``NotMade`` naming the folder that could not be made and the system's reason, such
    ///   as a home folder from the password database that does not exist and cannot be created.
    public static func make(_ path: String, mode: mode_t = 0o700) throws(NotMade) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { return }
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") where !component.isEmpty {
            current += "/" + component
            if mkdir(current, mode) != 0 && errno != EEXIST {
                throw NotMade(path: path, failedAt: current, reason: String(cString: strerror(errno)))
            }
        }
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw NotMade(path: path, failedAt: path, reason: "a file of that name is in the way")
        }
    }
}
