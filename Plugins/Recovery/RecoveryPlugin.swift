import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayText

/// Rejection recovery (seed 002, ResilientMe): log a rejection in 30 seconds, get a plan that fits,
/// a gentle follow-up a day later, a daily check-in and a daily challenge.
///
/// `hooray reject --type job --impact 6` saves a ``Rejection`` and answers at once, in the terminal
/// and as a notification, with the type's title, an encouraging line and the five-minute recovery
/// plan. A rejection that hurt at least `follow_up_min_impact` gets one follow-up
/// `follow_up_after` later, shown exactly once — after a crash or a suspend too, however late —
/// unless the user said "I'm okay now" first; follow-ups due within the same hour are shown as one.
public struct RecoveryPlugin: CommandPlugin {
    public typealias Configuration = RecoveryConfiguration

    public var name: String { "recovery" }
    /// What `hooray import` checks imported records against.
    public var recordTypes: [any PluginRecord.Type] { [Rejection.self, CheckIn.self, ChallengeEntry.self] }
    public var summary: String { "Log a rejection (`hooray reject`), get a plan that fits and a gentle follow-up" }

    /// Creates the plugin.
    public init() {}

    /// The daily check-in reminder's id.
    static let checkInReminder = "checkin"
    /// The morning challenge reminder's id.
    static let challengeReminder = "challenge"
    /// The prefix of a follow-up reminder's id; the rest is its group's id.
    static let followUpPrefix = "follow-up-"
    /// How close follow-ups must be due to be shown as one.
    static let followUpWindow: TimeInterval = 3600
    /// How far ahead "now" is scheduled: a one-off reminder is due strictly after it is scheduled.
    static let soon: TimeInterval = 1
    /// How far ahead a follow-up must be for a new rejection to join it.
    static let followUpJoinMargin: TimeInterval = 60

    // Buttons.
    static let showPlan = NoticeAction(id: "show-plan", label: "Show plan")
    static let okay = NoticeAction(id: "okay", label: "I'm okay now")
    static let stillHard = NoticeAction(id: "still-hard", label: "Still hard")
    static let challengeDone = NoticeAction(id: "challenge-done", label: "Done")
    static let challengeSkip = NoticeAction(id: "challenge-skip", label: "Skip today")
    /// A note for the day's check-in, typed into the notification where the server takes a reply;
    /// elsewhere the button opens the app.
    static let addNote = NoticeAction(
        id: "checkin-note", label: "Add a note", prompt: "A note for today's check-in", answerOnly: true)
    /// The line added when no AI encouragement came (PRODUCT.md).
    static let aiFailedLine = "Couldn't fetch extra encouragement this time."

    /// A mood button's id: `mood-low`, `mood-okay`, `mood-good`, `mood-strong`.
    static func moodAction(_ mood: CheckInMood) -> NoticeAction {
        NoticeAction(id: "mood-\(mood.rawValue)", label: mood.label)
    }

    // MARK: Reminders

    public func activate(context: PluginContext, configuration: RecoveryConfiguration) async throws {
        let started = try await RecurringNotices.haveStarted(context: context, recordTypes: recordTypes)
        try await scheduleCheckIn(context: context, configuration: configuration, started: started)
        try await scheduleChallenge(context: context, configuration: configuration, started: started)
        do {
            try await reconcileFollowUps(context: context)
        } catch {
            // The check-in and challenge go on; the next start or reload tries again.
            context.logger.error("could not put back the follow-ups of rejections saved by a stopped process: \(error)")
        }
    }

    /// Schedules the daily check-in, held back for the rest of the day once today's check-in exists,
    /// or cancels it when `checkin = false`, or before the user first used the plugin unless
    /// switched on (`started`: ``RecurringNotices/haveStarted(context:recordTypes:)``).
    func scheduleCheckIn(context: PluginContext, configuration: RecoveryConfiguration, started: Bool) async throws {
        guard configuration.checkIn, configuration.checkInStart.isOn(started: started) else {
            try await context.reminders.cancel(id: Self.checkInReminder)
            return
        }
        let today = context.today
        let checkedIn = try await context.records(of: CheckIn.self).record(today.description) != nil
        let hold =
            checkedIn
            ? ReminderHold(
                reason: "checked in today",
                until: LocalDayRange(from: today, through: today, in: context.timeZone).instants.upperBound)
            : nil
        try await context.reminders.schedule(
            Reminder(
                id: Self.checkInReminder, schedule: .daily(at: configuration.checkInAt, zone: context.timeZone),
                notice: Self.checkInNotice, hold: hold))
    }

    /// Holds a daily reminder for the rest of `day` once it is answered (a check-in, a challenge done),
    /// so `hooray next` does not list it as coming, keeping its schedule as `activate` made it.
    ///
    /// A command runs with the user's terminal time zone, which may not be `hoorayd`'s; the
    /// reminder's own zone says where its day ends. A day that is not the reminder's today changes
    /// nothing.
    func holdForToday(reminder id: String, day: LocalDate, reason: String, context: PluginContext) async throws {
        guard var reminder = try await context.reminders.list().first(where: { $0.reminder.id == id })?.reminder
        else { return }
        let zone = reminder.schedule.zone ?? context.timeZone
        let today = LocalDate(instant: context.now, in: zone)
        guard day == today else { return }
        reminder.hold = ReminderHold(
            reason: reason, until: LocalDayRange(from: today, through: today, in: zone).instants.upperBound)
        try await context.reminders.schedule(reminder)
    }

    /// The daily check-in notification, with a button for each mood.
    static let checkInNotice = Notice(
        title: RecoveryCopy.checkInTitle, body: RecoveryCopy.checkInBody,
        actions: CheckInMood.allCases.map(moodAction), category: "hooray.recovery.checkin", opens: .recovery)

    public func reminderDue(_ due: DueReminder, context: PluginContext) async throws -> Notice? {
        let id = due.reminder.id
        if id == Self.checkInReminder {
            let day = LocalDate(instant: due.dueAt, in: context.timeZone)
            // Yesterday's check-in is not worth asking for today; nor one already given.
            guard day == context.today, try await context.records(of: CheckIn.self).record(day.description) == nil
            else { return nil }
            var notice = Self.checkInNotice
            notice.payload = .object(["day": .string(day.description)])
            return notice
        }
        if id == Self.challengeReminder {
            let day = LocalDate(instant: due.dueAt, in: context.timeZone)
            guard day == context.today else { return nil }
            return try await challengeNotice(on: day, context: context)
        }
        if id.hasPrefix(Self.followUpPrefix),
            let group = UUID(uuidString: String(id.dropFirst(Self.followUpPrefix.count)))
        {
            // A threshold raised since (11 turns follow-ups off) applies to those already planned too.
            let least = try context.configuration(of: self).followUpMinImpact
            // One shown by an earlier follow-up (before an import) is not counted again; one shown
            // by this very occurrence (asked again after a restart, or snoozed) still is.
            let waiting = try await followUpMembers(group, context: context).filter {
                !$0.isRecovered && $0.impact >= least && $0.followUpShown.map { Self.same($0, due.dueAt) } ?? true
            }
            guard let earliest = waiting.map(\.happenedAt).min() else { return nil }
            let book = context.records(of: Rejection.self)
            for member in waiting where member.followUpShown == nil {
                try await book.update(member.recordID) { stored in
                    if stored.followUpShown == nil { stored.followUpShown = due.dueAt }
                }
            }
            // "Yesterday" is true of a follow-up a day later; one shown days late after a suspend is not.
            let hours = context.now.timeIntervalSince(earliest) / 3600
            return Self.followUpNotice(group: group, count: waiting.count, yesterday: (18...36).contains(hours))
        }
        return nil
    }

    /// Whether two instants are the same follow-up time, as stored and read back.
    static func same(_ one: Date, _ other: Date) -> Bool {
        abs(one.timeIntervalSince(other)) < 1
    }

    /// The follow-up: "How are you doing?", for one rejection or several due within the hour.
    static func followUpNotice(group: UUID, count: Int, yesterday: Bool = true) -> Notice {
        Notice(
            title: RecoveryCopy.followUpTitle, body: RecoveryCopy.followUpBody(count: count, yesterday: yesterday),
            actions: [okay, stillHard], category: "hooray.recovery.follow-up",
            payload: .object(["group": .string(group.uuidString.lowercased())]), opens: .recovery)
    }

    public func actionInvoked(_ action: InvokedAction, context: PluginContext) async throws {
        switch action.actionID {
        case Self.showPlan.id:
            let rejection = try await rejection(from: action, context: context)
            var plan = Self.planNotice(for: RecoverySituation(rejection))
            if !rejection.isRecovered {
                // The notification pressed is closed now: the plan carries its other button.
                plan.actions = [Self.okay]
                plan.payload = .object(["rejection": .string(rejection.recordID)])
            }
            plan.opens = .recoveryPlan(rejection.recordID)
            try await context.notices.post(plan)
        case Self.okay.id:
            let rejections = try await rejections(from: action, context: context)
            guard !rejections.isEmpty else {
                throw ActionDeclined("That rejection is no longer in your history; nothing to mark.")
            }
            let waiting = rejections.filter { !$0.isRecovered }
            guard !waiting.isEmpty else {
                throw ActionDeclined(
                    "You already said you're okay; nothing more to do. `hooray recovery` shows how you're doing.")
            }
            for rejection in waiting {
                _ = try await markRecovered(rejection, context: context)
            }
        case Self.stillHard.id:
            let rejections = try await rejections(from: action, context: context)
            let hardest = rejections.max { $0.impact < $1.impact }
            var notice = Self.stillHardNotice(
                for: hardest.map(RecoverySituation.init) ?? RecoverySituation(type: .other, note: nil))
            if rejections.contains(where: { !$0.isRecovered }), let payload = action.payload {
                // The follow-up pressed is closed now: the plan carries its other button.
                notice.actions = [Self.okay]
                notice.payload = payload
            }
            try await context.notices.post(notice)
        case Self.addNote.id:
            try await addNote(action, context: context)
        case Self.challengeDone.id, Self.challengeSkip.id:
            let day =
                action.payload?["day"]?.stringValue.flatMap(LocalDate.init(parsing:))
                ?? action.dueAt.map { LocalDate(instant: $0, in: context.timeZone) } ?? context.today
            let recorded = try await recordChallenge(
                on: day, outcome: action.actionID == Self.challengeDone.id ? .done : .skipped, context: context)
            guard recorded.changed else {
                throw ActionDeclined(
                    "That day's challenge is already \(recorded.entry.outcome.rawValue); `hooray challenge` shows it.")
            }
        default:
            guard action.actionID.hasPrefix("mood-"),
                let mood = CheckInMood(rawValue: String(action.actionID.dropFirst(5)))
            else { return }
            let day =
                action.payload?["day"]?.stringValue.flatMap(LocalDate.init(parsing:))
                ?? action.dueAt.map { LocalDate(instant: $0, in: context.timeZone) } ?? context.today
            let (_, replaced) = try await checkIn(mood, note: nil, on: day, context: context)
            try await context.notices.post(Self.checkedInNotice(mood, on: day, replaced: replaced))
        }
    }

    /// What a mood button shows: the check-in saved, and a note to add by replying.
    static func checkedInNotice(_ mood: CheckInMood, on day: LocalDate, replaced: Bool) -> Notice {
        var notice = Notice(
            title: replaced ? "Today's check-in is now \(mood.label)" : "Checked in: \(mood.label)",
            body: "Thanks for taking 30 seconds for yourself. Anything to add? A note keeps it with today's check-in.",
            urgency: .low, actions: [addNote], category: "hooray.recovery.checkin", opens: .recovery)
        notice.payload = .object(["day": .string(day.description)])
        return notice
    }

    /// Adds the typed note to the day's check-in (the **Add a note** reply, or `hooray act … --answer`).
    func addNote(_ action: InvokedAction, context: PluginContext) async throws {
        guard let note = try RejectionRequest.checkedNote(action.answer, option: "--answer") else {
            throw ActionDeclined(
                "Nothing was saved: the note had no words. `hooray recovery checkin MOOD --note TEXT` adds one any time."
            )
        }
        let day = action.payload?["day"]?.stringValue.flatMap(LocalDate.init(parsing:)) ?? context.today
        let updated = try await context.records(of: CheckIn.self).update(day.description) { stored in
            stored.note = note
            return true
        }
        guard updated != nil else {
            throw ActionDeclined(
                "That day has no check-in to add a note to; `hooray recovery checkin MOOD --note TEXT` makes one.")
        }
    }

    /// The plan, on its own notification (the **Show plan** button).
    static func planNotice(for situation: RecoverySituation) -> Notice {
        Notice(
            title: RecoveryCopy.title(for: situation),
            body: RecoveryCopy.planLines(for: situation).joined(separator: "\n"),
            category: "hooray.recovery.plan", timeout: .never)
    }

    /// What **Still hard** shows: the plan again, and where to find help in a crisis.
    static func stillHardNotice(for situation: RecoverySituation) -> Notice {
        Notice(
            title: "That's okay. One step at a time.",
            body: (RecoveryCopy.planLines(for: situation) + ["", CrisisHelp.short]).joined(separator: "\n"),
            category: "hooray.recovery.plan", timeout: .never)
    }

    /// The rejection a button is about: the notice's `rejection`, else the latest.
    func rejection(from action: InvokedAction, context: PluginContext) async throws -> Rejection {
        guard let found = try await rejections(from: action, context: context).first else {
            throw ActionDeclined("That rejection is no longer in your history.")
        }
        return found
    }

    /// The rejections a button is about: the notice's `rejection`, or its follow-up `group`.
    func rejections(from action: InvokedAction, context: PluginContext) async throws -> [Rejection] {
        let book = context.records(of: Rejection.self)
        if let id = action.payload?["rejection"]?.stringValue {
            return try await book.record(id).map { [$0] } ?? []
        }
        if let group = action.payload?["group"]?.stringValue.flatMap(UUID.init(uuidString:)) {
            let members = try await followUpMembers(group, context: context)
            // A follow-up's buttons are about the rejections it counted: a group an import mixed may
            // also hold one an earlier follow-up showed, which this one did not ask about.
            if let due = action.dueAt {
                let counted = members.filter { $0.followUpShown.map { abs($0.timeIntervalSince(due)) < 1 } == true }
                if !counted.isEmpty { return counted }
            }
            return members
        }
        return []
    }

    // MARK: First use

    /// Starts the daily check-in and challenge on the user's first use of the plugin (a rejection,
    /// a check-in or a challenge saved), and says so at the end of the reply: what is now
    /// scheduled and how to turn it off. Notes the start in any case.
    ///
    /// - Parameters:
    ///   - reply: The command's reply.
    ///   - wasStarted: Whether the reminders had started before the command saved anything.
    ///   - context: The plugin's context.
    ///   - configuration: The plugin's configuration.
    /// - Returns: The reply, with the line added the first time something was scheduled.
    func startingReminders(
        _ reply: CommandReply, wasStarted: Bool, json: Bool, context: PluginContext,
        configuration: RecoveryConfiguration
    ) async throws -> CommandReply {
        try await RecurringNotices.start(context: context)
        guard !wasStarted else { return reply }
        try await scheduleCheckIn(context: context, configuration: configuration, started: true)
        try await scheduleChallenge(context: context, configuration: configuration, started: true)
        var started: [RecurringNotices.Started] = []
        if configuration.checkIn, configuration.checkInStart == .onFirstUse {
            started.append(.init(name: "a check-in", at: configuration.checkInAt, turnOff: "checkin = false"))
        }
        if let time = configuration.challengeAt, configuration.challengeStart == .onFirstUse {
            started.append(.init(name: "today's challenge", at: time, turnOff: "challenge_at = \"off\""))
        }
        return RecurringNotices.announcing(started, in: reply, json: json, plugin: name, context: context)
    }

    // MARK: Logging

    /// Logs a rejection: checks everything first, then saves it and its notification in one step,
    /// and plans its follow-up.
    func log(_ request: RejectionRequest, context: PluginContext, configuration: RecoveryConfiguration) async throws
        -> Rejection
    {
        let checked = try request.checked(timeInput: context.timeInput)
        let now = context.now
        var rejection = Rejection(
            type: checked.type, impact: checked.impact, note: checked.note, screenshots: checked.screenshots,
            happenedAt: now.addingTimeInterval(-Double(checked.secondsAgo)), loggedAt: now,
            timeZone: context.timeZone.identifier,
            encouragement: RecoveryCopy.encouragements(for: RecoverySituation(type: checked.type, note: checked.note))
                .randomElement()!)
        let after = Double(configuration.followUpAfter.seconds)
        // When it would come alone; one due right now (`--ago` exactly `follow_up_after`) comes at once.
        let ownDue = rejection.happenedAt.addingTimeInterval(after)
        if checked.impact >= configuration.followUpMinImpact, ownDue >= now {
            let joined = try await followUpToJoin(dueAt: ownDue, after: after, context: context)
            rejection.followUpGroup = joined?.group ?? rejection.id
            rejection.followUpDue = joined?.due ?? max(ownDue, now.addingTimeInterval(Self.soon))
        }
        let book = context.records(of: Rejection.self)
        // The first rejection starts the daily reminders, noted in the same step (see `startingReminders`).
        let notice = try await book.insert(
            rejection, announcing: Self.loggedNotice(for: rejection),
            storing: [RecurringNotices.startedKey: RecurringNotices.startedValue])
        if let group = rejection.followUpGroup, let due = rejection.followUpDue {
            rejection = try await planFollowUp(of: rejection, group: group, at: due, ownDue: ownDue, context: context)
        }
        if configuration.ai {
            let saved = rejection
            context.background.start("asking for AI encouragement") {
                try await self.askForEncouragement(saved, notice: notice, context: context)
            }
        }
        return rejection
    }

    /// The notification of a logged rejection: the type's title, the encouraging line and the plan.
    static func loggedNotice(for rejection: Rejection, failedLine: Bool = false) -> Notice {
        let situation = RecoverySituation(rejection)
        return Notice(
            title: RecoveryCopy.title(for: situation),
            body: ([rejection.encouragement] + (failedLine ? [aiFailedLine] : []) + [""]
                + RecoveryCopy.planLines(for: situation)).joined(separator: "\n"),
            actions: [showPlan, okay], category: "hooray.recovery.logged",
            payload: .object(["rejection": .string(rejection.recordID)]), opens: .recoveryPlan(rejection.recordID))
    }

    /// What the terminal shows for a logged rejection; `followUpPassed` is `follow_up_after` when
    /// the rejection hurt enough for a follow-up but happened longer ago than that, so it gets none.
    static func loggedText(for rejection: Rejection, color: Bool, followUpPassed: ConfigDuration? = nil) -> String {
        let situation = RecoverySituation(rejection)
        var lines = [
            "\(rejection.type.emoji) \(RecoveryCopy.title(for: situation))",
            rejection.encouragement,
            "",
        ]
        lines += RecoveryCopy.planLines(for: situation).enumerated().map {
            $0.offset == 0 ? $0.element : "  " + $0.element
        }
        lines.append(RecoveryCopy.templateLine(for: situation))
        lines.append("")
        var saved =
            "Logged \(rejection.type.rawValue) · \(rejection.impact)/10 [\(String(rejection.recordID.prefix(8)))]."
        if let due = rejection.followUpDue {
            let zone = TimeZone(identifier: rejection.timeZone) ?? .current
            saved += " I'll check on you \(Self.when(due, from: rejection.loggedAt, in: zone))."
        } else if let after = followUpPassed {
            let span = after.seconds == 86400 ? "a day" : RecoveryFormat.duration(Double(after.seconds))
            saved += " No follow-up: that was more than \(span) ago."
        }
        lines.append(saved)
        lines.append("When you feel better: hooray recovery okay")
        return lines.joined(separator: "\n")
    }

    /// "tomorrow at 10:00", "today at 22:00", "on 2026-11-27 at 10:00".
    static func when(_ instant: Date, from now: Date, in zone: TimeZone) -> String {
        let day = LocalDate(instant: instant, in: zone)
        let today = LocalDate(instant: now, in: zone)
        let time = RecoveryFormat.clock(instant, in: zone)
        switch today.days(until: day) {
        case 0: return "today at \(time)"
        case 1: return "tomorrow at \(time)"
        default: return "on \(day.written(today: today)) at \(time)"
        }
    }

    // MARK: Recovery

    /// Marks a rejection recovered now, keeps its recovery time, and cancels its follow-up when
    /// nothing else waits for it.
    ///
    /// - Returns: The rejection as saved.
    func markRecovered(_ rejection: Rejection, context: PluginContext) async throws -> Rejection {
        let now = context.now
        let book = context.records(of: Rejection.self)
        let updated = try await book.update(rejection.recordID) { stored -> Rejection in
            if stored.recoveredAt == nil { stored.recoveredAt = now }
            return stored
        }
        guard let updated else {
            throw PluginCommandError("that rejection is no longer in your history; `hooray recovery list` shows it")
        }
        if let group = updated.followUpGroup {
            try await cancelFollowUpIfDone(group: group, context: context)
        }
        return updated
    }

    // MARK: Check-ins

    /// Records the day's check-in (again: the latest mood counts), and holds the check-in reminder
    /// for the rest of the day.
    ///
    /// - Returns: The check-in, and whether it replaced an earlier one of the same day.
    func checkIn(_ mood: CheckInMood, note: String?, on day: LocalDate, context: PluginContext) async throws
        -> (checkIn: CheckIn, replaced: Bool)
    {
        let book = context.records(of: CheckIn.self)
        let checkIn = CheckIn(day: day, mood: mood, note: note, at: context.now)
        let change: @Sendable (inout CheckIn) throws -> Bool = { stored in
            stored.mood = mood
            stored.at = checkIn.at
            if let note { stored.note = note }
            return true
        }
        var replaced = try await book.update(day.description, change)
        if replaced == nil {
            do {
                try await book.insert(checkIn)
            } catch let error as RecordBookError where error.code == .duplicateID {
                // A button pressed meanwhile saved the day's check-in first: the latest mood still counts.
                replaced = try await book.update(day.description, change)
            }
        }
        try await holdForToday(reminder: Self.checkInReminder, day: day, reason: "checked in today", context: context)
        return (try await book.record(day.description) ?? checkIn, replaced != nil)
    }

    // MARK: AI

    /// The whole of what an AI service is told about a rejection.
    static func encouragementRequest(for rejection: Rejection) -> String {
        "I logged a \(rejection.type.rawValue) rejection that hurt \(rejection.impact) out of 10."
    }

    /// Asks the AI service for an encouraging line — sending only the type and the impact — and
    /// puts it in place of the offline one, on the notification and in the history.
    ///
    /// The request says "I logged a job rejection that hurt 6 out of 10." and nothing else of the
    /// rejection: a fresh random id, no note, no screenshot, no time zone. An OpenAI-compatible
    /// service gets no time at all; the Hooray backend, whose protocol needs an instant, gets the
    /// start of the day in UTC (00:00Z) as both times, never the time of day it was logged.
    func askForEncouragement(_ rejection: Rejection, notice: NoticeID, context: PluginContext) async throws {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let day = utc.startOfDay(for: rejection.loggedAt)
        let asked = MomentForPraise(
            clientID: UUID(), text: Self.encouragementRequest(for: rejection), happenedAt: day, submittedAt: day,
            timeZone: "UTC", timeAgo: "just now", kind: .rejection)
        let praise: AIPraise
        do {
            praise = try await context.ai.praise(for: asked)
        } catch is CancellationError {
            return
        } catch let error as AIRequestError where error == .notConfigured {
            return  // AI is off: the offline line is the whole answer, and nothing is missing.
        } catch {
            context.logger.notice("no AI encouragement this time (\(error)); the offline line stays")
            guard let current = try await context.records(of: Rejection.self).record(rejection.recordID) else { return }
            try await context.notices.update(notice, to: Self.loggedNotice(for: current, failedLine: true))
            return
        }
        let book = context.records(of: Rejection.self)
        guard
            let updated = try await book.update(
                rejection.recordID,
                { stored -> Rejection in
                    stored.encouragement = praise.text
                    stored.encouragementFromAI = true
                    return stored
                })
        else { return }
        try await context.notices.update(notice, to: Self.loggedNotice(for: updated))
    }
}
