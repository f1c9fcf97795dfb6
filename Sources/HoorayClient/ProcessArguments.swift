import Glibc

/// The process's command-line arguments.
package enum ProcessArguments {
    /// The arguments as the user gave them, without the program name.
    ///
    /// Swift fills `CommandLine.arguments` from the runtime's startup hook; under some `LD_PRELOAD`
    /// tools (libfaketime among them) that hook sees nothing and the list is empty. The kernel's
    /// `/proc/self/cmdline` is then the reliable source.
    public static func current() -> [String] {
        if !CommandLine.arguments.isEmpty { return Array(CommandLine.arguments.dropFirst()) }
        return raw().dropFirst().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The arguments byte for byte as the kernel has them, the program's name first
    /// (`/proc/self/cmdline`; without it, `CommandLine`'s), for a program that hands them on as
    /// they are, words that are not UTF-8 included.
    public static func raw() -> [[UInt8]] {
        var bytes: [UInt8] = []
        let fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                bytes += chunk[0..<count]
            }
            close(fd)
        }
        var words = bytes.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
        if words.last == [] { words.removeLast() }
        if words.isEmpty {
            words = (0..<Int(CommandLine.argc)).map { index in
                guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
                return Array(
                    UnsafeBufferPointer(
                        start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
            }
        }
        return words
    }
}
