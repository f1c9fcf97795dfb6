import Foundation
import HoorayKit

/// The commands of the habits plugin, as `hooray habit …` sends them.
public enum HabitCommand {
    public static let add = "add"
    public static let edit = "edit"
    public static let rename = "rename"
    public static let delete = "delete"
    public static let done = "done"
    public static let undo = "undo"
    public static let pause = "pause"
    public static let resume = "resume"
    public static let reset = "reset"
}

/// The arguments of a habit command; each command reads the fields it needs.
public struct HabitRequest: Sendable, Hashable, Codable {
    /// The habit's name.
    public var name: String
    /// A new name (`rename`).
    public var newName: String?
    /// The "remember why" note (`add`, `edit`); an empty string removes it.
    public var why: String?
    /// `--every`: `day` or an interval such as `3d`.
    public var every: String?
    /// `--on`: weekdays such as `mon,wed,fri`.
    public var on: String?
    /// `--remind HH:MM`; `off` removes the reminder.
    public var remind: String?
    /// `--start DATE`.
    public var start: String?
    /// `--date DATE` (`done`, `undo`).
    public var date: String?
    /// `--for 5d` (`pause`).
    public var duration: String?
    /// `--until DATE` (`pause`).
    public var until: String?
    /// The reset note (`reset`).
    public var note: String?

    /// Creates a request.
    public init(
        name: String, newName: String? = nil, why: String? = nil, every: String? = nil, on: String? = nil,
        remind: String? = nil, start: String? = nil, date: String? = nil, duration: String? = nil,
        until: String? = nil, note: String? = nil
    ) {
        self.name = name
        self.newName = newName
        self.why = why
        self.every = every
        self.on = on
        self.remind = remind
        self.start = start
        self.date = date
        self.duration = duration
        self.until = until
        self.note = note
    }
}

/// What a habit command answers.
public struct HabitReply: Sendable, Hashable, Codable {
    /// The habit after the command (before it, for `delete`).
    public var habit: Habit
    /// Its streak now, in days.
    public var streak: Int
    /// What happened, for the terminal.
    public var message: String
    /// Further gentle notes, such as "not due today; counted as an extra".
    public var notes: [String]
    /// The celebration's line, when the command reached a milestone.
    public var celebration: String?
}

/// The rules habit input must follow, shared by the plugin and the CLI.
public enum HabitRules {
    /// The longest name, in characters.
    public static let maxNameLength = 200
    /// The longest note, in characters.
    public static let maxNoteLength = 2000

    /// Reads `--every` and `--on` into a schedule; neither means every day.
    public static func schedule(every: String?, on: String?) throws -> HabitSchedule? {
        switch (every, on) {
        case (nil, nil):
            return nil
        case (.some, .some):
            throw PluginCommandError("give either --every or --on, not both")
        case (let every?, nil):
            let text = every.trimmingCharacters(in: .whitespaces).lowercased()
            if ["day", "daily", "1d", "1 day", "every day"].contains(text) { return .daily }
            if text.hasPrefix("0") || text.hasPrefix("-") {
                throw PluginCommandError("--every \(every) is not a rhythm; use at least one day, such as --every 3d")
            }
            guard let interval = DayInterval(parsing: text) else {
                throw PluginCommandError(
                    "--every \(every) is not a rhythm; write --every day, or a number of days or weeks such as --every 3d or --every 2w"
                )
            }
            return interval.days == 1 ? .daily : .everyNDays(interval.days)
        case (nil, let on?):
            do {
                let days = try Weekday.parseSet(on)
                return days.count == 7 ? .daily : .weekdays(days)
            } catch {
                throw PluginCommandError("--on: \(error)")
            }
        }
    }

    /// Reads `--remind HH:MM`; `off` means no reminder.
    public static func remindTime(_ text: String) throws -> TimeOfDay? {
        if ["off", "none", "no"].contains(text.lowercased()) { return nil }
        guard let time = TimeOfDay(parsing: text) else {
            throw PluginCommandError("--remind \(text) is not a time; write it as HH:MM in 24-hour form, such as 20:00")
        }
        return time
    }

    /// The longest `--for` of a pause: ten years. Longer is a pause until `hooray habit resume`,
    /// which is what leaving `--for` out gives; the cap also keeps the last paused day a date that
    /// can be written as `YYYY-MM-DD` and read back.
    public static let maxPauseDays = 3660

    /// Reads `--for` and `--until` of a pause into its last paused day; neither means until resumed.
    ///
    /// - Parameters:
    ///   - duration: `--for`, a number of days or weeks such as `5d`.
    ///   - until: `--until`, the last paused day: today or later.
    ///   - input: Reads what the user typed, against today.
    /// - Returns: The last paused day, or `nil` for a pause until `hooray habit resume`.
    /// - Throws: ``PluginCommandError`` naming the value that cannot be used.
    public static func pauseEnd(for duration: String?, until: String?, input: TimeInput) throws -> LocalDate? {
        switch (duration, until) {
        case (.some, .some):
            throw PluginCommandError("give either --for or --until, not both")
        case (let duration?, nil):
            let days = try input.days(duration, option: "--for")
            guard days <= maxPauseDays else {
                throw TimeInput.refusal(
                    "--for", duration, "is longer than ten years",
                    "give at most \(maxPauseDays)d, or leave --for out to pause until you resume")
            }
            return input.today.adding(days: days - 1)
        case (nil, let until?):
            return try input.day(until, option: "--until", limit: .todayOrLater)
        case (nil, nil):
            return nil
        }
    }

    /// Checks a habit name.
    public static func checkName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw PluginCommandError("a habit needs a name, such as \"Read 10 pages\"") }
        guard trimmed.count <= maxNameLength else {
            throw PluginCommandError("the name is \(trimmed.count) characters long; use at most \(maxNameLength)")
        }
        guard !trimmed.contains(where: \.isNewline) else {
            throw PluginCommandError("a habit's name is one line; put more in --why")
        }
        return trimmed
    }
}
