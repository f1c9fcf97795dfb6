import Foundation
import HoorayKit

extension RecordBook where Record == Habit {
    /// Every habit, sorted by name without case.
    public func byName() async throws -> [Habit] {
        try await all().sorted { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }
    }

    /// Finds a habit by name, without case.
    ///
    /// - Throws: ``PluginCommandError`` naming the nearest habit when there is none by that name.
    public func find(named name: String) async throws -> Habit {
        let all = try await byName()
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
            message += "; did you mean \"\(TerminalText.safe(original.name))\"? "
        } else {
            message += "; "
        }
        message += "`hooray habit list` shows them all."
        throw PluginCommandError(message)
    }

    /// Changes a habit in one step.
    ///
    /// - Parameter change: Changes the habit and returns a value; what it throws is rethrown and
    ///   nothing is saved.
    /// - Returns: The habit as saved, and what `change` returned.
    /// - Throws: ``PluginCommandError`` when the habit was deleted meanwhile.
    public func change<Value: Sendable>(
        _ id: UUID, _ change: @escaping @Sendable (inout Habit) throws -> Value
    ) async throws -> (habit: Habit, value: Value) {
        let changed = try await update(id.uuidString.lowercased()) { habit in
            let value = try change(&habit)
            return (habit, value)
        }
        guard let changed else { throw PluginCommandError("that habit was just deleted") }
        return (changed.0, changed.1)
    }
}
