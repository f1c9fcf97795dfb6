import ArgumentParser
import Foundation
import HabitsPlugin
import HoorayEngine
import HoorayKit
import HoorayStorage

struct HabitGroup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "habit",
        abstract: "Calm habit tracking: streaks, pauses without guilt, resets with reflection, milestones.",
        discussion: """
            The streak counts consecutive due days that were done. Days the habit is not due, and paused \
            days, are skipped: they neither count nor break it. A due day that passes undone ends the run; \
            today, until it is over, never does. A reset starts a new run on its day. Milestones (7, 30, \
            100 and 365 days by default) are celebrated once per run.
            """,
        subcommands: [
            List.self, Add.self, Done.self, Undo.self, Show.self, Pause.self, Resume.self, Reset.self, Edit.self,
            Rename.self, Delete.self,
        ],
        defaultSubcommand: List.self)

    /// Runs a habit command in hoorayd (or here) and prints what happened.
    static func perform(_ command: String, _ request: HabitRequest, quiet: Bool = false) async throws -> HabitReply {
        let session = try CLISession(configFile: nil)
        let runner = PluginCommandRunner(session: session, plugins: builtInPlugins)
        do {
            let (data, _) = try await runner.perform(
                PluginCommand(name: command, encoding: request), plugin: "habits")
            let reply = try PluginCommand.decode(HabitReply.self, from: data)
            await runner.finish()
            if !quiet {
                print(reply.message)
                for note in reply.notes { print("Note: \(note)") }
                if let celebration = reply.celebration { print(celebration) }
            }
            return reply
        } catch let failure as PluginCommandFailed {
            warn("hooray habit \(command): \(failure.message)")
            warn("Nothing was changed.")
            throw ExitCode.failure
        }
    }

    /// The stored habits and today's date, for commands that only read.
    static func read() async throws -> (habits: HabitBook, today: LocalDate, milestones: [Int]) {
        let session = try CLISession(configFile: nil)
        let book = HabitBook(store: DatabasePluginStore(database: try session.database(), plugin: "habits"))
        let zone = SystemTimeZone(environment: session.environment).current()
        let milestones =
            ((try? session.loadConfiguration(plugins: builtInPlugins))?.setups
            .first { $0.plugin.name == "habits" }?.configuration as? HabitsConfiguration)?.milestones
            ?? HabitsConfiguration().milestones
        return (book, LocalDate(instant: Date(), in: zone), milestones)
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Your habits: streak, today's state, schedule and milestone badge.")

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func run() async throws {
            let (book, today, milestones) = try await HabitGroup.read()
            let habits = try await book.all()
            if json {
                print(HabitListView.json(habits, today: today, milestones: milestones))
            } else {
                print(HabitListView.text(habits, today: today, milestones: milestones))
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a habit.",
            discussion: """
                Examples:
                  hooray habit add "Read 10 pages" --why "To become wiser and calmer." --remind 20:00
                  hooray habit add "Run" --on mon,wed,fri --remind 07:30
                  hooray habit add "Water the plants" --every 3d
                """)

        @Argument(help: "The habit's name.")
        var name: String

        @OptionGroup var details: HabitDetails

        func run() async throws {
            _ = try await HabitGroup.perform(HabitCommand.add, details.request(name: name))
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a habit's note, schedule, reminder or start. Its history stays.",
            discussion: "Only what is given changes: `--why \"\"` removes the note, `--remind off` the reminder.")

        @Argument(help: "The habit's name.")
        var name: String

        @OptionGroup var details: HabitDetails

        func run() async throws {
            _ = try await HabitGroup.perform(HabitCommand.edit, details.request(name: name))
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a habit. Its history stays.")

        @Argument(help: "The habit's name.")
        var name: String

        @Argument(help: "The new name.")
        var newName: String

        func run() async throws {
            _ = try await HabitGroup.perform(HabitCommand.rename, HabitRequest(name: name, newName: newName))
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a habit and its history (asks first on a terminal).")

        @Argument(help: "The habit's name.")
        var name: String

        @Flag(help: "Delete without asking.")
        var yes = false

        func run() async throws {
            if !yes {
                guard isatty(STDIN_FILENO) == 1 else {
                    warn("hooray habit delete: not asking without a terminal; add --yes to delete \"\(name)\"")
                    throw ExitCode.failure
                }
                print("Delete “\(name)” and all its history? This cannot be undone. [y/N] ", terminator: "")
                guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                    print("Kept.")
                    return
                }
            }
            _ = try await HabitGroup.perform(HabitCommand.delete, HabitRequest(name: name))
        }
    }

    struct Done: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark a habit done for today (or --date). Doing it twice changes nothing.")

        @Argument(help: "The habit's name.")
        var name: String

        @Option(help: ArgumentHelp("The day: YYYY-MM-DD, today or yesterday.", valueName: "date"))
        var date: String?

        func run() async throws {
            _ = try await HabitGroup.perform(HabitCommand.done, HabitRequest(name: name, date: date))
        }
    }

    struct Undo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take back a habit's done mark for today (or --date).")

        @Argument(help: "The habit's name.")
        var name: String

        @Option(help: ArgumentHelp("The day: YYYY-MM-DD, today or yesterday.", valueName: "date"))
        var date: String?

        func run() async throws {
            _ = try await HabitGroup.perform(HabitCommand.undo, HabitRequest(name: name, date: date))
        }
    }

    struct Pause: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pause a habit without guilt: paused days neither count nor break the streak.",
            discussion: """
                Without --for or --until the pause lasts until `hooray habit resume`; --for takes up to ten \
                years (3660d). No reminders meanwhile.
                """)

        @Argument(help: "The habit's name.")
        var name: String

        @Option(name: .customLong("for"), help: ArgumentHelp("How long, such as 5d or 2w.", valueName: "days"))
        var duration: String?

        @Option(help: ArgumentHelp("The last paused day (YYYY-MM-DD).", valueName: "date"))
        var until: String?

        func run() async throws {
            _ = try await HabitGroup.perform(
                HabitCommand.pause, HabitRequest(name: name, duration: duration, until: until))
        }
    }

    struct Resume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End a habit's pause today.")

        @Argument(help: "The habit's name.")
        var name: String

        func run() async throws {
            _ = try await HabitGroup.perform(HabitCommand.resume, HabitRequest(name: name))
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start a habit's streak again today, with a note on what happened.",
            discussion: "On a terminal it asks \"What happened?\" unless --note is given; Enter skips it.")

        @Argument(help: "The habit's name.")
        var name: String

        @Option(help: "What happened, for your own reflection.")
        var note: String?

        func run() async throws {
            var note = note
            if note == nil, isatty(STDIN_FILENO) == 1 {
                print("What happened? (a few words for yourself; Enter to skip) ", terminator: "")
                note = readLine()
            }
            _ = try await HabitGroup.perform(HabitCommand.reset, HabitRequest(name: name, note: note))
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A habit's details, its \"remember why\" note and a month calendar.",
            discussion: "Colour is used on a terminal unless NO_COLOR is set.")

        @Argument(help: "The habit's name.")
        var name: String

        @Option(help: ArgumentHelp("The month to show (YYYY-MM; default this month).", valueName: "month"))
        var month: String?

        func run() async throws {
            let (book, today, milestones) = try await HabitGroup.read()
            let habit: Habit
            do {
                habit = try await book.find(named: name)
            } catch let error as PluginCommandError {
                warn("hooray habit show: \(error.message)")
                throw ExitCode.failure
            }
            let shown: (year: Int, month: Int)
            if let month {
                guard let parsed = HabitCalendar.parseMonth(month) else {
                    throw ValidationError("--month \(month) is not a month; write it as YYYY-MM, such as 2026-11")
                }
                shown = parsed
            } else {
                shown = (today.year, today.month)
            }
            let streak = habit.streak(today: today)
            print(habit.name)
            if let why = habit.why { print("Remember why: \(why)") }
            var schedule = habit.schedule.summary
            if let time = habit.remindAt { schedule += ", reminder at \(time)" }
            print("Schedule: \(schedule), since \(habit.start)")
            var streakLine = "Streak: \(streak.days == 1 ? "1 day" : "\(streak.days) days")"
            if let badge = habit.badge(today: today, milestones: milestones) { streakLine += " · \(badge) Day badge" }
            print(streakLine)
            if let pause = habit.pauses.last(where: { $0.contains(today) }) {
                print("Paused since \(pause.from)\(pause.through.map { " through \($0)" } ?? ", until you resume it")")
            }
            if let reset = habit.resets.last {
                print("Last reset: \(reset.day)\(reset.note.map { " — “\($0)”" } ?? "")")
            }
            print("")
            let environment = ProcessInfo.processInfo.environment
            let color =
                isatty(STDOUT_FILENO) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
            print(HabitCalendar.render(habit, month: shown, today: today, color: color))
        }
    }
}

/// The options that describe a habit, shared by `add` and `edit`.
struct HabitDetails: ParsableArguments {
    @Option(help: "Why you started: shown when motivation is low.")
    var why: String?

    @Option(help: ArgumentHelp("day, or an interval such as 3d or 2w (default: every day).", valueName: "rhythm"))
    var every: String?

    @Option(help: ArgumentHelp("Only on these weekdays, such as mon,wed,fri or mon-fri.", valueName: "days"))
    var on: String?

    @Option(help: ArgumentHelp("Remind at this time on due days (HH:MM), or off.", valueName: "time"))
    var remind: String?

    @Option(help: ArgumentHelp("The first day it counts (YYYY-MM-DD; default today).", valueName: "date"))
    var start: String?

    func request(name: String) -> HabitRequest {
        HabitRequest(name: name, why: why, every: every, on: on, remind: remind, start: start)
    }
}
