import Foundation

/// The process's command-line arguments, without the program name.
public enum ProcessArguments {
    /// The arguments as the user gave them.
    ///
    /// Swift fills `CommandLine.arguments` from the runtime's startup hook; under some `LD_PRELOAD`
    /// tools (libfaketime among them) that hook sees nothing and the list is empty. The kernel's
    /// `/proc/self/cmdline` is then the reliable source.
    public static func current() -> [String] {
        if !CommandLine.arguments.isEmpty { return Array(CommandLine.arguments.dropFirst()) }
        guard let data = FileManager.default.contents(atPath: "/proc/self/cmdline") else { return [] }
        var parts = data.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        if parts.last == "" { parts.removeLast() }
        return Array(parts.dropFirst())
    }
}
