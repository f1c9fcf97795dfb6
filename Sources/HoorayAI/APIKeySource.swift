import Foundation
import HoorayKeyring
import HoorayKit

#if canImport(Glibc)
    import Glibc
#endif

/// Reads the API key at request time, from an environment variable, a private file or the keyring.
///
/// Reading it per request means a rotated key is picked up without a restart, and the key is
/// held in memory only while a request is being made. The key is checked to be a single token
/// of visible ASCII, so it can never break out of its `Authorization` header line.
struct APIKeySource: Sendable {
    /// The environment variable's name, if the key comes from one.
    var environmentVariable: String?
    /// The file's path, if the key comes from one.
    var file: String?
    /// Whether the configuration says the key is in the keyring (`api_key = "keyring"`).
    var inKeyring: Bool
    /// The provider whose key is looked up in the keyring, such as `openai`.
    var provider: String
    /// The keyring to look in.
    var keyring: Keyring

    /// A source for a configuration's key settings.
    init(configuration: AIConfiguration, keyring: Keyring) {
        environmentVariable = configuration.apiKeyEnv
        file = configuration.apiKeyFile
        inKeyring = configuration.apiKey == .keyring
        provider = configuration.provider.rawValue
        self.keyring = keyring
    }

    /// The key, or `nil` when none is configured or stored (local servers need none).
    ///
    /// With neither a variable nor a file configured, the keyring is asked for the provider's key:
    /// when `api_key = "keyring"` says it must be there, a missing key is an error; otherwise a
    /// stored key is used when there is one, and a locked keyring is an error (the request waits
    /// until it is unlocked, rather than go out without the key the user stored).
    ///
    /// - Throws: ``AIRequestError/apiKeyUnavailable(reason:)`` when the configured variable, file or
    ///   keyring gives no usable key, ``AIRequestError/apiKeyFileTooOpen(path:mode:)`` when others may
    ///   read the file.
    func resolve() async throws(AIRequestError) -> String? {
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
        return try await fromKeyring()
    }

    /// The provider's key from the keyring; `nil` when it is not required and there is none.
    private func fromKeyring() async throws(AIRequestError) -> String? {
        let kind = SecretKind.aiKey(provider: provider)
        let keyring = keyring
        let lookup = await Keyring.offThread { keyring.lookup(kind) }
        switch lookup {
        case .found(let value):
            return try Self.checked(value, from: "the keyring item “\(kind.label)”")
        case .notFound:
            guard inKeyring else { return nil }
            throw .apiKeyUnavailable(
                reason: "no AI key is stored in your keyring for \(provider); run `hooray ai set-key` "
                    + "(api_key = \"keyring\" in the [ai] section)")
        case .locked:
            throw .apiKeyUnavailable(
                reason: "your keyring is locked, so the AI key for \(provider) cannot be read; moments wait "
                    + "and are asked for again once it is unlocked (log in to your desktop, or unlock the "
                    + "Login keyring in Passwords and Keys)")
        case .ambiguous(let count):
            throw .apiKeyUnavailable(
                reason: "your keyring holds \(count) AI keys for \(provider), so Hooray cannot tell which to "
                    + "use; run `hooray ai set-key` to store it again, which replaces them all")
        case .unavailable(let reason):
            guard inKeyring else { return nil }
            throw .apiKeyUnavailable(
                reason: "the keyring cannot be asked (\(reason)); start your desktop's keyring, or keep the key "
                    + "in a file of mode 600 and set api_key_file instead of api_key = \"keyring\"")
        }
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
