import Foundation

/// A uniquely named directory under `/tmp` that is removed when it is no longer needed.
///
/// Each instance creates its own directory with `mkdtemp`, so tests running in parallel never
/// share files. The directory and everything in it is removed by ``remove()`` or, at the latest,
/// when the instance is deinitialised.
///
/// The path is kept short on purpose: D-Bus unix socket paths must fit in 108 bytes.
public final class TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String

    /// The directory as a file URL.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// Creates a new, empty directory.
    ///
    /// - Parameter prefix: The start of the directory's name, to recognise it in `/tmp`.
    /// - Throws: ``SystemTestingError/cannotCreateTemporaryDirectory(_:)`` when `mkdtemp` fails.
    public init(prefix: String = "hooray") throws {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!)
        }
        guard let created else {
            throw SystemTestingError.cannotCreateTemporaryDirectory(String(cString: strerror(errno)))
        }
        path = String(cString: created)
    }

    deinit {
        remove()
    }

    /// Returns the path of a file or directory inside this directory.
    ///
    /// - Parameter name: A relative path such as `record.jsonl` or `config/hooray.toml`.
    /// - Returns: The absolute path; nothing is created.
    public func appending(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }

    /// Writes text to a file inside this directory, creating intermediate directories.
    ///
    /// - Parameters:
    ///   - text: The file's contents, written as UTF-8.
    ///   - name: A relative path inside this directory.
    /// - Returns: The absolute path of the file.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        let file = appending(name)
        let parent = (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Removes the directory and its contents; calling it again does nothing.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Runs `body` with a fresh temporary directory that is removed afterwards.
///
/// - Parameters:
///   - prefix: The start of the directory's name.
///   - body: The work that uses the directory.
/// - Returns: What `body` returns.
public func withTemporaryDirectory<Result>(
    prefix: String = "hooray",
    _ body: (TemporaryDirectory) async throws -> Result
) async throws -> Result {
    let directory = try TemporaryDirectory(prefix: prefix)
    defer { directory.remove() }
    return try await body(directory)
}
