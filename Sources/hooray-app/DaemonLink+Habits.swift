import HoorayKit

/// The habits plugin's commands the window runs, as `hooray habit …` does from a terminal.
extension DaemonLink {
    /// The built-in plugin of habits.
    static let habitsPlugin = "habits"

    /// A habit as the Habits view lists it: a `hooray habit list --json` element (docs/json.md, `habit`).
    struct ListedHabit: Sendable, Equatable, Decodable {
        var id: String
        var name: String
        /// The streak, in days.
        var streak: Int
        /// Today for it: `done`, `due`, `notDue` or `paused`.
        var today: String
        /// The milestone badge it holds, in days, such as 30.
        var badge: Int?
        /// Why the user started it, their own words ("remember why"), if they wrote any.
        var why: String?
    }

    /// The habits, by name, with today's state, as `hooray habit list --json` lists them.
    func habits() async throws(Problem) -> [ListedHabit] {
        let reply = try await command("list", plugin: Self.habitsPlugin, values: [:], json: true, requestID: nil)
        guard let listed = try? reply.json?.decode([ListedHabit].self) else {
            throw .failed("hoorayd listed the habits in a form this window does not read; update Hooray")
        }
        return listed
    }

    /// Marks a habit done today, or takes the mark back, as `hooray habit done NAME` (`undo`) does;
    /// a milestone reached is celebrated by hoorayd as from a terminal.
    ///
    /// - Returns: The habit's streak now, in days.
    func setHabitDone(_ name: String, to done: Bool, requestID: String) async throws(Problem) -> Int? {
        let reply = try await command(
            done ? "done" : "undo", plugin: Self.habitsPlugin, values: ["name": [name]], json: true,
            requestID: requestID)
        if case .number(let streak) = reply.json?["streak"] { return Int(streak) }
        return nil
    }

    /// Adds a habit done every day, as `hooray habit add NAME --why WHY` does; no note when `why` is
    /// empty.
    func addHabit(_ name: String, why: String = "", requestID: String) async throws(Problem) {
        var values = ["name": [name]]
        if !why.isEmpty { values["why"] = [why] }
        _ = try await command("add", plugin: Self.habitsPlugin, values: values, json: true, requestID: requestID)
    }

    /// Pauses a habit until it is resumed, as `hooray habit pause NAME` does: paused days neither
    /// count nor break the streak, and its reminders wait.
    func pauseHabit(_ name: String, requestID: String) async throws(Problem) {
        _ = try await command(
            "pause", plugin: Self.habitsPlugin, values: ["name": [name]], json: false, requestID: requestID)
    }

    /// Ends a habit's pause today, as `hooray habit resume NAME` does.
    func resumeHabit(_ name: String, requestID: String) async throws(Problem) {
        _ = try await command(
            "resume", plugin: Self.habitsPlugin, values: ["name": [name]], json: false, requestID: requestID)
    }

    /// Starts a habit's streak again today with what happened, as `hooray habit reset NAME --note
    /// NOTE` does; no note when `note` is empty.
    func resetHabit(_ name: String, note: String, requestID: String) async throws(Problem) {
        var values = ["name": [name]]
        if !note.isEmpty { values["note"] = [note] }
        _ = try await command("reset", plugin: Self.habitsPlugin, values: values, json: false, requestID: requestID)
    }
}
