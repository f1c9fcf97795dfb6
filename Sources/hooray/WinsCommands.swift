import ArgumentParser
import Foundation
import HoorayEngine
import HoorayKit
import HoorayMessages
import HoorayStorage
import WinsPlugin

/// The wins plugin's storage and the local time zone, for commands that only read.
struct WinsReader {
    let session: CLISession
    let book: MomentBook
    let timeZone: TimeZone

    init() throws {
        session = try CLISession(configFile: nil)
        book = MomentBook(store: DatabasePluginStore(database: try session.database(), plugin: "wins"))
        timeZone = SystemTimeZone(environment: session.environment).current()
    }
}

struct Win: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log a small win, and get praise for it at once.",
        discussion: """
            Big or small, it counts. The win is saved on this computer and a "Moment logged" notification \
            shows it with offline praise. When AI praise is configured ([ai] in hooray.toml), warmer praise \
            replaces it in place a few seconds later. Without TEXT the moment is saved privately, without \
            words.

            Examples:
              hooray win "Took a short walk"
              hooray win "Sent the scary email" --ago 2h --mood proud
              hooray win "Cooked dinner" --note "First time trying that recipe" --photo ~/Pictures/dinner.jpg
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What you did, in your words (at most 2,000 characters).")
    var text: [String] = []

    @Option(help: ArgumentHelp("How long ago it happened: 5m, 2h, 3d or 1h30m.", valueName: "time"))
    var ago: String?

    @Option(
        help: ArgumentHelp(
            "How you felt: \(Mood.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "mood"))
    var mood: String?

    @Option(help: "A note to keep with it.")
    var note: String?

    @Option(help: ArgumentHelp("A photo to keep with it (its path is stored; repeatable).", valueName: "file"))
    var photo: [String] = []

    @Flag(help: "Print the saved moment as JSON.")
    var json = false

    func run() async throws {
        let session = try CLISession(configFile: global.config)
        let cwd = FileManager.default.currentDirectoryPath
        let photos = photo.map { path -> String in
            let expanded = path.hasPrefix("~/") ? NSHomeDirectory() + path.dropFirst(1) : path
            return expanded.hasPrefix("/") ? expanded : (cwd as NSString).appendingPathComponent(expanded)
        }
        let joined = text.joined(separator: " ")
        let request = LogRequest(
            text: joined.isEmpty ? nil : joined, ago: ago, mood: mood, note: note,
            photos: photos.map { ($0 as NSString).standardizingPath })
        let runner = PluginCommandRunner(session: session, plugins: builtInPlugins)
        let reply: LogReply
        let venue: PluginCommandRunner.Venue
        do {
            let (data, ranIn) = try await runner.perform(
                PluginCommand(name: WinsCommand.log, encoding: request), plugin: "wins")
            reply = try PluginCommand.decode(LogReply.self, from: data)
            venue = ranIn
        } catch let failure as PluginCommandFailed {
            warn("hooray win: \(failure.message)")
            if failure.mayHaveRun {
                // A win is saved together with its notification, so if it was saved, it is announced.
                warn(
                    "It may have been saved all the same: if so, `hooray moments` lists it and its notification is shown (or waits in `hooray inbox`)."
                )
            } else {
                warn("Nothing was saved.")
            }
            throw ExitCode.failure
        }
        if json {
            print(try Output.json(reply.moment))
        } else {
            print("Moment logged")
            var line = "  " + reply.moment.text
            if reply.moment.timeAgo >= 60 { line += " · " + WinsPlugin.agoPhrase(seconds: reply.moment.timeAgo) }
            print(line)
            print("  “\(reply.moment.offlinePraise)”")
            if reply.wasFirst { print("\nThat's your first moment. Welcome to Hooray.") }
        }
        // Hosted here: wait for the AI's answer (bounded by [ai] timeout) so it is shown and saved.
        guard venue == .here else { return }
        await runner.finish()
        let database = try session.database()
        if let notice = try await database.notice(NoticeID(rawValue: reply.notice)), notice.state != .delivered {
            warn("No notification server answered; the notification waits in `hooray inbox`. The moment is saved.")
        }
        let book = MomentBook(store: DatabasePluginStore(database: database, plugin: "wins"))
        guard !json, let moment = try await book.moment(reply.moment.id) else { return }
        if let praise = moment.aiPraise {
            print("  ✨ “\(praise)”")
        } else if moment.sync == .pending {
            print("  \(WinsPlugin.aiFailedLine) hoorayd tries again later.")
        }
    }
}

struct Moments: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the moments you logged, newest first.",
        discussion: "Moments are grouped by the day they happened, in your time zone.",
        subcommands: [Favorite.self])

    @Option(help: ArgumentHelp("Only this day: YYYY-MM-DD, today or yesterday.", valueName: "date"))
    var day: String?

    @Flag(help: "Only your favourites.")
    var favorites = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let reader = try WinsReader()
        let now = Date()
        let wanted = try day.map { try Self.parseDay($0, now: now, timeZone: reader.timeZone) }
        let moments = try await reader.book.all()
        if json {
            print(
                MomentsView.json(
                    moments, now: now, timeZone: reader.timeZone, day: wanted, favoritesOnly: favorites))
        } else {
            print(
                MomentsView.text(
                    moments, now: now, timeZone: reader.timeZone, day: wanted, favoritesOnly: favorites))
        }
    }

    static func parseDay(_ text: String, now: Date, timeZone: TimeZone) throws -> LocalDate {
        guard let date = LocalDate(parsing: text, today: LocalDate(instant: now, in: timeZone)) else {
            throw ValidationError(
                "--day \(text) is not a date; write it as YYYY-MM-DD (e.g. 2026-11-21), today or yesterday")
        }
        return date
    }

    struct Favorite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fav", abstract: "Mark a moment as a favourite, or unmark it.")

        @Argument(help: "The moment's id, or its first characters, as `hooray moments` shows it.")
        var id: String

        func run() async throws {
            let session = try CLISession(configFile: nil)
            let runner = PluginCommandRunner(session: session, plugins: builtInPlugins)
            do {
                let (data, _) = try await runner.perform(
                    PluginCommand(name: WinsCommand.favorite, encoding: FavoriteRequest(id: id)), plugin: "wins")
                let moment = try PluginCommand.decode(Moment.self, from: data)
                await runner.finish()
                print(moment.isFavorite ? "★ Marked as a favourite: \(moment.text)" : "Unmarked: \(moment.text)")
            } catch let failure as PluginCommandFailed {
                warn("hooray moments fav: \(failure.message)")
                throw ExitCode.failure
            }
        }
    }
}

struct Journey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Your journey: a card for each day with moments.",
        discussion: "Tiny steps, day by day. Days follow your time zone.")

    @Option(help: "How many days back to show, today included.")
    var days: Int = 14

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        guard (1...3660).contains(days) else { throw ValidationError("--days must be from 1 to 3660, e.g. --days 30") }
    }

    func run() async throws {
        let reader = try WinsReader()
        let moments = try await reader.book.all()
        if json {
            print(JourneyView.json(moments, now: Date(), timeZone: reader.timeZone, days: days))
        } else {
            print(JourneyView.text(moments, now: Date(), timeZone: reader.timeZone, days: days))
        }
    }
}

struct Home: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "home", abstract: "A kind word, and how to log a win (what `hooray` alone shows).")

    func run() async throws {
        let phrases = MessagePools.homePhrases
        print(phrases.randomElement() ?? "You're doing great.")
        print("")
        let firstLogDone = (try? await WinsReader().book.hasCompletedFirstLog()) ?? true
        if !firstLogDone {
            print("Hey… installing the app counts too. Wanna log that tiny win? Run: hooray win")
        } else {
            print("Did a thing? Log it: hooray win \"what you did\"")
        }
        print("Your moments: hooray moments · Your journey: hooray journey · Your habits: hooray habit")
        print("More: hooray --help")
    }
}

struct About: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Version, privacy, and where to get help.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let session = try CLISession(configFile: global.config)
        let wins =
            (try? session.loadConfiguration(plugins: builtInPlugins))?.setups
            .first { $0.plugin.name == "wins" }?.configuration as? WinsConfiguration
        print("Hooray \(HoorayVersion.current) — small wins, gentle reminders, on your desktop.")
        print(
            """

            Hooray is not a crisis service. If you are in danger or thinking about harming yourself,
            please call your local emergency number now (112 in Europe, 911 in North America), or
            reach a crisis line: in the US call or text 988; elsewhere https://findahelpline.com lists
            free, confidential lines in your country.

            Privacy: what you log stays on this computer (\(session.paths.dataDirectory)).
            AI praise is off until you configure it; then only the words of a moment, its times, your
            time zone and an anonymous id (`hooray identity`) go to the endpoint you chose.
            `hooray delete-my-data` removes everything.

            """)
        print("Privacy Policy: \(wins?.privacyURL ?? "not set (an administrator can set [plugins.wins] privacy_url)")")
        print("Terms of Use: \(wins?.termsURL ?? "not set ([plugins.wins] terms_url)")")
        print("Support: \(wins?.supportURL ?? "not set ([plugins.wins] support_url)")")
    }
}
