import Foundation

/// Names the calling thread for `ps`, `top` and `/proc/PID/task/*/comm` (at most 15 bytes).
///
/// `Thread.name` alone stays inside Foundation on Linux; threads that should be recognisable in
/// system tools call this first thing in their body. Does nothing where `/proc` is not mounted.
public func nameThisThread(_ name: String) {
    #if os(Linux)
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    #endif
}
