import Foundation
import HoorayCalendar
import HoorayKit
import HoorayText

/// What finding a habit by name needs of each habit: read without its history, so that looking one
/// up among thousands holds only their names.
struct HabitName: Decodable, Sendable {
    var id: UUID
    var name: String
    /// The day the habit is filed under: with the id, the order the record book keeps habits in.
    var start: LocalDate
    // Read so that a habit that would not decode whole is not found by its name either.
    var schedule: HabitSchedule
    var createdAt: Date

    var recordID: String { id.uuidString.lowercased() }

    /// Sorts as ``RecordBook/all()`` returns records: by start day, then by id.
    static func storedOrder(_ lhs: HabitName, _ rhs: HabitName) -> Bool {
        lhs.start != rhs.start ? lhs.start < rhs.start : lhs.recordID < rhs.recordID
    }

    /// Sorts by name without case, as `hooray habit list --names` lists them.
    static func byName(_ names: [HabitName]) -> [HabitName] {
        names.sorted(by: storedOrder).sorted { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }
    }
}

extension RecordBook where Record == Habit {
    /// Every habit, sorted by name without case.
    public func byName() async throws -> [Habit] {
        try await all().sorted { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }
    }

    /// Every habit's id, name and start, in the order of ``RecordBook/all()``; their histories are
    /// never decoded.
    func names() async throws -> [HabitName] {
        var names: [HabitName] = []
        try await forEach(as: HabitName.self) { names.append($0) }
        return names.sorted(by: HabitName.storedOrder)
    }

    /// Finds a habit by name, without case.
    ///
    /// Only the habits' names are read to find it, then the one habit.
    ///
    /// - Throws: ``PluginCommandError`` naming the nearest habit when there is none by that name.
    public func find(named name: String) async throws -> Habit {
        let names = try await names()
        let wanted = name.trimmingCharacters(in: .whitespaces)
        let matches = HabitName.byName(names.filter { $0.name.caseInsensitiveCompare(wanted) == .orderedSame })
        for match in matches {
            do {
                if let habit = try await record(match.recordID) { return habit }
            } catch is DecodingError {
                // Left out, as a list leaves out a habit that does not decode.
            }
        }
        guard !names.isEmpty else {
            throw PluginCommandError(
                "there is no habit \"\(wanted)\"; you have none yet. Add one with: hooray habit add \"\(wanted)\"")
        }
        let all = HabitName.byName(names)
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
