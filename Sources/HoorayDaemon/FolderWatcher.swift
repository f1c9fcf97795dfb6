import CLinux
import Foundation
import HoorayThreads

/// Watches the sync folder and each computer's folder in it with inotify: a file renamed into place
/// (Syncthing, and Hooray itself, write under a temporary name), written and closed, or a folder
/// made calls `changed`, on a thread of its own. Nothing polls.
final class FolderWatcher: @unchecked Sendable {
    // @unchecked: `descriptor` and `stopper` are set once; the watch list is only touched on the
    // watching thread.
    private let path: String
    private let changed: @Sendable () -> Void
    private let descriptor: Int32
    /// An eventfd that `stop()` rings (made close-on-exec at once: plugins are started meanwhile).
    private let stopper: Int32

    /// Starts watching `path`; `nil` when inotify cannot be had (the caller then reads after its own
    /// changes only).
    init?(path: String, changed: @escaping @Sendable () -> Void) {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let stopper = eventfd(0, Int32(EFD_CLOEXEC))
        guard stopper >= 0 else {
            close(descriptor)
            return nil
        }
        self.path = path
        self.changed = changed
        self.descriptor = descriptor
        self.stopper = stopper
        guard watchAll() else {
            close(descriptor)
            close(stopper)
            return nil
        }
        let thread = Thread { [self] in
            nameThisThread("hooray-sync")
            loop()
        }
        thread.name = "hooray-sync"
        thread.start()
    }

    /// Stops watching; the thread ends soon after.
    func stop() {
        eventfd_write(stopper, 1)
    }

    /// The events that say a segment may have arrived.
    private static let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF)

    /// Watches the folder and every folder in it; `false` when the folder itself cannot be watched.
    @discardableResult
    private func watchAll() -> Bool {
        guard inotify_add_watch(descriptor, path, Self.mask) >= 0 else { return false }
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where !entry.hasPrefix(".") {
            var isFolder: ObjCBool = false
            let inner = path + "/" + entry
            if FileManager.default.fileExists(atPath: inner, isDirectory: &isFolder), isFolder.boolValue {
                _ = inotify_add_watch(descriptor, inner, Self.mask)
            }
        }
        return true
    }

    // Closed here, not as the thread ends: `stop()` may come after the thread ended on its own, and
    // must not write to a number the process gave to another file since.
    deinit {
        close(descriptor)
        close(stopper)
    }

    private func loop() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            var watched = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopper, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&watched, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if watched[1].revents != 0 { return }
            guard watched[0].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { return }
            // A computer's new folder is watched too; a watch added twice is the same watch.
            watchAll()
            changed()
        }
    }
}
