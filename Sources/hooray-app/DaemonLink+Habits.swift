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

    /// Pauses a habit, as `hooray habit pause NAME [--for Nd]` does: for `days` days from today, or
    /// until it is resumed (`nil`). Paused days neither count nor break the streak, and its reminders
    /// wait.
    ///
    /// - Returns: hoorayd's words, such as "Paused “Run” through Sunday 6 December. …".
    func pauseHabit(_ name: String, days: Int? = nil, requestID: String) async throws(Problem) -> String {
        var values = ["name": [name]]
        if let days { values["for"] = ["\(days)d"] }
        return try await command("pause", plugin: Self.habitsPlugin, values: values, json: false, requestID: requestID)
            .text
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

    /// A habit with a month of its calendar: a `hooray habit show NAME --month YYYY-MM --json`
    /// reply (docs/json.md, `habitMonth`).
    struct HabitMonth: Sendable, Equatable, Decodable {
        var id: String
        var name: String
        var why: String?
        var streak: Int
        /// Today for it: `done`, `due`, `notDue` or `paused`.
        var today: String
        /// The rhythm in words, such as `every day` or `mon, wed, fri`.
        var schedule: String
        /// The reminder's time, `HH:MM`.
        var remindAt: String?
        var badge: Int?
        /// The day hoorayd counts as today, `YYYY-MM-DD`.
        var asOf: String
        /// The habit's first day, `YYYY-MM-DD`.
        var start: String
        /// The weekdays it is due, `mon` … `sun`; `nil` for a rhythm of every few days.
        var on: [String]?
        /// The days from one due day to the next, for a rhythm of every few days.
        var every: Int?
        /// The streak lengths that earn a badge, lowest first.
        var milestones: [Int]
        /// The month, `YYYY-MM`.
        var month: String
        /// Each day of the month, the 1st first.
        var days: [Day]

        /// A day of the month: `date` `YYYY-MM-DD`; `state` `done`, `reset`, `paused`, `missed`,
        /// `open`, `notDue` or `comingUp`.
        struct Day: Sendable, Equatable, Decodable {
            var date: String
            var state: String
        }
    }

    /// A habit and a month of its calendar, as `hooray habit show NAME --month YYYY-MM --json` gives them.
    ///
    /// - Parameters:
    ///   - name: The habit's name.
    ///   - month: `YYYY-MM`, or `nil` for hoorayd's this month.
    func habitMonth(_ name: String, month: String?) async throws(Problem) -> HabitMonth {
        var values = ["name": [name]]
        if let month { values["month"] = [month] }
        let reply = try await command("show", plugin: Self.habitsPlugin, values: values, json: true, requestID: nil)
        guard let shown = try? reply.json?.decode(HabitMonth.self) else {
            throw .failed("hoorayd showed the habit in a form this window does not read; update Hooray")
        }
        return shown
    }

    /// What the window changes of a habit, as `hooray habit edit` takes it: each `nil` stays as it is.
    struct HabitChange: Sendable, Equatable {
        /// Its "remember why"; empty removes it.
        var why: String?
        /// The weekdays it is due, `mon` … `sun` (all seven: every day).
        var on: [String]?
        /// Every this many days.
        var every: Int?
        /// The reminder's time, `HH:MM`; empty: no reminder.
        var remindAt: String?

        /// The command's values: `--why`, `--on` or `--every`, `--remind`.
        var values: [String: [String]] {
            var values: [String: [String]] = [:]
            if let why { values["why"] = [why] }
            if let on { values[on.count == 7 ? "every" : "on"] = [on.count == 7 ? "day" : on.joined(separator: ",")] }
            if let every { values["every"] = ["\(every)d"] }
            if let remindAt { values["remind"] = [remindAt.isEmpty ? "off" : remindAt] }
            return values
        }
    }

    /// Changes a habit's "remember why", rhythm or reminder, as `hooray habit edit NAME …` does; its
    /// history stays. hoorayd refuses a value it cannot take (`--on`, `--every`, `--remind`) and
    /// changes nothing.
    func editHabit(_ name: String, _ change: HabitChange, requestID: String) async throws(Problem) {
        var values = change.values
        values["name"] = [name]
        _ = try await command("edit", plugin: Self.habitsPlugin, values: values, json: false, requestID: requestID)
    }
}
