import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayText

/// The habits plugin's commands: `hooray habits …`, also written `hooray habit …`.
extension HabitsPlugin {
    public var commands: [CommandSpec] {
        let name = CommandSpec.Argument(
            name: "name", help: "The habit's name.", completionCommand: ["habit", "list", "--names"])
        let date = CommandSpec.Option(name: "date", help: "The day: YYYY-MM-DD, today or yesterday.")
        let details: [CommandSpec.Option] = [
            .init(name: "why", help: "Why you started: shown when motivation is low."),
            .init(
                name: "every", valueName: "rhythm", help: "day, or an interval such as 3d or 2w (default: every day)."),
            .init(name: "on", valueName: "days", help: "Only on these weekdays, such as mon,wed,fri or mon-fri."),
            .init(name: "remind", valueName: "time", help: "Remind at this time on due days (HH:MM), or off."),
            .init(name: "start", valueName: "date", help: "The first day it counts (YYYY-MM-DD; default today)."),
        ]
        return [
            CommandSpec(
                name: "list", summary: "Your habits: streak, today's state, schedule and milestone badge.",
                flags: [.init(name: "names", help: "Print only the names, one a line (for scripts and completion).")],
                examples: ["hooray habit", "hooray habit list --json", "hooray habit list --names"],
                aliases: ["habit list"], isDefault: true, offersJSON: true, writes: false),
            CommandSpec(
                name: "add", summary: "Add a habit.", arguments: [name], options: details,
                examples: [
                    "hooray habit add \"Read 10 pages\" --why \"To become wiser and calmer.\" --remind 20:00",
                    "hooray habit add \"Run\" --on mon,wed,fri --remind 07:30",
                    "hooray habit add \"Water the plants\" --every 3d",
                ], aliases: ["habit add"]),
            CommandSpec(
                name: "done", summary: "Mark a habit done for today (or --date). Doing it twice changes nothing.",
                arguments: [name], options: [date], examples: ["hooray habit done \"Read 10 pages\""],
                aliases: ["habit done"], noun: "your check-in"),
            CommandSpec(
                name: "undo", summary: "Take back a habit's done mark for today (or --date).", arguments: [name],
                options: [date], aliases: ["habit undo"]),
            CommandSpec(
                name: "show", summary: "A habit's details, its \"remember why\" note and a month calendar.",
                discussion: "Colour is used on a terminal unless NO_COLOR is set.", arguments: [name],
                options: [.init(name: "month", help: "The month to show (YYYY-MM; default this month).")],
                examples: ["hooray habit show \"Read 10 pages\"", "hooray habit show \"Read 10 pages\" --json"],
                aliases: ["habit show"], offersJSON: true, writes: false),
            CommandSpec(
                name: "pause", summary: "Pause a habit without guilt: paused days neither count nor break the streak.",
                discussion: """
                    Without --for or --until the pause lasts until `hooray habit resume`; --for takes up to ten \
                    years (3660d). No reminders meanwhile.
                    """,
                arguments: [name],
                options: [
                    .init(name: "for", valueName: "days", help: "How long, such as 5d or 2w."),
                    .init(name: "until", valueName: "date", help: "The last paused day (YYYY-MM-DD)."),
                ], aliases: ["habit pause"]),
            CommandSpec(
                name: "resume", summary: "End a habit's pause today.", arguments: [name], aliases: ["habit resume"]),
            CommandSpec(
                name: "reset", summary: "Start a habit's streak again today, with a note on what happened.",
                discussion: "On a terminal it asks \"What happened?\" unless --note is given; Enter skips it.",
                arguments: [name],
                options: [
                    .init(
                        name: "note", help: "What happened, for your own reflection.",
                        prompt: "What happened? (a few words for yourself; Enter to skip)")
                ], aliases: ["habit reset"]),
            CommandSpec(
                name: "edit", summary: "Change a habit's note, schedule, reminder or start. Its history stays.",
                discussion: "Only what is given changes: `--why \"\"` removes the note, `--remind off` the reminder.",
                arguments: [name], options: details, aliases: ["habit edit"]),
            CommandSpec(
                name: "rename", summary: "Rename a habit. Its history stays.",
                arguments: [name, .init(name: "new-name", help: "The new name.")], aliases: ["habit rename"]),
            CommandSpec(
                name: "delete", summary: "Delete a habit and its history (asks first on a terminal).",
                arguments: [name], aliases: ["habit delete"],
                confirmation: "Delete “{name}” and all its history? This cannot be undone."),
            WeekReview.commandSpec,
        ]
    }

    public func run(_ command: CommandInvocation, context: PluginContext, configuration: HabitsConfiguration)
        async throws -> CommandReply
    {
        if command.command == WeekReview.commandName { return try await reviewCommand(command, context: context) }
        let name = command.value("name") ?? ""
        let request: HabitRequest
        switch command.command {
        case "list":
            let today = LocalDate(instant: context.now, in: command.environment.timeZone)
            let book = context.records(of: Habit.self)
            if command.flag("names") {
                // Only the names are read. One a line, made safe for the terminal; the JSON keeps
                // the names exactly.
                let names = HabitName.byName(try await book.names()).map(\.name)
                return CommandReply(
                    text: names.map { TerminalText.safe($0) }.joined(separator: "\n"),
                    json: .array(names.map { .string($0) }))
            }
            // Each habit becomes its row as it is read, a page at a time: the histories of
            // thousands of habits are never held at once.
            var entries: [HabitListView.Entry] = []
            try await book.forEach { habit in
                entries.append(HabitListView.Entry(habit, today: today, milestones: configuration.milestones))
            }
            // Only what will be printed is made: the table, or with --json the JSON.
            if command.json { return CommandReply(json: try JSONValue(json: HabitListView.json(entries))) }
            return CommandReply(text: HabitListView.text(entries))
        case "show":
            guard command.json else {
                return .text(try await show(command, context: context, milestones: configuration.milestones))
            }
            // The habit as `hooray habit list --json` prints it, with its month (docs/json.md,
            // `habit` and `habitMonth`).
            let today = LocalDate(instant: context.now, in: command.environment.timeZone)
            let month = try Self.shownMonth(command, today: today)
            let habit = try await context.records(of: Habit.self).find(named: command.value("name") ?? "")
            return CommandReply(
                json: try HabitMonthView.json(
                    habit, month: month, today: today, milestones: configuration.milestones))
        case "add", "edit":
            request = HabitRequest(
                name: name, why: command.value("why"), every: command.value("every"), on: command.value("on"),
                remind: command.value("remind"), start: command.value("start"))
        case "rename": request = HabitRequest(name: name, newName: command.value("new-name"))
        case "done", "undo": request = HabitRequest(name: name, date: command.value("date"))
        case "pause": request = HabitRequest(name: name, duration: command.value("for"), until: command.value("until"))
        case "reset": request = HabitRequest(name: name, note: command.value("note"))
        case "resume", "delete": request = HabitRequest(name: name)
        default:
            throw PluginCommandError("the habits plugin has no command \"\(command.command)\"")
        }
        let reply = try await perform(command.command, request, context: context)
        var lines = [reply.message] + reply.notes.map { "Note: \($0)" }
        if let celebration = reply.celebration { lines.append(celebration) }
        // Habit names and notes are the user's text: made safe for the terminal, kept exact in JSON.
        return CommandReply(
            text: TerminalText.safe(lines.joined(separator: "\n"), multiline: true),
            json: try JSONValue(encoding: reply))
    }

    /// Runs a command that changes habits.
    func perform(_ command: String, _ request: HabitRequest, context: PluginContext) async throws -> HabitReply {
        switch command {
        case HabitCommand.add: try await add(request, context: context)
        case HabitCommand.edit: try await edit(request, context: context)
        case HabitCommand.rename: try await rename(request, context: context)
        case HabitCommand.delete: try await delete(request, context: context)
        case HabitCommand.done: try await done(request, context: context)
        case HabitCommand.undo: try await undo(request, context: context)
        case HabitCommand.pause: try await pause(request, context: context)
        case HabitCommand.resume: try await resume(request, context: context)
        case HabitCommand.reset: try await reset(request, context: context)
        default: throw PluginCommandError("the habits plugin has no command \"\(command)\"")
        }
    }

    /// The first day of the month `--month` names (`YYYY-MM`), or of this month.
    static func shownMonth(_ command: CommandInvocation, today: LocalDate) throws -> LocalDate {
        guard let month = command.value("month") else {
            return LocalDate(year: today.year, month: today.month, day: 1)!
        }
        guard let parsed = HabitCalendar.parseMonth(month),
            let first = LocalDate(year: parsed.year, month: parsed.month, day: 1)
        else {
            throw PluginCommandError.invalidValue(
                "--month", "--month \(month) is not a month; write it as YYYY-MM, such as 2026-11")
        }
        return first
    }

    func show(_ command: CommandInvocation, context: PluginContext, milestones: [Int]) async throws -> String {
        let today = LocalDate(instant: context.now, in: command.environment.timeZone)
        let month = try Self.shownMonth(command, today: today)
        let habit = try await context.records(of: Habit.self).find(named: command.value("name") ?? "")
        let shown = (year: month.year, month: month.month)
        let streak = habit.streak(today: today)
        var lines = [TerminalText.safe(habit.name)]
        if let why = habit.why { lines.append("Remember why: \(TerminalText.safe(why, multiline: true))") }
        var schedule = habit.schedule.summary
        if let time = habit.remindAt { schedule += ", reminder at \(time)" }
        lines.append("Schedule: \(schedule), since \(habit.start.written(today: today))")
        var streakLine = "Streak: \(streak.days == 1 ? "1 day" : "\(streak.days) days")"
        if let badge = habit.badge(today: today, milestones: milestones) { streakLine += " · \(badge) Day badge" }
        lines.append(streakLine)
        if let pause = habit.pauses.last(where: { $0.contains(today) }) {
            lines.append(
                "Paused since \(pause.from.written(today: today))\(pause.through.map { " through \($0.written(today: today))" } ?? ", until you resume it")"
            )
        }
        if let reset = habit.resets.last {
            lines.append(
                "Last reset: \(reset.day.written(today: today))\(reset.note.map { " — “\(TerminalText.safe($0, multiline: true))”" } ?? "")"
            )
        }
        lines.append("")
        lines.append(HabitCalendar.render(habit, month: shown, today: today, color: command.environment.color))
        return lines.joined(separator: "\n")
    }
}
