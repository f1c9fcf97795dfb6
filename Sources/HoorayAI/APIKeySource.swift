import Foundation
import HoorayKit

#if canImport(Glibc)
    import Glibc
#endif

/// Reads the API key at request time, from an environment variable or a private file.
///
/// Reading it per request means a rotated key is picked up without a restart, and the key is
/// held in memory only while a request is being made. The key is checked to be a single token
/// of visible ASCII, so it can never break out of its `Authorization` header line.
struct APIKeySource: Sendable {
    /// The environment variable's name, if the key comes from one.
    var environmentVariable: String?
    /// The file's path, if the key comes from one.
    var file: String?

    /// The key, or `nil` when none is configured (local servers need none).
    ///
    /// - Throws: ``AIRequestError/apiKeyUnavailable(reason:)`` when the configured variable or file
    ///   gives no usable key, ``AIRequestError/apiKeyFileTooOpen(path:mode:)`` when others may read the file.
    func resolve() throws(AIRequestError) -> String? {
        if let name = environmentVariable {
            guard let value = ProcessInfo.processInfo.environment[name] else {
                throw .apiKeyUnavailable(
                    reason: "the environment variable \(name) (api_key_env) is not set for hoorayd; set it in "
                        + "the service's environment, or use api_key_file")
            }
            return try Self.checked(value, from: "the environment variable \(name)")
        }
        if let file {
            return try Self.checked(
                Self.contents(ofKeyFile: Self.expandingHome(file)), from: "the file \(Self.expandingHome(file))")
        }
        return nil
    }

    /// Reads a key file, checking who owns it and who may read it on the open file itself, so
    /// the file cannot be swapped between the check and the read.
    private static func contents(ofKeyFile path: String) throws(AIRequestError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw .apiKeyUnavailable(reason: "cannot open the API key file \(path) (api_key_file): \(reason)")
        }
        defer { Glibc.close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw .apiKeyUnavailable(reason: "the API key file \(path) is not a regular file")
        }
        guard info.st_uid == geteuid() else {
            throw .apiKeyUnavailable(
                reason: "the API key file \(path) belongs to another user; make your own copy and run "
                    + "`chmod 600` on it")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw .apiKeyFileTooOpen(path: path, mode: Int(info.st_mode & 0o7777))
        }
        var bytes = [UInt8](repeating: 0, count: 8192)
        var length = 0
        while length < bytes.count {
            let count = bytes[length...].withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw .apiKeyUnavailable(
                    reason: "cannot read the API key file \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            length += count
        }
        guard length < bytes.count else {
            throw .apiKeyUnavailable(reason: "the API key file \(path) is too large to hold only a key")
        }
        return String(decoding: bytes[..<length], as: UTF8.self)
    }

    /// Trims the key and checks it is one token of visible ASCII, never repeating it.
    private static func checked(_ raw: String, from source: String) throws(AIRequestError) -> String {
        let key = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else { throw .apiKeyUnavailable(reason: "\(source) is empty") }
        guard key.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            throw .apiKeyUnavailable(
                reason: "the key in \(source) contains spaces, line breaks or other characters an API key "
                    + "cannot have; it should be a single line")
        }
        return key
    }

    private static func expandingHome(_ path: String) -> String {
        guard path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] else { return path }
        return home + path.dropFirst(1)
    }
}
