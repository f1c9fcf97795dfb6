import Foundation

/// What a plugin's sandbox allows it to use: the `[limits]` table of its `plugin.toml`, each value
/// a default unless the plugin asks for more, up to a ceiling.
///
/// The memory, process and open-file limits are the kernel's (`RLIMIT_AS`, `RLIMIT_NPROC`,
/// `RLIMIT_NOFILE`), set inside the sandbox just before the plugin's program starts; the CPU time
/// is measured by the host over the plugin's processes at the end of each call.
public struct PluginLimits: Sendable, Hashable {
    /// The most address space each of its processes may map, in bytes (`memory`).
    public var memoryBytes: Int
    /// The most processes and threads it may run at once (`processes`).
    public var processes: Int
    /// The most files each of its processes may hold open (`open_files`).
    public var openFiles: Int
    /// The most CPU time its processes may use during one call, in seconds (`cpu_seconds`).
    public var cpuSecondsPerCall: Int

    /// Creates limits; the defaults are ``standard``'s.
    public init(
        memoryBytes: Int = 256 << 20, processes: Int = 32, openFiles: Int = 256, cpuSecondsPerCall: Int = 10
    ) {
        self.memoryBytes = memoryBytes
        self.processes = processes
        self.openFiles = openFiles
        self.cpuSecondsPerCall = cpuSecondsPerCall
    }

    /// What a plugin gets when its `plugin.toml` has no `[limits]`: 256 MiB, 32 processes, 256 open
    /// files, 10 s of CPU per call.
    public static let standard = PluginLimits()

    /// The most a `[limits]` table may ask for: 2 GiB, 256 processes, 4096 open files, 60 s of CPU per call.
    public static let ceiling = PluginLimits(
        memoryBytes: 2 << 30, processes: 256, openFiles: 4096, cpuSecondsPerCall: 60)

    /// The least a `[limits]` table may set: less than this and no program starts at all.
    public static let floor = PluginLimits(memoryBytes: 16 << 20, processes: 4, openFiles: 16, cpuSecondsPerCall: 1)

    /// A size as `plugin.toml` writes it: `512M`, `1G`, `300MiB`, `65536K`, or a number of bytes.
    ///
    /// - Returns: The bytes, or `nil` when the text is not a size.
    public static func bytes(_ text: String) -> Int? {
        var digits = Substring(text.trimmingCharacters(in: .whitespaces))
        var unit = ""
        while let last = digits.last, last.isLetter {
            unit = String(last) + unit
            digits.removeLast()
        }
        digits = Substring(digits.trimmingCharacters(in: .whitespaces))
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
            let number = Int(digits), number <= Int(Int32.max)
        else { return nil }
        let shift: Int
        switch unit.lowercased() {
        case "", "b": shift = 0
        case "k", "kb", "kib": shift = 10
        case "m", "mb", "mib": shift = 20
        case "g", "gb", "gib": shift = 30
        default: return nil
        }
        return number << shift
    }

    /// A size for a person: `256 MiB`, `2 GiB`, `1536 KiB`.
    public static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// The value `plugin.toml` would write for a size: `256M`, `2G`.
    static func manifestSize(_ bytes: Int) -> String {
        if bytes % (1 << 30) == 0 { return "\(bytes >> 30)G" }
        if bytes % (1 << 20) == 0 { return "\(bytes >> 20)M" }
        return "\(bytes >> 10)K"
    }
}
