import Foundation
import HoorayCommandLine
import HoorayKit
import HoorayMessages
import HoorayText

/// The wins plugin's commands: `hooray win`, `hooray moments`, `hooray journey`, `hooray` alone and
/// `hooray about`.
extension WinsPlugin {
    public var commands: [CommandSpec] {
        let momentID = CommandSpec.Argument(
            name: "id", help: "The moment's id, or its first characters, as `hooray moments` shows it.")
        return [
            CommandSpec(
                name: "log", summary: "Log a small win, and get praise for it at once.",
                discussion: """
                    Big or small, it counts. The win is saved on this computer and a "Moment logged" \
                    notification shows it with offline praise. When AI praise is configured ([ai] in hooray.toml), \
                    warmer praise replaces it in place a few seconds later. Without TEXT the moment is saved \
                    privately, without words.
                    """,
                arguments: [
                    .init(
                        name: "text", help: "What you did, in your words (at most 2,000 characters).", isOptional: true,
                        isRepeating: true)
                ],
                options: [
                    .init(name: "ago", valueName: "time", help: "How long ago it happened: 5m, 2h, 3d or 1h30m."),
                    .init(
                        name: "mood", help: "How you felt: \(Mood.allCases.map(\.rawValue).joined(separator: ", ")).",
                        choices: Mood.allCases.map(\.rawValue)),
                    .init(name: "note", help: "A note to keep with it."),
                    .init(
                        name: "photo", valueName: "file",
                        help: "A photo to keep with it (its path is stored; repeatable).",
                        isRepeating: true, isPath: true),
                ],
                examples: [
                    "hooray win \"Took a short walk\"",
                    "hooray win \"Sent the scary email\" --ago 2h --mood proud",
                    "hooray win \"Cooked dinner\" --note \"First time trying that recipe\" --photo ~/Pictures/dinner.jpg",
                ],
                aliases: ["win"], offersJSON: true, noun: "your moment"),
            CommandSpec(
                name: "praise", summary: "The AI praise of a moment, once it has been asked for.",
                arguments: [.init(name: "id", help: "The moment's id.")], isHidden: true, writes: false),
            CommandSpec(
                name: "moments", summary: "List the moments you logged, newest first.",
                discussion:
                    "Moments are grouped by the day they happened, in your time zone. On a terminal a long list opens in a pager ($PAGER, or less -FRX; --no-pager prints it all); --json streams one JSON array.",
                options: [
                    .init(name: "day", valueName: "date", help: "Only this day: YYYY-MM-DD, today or yesterday.")
                ] + ListingOptions.options,
                flags: [
                    .init(name: "favorites", help: "Only your favourites."),
                    .init(name: "favourites", help: "The same as --favorites."),
                ],
                examples: [
                    "hooray moments", "hooray moments --day yesterday", "hooray moments --favorites --json",
                    "hooray moments --limit 20 --search walk", "hooray moments --since 2026-11-01 --until 2026-11-15",
                ],
                aliases: ["moments", "win list"], offersJSON: true, writes: false, streams: true),
            CommandSpec(
                name: "fav", summary: "Mark a moment as a favourite, or unmark it.",
                discussion: """
                    Without --on or --off it turns the mark over; with one of them it says what the mark is to be, \
                    whatever it was (a window and a script can set it without reading it first).
                    """,
                arguments: [
                    .init(name: "id", help: "The moment's id, or its first characters, as `hooray moments` shows it.")
                ],
                flags: [
                    .init(name: "on", help: "Mark it a favourite, whether or not it is one."),
                    .init(name: "off", help: "Unmark it, whether or not it is marked."),
                ],
                examples: ["hooray moments fav 3f2a9c1e", "hooray moments fav 3f2a9c1e --off"], aliases: ["moments fav"]
            ),
            CommandSpec(
                name: "edit", summary: "Fix a moment: its words, its mood or its note.",
                discussion: """
                    Give at least one of --text, --mood and --note; only what is given changes. `--note ""` \
                    removes the note and `--mood none` the mood. When it happened, and its praise, stay.
                    """,
                arguments: [momentID],
                options: [
                    .init(name: "text", help: "The moment's new words (at most 2,000 characters)."),
                    .init(
                        name: "mood",
                        help: "How you felt: \(Mood.allCases.map(\.rawValue).joined(separator: ", ")), or none.",
                        choices: Mood.allCases.map(\.rawValue) + ["none"]),
                    .init(name: "note", help: "The new note; \"\" removes it."),
                ],
                examples: [
                    "hooray moments edit 3f2a9c1e --text \"Took a long walk\"", "hooray moments edit 3f2a --mood proud",
                ],
                aliases: ["moments edit"], offersJSON: true),
            CommandSpec(
                name: "delete", summary: "Delete a moment (asks first on a terminal).",
                arguments: [momentID], examples: ["hooray moments delete 3f2a9c1e"], aliases: ["moments delete"],
                confirmation: "Delete this moment? Moment {id} goes for good, with its note and praise."),
            CommandSpec(
                name: "journey", summary: "Your journey: a card for each day with moments.",
                discussion: "Tiny steps, day by day. Days follow your time zone.",
                options: [
                    .init(
                        name: "days", valueName: "days",
                        help: "How many days back to show, today included (default 14).")
                ],
                examples: ["hooray journey", "hooray journey --days 30"], aliases: ["journey"], offersJSON: true,
                writes: false),
            CommandSpec(
                name: "home", summary: "A kind word, and how to log a win (what `hooray` alone shows).",
                aliases: ["home"], isDefault: true, writes: false),
            CommandSpec(
                name: "about", summary: "Version, privacy, and where to get help.",
                examples: ["hooray about", "hooray about --json"], aliases: ["about"], offersJSON: true,
                writes: false),
            WeekReview.commandSpec,
        ]
    }

    public func run(_ command: CommandInvocation, context: PluginContext, configuration: WinsConfiguration)
        async throws -> CommandReply
    {
        let book = MomentBook(context: context)
        let zone = command.environment.timeZone
        switch command.command {
        case "log":
            let words = command.values("text").joined(separator: " ")
            let request = LogRequest(
                text: words.isEmpty ? nil : words, ago: command.value("ago"), mood: command.value("mood"),
                note: command.value("note"), photos: command.values("photo"))
            let reply = try await log(request, context: context)
            var lines = ["Moment logged"]
            var line = "  " + TerminalText.safe(reply.moment.text, multiline: true)
            if reply.moment.timeAgo >= 60 { line += " · " + Self.agoPhrase(seconds: reply.moment.timeAgo) }
            lines.append(line)
            lines.append("  “\(TerminalText.safe(reply.moment.offlinePraise, multiline: true))”")
            if reply.wasFirst { lines.append("\nThat's your first moment. Welcome to Hooray.") }
            return CommandReply(
                text: lines.joined(separator: "\n"), json: try MomentJSON.value(reply.moment, timeZone: zone),
                followUp: CommandInvocation(
                    command: "praise", values: ["id": [reply.moment.id.uuidString]], environment: command.environment))
        case "praise":
            guard let id = command.value("id").flatMap(UUID.init(uuidString:)),
                let moment = try await book.moment(id)
            else { return CommandReply() }
            if let praise = moment.aiPraise { return .text("  ✨ “\(TerminalText.safe(praise, multiline: true))”") }
            if moment.sync == .pending { return .text("  \(Self.aiFailedLine) hoorayd tries again later.") }
            return CommandReply()
        case "moments":
            let listing = try MomentsListing(command, now: context.now)
            if let stream = CommandStream.current {
                try await listing.write(from: book.moments, json: command.json) { stream.write($0) }
                return CommandReply()
            }
            var output = ""
            try await listing.write(from: book.moments, json: command.json) { output += $0 }
            return command.json
                ? CommandReply(json: try JSONValue(json: output)) : CommandReply(text: String(output.dropLast()))
        case "fav":
            if command.flag("on") && command.flag("off") {
                throw PluginCommandError.invalidValue(
                    "--off", "give --on or --off, not both: --on marks the moment a favourite, --off unmarks it")
            }
            let wanted: Bool? = command.flag("on") ? true : command.flag("off") ? false : nil
            let found = try await book.moments.find(idPrefix: command.value("id") ?? "", listedBy: "`hooray moments`")
            guard let moment = try await book.update(found.id, { $0.isFavorite = wanted ?? !$0.isFavorite }) else {
                throw PluginCommandError("that moment was just deleted")
            }
            let text = ViewText.singleLine(moment.text)
            return .text(moment.isFavorite ? "★ Marked as a favourite: \(text)" : "Unmarked: \(text)")
        case "edit":
            let moment = try await edit(command, book: book)
            return CommandReply(
                text: Self.editedText(moment, now: context.now, timeZone: zone),
                json: try MomentJSON.value(moment, timeZone: zone))
        case "delete":
            let found = try await book.moments.find(idPrefix: command.value("id") ?? "", listedBy: "`hooray moments`")
            guard try await book.moments.delete(found.recordID) else {
                throw PluginCommandError("that moment was just deleted")
            }
            // A moment waiting for AI praise no longer needs the retry.
            try await scheduleSync(context: context, book: book)
            return .text("Deleted the moment “\(ViewText.singleLine(found.text))” [\(MomentsView.shortID(found.id))].")
        case "journey":
            let days = try command.value("days").map { try TimeInput.daysBack($0) } ?? 14
            let moments = try await book.all()
            return CommandReply(
                text: JourneyView.text(moments, now: context.now, timeZone: zone, days: days),
                json: try JSONValue(json: JourneyView.json(moments, now: context.now, timeZone: zone, days: days)))
        case "home":
            var lines = [MessagePools.homePhrases.randomElement() ?? "You're doing great.", ""]
            if try await !book.hasCompletedFirstLog() {
                lines.append("Hey… installing the app counts too. Wanna log that tiny win? Run: hooray win")
            } else {
                lines.append("Did a thing? Log it: hooray win \"what you did\"")
            }
            lines.append("Your moments: hooray moments · Your journey: hooray journey · Your habits: hooray habit")
            lines.append("More: hooray --help")
            return .text(lines.joined(separator: "\n"))
        case WeekReview.commandName:
            return try await reviewCommand(command, context: context)
        case "about":
            return CommandReply(
                text: Self.about(configuration: configuration, environment: command.environment),
                json: .object([
                    "version": .string(command.environment.hostVersion),
                    "dataDirectory": .string(command.environment.dataDirectory),
                    "crisisHelp": .string(CrisisHelp.paragraph.split(separator: "\n").joined(separator: " ")),
                    "privacyUrl": configuration.privacyURL.map(JSONValue.string) ?? .null,
                    "termsUrl": configuration.termsURL.map(JSONValue.string) ?? .null,
                    "supportUrl": configuration.supportURL.map(JSONValue.string) ?? .null,
                ]))
        default:
            throw PluginCommandError("the wins plugin has no command \"\(command.command)\"")
        }
    }

    /// Applies `hooray moments edit`: checks every value first, then changes the moment in one step.
    ///
    /// - Returns: The moment as saved.
    func edit(_ command: CommandInvocation, book: MomentBook) async throws -> Moment {
        let given = (text: command.value("text"), mood: command.value("mood"), note: command.value("note"))
        guard given.text != nil || given.mood != nil || given.note != nil else {
            throw PluginCommandError.invalidValue(
                "--text",
                "nothing to change; give --text, --mood or --note, such as `hooray moments edit ID --text \"Took a long walk\"`"
            )
        }
        let text = given.text?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let text {
            guard !text.isEmpty else {
                throw PluginCommandError.invalidValue(
                    "--text", "--text is empty; give the moment's new words, such as --text \"Took a walk\"")
            }
            guard text.count <= MomentRules.maxTextLength else {
                throw PluginCommandError.invalidValue(
                    "--text",
                    "the text is \(text.count) characters long; a moment takes at most \(MomentRules.maxTextLength). Shorten it, or put the rest in --note"
                )
            }
        }
        // `nil` leaves the mood alone; `.some(nil)` removes it.
        let mood: Mood?? = try given.mood.map { name in
            name.trimmingCharacters(in: .whitespaces).lowercased() == "none" ? nil : try MomentRules.parseMood(name)
        }
        let note = given.note?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let note, note.count > MomentRules.maxNoteLength {
            throw PluginCommandError.invalidValue(
                "--note", "the note is \(note.count) characters long; a note takes at most \(MomentRules.maxNoteLength)"
            )
        }
        let found = try await book.moments.find(idPrefix: command.value("id") ?? "", listedBy: "`hooray moments`")
        let updated = try await book.update(found.id) { moment in
            if let text {
                moment.text = text
                moment.isPlaceholder = false
            }
            if let mood { moment.mood = mood }
            if let note { moment.note = note.isEmpty ? nil : note }
        }
        guard let updated else { throw PluginCommandError("that moment was just deleted") }
        return updated
    }

    /// What `hooray moments edit` prints: the moment as it is now.
    static func editedText(_ moment: Moment, now: Date, timeZone: TimeZone) -> String {
        let star = moment.isFavorite ? "★ " : ""
        let mood = moment.mood.map { " \($0.emoji)" } ?? ""
        var lines = [
            "Moment updated",
            "• \(star)\(ViewText.singleLine(moment.text))\(mood)  [\(MomentsView.shortID(moment.id))]",
            "  \(RelativeTime.phrase(from: moment.happenedAt, to: now, timeZone: timeZone))"
                + (moment.mood.map { " · feeling \($0.rawValue)" } ?? ""),
        ]
        if let note = moment.note { lines.append("  Note: \(ViewText.singleLine(note))") }
        return lines.joined(separator: "\n")
    }

    static func about(configuration: WinsConfiguration, environment: CommandEnvironment) -> String {
        """
        Hooray \(environment.hostVersion) — small wins, gentle reminders, on your desktop.

        \(CrisisHelp.paragraph)

        Privacy: what you log stays on this computer (\(environment.dataDirectory)).
        AI praise is off until you configure it; then only the words of a moment, its times, your
        time zone and an anonymous id (`hooray identity`) go to the endpoint you chose.
        `hooray delete-my-data` removes everything.

        Privacy Policy: \(configuration.privacyURL ?? "not set (an administrator can set [plugins.wins] privacy_url)")
        Terms of Use: \(configuration.termsURL ?? "not set ([plugins.wins] terms_url)")
        Support: \(configuration.supportURL ?? "not set ([plugins.wins] support_url)")
        """
    }
}
