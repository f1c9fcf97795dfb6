import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit

/// Calm habit tracking (seed 003): schedules, pause without guilt, reset with reflection,
/// milestones, and "Done" right from the reminder.
///
/// Each habit with a reminder time has one reminder, due on its due days at that time in the
/// user's time zone. When it comes due the plugin checks the day again: nothing is shown on a
/// paused day or when the habit is already done, so a reminder is withdrawn by completing the habit
/// anywhere first. After a missed day the reminder gently adds the "remember why" note and the
/// reset reflection — never guilt.
public struct HabitsPlugin: CommandPlugin, ImportingPlugin, StatusBarPlugin {
    public typealias Configuration = HabitsConfiguration

    public var name: String { "habits" }
    /// What `hooray import` checks imported records against.
    public var recordTypes: [any PluginRecord.Type] { [Habit.self] }
    public var summary: String { "Calm habit tracking (`hooray habit`): streaks, pauses, milestones" }

    static let reminderPrefix = "habit."
    /// The prefix of the snoozes the plugin scheduled itself before the engine snoozed reminders:
    /// `snooze.<habit id>`. Notices they showed still carry it.
    static let legacySnoozePrefix = "snooze."
    static let doneAction = "done"

    public init() {}

    public func activate(context: PluginContext, configuration: HabitsConfiguration) async throws {
        // Planned from what a reminder needs of each habit, a page at a time: thousands of habits'
        // histories are never held at once.
        var wanted: [Reminder] = []
        try await context.records(of: Habit.self).forEach(as: HabitPlan.self) { habit in
            if let reminder = reminder(for: habit, context: context) { wanted.append(reminder) }
        }
        // Snoozes of an earlier version, still to come, are handed over to the engine's snooze.
        let legacy = try await context.reminders.list().filter {
            $0.reminder.id.hasPrefix(Self.legacySnoozePrefix) && $0.nextDue != nil
        }
        // Only with such snoozes to hand over: the set holds an id per habit.
        let reminded = legacy.isEmpty ? [] : Set(wanted.map(\.id))
        // Appended in place: a copy of thousands of reminders would double the peak.
        wanted.append(contentsOf: legacy.map(\.reminder))
        try await context.reminders.replaceAll(with: wanted)
        wanted = []
        for snoozed in legacy {
            let base = Self.reminderPrefix + snoozed.reminder.id.dropFirst(Self.legacySnoozePrefix.count)
            if reminded.contains(base), let until = snoozed.nextDue {
                try await context.reminders.snooze(base, until: until)
            }
            try await context.reminders.cancel(id: snoozed.reminder.id)
        }
    }

    // MARK: Reminders

    func reminder(for habit: Habit, context: PluginContext) -> Reminder? {
        reminder(for: HabitPlan(habit), context: context)
    }

    func reminder(for habit: HabitPlan, context: PluginContext) -> Reminder? {
        guard let time = habit.remindAt else { return nil }
        let zone = context.timeZone
        let schedule: Schedule =
            switch habit.schedule {
            case .daily: .daily(at: time, zone: zone)
            case .weekdays(let days): .weekly(on: days, at: time, zone: zone)
            case .everyNDays(let interval): .everyNDays(interval: interval, anchor: habit.start, at: time, zone: zone)
            }
        return Reminder(
            id: Self.reminderPrefix + habit.id.uuidString.lowercased(), schedule: schedule,
            notice: Notice(title: habit.name, body: Self.reminderLine(habit.name)),
            hold: hold(for: habit, context: context))
    }

    /// While a habit is paused, or once it is done today, its reminder still comes due and
    /// ``reminderDue(_:context:)`` shows nothing: the hold says so, so that `hooray next` and the
    /// status bar do not list it as coming.
    func hold(for habit: HabitPlan, context: PluginContext) -> ReminderHold? {
        let today = context.today
        guard let pause = habit.pauses.first(where: { $0.contains(today) }) else {
            guard habit.done.contains(today) else { return nil }
            return ReminderHold(
                reason: "done today",
                until: LocalDayRange(from: today, through: today, in: context.timeZone).instants.upperBound)
        }
        guard let through = pause.through else { return ReminderHold(reason: "paused") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = context.timeZone
        let next = through.adding(days: 1)
        let end = calendar.date(from: DateComponents(year: next.year, month: next.month, day: next.day))
        return ReminderHold(reason: "paused", until: end.map { calendar.startOfDay(for: $0) })
    }

    static func reminderLine(_ name: String) -> String { "Don't forget to make time for \(name) today." }

    func syncReminder(for habit: Habit, context: PluginContext) async throws {
        if let reminder = reminder(for: habit, context: context) {
            try await context.reminders.schedule(reminder)
        } else {
            try await context.reminders.cancel(id: Self.reminderPrefix + habit.id.uuidString.lowercased())
        }
    }

    static func habitID(fromReminder id: String?) -> UUID? {
        guard let id else { return nil }
        for prefix in [reminderPrefix, legacySnoozePrefix] where id.hasPrefix(prefix) {
            return UUID(uuidString: String(id.dropFirst(prefix.count)))
        }
        return nil
    }

    public func reminderDue(_ due: DueReminder, context: PluginContext) async throws -> Notice? {
        guard let id = Self.habitID(fromReminder: due.reminder.id),
            let habit = try await context.records(of: Habit.self).record(id.uuidString.lowercased())
        else { return nil }
        let day = LocalDate(instant: due.dueAt, in: context.timeZone)
        guard habit.isDue(on: day), !habit.completions.contains(day) else { return nil }
        var lines = [Self.reminderLine(habit.name)]
        if let missed = habit.streak(today: day).lastMissed, missed == habit.previousDueDay(before: day) {
            if let why = habit.why { lines.append("Remember why: \(why)") }
            lines.append(
                "Missed last time? That's okay. `hooray habit reset \(habit.name)` starts fresh, with a note on what happened."
            )
        }
        return Notice(
            title: habit.name, body: lines.joined(separator: "\n"), urgency: .low,
            actions: [NoticeAction(id: Self.doneAction, label: "Done"), .snooze()],
            category: "hooray.habit", opens: .habit(habit.id.uuidString.lowercased()))
    }

    /// Marks the habit done from its reminder's "Done" button: on the day the reminder was for, even
    /// when it is pressed after midnight or on a snoozed reminder. ("Snooze 1 h" is the engine's.)
    public func actionInvoked(_ action: InvokedAction, context: PluginContext) async throws {
        guard action.actionID == Self.doneAction, let id = Self.habitID(fromReminder: action.reminderID) else { return }
        let day = LocalDate(instant: action.dueAt ?? context.now, in: context.timeZone)
        _ = try await complete(id: id, day: day, context: context, celebrateSmall: true)
    }

    // MARK: Commands

    func today(_ context: PluginContext) -> LocalDate { context.today }

    func habits(_ context: PluginContext) -> RecordBook<Habit> { context.records(of: Habit.self) }

    func checkWhy(_ why: String?) throws -> String? {
        guard let why = why?.trimmingCharacters(in: .whitespacesAndNewlines), !why.isEmpty else { return nil }
        guard why.count <= HabitRules.maxNoteLength else {
            throw PluginCommandError.invalidValue(
                "--why", "the note is \(why.count) characters long; use at most \(HabitRules.maxNoteLength)")
        }
        return why
    }

    func checkUnique(_ name: String, except id: UUID? = nil, book: RecordBook<Habit>) async throws {
        if let existing = try await book.names().first(where: {
            $0.id != id && $0.name.caseInsensitiveCompare(name) == .orderedSame
        }) {
            throw PluginCommandError(
                "you already have a habit called \"\(existing.name)\"; pick another name, or change it with `hooray habit edit`"
            )
        }
    }

    func reply(_ habit: Habit, _ message: String, notes: [String] = [], celebration: String? = nil, today: LocalDate)
        -> HabitReply
    {
        HabitReply(
            habit: habit, streak: habit.streak(today: today).days, message: message, notes: notes,
            celebration: celebration)
    }

    func add(_ request: HabitRequest, context: PluginContext) async throws -> HabitReply {
        let today = today(context)
        let name = try HabitRules.checkName(request.name)
        let schedule = try HabitRules.schedule(every: request.every, on: request.on) ?? .daily
        let remindAt = try request.remind.flatMap(HabitRules.remindTime)
        let start = try request.start.map { try context.timeInput.day($0, option: "--start") } ?? today
        let why = try checkWhy(request.why)
        let book = habits(context)
        try await checkUnique(name, book: book)
        let habit = Habit(
            name: name, why: why, schedule: schedule, start: start, remindAt: remindAt, createdAt: context.now)
        try await book.insert(habit)
        try await syncReminder(for: habit, context: context)
        var message = "Added “\(name)”: \(schedule.summary)"
        message += remindAt.map { ", with a reminder at \($0)." } ?? "."
        return reply(habit, message, today: today)
    }

    func edit(_ request: HabitRequest, context: PluginContext) async throws -> HabitReply {
        let today = today(context)
        let book = habits(context)
        let found = try await book.find(named: request.name)
        let schedule = try HabitRules.schedule(every: request.every, on: request.on)
        let remindAt = try request.remind.map { try HabitRules.remindTime($0) }
        let start = try request.start.map { try context.timeInput.day($0, option: "--start") }
        let why = try request.why.map { try checkWhy($0) }
        guard schedule != nil || remindAt != nil || start != nil || why != nil else {
            throw PluginCommandError(
                "nothing to change; give --why, --every, --on, --remind or --start (and `hooray habit rename` for the name)"
            )
        }
        let (habit, _) = try await book.change(found.id) { habit in
            if let schedule { habit.schedule = schedule }
            if let remindAt { habit.remindAt = remindAt }
            if let start { habit.start = start }
            if let why { habit.why = why }
        }
        try await syncReminder(for: habit, context: context)
        // Every change made is confirmed, in the order of the options' help.
        var changes: [String] = []
        if let why { changes.append(why.map { "note “\($0)”" } ?? "note removed") }
        if schedule != nil { changes.append("schedule \(habit.schedule.summary)") }
        if let remindAt { changes.append(remindAt.map { "reminder at \($0)" } ?? "reminder off") }
        if let start { changes.append("counts from \(start.written(today: today))") }
        return reply(habit, "Updated “\(habit.name)”: \(changes.joined(separator: "; ")).", today: today)
    }

    func rename(_ request: HabitRequest, context: PluginContext) async throws -> HabitReply {
        let book = habits(context)
        let found = try await book.find(named: request.name)
        let newName = try HabitRules.checkName(request.newName ?? "")
        try await checkUnique(newName, except: found.id, book: book)
        let (habit, _) = try await book.change(found.id) { $0.name = newName }
        try await syncReminder(for: habit, context: context)
        return reply(habit, "Renamed “\(found.name)” to “\(newName)”. Its history stays.", today: today(context))
    }

    func delete(_ request: HabitRequest, context: PluginContext) async throws -> HabitReply {
        let book = habits(context)
        let found = try await book.find(named: request.name)
        try await book.delete(found.recordID)
        // Cancelling the reminder cancels its snooze too.
        try await context.reminders.cancel(id: Self.reminderPrefix + found.recordID)
        return HabitReply(habit: found, streak: 0, message: "Deleted “\(found.name)” and its history.", notes: [])
    }

    func done(_ request: HabitRequest, context: PluginContext) async throws -> HabitReply {
        let today = today(context)
        let found = try await habits(context).find(named: request.name)
        let day =
            try request.date.map { try context.timeInput.day($0, option: "--date", limit: .todayOrEarlier) } ?? today
        guard day >= found.start else {
            throw PluginCommandError(
                "“\(found.name)” starts on \(found.start.written(today: today)), so \(day.written(today: today)) cannot be marked; change the start with `hooray habit edit --start`"
            )
        }
        var notes: [String] = []
        if found.pauses.contains(where: { $0.contains(day) }) {
            notes.append(
                "“\(found.name)” is paused on \(day.written(today: today)), so this counts as an extra, outside the streak."
            )
        } else if !found.schedule.isDue(on: day, start: found.start) {
            notes.append(
                "“\(found.name)” isn't due on \(day.written(today: today)); it's counted as an extra, outside the streak."
            )
        }
        if found.completions.contains(day) {
            return reply(
                found, "“\(found.name)” is already done for \(day == today ? "today" : day.written(today: today)).",
                notes: notes,
                today: today)
        }
        // Celebrated as the notification's Done button does: a milestone big, today small; a day
        // filled in afterwards (--date), or one outside the streak, only at a milestone.
        let (habit, celebration) = try await complete(
            id: found.id, day: day, context: context, celebrateSmall: day == today && notes.isEmpty)
        let streak = habit.streak(today: today).days
        let message = "Done: “\(habit.name)” · \(Self.days(streak))"
        return reply(habit, message, notes: notes, celebration: celebration, today: today)
    }

    /// Marks a day done and celebrates it, from the command line and the Done button alike: big for
    /// a milestone the streak reached (once per run), otherwise small when `celebrateSmall`.
    ///
    /// The day is saved first; a celebration that cannot be shown is logged and does not undo it.
    ///
    /// - Returns: The habit, and the celebration's line when there was one.
    func complete(id: UUID, day: LocalDate, context: PluginContext, celebrateSmall: Bool) async throws -> (
        Habit, String?
    ) {
        let today = today(context)
        let milestones = try context.configuration(of: self).milestones
        let (habit, reached) = try await habits(context).change(id) { habit in
            habit.complete(day, today: today, milestones: milestones)
        }
        // Done today: today's reminder is held, so that it is not listed as coming.
        if day == today { try await syncReminder(for: habit, context: context) }
        if let milestone = reached {
            let outcome = await context.celebrate(
                Celebration(
                    size: .big, title: "\(habit.name) · \(milestone) days",
                    detail: milestone >= 365
                        ? "A whole year of showing up." : "\(milestone) days in a row. Look at that."))
            return (habit, outcome?.line)
        }
        guard celebrateSmall else { return (habit, nil) }
        let streak = habit.streak(today: today).days
        let outcome = await context.celebrate(Celebration(size: .small, title: "\(habit.name) · \(Self.days(streak))"))
        return (habit, outcome?.line)
    }

    static func days(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }

    func undo(_ request: HabitRequest, context: PluginContext) async throws -> HabitReply {
        let today = today(context)
        let book = habits(context)
        let found = try await book.find(named: request.name)
        let day = try request.date.map { try context.timeInput.day($0, option: "--date") } ?? today
        guard found.completions.contains(day) else {
            throw PluginCommandError(
                "“\(found.name)” isn't marked done on \(day == today ? "today" : day.written(today: today)), so there is nothing to undo"
            )
        }
        let (habit, _) = try await book.change(found.id) { $0.completions.remove(day) }
        if day == today { try await syncReminder(for: habit, context: context) }
        return reply(
            habit,
            "Undone: “\(habit.name)” on \(day.written(today: today)) · \(Self.days(habit.streak(today: today).days))",
            today: today)
    }

    func pause(_ request: HabitRequest, context: PluginContext) async throws -> HabitReply {
        let today = today(context)
        let book = habits(context)
        let found = try await book.find(named: request.name)
        let through = try HabitRules.pauseEnd(for: request.duration, until: request.until, input: context.timeInput)
        if let current = found.pauses.first(where: { $0.contains(today) }) {
            throw PluginCommandError(
                "“\(found.name)” is already paused since \(current.from.written(today: today))\(current.through.map { " until \($0.written(today: today))" } ?? ""); `hooray habit resume \(found.name)` ends the pause"
            )
        }
        let (habit, _) = try await book.change(found.id) {
            $0.pauses.append(HabitPause(from: today, through: through))
        }
        try await syncReminder(for: habit, context: context)
        let until = through.map { "through \($0.written(today: today))" } ?? "until you resume it"
        return reply(
            habit, "Paused “\(habit.name)” \(until). The streak waits for you; no reminders meanwhile.", today: today)
    }

    func resume(_ request: HabitRequest, context: PluginContext) async throws -> HabitReply {
        let today = today(context)
        let book = habits(context)
        let found = try await book.find(named: request.name)
        guard found.pauses.contains(where: { $0.contains(today) }) else {
            throw PluginCommandError("“\(found.name)” isn't paused")
        }
        let (habit, _) = try await book.change(found.id) { habit in
            habit.pauses = habit.pauses.compactMap { pause in
                guard pause.contains(today) else { return pause }
                // The pause ends yesterday; one that began today disappears.
                return pause.from == today ? nil : HabitPause(from: pause.from, through: today.adding(days: -1))
            }
        }
        try await syncReminder(for: habit, context: context)
        return reply(
            habit, "Welcome back to “\(habit.name)”. Its streak is \(Self.days(habit.streak(today: today).days)).",
            today: today)
    }

    func reset(_ request: HabitRequest, context: PluginContext) async throws -> HabitReply {
        let today = today(context)
        let book = habits(context)
        let found = try await book.find(named: request.name)
        let note = try checkWhy(request.note)
        let (habit, _) = try await book.change(found.id) { habit in
            habit.resets.removeAll { $0.day == today }
            habit.resets.append(HabitReset(day: today, note: note))
        }
        var message = "Reset “\(habit.name)”. A fresh start today."
        if let why = habit.why { message += " Remember why: \(why)" }
        return reply(habit, message, today: today)
    }
}

/// What planning a habit's reminder needs of it: read without its history.
///
/// It reads the fields a ``Habit`` must have as strictly as the habit does, so a habit that would
/// not decode gets no reminder.
struct HabitPlan: Decodable, Sendable {
    var id: UUID
    var name: String
    var schedule: HabitSchedule
    var start: LocalDate
    var remindAt: TimeOfDay?
    var createdAt: Date
    var pauses: [HabitPause]
    /// The days done: a bitmap, quick to read (today's hold needs it).
    var done: DaySet

    init(_ habit: Habit) {
        id = habit.id
        name = habit.name
        schedule = habit.schedule
        start = habit.start
        remindAt = habit.remindAt
        createdAt = habit.createdAt
        pauses = habit.pauses
        done = habit.completions
    }

    enum CodingKeys: String, CodingKey {
        case id, name, schedule, start, remindAt, createdAt, pauses, done, completions
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        schedule = try container.decode(HabitSchedule.self, forKey: .schedule)
        start = try container.decode(LocalDate.self, forKey: .start)
        remindAt = try container.decodeIfPresent(TimeOfDay.self, forKey: .remindAt)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        pauses = try container.decodeIfPresent([HabitPause].self, forKey: .pauses) ?? []
        if let days = try container.decodeIfPresent(DaySet.self, forKey: .done) {
            done = days
        } else {
            let days = try container.decodeIfPresent([Int].self, forKey: .completions) ?? []
            done = DaySet(days.map(LocalDate.init(daysSinceEpoch:)))
        }
    }
}

/// The `[plugins.habits]` section.
///
/// ```toml
/// [plugins.habits]
/// milestones = [7, 30, 100, 365]   # streak lengths that are celebrated, once per run
/// ```
public struct HabitsConfiguration: Decodable, Sendable, Equatable {
    /// The streak lengths that are celebrated.
    public var milestones: [Int]

    /// Creates a configuration.
    public init(milestones: [Int] = [7, 30, 100, 365]) {
        self.milestones = milestones
    }

    enum CodingKeys: String, CodingKey {
        case milestones
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let milestones = try container.decodeIfPresent([Int].self, forKey: .milestones) ?? [7, 30, 100, 365]
        guard !milestones.isEmpty, milestones.allSatisfy({ (1...3660).contains($0) }),
            Set(milestones).count == milestones.count
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .milestones, in: container,
                debugDescription:
                    "milestones must be different whole numbers of days from 1 to 3660, such as [7, 30, 100, 365]"
            )
        }
        self.milestones = milestones.sorted()
    }
}
