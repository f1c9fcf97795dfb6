import Foundation
import HoorayKit

extension Moment: PluginRecord {
    /// Moments are records of the kind `moment`.
    public static let recordKind = "moment"
    /// Before the record book, each moment was kept under `moment.<id>` in the plugin's storage.
    public static let legacyKeyPrefix: String? = "moment."
    /// A moment is filed under when it happened, so it falls on the viewer's local day.
    public var recordDate: RecordDate { .instant(happenedAt) }
}

/// The wins plugin's moments (in its record book) and its few flags (in its key-value storage).
///
/// Every change goes through the record book's ``RecordBook/update(_:_:)`` or the store's
/// ``PluginStore/update(forKey:_:)``, so the daemon, its retries and a CLI hosting the plugin never
/// overwrite each other's changes.
public struct MomentBook: Sendable {
    /// The moments.
    public let moments: RecordBook<Moment>
    /// The flags.
    let store: any PluginStore

    static let firstLogKey = "flag.hasCompletedFirstLog"
    static let welcomeKey = "flag.welcomeShown"
    static let recentPraiseKey = "recentPraise"

    /// Creates a book from a plugin's context.
    public init(context: PluginContext) {
        moments = context.records(of: Moment.self)
        store = context.storage
    }

    /// Every moment, oldest first; unreadable records are skipped.
    public func all() async throws -> [Moment] {
        try await moments.all()
    }

    /// One moment, or `nil`.
    public func moment(_ id: UUID) async throws -> Moment? {
        try await moments.record(id.uuidString.lowercased())
    }

    /// Changes a moment in one step.
    ///
    /// - Returns: The moment as saved, or `nil` when it no longer exists (the user deleted their data).
    @discardableResult
    public func update(_ id: UUID, _ change: @escaping @Sendable (inout Moment) -> Void) async throws -> Moment? {
        try await moments.update(id.uuidString.lowercased()) { moment in
            change(&moment)
            return moment
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
        try await store.update(forKey: key) { data in
            let wasSet = data.flatMap { try? JSONDecoder().decode(Bool.self, from: $0) } == true
            data = Data("true".utf8)
            return wasSet
        }
    }

    /// Picks offline praise that is none of the last few picked, and remembers it.
    func pickPraise(from pool: PraisePool) async throws -> String {
        let index = try await store.update(forKey: Self.recentPraiseKey) { data in
            let recent = data.flatMap { try? JSONDecoder().decode([Int].self, from: $0) } ?? []
            var random = SystemRandomNumberGenerator()
            let choice = pool.pick(avoiding: recent.filter { $0 < pool.lines.count }, using: &random)
            data = try JSONEncoder().encode(choice.recent)
            return choice.index
        }
        return pool.lines.isEmpty ? "That counts." : pool.lines[index]
    }
}
