import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The permissions the user has allowed each plugin in another language: `plugin-permissions.json`
/// in Hooray's data folder.
///
/// A small file rather than a table of the database: `hooray` and `hoorayd` build their plugin
/// catalogs before either opens the database, `hooray plugins` reads it while the database is busy
/// or read-only, and a plugin's sandbox never shows it the data folder, only its own `plugin-data/NAME`.
/// It is changed under an exclusive `flock` of the data folder and replaced whole with `rename`, so
/// that a `hooray` and a `hoorayd` that look at once each see one complete record.
struct PluginPermissionRecord: Equatable {
    /// The permissions allowed, by plugin name, as `plugin.toml` spells them.
    var allowed: [String: Set<PluginPermission>] = [:]

    static let fileName = "plugin-permissions.json"

    private struct File: Codable {
        var plugins: [String: [String]]
    }

    /// Reads the record of a data folder; an absent one is empty. A record that is there but cannot
    /// be read or is damaged is `nil`: nothing can be taken as allowed then.
    static func read(dataDirectory: String) -> PluginPermissionRecord? {
        let path = dataDirectory + "/" + fileName
        guard let data = FileManager.default.contents(atPath: path) else {
            return FileManager.default.fileExists(atPath: path) ? nil : PluginPermissionRecord()
        }
        guard let file = try? JSONDecoder().decode(File.self, from: data) else { return nil }
        var record = PluginPermissionRecord()
        for (name, words) in file.plugins {
            // A word from a later Hooray is left out: this one cannot have allowed it.
            record.allowed[name] = Set(words.compactMap(PluginPermission.init(rawValue:)))
        }
        return record
    }

    /// Writes the record: a new file beside the old one, then `rename` over it.
    func write(dataDirectory: String) throws {
        let file = File(plugins: allowed.mapValues { $0.sorted().map(\.rawValue) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(file) + Data("\n".utf8)
        let path = dataDirectory + "/" + Self.fileName
        let temporary = path + ".new-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw RecordError(path: temporary, code: errno) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let written = (try? handle.write(contentsOf: data)) != nil
        let synced = fsync(descriptor) == 0
        try? handle.close()
        guard written, synced, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw RecordError(path: path, code: code)
        }
    }

    /// Runs `body` holding an exclusive lock on the data folder, so that one process at a time
    /// reads, changes and writes the record. Without the folder, `body` runs unlocked.
    static func locked<T>(dataDirectory: String, _ body: () throws -> T) rethrows -> T {
        let descriptor = open(dataDirectory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// A record that could not be written.
    struct RecordError: Error, CustomStringConvertible {
        var path: String
        var code: Int32
        var description: String {
            "cannot write \(path): \(String(cString: strerror(code)).lowercased())"
        }
    }
}

/// Whether a plugin in another language is held: its `plugin.toml` asks for permissions the user
/// has not allowed yet. Shared by the ``PluginCatalog`` that decides it and the ``ExternalPlugin``
/// the engine starts, or does not.
public final class PluginHold: @unchecked Sendable {
    // @unchecked: `waiting` is guarded by `lock`.
    private let lock = NSLock()
    private var waiting: Set<PluginPermission> = []

    init() {}

    /// The permissions it asks for that are not allowed yet; empty when it is not held.
    public var notAllowed: Set<PluginPermission> {
        get { lock.withLock { waiting } }
        set { lock.withLock { waiting = newValue } }
    }

    /// Whether it is held.
    public var isHeld: Bool { !notAllowed.isEmpty }
}

extension PluginManifest {
    /// Why a plugin asking for `notAllowed` is held, and the fix, as `hooray plugins` says it; `nil`
    /// when nothing waits to be allowed.
    public func heldReason(notAllowed: Set<PluginPermission>) -> String? {
        guard !notAllowed.isEmpty else { return nil }
        let words = Self.joined(notAllowed.sorted().map { plainWords(for: $0) })
        let them = notAllowed.count == 1 ? "it" : "them"
        return "held: its plugin.toml now asks to \(words), which you have not allowed; "
            + "`hooray plugins show \(name)` says what it could reach, `hooray plugins allow \(name)` allows \(them) and starts it"
    }
}

extension ExternalPlugin {
    /// Why it is held (``PluginManifest/heldReason(notAllowed:)``); `nil` when it is not.
    public var heldReason: String? {
        manifest.heldReason(notAllowed: hold.notAllowed)
    }
}
