import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayText

/// The recovery plugin's commands: `hooray reject`, `hooray recovery …` and `hooray challenge …`.
extension RecoveryPlugin {
    static let rejectionID = CommandSpec.Argument(
        name: "id", help: "The rejection's id, or its first characters, as `hooray recovery list` shows it.",
        completionCommand: ["recovery", "list", "--ids"])
    static let typeChoices = RejectionType.allCases.map(\.rawValue)

    public var commands: [CommandSpec] {
        [WeekReview.commandSpec] + [
            CommandSpec(
                name: "log", summary: "Log a rejection, and get a plan that fits.",
                discussion: """
                    Takes 30 seconds: the kind of rejection, how much it hurt (1–10), and a note if you like. \
                    On a terminal a missing kind or impact is asked with a one-key menu; elsewhere give both. \
                    A rejection that hurt at least follow_up_min_impact (7 by default) gets a gentle \
                    follow-up follow_up_after (a day by default) after it happened, unless you say you're \
                    okay first (`hooray recovery okay`); one that happened longer ago than that gets none. \
                    Notes and screenshots stay on this computer.
                    """,
                arguments: [
                    .init(
                        name: "words", help: "A quick note (optional), such as \"no reply after the interview\".",
                        isOptional: true, isRepeating: true)
                ],
                options: [
                    .init(
                        name: "type", valueName: "type", help: "What kind: dating, job, social, academic or other.",
                        choices: Self.typeChoices, prompt: "What kind of rejection?",
                        menu: RejectionType.allCases.enumerated().map { index, type in
                            MenuChoice(key: String(index + 1), value: type.rawValue, label: type.label)
                        }, isRequired: true),
                    .init(
                        name: "impact", valueName: "1-10", help: "How much it hurt, from 1 to 10.",
                        prompt: "How much did this hurt? (1–10)",
                        menu: (1...10).map { impact in
                            MenuChoice(
                                key: impact == 10 ? "0" : String(impact), value: String(impact),
                                label: "\(impact) \(RecoveryCopy.face(forImpact: impact))",
                                echo: "\(impact)/10 \(RecoveryCopy.face(forImpact: impact))")
                        }, isRequired: true),
                    .init(
                        name: "note", valueName: "text", help: "A quick note; the same as the words after the command."),
                    .init(
                        name: "screenshot", valueName: "file",
                        help: "A screenshot of the message or email; the file stays where it is. Repeatable.",
                        isRepeating: true, isPath: true),
                    .init(
                        name: "ago", valueName: "duration", help: "When it happened, such as 2h or 1d; now by default."),
                ],
                examples: [
                    "hooray reject --type dating --impact 8 \"Ghosted after three dates\"",
                    "hooray reject --type job --impact 5 --screenshot ~/Pictures/email.png",
                    "hooray reject",
                ],
                aliases: ["reject"], offersJSON: true, noun: "your rejection"),
            CommandSpec(
                name: "okay", summary: "Say you're okay now: the rejection is marked recovered.",
                discussion: "Without an id, the latest rejection not yet marked okay. Its follow-up is cancelled.",
                arguments: [
                    .init(
                        name: "id", help: Self.rejectionID.help, isOptional: true,
                        completionCommand: Self.rejectionID.completionCommand)
                ],
                examples: ["hooray recovery okay", "hooray recovery okay 3f2a9c1e"], offersJSON: true,
                noun: "your recovery"),
            CommandSpec(
                name: "checkin", summary: "Check in: how are you feeling today?",
                discussion:
                    "One check-in a day; checking in again changes today's. The moods are low, okay, good and strong.",
                arguments: [
                    .init(
                        name: "mood", help: "low, okay, good or strong.", isOptional: true,
                        prompt: RecoveryCopy.checkInTitle,
                        menu: CheckInMood.allCases.enumerated().map { index, mood in
                            MenuChoice(key: String(index + 1), value: mood.rawValue, label: mood.label)
                        })
                ],
                options: [.init(name: "note", valueName: "text", help: "A few words about today.")],
                examples: ["hooray recovery checkin good", "hooray recovery checkin low --note \"long day\""],
                offersJSON: true, noun: "your check-in"),
            CommandSpec(
                name: "plan", summary: "Show the 5-minute recovery plan for a rejection.",
                discussion: """
                    Without an id, for the latest rejection. The plan fits what the note says happened \
                    ("no reply" is ghosting, "just wants to be friends" a direct no); --type shows a kind's \
                    plan for no situation in particular.
                    """,
                arguments: [
                    .init(
                        name: "id", help: Self.rejectionID.help, isOptional: true,
                        completionCommand: Self.rejectionID.completionCommand)
                ],
                options: [
                    .init(
                        name: "type", valueName: "type", help: "The plan for a kind of rejection instead.",
                        choices: Self.typeChoices)
                ],
                examples: ["hooray recovery plan", "hooray recovery plan --type job"], offersJSON: true,
                writes: false),
            CommandSpec(
                name: "dashboard", summary: "Your resilience: score, this week's reality, patterns and trends.",
                options: [.init(name: "weeks", valueName: "n", help: "Weeks of recovery-time trend (default 8).")],
                examples: ["hooray recovery", "hooray recovery --weeks 12", "hooray recovery --json"],
                isDefault: true, offersJSON: true, writes: false),
            CommandSpec(
                name: "list", summary: "Your rejections, newest first.",
                options: [
                    .init(name: "type", valueName: "type", help: "Only this kind.", choices: Self.typeChoices),
                    .init(
                        name: "since", valueName: "date",
                        help: "Only since this day: YYYY-MM-DD, yesterday, or 30d for the last 30 days."),
                ],
                flags: [.init(name: "ids", help: "Print only the ids, one a line.")],
                examples: ["hooray recovery list", "hooray recovery list --type job --since 30d"], offersJSON: true,
                writes: false),
            CommandSpec(
                name: "edit", summary: "Change a rejection's kind, impact, note or screenshots.",
                arguments: [Self.rejectionID],
                options: [
                    .init(name: "type", valueName: "type", help: "The new kind.", choices: Self.typeChoices),
                    .init(name: "impact", valueName: "1-10", help: "The new impact."),
                    .init(name: "note", valueName: "text", help: "The new note; \"\" removes it."),
                    .init(
                        name: "screenshot", valueName: "file",
                        help: "Screenshots instead of the ones kept. Repeatable.",
                        isRepeating: true, isPath: true),
                ],
                flags: [.init(name: "no-screenshots", help: "Forget the screenshots (the files stay).")],
                examples: ["hooray recovery edit 3f2a9c1e --impact 4"], offersJSON: true, noun: "your change"),
            CommandSpec(
                name: "delete", summary: "Delete a rejection from your history.", arguments: [Self.rejectionID],
                examples: ["hooray recovery delete 3f2a9c1e"],
                confirmation: "Delete the rejection {id}? This cannot be undone."),
            CommandSpec(
                name: "templates", summary: "Response templates: graceful words for a reply.",
                discussion: """
                    The seed's templates for dating and job rejections, and more for social, academic and \
                    other ones, numbered and grouped by kind. Placeholders such as [Name] stay as they are \
                    until --fill fills them. --copy shows one template, the first or the one --number picks, \
                    and puts its text on the clipboard with wl-copy (Wayland) or xclip (X11); without either \
                    it says how to install one and exits 1, the text printed for copying by hand.
                    """,
                options: [
                    .init(
                        name: "type", valueName: "type", help: "Only templates for this kind.",
                        choices: Self.typeChoices),
                    .init(
                        name: "number", valueName: "n",
                        help: "Only the template with this number in the list (with --copy: the one to copy)."),
                    .init(
                        name: "fill", valueName: "Placeholder=text",
                        help: "Fill a placeholder, such as --fill Name=Sam for [Name]. Repeatable.", isRepeating: true),
                ],
                flags: [
                    .init(
                        name: "copy",
                        help:
                            "Show one template, the first or --number N, and put its text on the clipboard (wl-copy or xclip)."
                    )
                ],
                examples: [
                    "hooray recovery templates --type job",
                    "hooray recovery templates --type job --fill Name=Sam --fill Position=Designer --copy",
                    "hooray recovery templates --type dating --number 2 --copy",
                ],
                offersJSON: true, writes: false),
            CommandSpec(
                name: "challenge", summary: "Today's resilience challenge.",
                discussion:
                    "Chosen from your most common kind of rejection this week and your resilience score; the same all day.",
                examples: ["hooray challenge", "hooray challenge done"], aliases: ["challenge"], offersJSON: true,
                writes: false),
            CommandSpec(
                name: "challenge-done", summary: "Mark today's challenge done.", examples: ["hooray challenge done"],
                aliases: ["challenge done"], offersJSON: true, noun: "your challenge"),
            CommandSpec(
                name: "challenge-skip", summary: "Skip today's challenge; tomorrow brings another.",
                examples: ["hooray challenge skip"], aliases: ["challenge skip"], offersJSON: true,
                noun: "your choice"),
        ]
    }

    public func run(_ command: CommandInvocation, context: PluginContext, configuration: RecoveryConfiguration)
        async throws -> CommandReply
    {
        // A rejection, a check-in or a challenge saved is the first use that starts the daily reminders.
        guard ["log", "checkin", "challenge-done", "challenge-skip"].contains(command.command) else {
            return try await runCommand(command, context: context, configuration: configuration)
        }
        let wasStarted = try await RecurringNotices.haveStarted(context: context, recordTypes: recordTypes)
        let reply = try await runCommand(command, context: context, configuration: configuration)
        return try await startingReminders(
            reply, wasStarted: wasStarted, json: command.json, context: context, configuration: configuration)
    }

    func runCommand(_ command: CommandInvocation, context: PluginContext, configuration: RecoveryConfiguration)
        async throws -> CommandReply
    {
        switch command.command {
        case WeekReview.commandName:
            return try await reviewCommand(command, context: context)
        case "log":
            let words = command.values("words").joined(separator: " ")
            let notes = [words, command.value("note") ?? ""].filter { !$0.isEmpty }
            let request = RejectionRequest(
                type: command.value("type"), impact: command.value("impact"),
                note: notes.isEmpty ? nil : notes.joined(separator: "\n"), screenshots: command.values("screenshot"),
                ago: command.value("ago"))
            let rejection = try await log(request, context: context, configuration: configuration)
            // Hard enough for a follow-up, but its time is already past.
            let tooLate =
                rejection.followUpDue == nil && rejection.impact >= configuration.followUpMinImpact
                ? configuration.followUpAfter : nil
            return CommandReply(
                text: Self.loggedText(for: rejection, color: command.environment.color, followUpPassed: tooLate),
                json: try JSONValue(encoding: RejectionView(rejection)))
        case "okay":
            return try await okayCommand(command, context: context)
        case "checkin":
            return try await checkInCommand(command, context: context)
        case "plan":
            return try await planCommand(command, context: context)
        case "list", "edit", "delete":
            return try await historyCommand(command, context: context, configuration: configuration)
        case "dashboard":
            return try await dashboardCommand(command, context: context)
        case "templates":
            return try templatesCommand(command)
        case "challenge", "challenge-done", "challenge-skip":
            return try await challengeCommand(command, context: context)
        default:
            throw PluginCommandError("the recovery plugin has no command \"\(command.command)\"")
        }
    }

    /// `hooray recovery okay [ID]`.
    func okayCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        let book = context.records(of: Rejection.self)
        let rejection: Rejection
        if let id = command.value("id") {
            rejection = try await book.find(idPrefix: id, listedBy: "`hooray recovery list`")
            if let at = rejection.recoveredAt {
                throw PluginCommandError(
                    "you already said you're okay about that one (\(RecoveryFormat.ago(at, now: context.now))); nothing to change"
                )
            }
        } else {
            let all = try await book.all()
            guard let latest = all.filter({ !$0.isRecovered }).max(by: { $0.loggedAt < $1.loggedAt }) else {
                throw PluginCommandError(
                    all.isEmpty
                        ? "nothing to recover from: no rejection is logged yet. When one stings, `hooray reject` logs it"
                        : "nothing to recover from: every rejection you logged is already marked okay. `hooray reject` logs a new one"
                )
            }
            rejection = latest
        }
        let updated = try await markRecovered(rejection, context: context)
        let took = RecoveryFormat.duration(updated.recoverySeconds ?? 0)
        var lines = ["Glad you're okay. \(updated.type.label) · \(updated.impact)/10 — bounced back in \(took)."]
        if let group = rejection.followUpGroup, let due = rejection.followUpDue, due > context.now {
            let followUp = Self.followUpPrefix + group.uuidString.lowercased()
            let stillComing = try await context.reminders.list().contains {
                $0.reminder.id == followUp && $0.nextDue != nil
            }
            lines.append(
                stillComing
                    ? "The follow-up still comes for the other rejection logged then."
                    : "No follow-up needed now.")
        }
        return CommandReply(text: lines.joined(separator: "\n"), json: try JSONValue(encoding: RejectionView(updated)))
    }

    /// `hooray recovery checkin [MOOD] [--note]`.
    func checkInCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        guard let given = command.value("mood") else {
            throw PluginCommandError.invalidValue(
                "<mood>", "say how you feel: hooray recovery checkin low, okay, good or strong")
        }
        let mood = try CheckInMood.parse(given)
        let note = try RejectionRequest.checkedNote(command.value("note"), option: "--note")
        let today = LocalDate(instant: context.now, in: command.environment.timeZone)
        let before = try await context.records(of: CheckIn.self).record(today.description)
        let (checkIn, replaced) = try await self.checkIn(mood, note: note, on: today, context: context)
        let text =
            if replaced, before?.mood == mood, note != nil {
                "Your note is kept with today's check-in (\(mood.label))."
            } else if replaced {
                "Today's check-in is now \(mood.label). Thanks for checking in again."
            } else {
                "Checked in: \(mood.label). Thanks for taking 30 seconds for yourself."
            }
        return CommandReply(text: text, json: try JSONValue(encoding: CheckInView(checkIn)))
    }

    /// `hooray recovery plan [ID] [--type T]`.
    func planCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        let book = context.records(of: Rejection.self)
        let rejection: Rejection? =
            if command.value("type") != nil {
                nil
            } else if let id = command.value("id") {
                try await book.find(idPrefix: id, listedBy: "`hooray recovery list`")
            } else {
                try await book.all().max(by: { $0.loggedAt < $1.loggedAt })
            }
        let situation =
            if let given = command.value("type") {
                RecoverySituation(type: try RejectionType.parse(given), note: nil)
            } else if let rejection {
                RecoverySituation(rejection)
            } else {
                RecoverySituation(type: .other, note: nil)
            }
        let title = "\(situation.type.emoji) \(RecoveryCopy.title(for: situation))"
        let lines =
            [title, ""] + RecoveryCopy.planLines(for: situation) + [RecoveryCopy.templateLine(for: situation)]
        return CommandReply(
            text: lines.joined(separator: "\n"),
            json: try JSONValue(encoding: RecoveryPlanView(situation, rejection: rejection)))
    }
}

/// A rejection as `hooray reject` and `hooray recovery okay` received it, unchecked.
struct RejectionRequest: Sendable, Hashable {
    var type: String?
    var impact: String?
    var note: String?
    var screenshots: [String]
    var ago: String?

    /// The longest note, in characters.
    static let maxNoteLength = TextLimits.text
    /// The most screenshots on one rejection.
    static let maxScreenshots = 20
    /// The furthest back `--ago` may go: 30 days.
    static let maxAgo = 30 * 86400

    /// The request, checked.
    struct Checked: Sendable, Hashable {
        var type: RejectionType
        var impact: Int
        var note: String?
        var screenshots: [String]
        var secondsAgo: Int
    }

    /// Checks everything, before anything is saved.
    ///
    /// - Throws: ``PluginCommandError`` naming the problem and the fix.
    func checked(timeInput: TimeInput) throws -> Checked {
        guard let type else {
            throw PluginCommandError.invalidValue(
                "--type", "say what kind of rejection it was: --type dating, job, social, academic or other")
        }
        guard let impact else {
            throw PluginCommandError.invalidValue(
                "--impact", "say how much it hurt, from 1 to 10, such as --impact 6")
        }
        return Checked(
            type: try RejectionType.parse(type), impact: try Self.checkedImpact(impact),
            note: try Self.checkedNote(note, option: "--note"),
            screenshots: try Self.checkedScreenshots(screenshots),
            secondsAgo: try ago.map { try timeInput.secondsAgo($0, option: "--ago", maximum: Self.maxAgo) } ?? 0)
    }

    /// An impact from 1 to 10.
    static func checkedImpact(_ text: String) throws -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let value = Int(trimmed) else {
            throw PluginCommandError.invalidValue(
                "--impact",
                "--impact \"\(text)\" is not a number; give how much it hurt from 1 to 10, such as --impact 7")
        }
        guard (1...10).contains(value) else {
            throw PluginCommandError.invalidValue(
                "--impact", "--impact \(value) is outside the scale; give 1 (barely stung) to 10 (hurt a lot)")
        }
        return value
    }

    /// A note: trimmed, at most 2,000 characters; `nil` when blank.
    static func checkedNote(_ text: String?, option: String) throws -> String? {
        guard let note = text?.trimmingCharacters(in: .whitespacesAndNewlines), !note.isEmpty else { return nil }
        guard note.count <= maxNoteLength else {
            throw PluginCommandError.invalidValue(
                option,
                "the note is \(note.count) characters long; a note takes at most \(maxNoteLength). Shorten it")
        }
        return note
    }

    /// Screenshot paths: each an absolute path to a readable file (kept where it is).
    static func checkedScreenshots(_ paths: [String]) throws -> [String] {
        guard paths.count <= maxScreenshots else {
            throw PluginCommandError.invalidValue(
                "--screenshot", "a rejection takes at most \(maxScreenshots) screenshots; \(paths.count) were given")
        }
        for path in paths {
            var isFolder: ObjCBool = false
            guard !path.isEmpty else {
                throw PluginCommandError.invalidValue("--screenshot", "--screenshot needs a file; give its path")
            }
            guard path.hasPrefix("/"), FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw PluginCommandError("--screenshot \(path): there is no such file; check the path")
            }
            guard !isFolder.boolValue else {
                throw PluginCommandError("--screenshot \(path) is a folder; give the screenshot file itself")
            }
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw PluginCommandError("--screenshot \(path) cannot be read; check its permissions (chmod u+r)")
            }
        }
        return paths
    }
}

/// A rejection as `--json` prints it.
struct RejectionView: Codable, Sendable, Hashable {
    var id: String
    var type: RejectionType
    var impact: Int
    var note: String?
    var screenshots: [String]
    var happenedAt: Date
    var loggedAt: Date
    var recoveredAt: Date?
    /// Seconds from happened to okay; `nil` while not recovered.
    var recoverySeconds: Int?
    var encouragement: String
    var followUpAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, type, impact, note, screenshots, happenedAt, loggedAt, recoveredAt, recoverySeconds, encouragement
        case followUpAt
    }

    /// Encodes every key, an absent value as `null` (docs/json.md).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode(impact, forKey: .impact)
        try container.encode(note, forKey: .note)
        try container.encode(screenshots, forKey: .screenshots)
        try container.encode(happenedAt, forKey: .happenedAt)
        try container.encode(loggedAt, forKey: .loggedAt)
        try container.encode(recoveredAt, forKey: .recoveredAt)
        try container.encode(recoverySeconds, forKey: .recoverySeconds)
        try container.encode(encouragement, forKey: .encouragement)
        try container.encode(followUpAt, forKey: .followUpAt)
    }

    init(_ rejection: Rejection) {
        id = rejection.recordID
        type = rejection.type
        impact = rejection.impact
        note = rejection.note
        screenshots = rejection.screenshots
        happenedAt = rejection.happenedAt
        loggedAt = rejection.loggedAt
        recoveredAt = rejection.recoveredAt
        recoverySeconds = rejection.recoverySeconds.map { Int($0.rounded()) }
        encouragement = rejection.encouragement
        followUpAt = rejection.followUpDue
    }
}

/// How durations and instants are written for people.
enum RecoveryFormat {
    /// `45 min`, `3 h`, `1 d 4 h`.
    static func duration(_ seconds: TimeInterval) -> String {
        let minutes = Int((seconds / 60).rounded())
        switch minutes {
        case ..<1: return "under a minute"
        case ..<60: return "\(minutes) min"
        case ..<(24 * 60):
            let hours = minutes / 60
            let rest = minutes % 60
            return rest == 0 || hours >= 10 ? "\(Int((Double(minutes) / 60).rounded())) h" : "\(hours) h \(rest) min"
        default:
            let days = minutes / (24 * 60)
            let hours = (minutes % (24 * 60)) / 60
            return hours == 0 ? "\(days) d" : "\(days) d \(hours) h"
        }
    }

    /// The time of day of an instant in a zone, `HH:MM`.
    static func clock(_ instant: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// `just now`, `5 min ago`, `3 h ago`, `2 d ago`.
    static func ago(_ instant: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(instant)
        return seconds < 60 ? "just now" : duration(seconds) + " ago"
    }
}

/// A check-in as `--json` prints it: `{"at":…,"day":"2026-11-24","mood":"good","note":null}`.
struct CheckInView: Codable, Sendable, Hashable {
    var day: LocalDate
    var mood: CheckInMood
    var note: String?
    var at: Date

    init(_ checkIn: CheckIn) {
        day = checkIn.day
        mood = checkIn.mood
        note = checkIn.note
        at = checkIn.at
    }

    enum CodingKeys: String, CodingKey {
        case day, mood, note, at
    }

    /// Encodes every key, an absent note as `null` (docs/json.md).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(day, forKey: .day)
        try container.encode(mood, forKey: .mood)
        try container.encode(note, forKey: .note)
        try container.encode(at, forKey: .at)
    }
}
