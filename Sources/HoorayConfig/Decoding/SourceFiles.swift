import HoorayTOML
import Synchronization

/// The paths of the configuration files read, each by a number that nodes keep instead of the path.
///
/// A file of 100,000 reminders has about a million values; each keeps where it is written as the
/// TOML reader's position and this number, and a ``SourceLocation`` with the path is made only when
/// one is asked for. A path keeps its number for the life of the process, so reading the same files
/// again (a reload) adds nothing.
enum SourceFiles {
    private struct Registry {
        var paths: [String] = []
        var numbers: [String: Int32] = [:]
    }

    private static let registry = Mutex(Registry())

    /// The number of a file's path, given on first use.
    static func number(of path: String) -> Int32 {
        registry.withLock { registry in
            if let number = registry.numbers[path] { return number }
            let number = Int32(registry.paths.count)
            registry.paths.append(path)
            registry.numbers[path] = number
            return number
        }
    }

    /// The path of a file by its number.
    static func path(_ number: Int32) -> String {
        registry.withLock { $0.paths[Int(number)] }
    }

    /// The location of a position in the file with that number.
    static func location(_ position: TOMLPosition, file: Int32) -> SourceLocation {
        SourceLocation(file: path(file), line: position.line, column: position.column)
    }
}
