import Foundation
import HoorayCommandLine
import HoorayKit
import HoorayText

/// The reminders plugin's commands: `hooray remind "Call mom" --at 18:00`, and `hooray remind list`,
/// `edit` and `remove`.
///
/// A reminder added here is kept in the plugin's record book and scheduled at once; reminders written
/// in hooray.toml are listed beside them, marked as such, and are changed in the file.
extension RemindersPlugin {
    static let whenOptions: [CommandSpec.Option] = [
        .init(
            name: "at", valueName: "time",
            help: "The time of day, HH:MM, such as 18:00 (every day unless --days or --every)."),
        .init(name: "days", valueName: "days", help: "Only on these weekdays, such as mon-fri or sat,sun."),
        .init(name: "every", valueName: "interval", help: "Every so many days, such as 3d or 2w, from today."),
        .init(
            name: "on", valueName: "date",
            help: "Once, on this day: YYYY-MM-DD, today or tomorrow (at --at, or 09:00)."),
        .init(name: "in", valueName: "length", help: "Once, this long from now, such as 20m or 1h30m."),
        .init(name: "body", valueName: "text", help: "A line under the title."),
        .init(
            name: "zone", valueName: "zone",
            help: "The time zone of --at, such as Europe/Berlin; by default the one you add it in (TZ included)."),
    ]

    static let idArgument = CommandSpec.Argument(
        name: "id", help: "The reminder's id, such as r3, as `hooray remind list` shows it.",
        completionCommand: ["remind", "list", "--ids"])

    public var commands: [CommandSpec] {
        [
            CommandSpec(
                name: "add", summary: "Add a reminder without editing hooray.toml.",
                discussion:
                    "--at alone repeats every day; with --days on those weekdays, with --every every so many days. "
                    + "--in and --on make a one-off, shown once and then gone; --on without --at comes at 09:00. "
                    + "Values are read as in hooray.toml. The reminder gets a short id (r1, r2, …) for "
                    + "`hooray remind edit` and `hooray remind remove`. It keeps the time zone you add it in "
                    + "(your shell's, TZ included) unless --zone names another; after a move, --zone with "
                    + "`hooray remind edit` changes it. A title that is one of the words list, edit or remove "
                    + "is written with the command's full name: hooray reminders add \"list\" --at 18:00.",
                arguments: [
                    .init(name: "title", help: "What to be reminded of, such as \"Call mom\".", isRepeating: true)
                ],
                options: Self.whenOptions,
                flags: [Self.toFileFlag],
                examples: [
                    "hooray remind \"Call mom\" --at 18:00",
                    "hooray reminders add \"list\" --at 18:00",
                    "hooray remind Stretch --at 15:00 --days mon-fri",
                    "hooray remind \"Water the plants\" --at 09:30 --every 3d",
                    "hooray remind Tea --in 20m",
                    "hooray remind \"Buy a gift\" --on 2026-12-20 --at 10:00 --body \"Something small.\"",
                    "hooray remind Stretch --at 15:00 --days mon-fri --to-file",
                ],
                aliases: ["remind"], offersJSON: true, noun: "your reminder"),
            CommandSpec(
                name: "list", summary: "Your reminders: the ones added with `hooray remind` and those in hooray.toml.",
                flags: [.init(name: "ids", help: "Print only the ids of reminders you can edit, one a line.")],
                examples: ["hooray remind list", "hooray remind list --json"], aliases: ["remind list"],
                offersJSON: true, writes: false),
            CommandSpec(
                name: "edit", summary: "Change a reminder added with `hooray remind`: only what you give.",
                discussion:
                    "Takes the options of `hooray remind`; what you leave out stays as it is. --days, --every, --on "
                    + "and --in replace the schedule as a whole. Reminders in hooray.toml are changed in the file.",
                arguments: [Self.idArgument],
                options: [.init(name: "title", valueName: "text", help: "A new title.")] + Self.whenOptions,
                examples: ["hooray remind edit r3 --at 19:00", "hooray remind edit r3 --days sat,sun"],
                aliases: ["remind edit"], offersJSON: true, noun: "your change"),
            CommandSpec(
                name: "remove", summary: "Remove a reminder added with `hooray remind`.",
                arguments: [
                    .init(
                        name: "id",
                        help: "The reminders' ids, such as r3 or r3 r5, as `hooray remind list` shows them.",
                        isRepeating: true, completionCommand: Self.idArgument.completionCommand)
                ],
                examples: ["hooray remind remove r3", "hooray remind remove r3 r5"], aliases: ["remind remove"]),
        ]
    }

    public func run(_ command: CommandInvocation, context: PluginContext, configuration: Configuration)
        async throws -> CommandReply
    {
        let book = RemindBook(context: context, userZone: command.environment.timeZone)
        switch command.command {
        case "add":
            let options = try RemindOptions(
                command, title: command.values("title").joined(separator: " "), input: book.input)
            if command.flag(Self.toFileFlag.name) {
                return try Self.fileEntry(options, command, today: book.input.today)
            }
            let (record, scheduled) = try await book.add(options)
            let entry = book.entry(record, nextDue: scheduled.nextDue)
            let id = record.id
            return CommandReply(
                text: "Added \(id): \(entry.sentence). `hooray remind remove \(id)` removes it.",
                json: try JSONValue(encoding: entry))
        case "list":
            let entries = try await book.entries()
            if command.flag("ids") {
                // For shell completion; with --json, the same reminders as the type every list prints.
                let yours = entries.filter(\.isEditable)
                return CommandReply(
                    text: yours.map(\.id).joined(separator: "\n"), json: try JSONValue(encoding: yours))
            }
            return CommandReply(
                text: ReminderEntry.listing(entries, configurationFile: context.settingsFile),
                json: try JSONValue(encoding: entries))
        case "edit":
            let options = try RemindOptions(command, title: command.value("title"), input: book.input)
            guard !options.isEmpty else {
                throw PluginCommandError.invalidValue(
                    "--at",
                    "give what to change: --title, --body, --at, --days, --every, --on, --in or --zone, such as --at 19:00"
                )
            }
            let found = try await book.find(command.value("id") ?? "")
            guard !found.record.isDone(nextDue: found.nextDue, now: context.now) else {
                throw PluginCommandError(
                    try await book.over(found.record)
                        + "; `hooray remind` adds a new one, such as `hooray remind \"Tea\" --in 20m`")
            }
            let (record, scheduled) = try await book.edit(found.record, options)
            let entry = book.entry(record, nextDue: scheduled.nextDue)
            return CommandReply(text: "Changed \(record.id): \(entry.sentence).", json: try JSONValue(encoding: entry))
        case "remove":
            // Each id is found first, so that a mistyped one removes nothing.
            var found: [(record: CommandLineReminder, nextDue: Date?)] = []
            for id in command.values("id") where !found.contains(where: { $0.record.id == id.lowercased() }) {
                found.append(try await book.find(id))
            }
            var lines: [String] = []
            for (record, nextDue) in found {
                do {
                    lines.append(try await remove(record, nextDue: nextDue, book: book, context: context))
                } catch let error as PluginCommandError where !lines.isEmpty {
                    throw PluginCommandError(lines.joined(separator: "\n") + "\n" + error.message)
                }
            }
            return CommandReply(text: lines.joined(separator: "\n"))
        default:
            throw PluginCommandError("the reminders plugin has no command \"\(command.command)\"")
        }
    }

    /// Removes one reminder added with `hooray remind`, and says what became of it.
    func remove(_ record: CommandLineReminder, nextDue: Date?, book: RemindBook, context: PluginContext) async throws
        -> String
    {
        guard record.isDone(nextDue: nextDue, now: context.now) else {
            try await book.remove(record)
            return "Removed \(record.id): \(TerminalText.safe(record.title))."
        }
        // A one-off that came due: its notice may not have reached the screen yet.
        let removed = "Removed \(record.id): \(TerminalText.safe(record.title))."
        switch try await context.reminders.waitingNotice(of: record.id) {
        case .snoozed(let until):
            try await book.remove(record)
            return
                (removed + " It came due \(book.cameDue(record)) and was snoozed until \(book.when(until)); "
                + "it will not come back.")
        case .held(let reason, let until):
            try await book.remove(record)
            let end = until.map { " (shown at \(book.when($0)))" } ?? ""
            return
                (removed + " It came due \(book.cameDue(record)) and waits: \(reason)\(end). That notice "
                + "will still be shown then; `hooray inbox` has it meanwhile.")
        case .queued:
            try await book.remove(record)
            return
                (removed + " It came due \(book.cameDue(record)) and waits for the notification server; "
                + "that notice will still be shown, and `hooray inbox` has it meanwhile.")
        case nil:
            throw PluginCommandError(
                try await book.over(record) + ", so there is nothing left to remove; `hooray remind list` shows "
                    + "what is still to come")
        }
    }
}

/// The reminders added with `hooray remind`, over the plugin's record book and its scheduled
/// reminders.
struct RemindBook {
    let context: PluginContext
    /// The zone the user reads times in.
    let userZone: TimeZone

    var records: RecordBook<CommandLineReminder> { context.records(of: CommandLineReminder.self) }
    var input: TimeInput { TimeInput(now: context.now, timeZone: userZone) }

    /// The storage key of the number the next id takes.
    static let counterKey = "remind.next-number"

    /// Adds a reminder and schedules it.
    func add(_ options: RemindOptions) async throws -> (CommandLineReminder, ScheduledReminder) {
        var record = CommandLineReminder(id: "", title: options.title ?? "", body: "", createdAt: context.now)
        try options.apply(to: &record, isNew: true, now: context.now, defaultZone: context.timeZone)
        record.id = try await newID()
        try await records.insert(record)
        do {
            return (record, try await context.reminders.schedule(record.reminder(defaultZone: context.timeZone)))
        } catch {
            _ = try? await records.delete(record.id)
            throw error
        }
    }

    /// Changes a reminder and reschedules it alone.
    func edit(_ record: CommandLineReminder, _ options: RemindOptions) async throws
        -> (CommandLineReminder, ScheduledReminder)
    {
        var changed = record
        try options.apply(to: &changed, isNew: false, now: context.now, defaultZone: context.timeZone)
        let final = changed
        guard try await records.update(record.id, { stored in stored = final }) != nil else {
            throw PluginCommandError("\(record.id) was removed meanwhile; `hooray remind list` shows what there is")
        }
        return (final, try await context.reminders.schedule(final.reminder(defaultZone: context.timeZone)))
    }

    /// Removes a reminder and its schedule.
    func remove(_ record: CommandLineReminder) async throws {
        try await records.delete(record.id)
        try await context.reminders.cancel(id: record.id)
    }

    /// A short id no reminder has had: `r` and the next number, past any id hooray.toml uses.
    func newID() async throws -> String {
        let taken = Set(try await context.reminders.list().map(\.reminder.id))
        while true {
            let number = try await context.storage.update(forKey: Self.counterKey) { (data: inout Data?) -> Int in
                let current = data.flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 1
                data = Data(String(current + 1).utf8)
                return current
            }
            let id = "r\(number)"
            if !taken.contains(id), try await records.record(id) == nil { return id }
        }
    }

    /// The reminder the user named, added with `hooray remind`, and its next due instant.
    ///
    /// - Throws: ``PluginCommandError`` for one in hooray.toml (change it there) and for an id that
    ///   names none (with the ids there are).
    func find(_ text: String) async throws -> (record: CommandLineReminder, nextDue: Date?) {
        let given = text.trimmingCharacters(in: .whitespaces)
        let scheduled = try await context.reminders.list()
        // Ids `hooray remind` gives are lowercase; one written in hooray.toml may not be.
        for id in [given, given.lowercased()] {
            if let record = try await records.record(id) {
                return (record, scheduled.first { $0.reminder.id == id }?.nextDue)
            }
        }
        // hooray.toml has no one-offs: one is an added one, done and kept until it is pruned.
        if let item = scheduled.first(where: {
            $0.reminder.id.lowercased() == given.lowercased() && !$0.reminder.isInternal
                && $0.reminder.schedule.zone != nil
        }) {
            throw PluginCommandError(
                "\(TerminalText.safe(item.reminder.id)) is written in hooray.toml, so it is changed there: edit or "
                    + "remove its [[plugins.reminders.reminder]] entry in \(context.settingsFile), then run "
                    + "`hooray reload`")
        }
        var nextDue: [String: Date?] = [:]
        for item in scheduled { nextDue[item.reminder.id] = item.nextDue }
        let yours = try await records.all().filter { !$0.isDone(nextDue: nextDue[$0.id] ?? nil, now: context.now) }
            .map(\.id).sorted(by: Self.idOrder)
        let known =
            yours.isEmpty
            ? "you have none added with `hooray remind` yet; `hooray remind \"Call mom\" --at 18:00` adds one"
            : "yours are \(yours.joined(separator: ", ")) (`hooray remind list` shows them)"
        throw PluginCommandError("there is no reminder \(TerminalText.safe(text)); \(known)")
    }

    /// What became of a one-off that is done, without a full stop: `r3 (Tea) was a one-off and came
    /// due today 22:10`, and where its notice is when it has not reached the screen.
    func over(_ record: CommandLineReminder) async throws -> String {
        let name = "\(record.id) (\(TerminalText.safe(record.title))) was a one-off and came due \(cameDue(record))"
        switch try await context.reminders.waitingNotice(of: record.id) {
        case .snoozed(let until):
            return name + "; it is snoozed until \(when(until)), and `hooray remind remove "
                + "\(record.id)` stops it coming back"
        case .held(let reason, _): return name + "; its notice waits (\(reason))"
        case .queued: return name + "; its notice waits for the notification server"
        case nil: return name
        }
    }

    /// When a one-off came due, as the user reads it: `today 22:10`.
    func cameDue(_ record: CommandLineReminder) -> String {
        (record.shownAt ?? record.once).map(when) ?? "earlier"
    }

    /// `r2` before `r10`.
    static func idOrder(_ lhs: String, _ rhs: String) -> Bool {
        (Int(lhs.dropFirst()) ?? 0, lhs) < (Int(rhs.dropFirst()) ?? 0, rhs)
    }

    /// Every reminder of the plugin, soonest first: those added here that are not done, and those of
    /// hooray.toml.
    func entries() async throws -> [ReminderEntry] {
        let scheduled = try await context.reminders.list()
        var nextDue: [String: Date] = [:]
        for item in scheduled { nextDue[item.reminder.id] = item.nextDue }
        let added = try await records.all().filter {
            !$0.isDone(nextDue: nextDue[$0.id], now: context.now)
        }
        let addedIDs = Set(added.map(\.id))
        var entries = added.map { entry($0, nextDue: nextDue[$0.id]) }
        for item in scheduled where !addedIDs.contains(item.reminder.id) && !item.reminder.isInternal {
            // hooray.toml has no one-offs: this is one of `hooray remind`'s, done and kept until it is pruned.
            if case .once = item.reminder.schedule { continue }
            entries.append(
                ReminderEntry(
                    id: item.reminder.id, title: item.reminder.notice.title, body: item.reminder.notice.body,
                    schedule: describe(item.reminder.schedule), due: item.nextDue,
                    zone: item.reminder.schedule.zone?.identifier, source: ReminderEntry.fileSource, oneOff: false,
                    dueText: item.nextDue.map(when)))
        }
        return entries.sorted { lhs, rhs in
            switch (lhs.due, rhs.due) {
            case (let l?, let r?): l < r || (l == r && lhs.id < rhs.id)
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): lhs.id < rhs.id
            }
        }
    }

    /// A reminder added here, as listed.
    func entry(_ record: CommandLineReminder, nextDue: Date?) -> ReminderEntry {
        let schedule = record.schedule(defaultZone: context.timeZone)
        return ReminderEntry(
            id: record.id, title: record.title, body: record.body, schedule: describe(schedule), due: nextDue,
            zone: record.zone, source: ReminderEntry.commandSource, oneOff: record.isOneOff,
            dueText: nextDue.map(when))
    }

    /// A schedule in words, in the user's zone, with its own zone when that differs.
    func describe(_ schedule: Schedule) -> String {
        var text = schedule.summary(in: userZone, now: context.now)
        if let zone = schedule.zone, zone.identifier != userZone.identifier { text += " (\(zone.identifier))" }
        return text
    }

    /// An instant as the user reads it: `today 18:00`, `Tue 1 Dec 08:36`.
    func when(_ date: Date) -> String {
        Schedule.localDayAndTime(date, in: userZone, now: context.now)
    }
}

/// A reminder as `hooray remind` prints it; `--json` prints the `reminderEntry` type of docs/json.md.
struct ReminderEntry: Encodable, Sendable {
    static let commandSource = "hooray remind"
    static let fileSource = "hooray.toml"

    var id: String
    var title: String
    var body: String
    var schedule: String
    var due: Date?
    var zone: String?
    var source: String
    var oneOff: Bool
    /// `due` as the user reads it; not in the JSON.
    var dueText: String?

    var isEditable: Bool { source == Self.commandSource }

    enum CodingKeys: String, CodingKey { case id, title, body, schedule, due, zone, source, oneOff, editable }

    /// Every key is written, `null` when absent.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(schedule, forKey: .schedule)
        try container.encode(due, forKey: .due)
        try container.encode(zone, forKey: .zone)
        try container.encode(source, forKey: .source)
        try container.encode(oneOff, forKey: .oneOff)
        try container.encode(isEditable, forKey: .editable)
    }

    /// `Call mom, every day at 18:00 — next: today 18:00`, or for a one-off `Tea, once, today 21:30`.
    var sentence: String {
        let title = TerminalText.safe(title)
        if oneOff { return "\(title), \(schedule)" }
        return "\(title), \(schedule)" + (dueText.map { " — next: \($0)" } ?? "")
    }

    /// The widest a title is shown in the list, in terminal cells; `--json` has it whole.
    static let titleColumnWidth = 40

    /// The list as a table, with a word on how to change each kind.
    ///
    /// - Parameters:
    ///   - entries: The reminders.
    ///   - configurationFile: The user's hooray.toml, where the file's reminders are changed.
    static func listing(_ entries: [ReminderEntry], configurationFile: String) -> String {
        guard !entries.isEmpty else {
            return "No reminders yet. `hooray remind \"Call mom\" --at 18:00` adds one, "
                + "and so does a [[plugins.reminders.reminder]] in \(configurationFile)."
        }
        let rows =
            [["ID", "REMINDER", "SCHEDULE", "NEXT", "FROM"]]
            + entries.map { entry in
                [
                    TerminalText.truncating(TerminalText.safe(entry.id), toWidth: titleColumnWidth),
                    TerminalText.truncating(TerminalText.safe(entry.title), toWidth: titleColumnWidth),
                    entry.schedule, entry.dueText ?? "—", entry.source,
                ]
            }
        var widths = [Int](repeating: 0, count: 5)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], TerminalText.width(cell)) }
        }
        var lines = rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : TerminalText.padding(cell, toWidth: widths[column])
            }.joined(separator: "  ")
        }
        lines.append("")
        if entries.contains(where: \.isEditable) {
            lines.append("`hooray remind edit ID` changes one of yours; `hooray remind remove ID` removes it.")
        }
        if entries.contains(where: { !$0.isEditable }) {
            lines.append("Those from hooray.toml are changed in \(configurationFile).")
        }
        return lines.joined(separator: "\n")
    }
}
