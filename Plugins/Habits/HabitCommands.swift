import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayText

/// The names of the habit commands that change a habit, as ``HabitsPlugin/commands`` declares them.
enum HabitCommand {
    static let add = "add"
    static let edit = "edit"
    static let rename = "rename"
    static let delete = "delete"
    static let done = "done"
    static let undo = "undo"
    static let pause = "pause"
    static let resume = "resume"
    static let reset = "reset"
}

/// The arguments of a habit command, read from its options; each command reads the fields it needs.
struct HabitRequest: Sendable, Hashable {
    /// The habit's name.
    var name: String
    /// A new name (`rename`).
    var newName: String?
    /// The "remember why" note (`add`, `edit`); an empty string removes it.
    var why: String?
    /// `--every`: `day` or an interval such as `3d`.
    var every: String?
    /// `--on`: weekdays such as `mon,wed,fri`.
    var on: String?
    /// `--remind HH:MM`; `off` removes the reminder.
    var remind: String?
    /// `--start DATE`.
    var start: String?
    /// `--date DATE` (`done`, `undo`).
    var date: String?
    /// `--for 5d` (`pause`).
    var duration: String?
    /// `--until DATE` (`pause`).
    var until: String?
    /// The reset note (`reset`).
    var note: String?

    /// Creates a request.
    init(
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

/// What a habit command answers, before it is written for the terminal or as JSON.
struct HabitReply: Sendable, Hashable, Encodable {
    /// The habit after the command (before it, for `delete`).
    var habit: Habit
    /// Its streak now, in days.
    var streak: Int
    /// What happened, for the terminal.
    var message: String
    /// Further gentle notes, such as "not due today; counted as an extra".
    var notes: [String]
    /// The celebration's line, when the command reached a milestone.
    var celebration: String?
}

/// The rules habit input must follow: names, notes, rhythms, reminder times and pauses.
public enum HabitRules {
    /// The longest name, in characters.
    public static let maxNameLength = TextLimits.name
    /// The longest note, in characters.
    public static let maxNoteLength = TextLimits.text

    /// Reads `--every` and `--on` into a schedule; neither means every day.
    public static func schedule(every: String?, on: String?) throws -> HabitSchedule? {
        switch (every, on) {
        case (nil, nil):
            return nil
        case (.some, .some):
            throw PluginCommandError.invalidValue("--on", "give either --every or --on, not both")
        case (let every?, nil):
            let text = every.trimmingCharacters(in: .whitespaces).lowercased()
            if ["day", "daily", "1d", "1 day", "every day"].contains(text) { return .daily }
            if text.hasPrefix("0") || text.hasPrefix("-") {
                throw PluginCommandError.invalidValue(
                    "--every", "--every \(every) is not a rhythm; use at least one day, such as --every 3d")
            }
            guard let interval = DayInterval(parsing: text) else {
                throw PluginCommandError.invalidValue(
                    "--every",
                    "--every \(every) is not a rhythm; write --every day, or a number of days or weeks such as --every 3d or --every 2w"
                )
            }
            return interval.days == 1 ? .daily : .everyNDays(interval.days)
        case (nil, let on?):
            do {
                let days = try Weekday.parseSet(on)
                return days.count == 7 ? .daily : .weekdays(days)
            } catch {
                throw PluginCommandError.invalidValue("--on", "--on: \(error)")
            }
        }
    }

    /// Reads `--remind HH:MM`; `off` means no reminder.
    public static func remindTime(_ text: String) throws -> TimeOfDay? {
        if ["off", "none", "no"].contains(text.lowercased()) { return nil }
        guard let time = TimeOfDay(parsing: text) else {
            throw PluginCommandError.invalidValue(
                "--remind", "--remind \(text) is not a time; write it as HH:MM in 24-hour form, such as 20:00")
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
            throw PluginCommandError.invalidValue("--until", "give either --for or --until, not both")
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
        guard !trimmed.isEmpty else {
            throw PluginCommandError.invalidValue("<name>", "a habit needs a name, such as \"Read 10 pages\"")
        }
        guard trimmed.count <= maxNameLength else {
            throw PluginCommandError.invalidValue(
                "<name>", "the name is \(trimmed.count) characters long; use at most \(maxNameLength)")
        }
        guard !trimmed.contains(where: \.isNewline) else {
            throw PluginCommandError.invalidValue("<name>", "a habit's name is one line; put more in --why")
        }
        return trimmed
    }
}
