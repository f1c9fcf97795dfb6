import Foundation
import HoorayKit

/// The wins plugin's records in its plugin storage: each moment under `moment.<id>`, plus a few flags.
///
/// Every change goes through ``PluginStore/modify(forKey:_:)``, so the daemon, its retries and a
/// CLI hosting the plugin never overwrite each other's changes to a moment.
public struct MomentBook: Sendable {
    let store: any PluginStore

    static let momentPrefix = "moment."
    static let firstLogKey = "flag.hasCompletedFirstLog"
    static let welcomeKey = "flag.welcomeShown"
    static let recentPraiseKey = "recentPraise"

    /// Creates a book over a plugin's storage.
    public init(store: any PluginStore) {
        self.store = store
    }

    static func key(for id: UUID) -> String { momentPrefix + id.uuidString.lowercased() }

    /// Every moment, in no particular order; unreadable records are skipped.
    public func all() async throws -> [Moment] {
        try await store.values(withPrefix: Self.momentPrefix).compactMap { try? Self.decode($0.data) }
    }

    /// One moment, or `nil`.
    public func moment(_ id: UUID) async throws -> Moment? {
        try await store.data(forKey: Self.key(for: id)).map(Self.decode)
    }

    /// Saves a new moment.
    public func insert(_ moment: Moment) async throws {
        try await store.setData(try Self.encode(moment), forKey: Self.key(for: moment.id))
    }

    /// The records of a newly logged moment — the moment and the "first log done" flag — to save
    /// with its notice in one step (``NoticeBoard/post(_:storing:)``).
    static func records(logging moment: Moment) throws -> [String: Data] {
        [key(for: moment.id): try encode(moment), firstLogKey: Data("true".utf8)]
    }

    /// Changes a moment in one step.
    ///
    /// - Returns: The moment as saved, or `nil` when it no longer exists (the user deleted their data).
    @discardableResult
    public func update(_ id: UUID, _ change: @escaping @Sendable (inout Moment) -> Void) async throws -> Moment? {
        let data = try await store.modify(forKey: Self.key(for: id)) { old in
            guard let old else { return nil }
            var moment = try Self.decode(old)
            change(&moment)
            return try Self.encode(moment)
        }
        return try data.map(Self.decode)
    }

    /// Finds the moment whose id starts with `prefix`.
    ///
    /// - Throws: ``PluginCommandError`` when none or several match.
    public func find(prefix: String) async throws -> Moment {
        let wanted = prefix.lowercased().trimmingCharacters(in: .whitespaces)
        guard wanted.count >= 4, wanted.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw PluginCommandError(
                "\"\(prefix)\" is not a moment id; give at least its first 4 characters, as `hooray moments` shows them"
            )
        }
        let matches = try await all().filter { $0.id.uuidString.lowercased().hasPrefix(wanted) }
        switch matches.count {
        case 0:
            throw PluginCommandError("no moment has an id starting with \(wanted); `hooray moments` lists them")
        case 1:
            return matches[0]
        default:
            throw PluginCommandError(
                "\(matches.count) moments have ids starting with \(wanted); give more characters of the id")
        }
    }

    /// Whether the user has logged a moment before.
    public func hasCompletedFirstLog() async throws -> Bool { try await flag(Self.firstLogKey) }

    /// Whether the welcome notification was shown.
    public func welcomeShown() async throws -> Bool { try await flag(Self.welcomeKey) }

    func flag(_ key: String) async throws -> Bool {
        try await store.value(forKey: key, as: Bool.self) ?? false
    }

    /// Sets a flag; returns whether it was already set, in one step.
    func setFlag(_ key: String) async throws -> Bool {
        let wasSet = Flag()
        try await store.modify(forKey: key) { old in
            if let old, (try? JSONDecoder().decode(Bool.self, from: old)) == true { wasSet.value = true }
            return Data("true".utf8)
        }
        return wasSet.value
    }

    /// Picks offline praise that is none of the last few picked, and remembers it.
    func pickPraise(from pool: PraisePool) async throws -> String {
        let picked = Flag(index: 0)
        try await store.modify(forKey: Self.recentPraiseKey) { old in
            let recent = old.flatMap { try? JSONDecoder().decode([Int].self, from: $0) } ?? []
            var random = SystemRandomNumberGenerator()
            let choice = pool.pick(avoiding: recent.filter { $0 < pool.lines.count }, using: &random)
            picked.index = choice.index
            return try JSONEncoder().encode(choice.recent)
        }
        return pool.lines.isEmpty ? "That counts." : pool.lines[picked.index]
    }

    static func encode(_ moment: Moment) throws -> Data {
        try StoredRecord.encode(moment)
    }

    static func decode(_ data: Data) throws -> Moment {
        try StoredRecord.decode(Moment.self, from: data)
    }
}

/// A result carried out of a `modify` closure, which runs synchronously inside the store's transaction.
final class Flag: @unchecked Sendable {
    // @unchecked: written only inside one synchronous `modify` transform, read after it returns.
    var value = false
    var index: Int

    init(index: Int = 0) {
        self.index = index
    }
}

/// How the records are stored: JSON, dates as seconds since 1970, keys sorted.
enum StoredRecord {
    static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(Value.self, from: data)
    }
}
