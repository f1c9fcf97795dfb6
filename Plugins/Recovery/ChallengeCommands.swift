import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit

/// The daily challenge: `hooray challenge`, `hooray challenge done`, `hooray challenge skip`, the
/// morning reminder and its buttons.
extension RecoveryPlugin {
    /// A day's challenge, and what the user did with it.
    struct DaysChallenge: Sendable, Hashable {
        /// The challenge.
        var challenge: Challenge
        /// The day's entry once it is done or skipped.
        var entry: ChallengeEntry?
        /// What it was chosen from; `nil` when the day's entry names it.
        var basis: ChallengeCatalog.Basis?
    }

    /// The day's challenge: the one done or skipped that day, else the one chosen for it from what
    /// was there before the day started (``ChallengeCatalog/basis(on:rejections:checkIns:challenges:timeZone:)``).
    func challenge(on day: LocalDate, timeZone: TimeZone, context: PluginContext) async throws -> DaysChallenge {
        let entries = try await context.records(of: ChallengeEntry.self).all()
        if let entry = entries.first(where: { $0.day == day }) {
            let challenge =
                ChallengeCatalog.challenge(id: entry.challengeID)
                ?? Challenge(
                    id: entry.challengeID, title: entry.title, description: "", points: entry.points,
                    timeEstimate: "", type: .other, level: .beginner)
            return DaysChallenge(challenge: challenge, entry: entry)
        }
        let basis = ChallengeCatalog.basis(
            on: day, rejections: try await context.records(of: Rejection.self).all(),
            checkIns: try await context.records(of: CheckIn.self).all(), challenges: entries, timeZone: timeZone)
        let picked = DayPick(
            challengeID: ChallengeCatalog.pick(for: basis.type, level: basis.level, on: day).id, basis: basis)
        // The first pick of the day is kept: an edit or a deletion later that day, or yesterday's
        // button pressed after midnight, changes what the day would be chosen from, not its challenge.
        // On a data folder that cannot be written the pick is shown, not kept (it is chosen the same way
        // again while nothing changes).
        let stored =
            (try? await context.storage.modify(forKey: "challenge-pick.\(day)") {
                try $0 ?? JSONEncoder().encode(picked)
            }) ?? nil
        let pick = (stored.flatMap { try? JSONDecoder().decode(DayPick.self, from: $0) }) ?? picked
        return DaysChallenge(
            challenge: ChallengeCatalog.challenge(id: pick.challengeID) ?? ChallengeCatalog.selfCareCheck,
            basis: pick.basis)
    }

    /// A day's challenge as first chosen, kept for the rest of the day.
    struct DayPick: Codable, Sendable, Hashable {
        var challengeID: String
        var basis: ChallengeCatalog.Basis
    }

    // MARK: The reminder

    /// Schedules the morning challenge reminder, held back for the rest of the day once today's
    /// challenge is done or skipped (so `hooray next` does not list it), or cancels it when
    /// `challenge_at = "off"`, or before the user first used the plugin unless switched on.
    func scheduleChallenge(context: PluginContext, configuration: RecoveryConfiguration, started: Bool) async throws {
        guard let time = configuration.challengeAt, configuration.challengeStart.isOn(started: started) else {
            try await context.reminders.cancel(id: Self.challengeReminder)
            return
        }
        let today = context.today
        let entry = try await context.records(of: ChallengeEntry.self).record(today.description)
        let hold = entry.map { entry in
            ReminderHold(
                reason: entry.outcome == .done ? "challenge done today" : "challenge skipped today",
                until: LocalDayRange(from: today, through: today, in: context.timeZone).instants.upperBound)
        }
        try await context.reminders.schedule(
            Reminder(
                id: Self.challengeReminder, schedule: .daily(at: time, zone: context.timeZone),
                notice: Notice(title: "Today's challenge", category: "hooray.recovery.challenge"), hold: hold))
    }

    /// The morning challenge reminder's notice for a day; `nil` once the day's challenge is done or skipped.
    func challengeNotice(on day: LocalDate, context: PluginContext) async throws -> Notice? {
        let days = try await challenge(on: day, timeZone: context.timeZone, context: context)
        guard days.entry == nil else { return nil }
        return Self.challengeNotice(days.challenge, on: day)
    }

    /// "Today's challenge: TITLE", what to do, its points and time, and the **Done** and **Skip today** buttons.
    static func challengeNotice(_ challenge: Challenge, on day: LocalDate) -> Notice {
        Notice(
            title: "Today's challenge: \(challenge.title)",
            body: "\(challenge.description)\n\(pointsAndTime(challenge))", actions: [challengeDone, challengeSkip],
            category: "hooray.recovery.challenge", payload: .object(["day": .string(day.description)]))
    }

    /// `25 points · about 10 minutes`.
    static func pointsAndTime(_ challenge: Challenge) -> String {
        let points = challenge.points == 1 ? "1 point" : "\(challenge.points) points"
        return challenge.timeEstimate.isEmpty ? points : "\(points) · about \(challenge.timeEstimate)"
    }

    // MARK: Done and skipped

    /// What recording a day's challenge did.
    struct ChallengeRecording: Sendable, Hashable {
        /// The day's entry as saved.
        var entry: ChallengeEntry
        /// The challenge.
        var challenge: Challenge
        /// What the day's entry said before; `nil` when it had none.
        var previous: ChallengeEntry.Outcome?
        /// The celebration's line, when the challenge was just done and the celebration was shown.
        var celebration: String?
        /// The challenge streak now.
        var streak: Int
        /// The points of every challenge done, now.
        var totalPoints: Int

        /// Whether anything changed: `false` for done twice, or skipped twice.
        var changed: Bool { previous != entry.outcome }
    }

    /// Records the day's challenge as done or skipped (the buttons and the commands): once — the
    /// same again changes nothing — and the latest word wins. Done adds the challenge's points and
    /// celebrates in the user's style; skipped gives none.
    func recordChallenge(on day: LocalDate, outcome: ChallengeEntry.Outcome, context: PluginContext) async throws
        -> ChallengeRecording
    {
        let challenge = try await challenge(on: day, timeZone: context.timeZone, context: context).challenge
        let book = context.records(of: ChallengeEntry.self)
        let now = context.now
        let points = outcome == .done ? challenge.points : 0
        let change: @Sendable (inout ChallengeEntry) -> ChallengeEntry.Outcome = { stored in
            let was = stored.outcome
            if was != outcome {
                stored.outcome = outcome
                stored.points = points
                stored.at = now
            }
            return was
        }
        var previous = try await book.update(day.description, change)
        if previous == nil {
            do {
                try await book.insert(
                    ChallengeEntry(
                        day: day, challengeID: challenge.id, title: challenge.title, points: points, outcome: outcome,
                        at: now))
            } catch let error as RecordBookError where error.code == .duplicateID {
                // A button pressed meanwhile saved the day's entry first: the latest word still wins.
                previous = try await book.update(day.description, change)
            }
        }
        try await holdForToday(
            reminder: Self.challengeReminder, day: day,
            reason: outcome == .done ? "challenge done today" : "challenge skipped today", context: context)
        let entries = try await book.all()
        let streak = RecoveryStreaks(
            checkIns: try await context.records(of: CheckIn.self).all(), challenges: entries, today: context.today
        ).challenge
        let entry =
            entries.first { $0.day == day }
            ?? ChallengeEntry(
                day: day, challengeID: challenge.id, title: challenge.title, points: points, outcome: outcome, at: now)
        var celebration: String?
        if outcome == .done, previous != .done {
            let big = try await claimMilestone(streak: streak, entries: entries, context: context)
            celebration =
                await context.celebrate(
                    Celebration(
                        size: big ? .big : .small,
                        title: "Challenge done: \(challenge.title)",
                        detail: "+\(challenge.points) points · \(Self.streakText(streak)) challenge streak"))?.line
        }
        return ChallengeRecording(
            entry: entry, challenge: challenge, previous: previous, celebration: celebration, streak: streak,
            totalPoints: Self.totalPoints(entries))
    }

    /// Challenge streaks celebrated as milestones: 7, 30, 100 and 365 days.
    static let challengeMilestones: Set<Int> = [7, 30, 100, 365]

    /// Whether a streak of `streak` days reaches a milestone not yet celebrated in its run; claims it
    /// when it does, so done, skip and done again celebrate it once.
    func claimMilestone(streak: Int, entries: [ChallengeEntry], context: PluginContext) async throws -> Bool {
        guard Self.challengeMilestones.contains(streak) else { return false }
        let days = entries.filter { $0.outcome == .done }.map(\.day)
        guard let first = days.min(),
            let runStart = StreakHistory(due: .daily, start: first, done: DaySet(days)).streak(today: context.today)
                .runStart
        else { return false }
        let milestone = CelebratedMilestone(days: streak, runStart: runStart)
        return try await context.storage.update(forKey: "challenge-milestones") { data -> Bool in
            var celebrated = (data.flatMap { try? JSONDecoder().decode([CelebratedMilestone].self, from: $0) }) ?? []
            guard !celebrated.contains(milestone) else { return false }
            celebrated.append(milestone)
            data = try JSONEncoder().encode(celebrated)
            return true
        }
    }

    /// The points of every challenge done.
    static func totalPoints(_ entries: [ChallengeEntry]) -> Int {
        entries.filter { $0.outcome == .done }.reduce(0) { $0 + $1.points }
    }

    /// `1-day`, `3-day`.
    static func streakText(_ days: Int) -> String { "\(days)-day" }

    /// `Challenge streak: 3 days`; before the first, an invitation rather than a zero.
    static func streakLine(_ days: Int) -> String {
        switch days {
        case 0: "Challenge streak: starts with the next one you do"
        case 1: "Challenge streak: 1 day"
        default: "Challenge streak: \(days) days"
        }
    }

    /// What `hooray challenge skip` says: rest is fine.
    static let skipLine = "Rest is part of resilience. A new challenge comes tomorrow."

    // MARK: The commands

    /// `hooray challenge`, `hooray challenge done`, `hooray challenge skip`.
    func challengeCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        // The context's zone: the user's terminal's for a command, hoorayd's for the reminder and its
        // buttons. They differ only when the two run in different zones; the day's pick is kept per day.
        let zone = context.timeZone
        let today = context.today
        switch command.command {
        case "challenge-done", "challenge-skip":
            let outcome: ChallengeEntry.Outcome = command.command == "challenge-done" ? .done : .skipped
            let recorded = try await recordChallenge(on: today, outcome: outcome, context: context)
            let view = ChallengeStatusView(
                day: today, challenge: recorded.challenge, entry: recorded.entry, basis: nil,
                streak: recorded.streak, totalPoints: recorded.totalPoints, changed: recorded.changed,
                celebration: recorded.celebration)
            return CommandReply(text: Self.recordedText(recorded), json: try JSONValue(encoding: view))
        default:
            let days = try await challenge(on: today, timeZone: zone, context: context)
            let entries = try await context.records(of: ChallengeEntry.self).all()
            let streak = RecoveryStreaks(
                checkIns: try await context.records(of: CheckIn.self).all(), challenges: entries, today: today
            ).challenge
            let view = ChallengeStatusView(
                day: today, challenge: days.challenge, entry: days.entry, basis: days.basis, streak: streak,
                totalPoints: Self.totalPoints(entries))
            return CommandReply(
                text: Self.challengeText(days, streak: streak, view: view), json: try JSONValue(encoding: view))
        }
    }

    /// What `hooray challenge` prints.
    static func challengeText(_ days: DaysChallenge, streak: Int, view: ChallengeStatusView) -> String {
        let challenge = days.challenge
        var lines = ["🎯 Today's challenge: \(challenge.title)"]
        if !challenge.description.isEmpty { lines.append(challenge.description) }
        lines.append(pointsAndTime(challenge))
        lines.append("")
        switch days.entry?.outcome {
        case .done:
            lines.append("✓ Done today. Nice work; a new challenge comes tomorrow.")
        case .skipped:
            lines.append("Skipped today. \(skipLine)")
            lines.append("Did it after all? hooray challenge done")
        case nil:
            if let basis = days.basis { lines.append(basisLine(basis)) }
            lines.append("When it's done: hooray challenge done · Not today: hooray challenge skip")
        }
        lines.append("\(streakLine(streak)) · \(view.totalPoints) points in all")
        return lines.joined(separator: "\n")
    }

    /// `Picked for your week (3 dating rejections) and your level as of yesterday (intermediate, score 52).`
    static func basisLine(_ basis: ChallengeCatalog.Basis) -> String {
        let week =
            basis.count == 0
            ? "a quiet week"
            : "your week (\(basis.count) \(basis.type.rawValue) rejection\(basis.count == 1 ? "" : "s"))"
        return "Picked for \(week) and your level as of yesterday (\(basis.level.rawValue), score \(basis.score))."
    }

    /// What `hooray challenge done` and `hooray challenge skip` print.
    static func recordedText(_ recorded: ChallengeRecording) -> String {
        let title = recorded.challenge.title
        var lines: [String] = []
        switch (recorded.entry.outcome, recorded.previous) {
        case (.done, .done):
            lines.append("Today's challenge is already done: \(title). Nothing to change; a new one comes tomorrow.")
        case (.skipped, .skipped):
            lines.append("Today's challenge is already skipped: \(title). \(skipLine)")
            lines.append("Did it after all? hooray challenge done")
        case (.done, let previous):
            if previous == .skipped { lines.append("Changed your mind: today's challenge now counts as done.") }
            lines.append(recorded.celebration ?? "✓ Challenge done: \(title)")
            lines.append("+\(recorded.challenge.points) points · \(recorded.totalPoints) points in all")
            lines.append(streakLine(recorded.streak))
        case (.skipped, let previous):
            if previous == .done {
                lines.append(
                    "Changed your mind: today's challenge now counts as skipped, without its \(recorded.challenge.points) points."
                )
            }
            lines.append("Skipped today's challenge: \(title). \(skipLine)")
        }
        return lines.joined(separator: "\n")
    }
}

/// A day's challenge as `hooray challenge --json` prints it.
struct ChallengeStatusView: Codable, Sendable, Hashable {
    /// The day, `YYYY-MM-DD`.
    var day: LocalDate
    /// The challenge.
    var challenge: Challenge
    /// `open`, `done` or `skipped`.
    var status: String
    /// The points the day's challenge gave: its points when done, else 0.
    var points: Int
    /// The points of every challenge done.
    var totalPoints: Int
    /// The challenge streak, in days.
    var streak: Int
    /// What it was chosen from, while it is open.
    var basis: ChallengeCatalog.Basis?
    /// For done and skip: whether the command changed anything.
    var changed: Bool?
    /// For done: the celebration's line.
    var celebration: String?

    enum CodingKeys: String, CodingKey {
        case day, challenge, status, points, totalPoints, streak, basis, changed, celebration
    }

    /// Encodes every key, an absent value as `null` (docs/json.md).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(day, forKey: .day)
        try container.encode(challenge, forKey: .challenge)
        try container.encode(status, forKey: .status)
        try container.encode(points, forKey: .points)
        try container.encode(totalPoints, forKey: .totalPoints)
        try container.encode(streak, forKey: .streak)
        try container.encode(basis, forKey: .basis)
        try container.encode(changed, forKey: .changed)
        try container.encode(celebration, forKey: .celebration)
    }

    init(
        day: LocalDate, challenge: Challenge, entry: ChallengeEntry?, basis: ChallengeCatalog.Basis?, streak: Int,
        totalPoints: Int, changed: Bool? = nil, celebration: String? = nil
    ) {
        self.day = day
        self.challenge = challenge
        status = entry?.outcome.rawValue ?? "open"
        points = entry?.points ?? 0
        self.totalPoints = totalPoints
        self.streak = streak
        self.basis = basis
        self.changed = changed
        self.celebration = celebration
    }
}
