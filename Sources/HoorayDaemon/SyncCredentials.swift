import Foundation
import HoorayClient
import HoorayKeyring
import HooraySyncFolder

/// Where the sync key is kept: the desktop's keyring when it answers ("Hooray sync key"), otherwise
/// a private file beside the database (`sync-key`, mode 600), as the anonymous id is.
struct SyncCredentials: Sendable {
    let paths: HoorayPaths
    let keyring: Keyring

    init(paths: HoorayPaths, keyring: Keyring = Keyring()) {
        self.paths = paths
        self.keyring = keyring
    }

    var filePath: String { paths.dataDirectory + "/sync-key" }

    /// The key, from the keyring or the file; `nil` when sync was never set up here.
    func load() -> SyncKey? {
        if case .found(let text) = keyring.lookup(.syncKey), let key = Self.key(fromHex: text) { return key }
        guard let data = FileManager.default.contents(atPath: filePath) else { return nil }
        return Self.key(fromHex: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Keeps the key: in the keyring when it takes it, otherwise in the private file.
    ///
    /// - Returns: Where it was kept, in words.
    func store(_ key: SyncKey) throws -> String {
        let hex = key.bytes.map { byte in String(byte >> 4, radix: 16) + String(byte & 15, radix: 16) }.joined()
        do {
            try keyring.store(.syncKey, value: hex)
            try? FileManager.default.removeItem(atPath: filePath)
            return "your keyring, as “\(SecretKind.syncKey.label)”"
        } catch {
            try FileManager.default.createDirectory(atPath: paths.dataDirectory, withIntermediateDirectories: true)
            guard
                FileManager.default.createFile(
                    atPath: filePath, contents: Data(hex.utf8), attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteNoPermission) }
            return filePath
        }
    }

    static func key(fromHex text: String) -> SyncKey? {
        let digits = Array(text.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return SyncKey(bytes: bytes)
    }
}
