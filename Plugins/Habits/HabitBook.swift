import Foundation
import HoorayKit

/// The habits plugin's records: each habit under `habit.<id>` in its plugin storage.
///
/// Changes go through ``PluginStore/modify(forKey:_:)``, so the daemon (a click on "Done") and the
/// CLI never overwrite each other's changes.
public struct HabitBook: Sendable {
    let store: any PluginStore

    static let prefix = "habit."

    /// Creates a book over the plugin's storage.
    public init(store: any PluginStore) {
        self.store = store
    }

    static func key(for id: UUID) -> String { prefix + id.uuidString.lowercased() }

    /// Every habit, sorted by name without case.
    public func all() async throws -> [Habit] {
        try await store.values(withPrefix: Self.prefix)
            .compactMap { try? StoredRecord.decode(Habit.self, from: $0.data) }
            .sorted { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }
    }

    /// One habit, or `nil`.
    public func habit(_ id: UUID) async throws -> Habit? {
        try await store.data(forKey: Self.key(for: id)).map { try StoredRecord.decode(Habit.self, from: $0) }
    }

    /// Finds a habit by name, without case.
    ///
    /// - Throws: ``PluginCommandError`` naming the nearest habit when there is none by that name.
    public func find(named name: String) async throws -> Habit {
        let all = try await all()
        let wanted = name.trimmingCharacters(in: .whitespaces)
        if let match = all.first(where: { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }) { return match }
        guard !all.isEmpty else {
            throw PluginCommandError(
                "there is no habit \"\(wanted)\"; you have none yet. Add one with: hooray habit add \"\(wanted)\"")
        }
        var message = "there is no habit \"\(wanted)\""
        if let near = NameSuggestion.closest(to: wanted.lowercased(), among: all.map { $0.name.lowercased() }),
            let original = all.first(where: { $0.name.lowercased() == near })
        {
            message += "; did you mean \"\(original.name)\"?"
        }
        message += " `hooray habit list` shows them all."
        throw PluginCommandError(message)
    }

    /// Saves a habit, new or changed.
    public func save(_ habit: Habit) async throws {
        try await store.setData(try StoredRecord.encode(habit), forKey: Self.key(for: habit.id))
    }

    /// Changes a habit in one step.
    ///
    /// - Parameter change: Changes the habit; what it throws is rethrown and nothing is saved.
    /// - Returns: The habit as saved.
    @discardableResult
    public func update(_ id: UUID, _ change: @escaping @Sendable (inout Habit) throws -> Void) async throws -> Habit {
        let data = try await store.modify(forKey: Self.key(for: id)) { old in
            guard let old else { throw PluginCommandError("that habit was just deleted") }
            var habit = try StoredRecord.decode(Habit.self, from: old)
            try change(&habit)
            return try StoredRecord.encode(habit)
        }
        guard let data else { throw PluginCommandError("that habit was just deleted") }
        return try StoredRecord.decode(Habit.self, from: data)
    }

    /// Deletes a habit and its history.
    public func delete(_ id: UUID) async throws {
        try await store.setData(nil, forKey: Self.key(for: id))
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
