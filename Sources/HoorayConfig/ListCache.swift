import Foundation

/// What hoorayd knows of configuration files that hold nothing but one plugin's list
/// (``HoorayKit/HoorayPlugin/deferrableList``), by the digest of each file's bytes.
///
/// A file is noted once it was read in full and found to hold nothing but `[[plugins.NAME.KEY]]`
/// tables, with no error and no warning. What is noted is a pure function of the file's bytes and
/// Hooray's version, so it can never be stale: a changed file has another digest, and another
/// version starts afresh. A missing, unreadable or malformed cache only means that every file is read.
public struct ListCache: Sendable, Equatable {
    /// A file's plugin and list key.
    public struct Entry: Sendable, Hashable {
        /// The plugin, such as `reminders`.
        public var plugin: String
        /// The key of its list, such as `reminder`.
        public var key: String
    }

    /// The files known, by digest.
    public var entries: [String: Entry]

    /// An empty cache.
    public init(entries: [String: Entry] = [:]) {
        self.entries = entries
    }

    /// The first line of the file; the version follows it.
    static let header = "hooray config-lists 1"

    /// Reads the cache; any problem reads as an empty cache.
    ///
    /// - Parameters:
    ///   - path: The cache file.
    ///   - version: Hooray's version: a cache written by another is empty.
    public static func read(from path: String, version: String) -> ListCache {
        guard let bytes = try? FileReader.readBytes(atPath: path), let text = String(validating: bytes, as: UTF8.self)
        else { return ListCache() }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(header + " " + version), lines.last == "" else { return ListCache() }
        lines.removeFirst()
        lines.removeLast()
        var entries: [String: Entry] = [:]
        for line in lines {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].utf8.count == 32, parts[0].utf8.allSatisfy(Self.isHexDigit),
                !parts[1].isEmpty, !parts[2].isEmpty
            else { return ListCache() }
            entries[String(parts[0])] = Entry(plugin: String(parts[1]), key: String(parts[2]))
        }
        return ListCache(entries: entries)
    }

    /// Writes the cache at once (to a new file moved into place), making its folder if need be.
    ///
    /// - Parameters:
    ///   - path: The cache file.
    ///   - version: Hooray's version.
    public func write(to path: String, version: String) throws {
        var text = Self.header + " " + version + "\n"
        for (digest, entry) in entries.sorted(by: { $0.key < $1.key }) {
            text += "\(digest) \(entry.plugin) \(entry.key)\n"
        }
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try Data(text.utf8).write(to: url, options: .atomic)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
