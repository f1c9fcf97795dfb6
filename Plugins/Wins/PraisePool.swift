import Foundation
import HoorayKit
import HoorayMessages

/// The offline praise a win gets the instant it is logged.
///
/// The built-in pool is `Config/pools/wins-praise.txt`, compiled in; `praise_file` replaces it
/// with the user's own lines.
public struct PraisePool: Sendable, Hashable {
    /// The lines, in file order.
    public let lines: [String]

    /// The built-in pool.
    public static let builtIn = PraisePool(lines: MessagePools.winsPraise)

    /// Creates a pool of lines.
    public init(lines: [String]) {
        self.lines = lines
    }

    /// Reads a pool file: one praise per line; blank lines and lines starting with `#` are skipped.
    ///
    /// - Parameter path: The file; a leading `~/` means the home directory.
    /// - Throws: ``PraisePoolError`` when the file cannot be read or holds no praise.
    public init(contentsOf path: String) throws {
        let expanded = PraisePool.expandingTilde(path)
        guard let data = FileManager.default.contents(atPath: expanded) else {
            throw PraisePoolError(
                message: "cannot read the praise file \(expanded); check the path and its permissions")
        }
        let lines = MessagePools.lines(String(decoding: data, as: UTF8.self))
        guard !lines.isEmpty else {
            throw PraisePoolError(message: "the praise file \(expanded) has no praise in it; write one line per praise")
        }
        self.lines = lines
    }

    /// How many recent picks a pick avoids: up to 10, and never more than half the pool.
    public var memory: Int { min(10, lines.count / 2) }

    /// Picks a line that is none of the `recent` ones.
    ///
    /// - Parameters:
    ///   - recent: Indexes picked lately, most recent last.
    ///   - random: The source of randomness.
    /// - Returns: The index picked, and the recent list to keep for next time.
    public func pick(avoiding recent: [Int], using random: inout some RandomNumberGenerator) -> (
        index: Int, recent: [Int]
    ) {
        guard !lines.isEmpty else { return (0, []) }
        let avoided = Set(recent.suffix(memory))
        let candidates = lines.indices.filter { !avoided.contains($0) }
        let index = candidates.randomElement(using: &random) ?? 0
        return (index, Array((recent + [index]).suffix(max(memory, 1))))
    }

    static func expandingTilde(_ path: String) -> String {
        guard path.hasPrefix("~/") else { return path }
        return NSHomeDirectory() + String(path.dropFirst(1))
    }
}

/// A praise file could not be used.
public struct PraisePoolError: Error, Sendable, CustomStringConvertible {
    /// What went wrong and how to fix it.
    public let message: String
    public var description: String { message }
}
