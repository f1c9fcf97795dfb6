import Foundation
import HoorayClient
import HoorayStorage

extension HoorayPaths {
    /// Creates the runtime directory with mode 0700 when it does not exist, and checks that it is
    /// this user's alone (``checkRuntimeDirectory()``).
    ///
    /// - Throws: ``UnsafeRuntimeDirectory`` when the folder, or `XDG_RUNTIME_DIR` holding it, is not
    ///   safe to use, or the system's error when the folder cannot be made.
    public func makeRuntimeDirectory() throws {
        if runtimeDirectoryIsShared {
            // No intermediate folders: the parent is the shared temporary folder, and a folder
            // someone else made first must not be taken over.
            if mkdir(runtimeDirectory, 0o700) != 0 && errno != EEXIST {
                throw UnsafeRuntimeDirectory(path: runtimeDirectory, problem: String(cString: strerror(errno)))
            }
        } else {
            // XDG_RUNTIME_DIR is checked before anything is made in it.
            try checkRuntimeDirectory()
            try Folders.make(runtimeDirectory)
        }
        try checkRuntimeDirectory()
    }
}
