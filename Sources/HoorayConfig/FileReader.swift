import HoorayKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads configuration files and directories with POSIX calls, so each failure can say exactly
/// why (`permission denied`, `is a directory`) and a missing file is told apart from an unreadable one.
public enum FileReader {
    /// Reads a file as UTF-8 text.
    ///
    /// - Returns: The text, or `nil` when there is no file at `path`.
    /// - Throws: ``ConfigDiagnostics`` naming the path when it exists but cannot be read or is not UTF-8.
    static func readText(atPath path: String) throws(ConfigDiagnostics) -> String? {
        guard let bytes = try readBytes(atPath: path) else { return nil }
        return try text(of: bytes, path: path)
    }

    /// Reads a file's bytes.
    ///
    /// - Returns: The bytes, or `nil` when there is no file at `path`.
    /// - Throws: ``ConfigDiagnostics`` naming the path when it exists but cannot be read.
    static func readBytes(atPath path: String) throws(ConfigDiagnostics) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw [cannotRead(path, code)]
        }
        defer { close(descriptor) }
        var status = stat()
        let statusRead = fstat(descriptor, &status) == 0
        if statusRead, (status.st_mode & S_IFMT) == S_IFDIR {
            throw [
                .error(
                    at: .wholeFile(path), "cannot read \(path): it is a directory",
                    hint: "name a .toml file, or put drop-in files in a conf.d directory")
            ]
        }
        var bytes: [UInt8] = []
        // Room for the whole file at once: a file of 100,000 reminders is 14 MB, and grown step by
        // step it would be copied and touched twice over.
        if statusRead, status.st_size > 0 { bytes.reserveCapacity(Int(status.st_size)) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw [cannotRead(path, code)]
            }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

    /// The digest of a file's bytes (``HoorayKit/ContentDigest``): one changed byte changes it.
    static func digest(of bytes: [UInt8]) -> String {
        var digest = ContentDigest()
        bytes.withUnsafeBytes { digest.add(bytes: $0) }
        return digest.value
    }

    /// A file's bytes as UTF-8 text.
    ///
    /// - Throws: ``ConfigDiagnostics`` naming the first byte that is not UTF-8.
    static func text(of bytes: [UInt8], path: String) throws(ConfigDiagnostics) -> String {
        // The standard library's check is fast; the slow walk only places the mistake.
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        if let bad = firstInvalidUTF8(in: bytes) {
            throw [
                .error(
                    at: SourceLocation(file: path, line: bad.line, column: bad.column),
                    "the file is not UTF-8 text", hint: "save it with UTF-8 encoding")
            ]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The `.toml` files in a directory, sorted by name byte by byte (as `ls` sorts in the C locale).
    ///
    /// Hidden files are left out, so an editor's or a package manager's leftovers are not read.
    /// - Returns: Full paths; none when the directory does not exist.
    /// - Throws: ``ConfigDiagnostics`` naming the directory when it exists but cannot be listed.
    static func tomlFiles(inDirectory directory: String) throws(ConfigDiagnostics) -> [String] {
        guard let stream = opendir(directory) else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return [] }
            throw [cannotRead(directory, code)]
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard name.hasSuffix(".toml"), !name.hasPrefix(".") else { continue }
            names.append(name)
        }
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let separator = directory.hasSuffix("/") ? "" : "/"
        return names.map { directory + separator + $0 }
    }

    private static func cannotRead(_ path: String, _ code: Int32) -> ConfigDiagnostic {
        let reason = String(cString: strerror(code)).lowercased()
        let hint: String? =
            code == EACCES
            ? "check the permissions: the user running hooray must be able to read it"
            : nil
        return .error(at: .wholeFile(path), "cannot read \(path): \(reason)", hint: hint)
    }

    /// Where the first byte that is not UTF-8 is, as a line and a column (in characters), or `nil`
    /// when every byte is.
    public static func firstInvalidUTF8(in bytes: [UInt8]) -> (line: Int, column: Int)? {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var line = 1
        var column = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1 && encoded.first == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .error:
                return (line, column)
            case .emptyInput:
                return nil
            }
        }
    }
}
