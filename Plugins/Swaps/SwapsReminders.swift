import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit

/// Night Prep and Morning Focus: the two daily reminders, and the buttons on them.
extension SwapsPlugin {
    // Buttons.
    static let didSwap = NoticeAction(id: "did-swap", label: "I did my swap")
    /// **I did my swap** on a Night Prep with no prep for the day: `hooray act` on a terminal asks
    /// for the swap's words (``didSwapQuestion``); a click, or Enter, saves ``unnamedSwap``.
    static let didSwapAsking = NoticeAction(id: didSwap.id, label: didSwap.label, prompt: didSwapQuestion)
    /// The question of **I did my swap** without a prep.
    static let didSwapQuestion = "What was your swap? (Enter saves “\(unnamedSwap)”)"
    static let prepNow = NoticeAction(id: "prep-now", label: "Prep now")
    static let needHelp = NoticeAction(id: "need-help", label: "I need help")
    static let gotIt = NoticeAction(id: "got-it", label: "Got it")

    /// What **I did my swap** saves when no prep was made for the day: the day still counts.
    static let unnamedSwap = "A healthy swap"
    /// Night Prep's title.
    static let nightPrepTitle = "Prep tonight: what's your swap for tomorrow?"
    /// Morning Focus's title.
    static let morningFocusTitle = "Morning Focus"
    /// Morning Focus's line when no prep was made: gentle, no guilt.
    static let noPrepLine = "No prep from last night, and that's okay. One small swap today is plenty."

    // MARK: Reminders

    public func activate(context: PluginContext, configuration: SwapsConfiguration) async throws {
        let started = try await RecurringNotices.haveStarted(context: context, recordTypes: Self.usageRecordTypes)
        try await scheduleNightPrep(context: context, configuration: configuration, started: started)
        try await scheduleMorningFocus(context: context, configuration: configuration, started: started)
    }

    /// Starts Night Prep and Morning Focus on the user's first use of the plugin (a swap or a prep
    /// saved), and says so at the end of the reply: what is now scheduled and how to turn it off.
    /// Notes the start in any case.
    ///
    /// - Parameters:
    ///   - reply: The command's reply.
    ///   - wasStarted: Whether the reminders had started before the command saved anything.
    ///   - context: The plugin's context.
    ///   - configuration: The plugin's configuration.
    /// - Returns: The reply, with the line added the first time something was scheduled.
    func startingReminders(
        _ reply: CommandReply, wasStarted: Bool, json: Bool, context: PluginContext, configuration: SwapsConfiguration
    ) async throws -> CommandReply {
        try await RecurringNotices.start(context: context)
        guard !wasStarted else { return reply }
        try await scheduleNightPrep(context: context, configuration: configuration, started: true)
        try await scheduleMorningFocus(context: context, configuration: configuration, started: true)
        var started: [RecurringNotices.Started] = []
        if let time = configuration.morningFocus, configuration.morningFocusStart == .onFirstUse {
            started.append(.init(name: "Morning Focus", at: time, turnOff: "morning_focus = \"off\""))
        }
        if let time = configuration.nightPrep, configuration.nightPrepStart == .onFirstUse {
            started.append(.init(name: "Night Prep", at: time, turnOff: "night_prep = \"off\""))
        }
        return RecurringNotices.announcing(started, in: reply, json: json, plugin: name, context: context)
    }

    /// Schedules Night Prep daily at `night_prep`, held for the rest of today when tomorrow is
    /// already prepped, or cancels it when `night_prep = "off"`, or before the user first used the
    /// plugin unless switched on (`started`: ``RecurringNotices/haveStarted(context:recordTypes:)``).
    func scheduleNightPrep(context: PluginContext, configuration: SwapsConfiguration, started: Bool) async throws {
        guard let time = configuration.nightPrep, configuration.nightPrepStart.isOn(started: started) else {
            try await context.reminders.cancel(id: Self.nightPrepReminder)
            return
        }
        let today = context.today
        let prepped = try await nothingLeftToAsk(tonight: today, context: context)
        try await context.reminders.schedule(
            Reminder(
                id: Self.nightPrepReminder, schedule: .daily(at: time, zone: context.timeZone),
                notice: Notice(title: Self.nightPrepTitle, category: "hooray.swaps.night-prep"),
                hold: Self.nightPrepHold(today: today, prepped: prepped, in: context.timeZone)))
    }

    /// Schedules Morning Focus daily at `morning_focus`, or cancels it when `morning_focus = "off"`,
    /// or before the user first used the plugin unless switched on.
    func scheduleMorningFocus(context: PluginContext, configuration: SwapsConfiguration, started: Bool) async throws {
        guard let time = configuration.morningFocus, configuration.morningFocusStart.isOn(started: started) else {
            try await context.reminders.cancel(id: Self.morningFocusReminder)
            return
        }
        try await context.reminders.schedule(
            Reminder(
                id: Self.morningFocusReminder, schedule: .daily(at: time, zone: context.timeZone),
                notice: Notice(title: Self.morningFocusTitle, category: "hooray.swaps.morning-focus")))
    }

    public func reminderDue(_ due: DueReminder, context: PluginContext) async throws -> Notice? {
        let zone = due.reminder.schedule.zone ?? context.timeZone
        let day = LocalDate(instant: due.dueAt, in: zone)
        // Caught up on a later day (the computer was off), last night's question or this morning's
        // plan no longer fits.
        guard day == LocalDate(instant: context.now, in: zone) else { return nil }
        switch due.reminder.id {
        case Self.nightPrepReminder:
            let preps = context.records(of: Prep.self)
            // Tomorrow prepped and today's swap saved (before the hold was set): nothing to ask tonight.
            guard try await !nothingLeftToAsk(tonight: day, context: context) else { return nil }
            let today = try await preps.record(day.description)
            let swapped = try await context.records(of: Swap.self).all().filter { $0.day == day }
            return Self.nightPrepNotice(on: day, todaysPrep: today, swapped: swapped)
        case Self.morningFocusReminder:
            let prep = try await context.records(of: Prep.self).record(day.description)
            let line = inspiration(on: day, configuration: try context.configuration(of: self))
            return Self.morningFocusNotice(on: day, prep: prep, inspiration: line)
        default:
            return nil
        }
    }

    /// Whether Night Prep has nothing left to ask on `day`: tomorrow is prepped and the day's swap is
    /// saved. Prepped early but not swapped yet, the evening still brings **I did my swap**.
    func nothingLeftToAsk(tonight day: LocalDate, context: PluginContext) async throws -> Bool {
        guard try await context.records(of: Prep.self).record(day.adding(days: 1).description) != nil else {
            return false
        }
        return try await !context.records(of: Swap.self).records(on: day, in: context.timeZone).isEmpty
    }

    /// Night Prep for `day`: what **I did my swap** would save, and how to prep tomorrow. Once a swap
    /// of the day is saved, the notice says so and leaves that button out.
    static func nightPrepNotice(on day: LocalDate, todaysPrep: Prep?, swapped: [Swap]) -> Notice {
        var lines: [String] = []
        var actions = [prepNow, needHelp]
        if let latest = swapped.max(by: { $0.loggedAt < $1.loggedAt }) {
            lines.append("Today's swap is saved: “\(latest.text)”. 🌿")
        } else if let first = todaysPrep?.items.first {
            lines.append("Today's prep: \(first).")
            lines.append("Done it? Press “I did my swap”.")
            actions.insert(didSwap, at: 0)
        } else {
            // Nothing to name the swap: `hooray act` asks for its words; a click saves unnamedSwap.
            lines.append("Made a healthy swap today? Press “I did my swap”, or name it: hooray swap \"…\"")
            actions.insert(didSwapAsking, at: 0)
        }
        lines.append("For tomorrow: hooray swap prep \"…\" (up to three).")
        return Notice(
            title: nightPrepTitle, body: lines.joined(separator: "\n"), actions: actions,
            category: "hooray.swaps.night-prep", payload: .object(["day": .string(day.description)]), opens: .today)
    }

    /// Morning Focus for `day`: "From last night:" and the prep's items, one a line, or a gentle line
    /// when there is no prep; then the day's inspiration.
    static func morningFocusNotice(on day: LocalDate, prep: Prep?, inspiration: String?) -> Notice {
        var lines: [String]
        if let prep, !prep.items.isEmpty {
            lines = ["From last night:"] + prep.items.map { "• \($0)" }
        } else {
            lines = [noPrepLine]
        }
        if let inspiration { lines += ["", inspiration] }
        return Notice(
            title: morningFocusTitle, body: lines.joined(separator: "\n"), actions: [gotIt, needHelp],
            category: "hooray.swaps.morning-focus", payload: .object(["day": .string(day.description)]),
            opens: .today)
    }

    // MARK: Buttons

    public func actionInvoked(_ action: InvokedAction, context: PluginContext) async throws {
        let day =
            action.payload?["day"]?.stringValue.flatMap(LocalDate.init(parsing:))
            ?? action.dueAt.map { LocalDate(instant: $0, in: context.timeZone) } ?? context.today
        switch action.actionID {
        case Self.didSwap.id:
            // Last night's button pressed after midnight still counts for last night; an older one
            // would fill a day long past, which the user should choose with --date.
            guard context.today.adding(days: -1) <= day else {
                throw ActionDeclined(
                    "That Night Prep was for \(day.written(today: context.today)), which has passed; to count a swap for it, run "
                        + "`hooray swap \"…\" --date \(day)`.")
            }
            _ = try await recordDidSwap(on: day, answer: action.answer, notice: action.notice, context: context)
        case Self.prepNow.id:
            let tonight = try await context.records(of: Prep.self).record(day.adding(days: 1).description)
            try await context.notices.post(Self.prepNowNotice(tonight: tonight))
        case Self.needHelp.id:
            try await context.notices.post(try await needHelpNotice(context: context))
        default:
            // Got it: the notification closes, and that is all it asks for.
            return
        }
    }

    /// **I did my swap** for `day` (the day of the Night Prep pressed, also after midnight): saves the
    /// user's answer to ``didSwapQuestion`` when they gave one (checked as `hooray swap TEXT` checks
    /// its text), else the first item of the prep made for that day, or ``unnamedSwap`` without one,
    /// through `recordSwap`. Once only: a second press, or a swap with the same words already saved
    /// for the day, declines and says what is saved.
    ///
    /// - Parameters:
    ///   - day: The day of the Night Prep.
    ///   - answer: The user's answer to the button's question, as typed; `nil` for none.
    ///   - notice: The Night Prep's notice, for the message that refuses an answer.
    ///   - context: The plugin's context.
    /// - Returns: What recording the swap did.
    /// - Throws: ``ActionDeclined`` when the answer is empty or too long, or the day's swap from this
    ///   button is saved already; nothing is saved then.
    func recordDidSwap(
        on day: LocalDate, answer: String?, notice: NoticeID, context: PluginContext
    ) async throws -> SwapOutcome {
        let prep = try await context.records(of: Prep.self).record(day.description)
        let answered = try answer.map { try Self.checkedAnswer($0, notice: notice) }
        let text = answered ?? prep?.items.first ?? Self.unnamedSwap
        let swaps = context.records(of: Swap.self)
        let key = "did-swap.\(day)"
        if let same = try await swaps.all().first(where: { $0.day == day && Self.sameSwap($0.text, text) }) {
            throw Self.alreadySaved(same, on: day, today: context.today)
        }
        // Two presses at once (the notification and `hooray act`): one claims the day, in one step.
        let claim = Data(UUID().uuidString.utf8)
        guard try await context.storage.modify(forKey: key, { $0 ?? claim }) == claim else {
            let saved = try await swaps.all().filter { $0.day == day }.max { $0.loggedAt < $1.loggedAt }
            throw Self.alreadySaved(saved, on: day, today: context.today)
        }
        do {
            return try await recordSwap(
                text, on: day, fromPrep: answered == nil && prep != nil, context: context)
        } catch {
            // Nothing was saved: the next press may try again.
            try? await context.storage.removeValue(forKey: key)
            throw error
        }
    }

    /// The answer to ``didSwapQuestion`` as a swap's text: checked as `hooray swap TEXT` checks its
    /// text (trimmed, its lines joined, 1 to 200 characters), with a refusal that says how to press
    /// the button again.
    ///
    /// - Throws: ``ActionDeclined`` naming the problem and the fix; nothing is saved.
    static func checkedAnswer(_ answer: String, notice: NoticeID) throws -> String {
        let text = joinedSwapText(answer)
        let again = "hooray act \(notice) \(didSwap.id)"
        guard !text.isEmpty else {
            throw ActionDeclined(
                "The answer names no swap, so nothing was saved. Say what you swapped, such as "
                    + "`\(again) --answer \"Tea instead of wine\"`, or leave the answer out to save “\(unnamedSwap)”.")
        }
        guard text.count <= maxSwapLength else {
            throw ActionDeclined(
                "The answer is \(text.count) characters long and a swap takes at most \(maxSwapLength), so nothing "
                    + "was saved. Shorten it, such as “Fruit instead of cake”, and run `\(again)` again.")
        }
        return text
    }

    /// Whether two swaps are the same, without case or surrounding spaces.
    static func sameSwap(_ lhs: String, _ rhs: String) -> Bool {
        lhs.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            == rhs.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// The refusal of a second **I did my swap** for a day, saying what is saved.
    static func alreadySaved(_ swap: Swap?, on day: LocalDate, today: LocalDate) -> ActionDeclined {
        let when = day == today ? "today" : day == today.adding(days: -1) ? "yesterday" : day.written(today: today)
        let what = swap.map { ": “\($0.text)”" } ?? ""
        return ActionDeclined(
            "Your swap for \(when) is already saved\(what). Nothing more to do; `hooray swap history` shows it.")
    }

    /// What **Prep now** shows: how to prep, and tonight's items when there are some.
    static func prepNowNotice(tonight: Prep?) -> Notice {
        var lines = [
            "In a terminal, up to three, each in quotes:",
            "hooray swap prep \"Oatmeal instead of a pastry\" \"Walk after lunch\"",
        ]
        if let tonight, !tonight.items.isEmpty {
            lines += ["", "Tonight's prep so far (a new one replaces it):"] + tonight.items.map { "• \($0)" }
        }
        return Notice(
            title: "Prep tomorrow's swap", body: lines.joined(separator: "\n"), category: "hooray.swaps.prep",
            timeout: .never, opens: .today)
    }
}
