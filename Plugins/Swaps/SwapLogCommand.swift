import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayText

extension SwapsPlugin {
    /// The longest swap, in characters.
    static let maxSwapLength = TextLimits.name

    /// `hooray swap TEXT [--date today|yesterday|YYYY-MM-DD] [--json]`: checks everything, then records
    /// the swap (``recordSwap(_:on:fromPrep:context:)``) and answers in the user's celebration style.
    func logCommand(_ command: CommandInvocation, context: PluginContext, configuration: SwapsConfiguration)
        async throws -> CommandReply
    {
        let text = try Self.checkedSwapText(command.values("text").joined(separator: " "))
        let input = TimeInput(now: context.now, timeZone: command.environment.timeZone)
        let day = try command.value("date").map { try Self.checkedSwapDay($0, input: input) } ?? input.today
        let outcome = try await recordSwap(text, on: day, fromPrep: false, context: context)
        let style = context.celebrations.style
        // The quiet style says "✅ Swap saved." and nothing else; the sentence waits for another command.
        // A script's --json gets the day's sentence without using up the terminal's first showing of it.
        let inspiration =
            command.json
            ? inspiration(on: input.today, configuration: configuration)
            : style == .off
                ? nil
                : (try? await firstInspiration(on: input.today, configuration: configuration, context: context)) ?? nil
        var answer = Self.loggedText(outcome, style: style, today: input.today, color: command.environment.color)
        if command.value("date") == nil, style != .off, Self.isSmallHours(context.now, in: input.timeZone) {
            // Just after midnight a swap may be last night's: say which day it went to.
            answer += "\nCounted for today, \(input.today); if it was last night's, log it with --date yesterday."
        }
        return CommandReply(
            text: answer, json: try JSONValue(encoding: SwapView(outcome, style: style, inspiration: inspiration))
        )
        .withInspiration(command.json ? nil : inspiration)
    }

    /// Whether `instant` is between midnight and 05:00 in `zone`, when "tonight's swap" may be
    /// yesterday's.
    static func isSmallHours(_ instant: Date, in zone: TimeZone) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.component(.hour, from: instant) < 5
    }

    /// The day a swap counts for: today or an earlier day.
    ///
    /// - Throws: ``PluginCommandError`` (usage) for a day in the future or text that is not a day.
    static func checkedSwapDay(_ text: String, input: TimeInput) throws -> LocalDate {
        if text.trimmingCharacters(in: .whitespaces).lowercased() == "tomorrow" {
            throw TimeInput.refusal(
                "--date", text, "is in the future",
                "a swap counts for today or an earlier day, such as --date yesterday")
        }
        return try input.day(text, option: "--date", limit: .todayOrEarlier)
    }

    /// A swap's text: trimmed, its lines joined, 1 to 200 characters.
    ///
    /// - Throws: ``PluginCommandError`` (usage) naming the problem and the fix.
    static func checkedSwapText(_ given: String) throws -> String {
        let text = joinedSwapText(given)
        guard !text.isEmpty else {
            throw PluginCommandError.invalidValue(
                "<text>", "say what you swapped, such as: hooray swap \"Sparkling water instead of soda\"")
        }
        guard text.count <= maxSwapLength else {
            throw PluginCommandError.invalidValue(
                "<text>",
                "the swap is \(text.count) characters long; a swap takes at most \(maxSwapLength). Shorten it, such as \"Fruit instead of cake\""
            )
        }
        return text
    }

    /// A swap's text on one line: each line trimmed, the empty ones left out, joined with a space.
    static func joinedSwapText(_ given: String) -> String {
        given.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The reply for a terminal: one line in the calm style; the line, a sprout and the streak in the
    /// playful style; only "✅ Swap saved." in the off style. A swap for an earlier day says which.
    static func loggedText(_ outcome: SwapOutcome, style: CelebrationStyle, today: LocalDate, color: Bool) -> String {
        var lines: [String] = []
        switch style {
        case .off:
            lines.append(SwapCelebration.savedLine)
        case .calm:
            lines.append(
                TerminalText.safe(outcome.celebrationLine ?? "✓ " + SwapCelebration.oneLine(outcome.swap.text)))
        case .playful:
            lines.append(
                TerminalText.safe(outcome.celebrationLine ?? "✨ " + SwapCelebration.oneLine(outcome.swap.text)))
            lines.append(SwapCelebration.sprout(color: color))
            if let streak = SwapCelebration.streakLine(outcome.streak) { lines.append(streak) }
        }
        if style != .off, outcome.swap.day != today {
            let when = outcome.swap.day == today.adding(days: -1) ? "yesterday" : outcome.swap.day.description
            lines.append("Saved for \(when).")
        }
        return lines.joined(separator: "\n")
    }
}

extension CommandReply {
    /// The reply with the day's inspiration as its last line, when there is one to show.
    func withInspiration(_ sentence: String?) -> CommandReply {
        guard let sentence else { return self }
        var reply = self
        reply.text = [text, "💡 " + sentence].filter { !$0.isEmpty }.joined(separator: "\n")
        return reply
    }
}

/// A swap as `hooray swap --json` prints it, with what recording it did.
struct SwapView: Codable, Sendable, Hashable {
    var id: String
    var text: String
    var day: LocalDate
    var loggedAt: Date
    var fromPrep: Bool
    var streak: Int
    var addedDay: Bool
    var milestone: Int?
    var style: CelebrationStyle
    var celebration: String?
    var inspiration: String?

    enum CodingKeys: String, CodingKey {
        case id, text, day, loggedAt, fromPrep, streak, addedDay, milestone, style, celebration, inspiration
    }

    init(_ outcome: SwapOutcome, style: CelebrationStyle, inspiration: String?) {
        id = outcome.swap.id.uuidString.lowercased()
        text = outcome.swap.text
        day = outcome.swap.day
        loggedAt = outcome.swap.loggedAt
        fromPrep = outcome.swap.fromPrep
        streak = outcome.streak
        addedDay = outcome.addedDay
        milestone = outcome.milestone
        self.style = style
        celebration = outcome.celebrationLine
        self.inspiration = inspiration
    }

    /// Encodes every key, an absent value as `null` (docs/json.md).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(text, forKey: .text)
        try container.encode(day, forKey: .day)
        try container.encode(loggedAt, forKey: .loggedAt)
        try container.encode(fromPrep, forKey: .fromPrep)
        try container.encode(streak, forKey: .streak)
        try container.encode(addedDay, forKey: .addedDay)
        try container.encode(milestone, forKey: .milestone)
        try container.encode(style, forKey: .style)
        try container.encode(celebration, forKey: .celebration)
        try container.encode(inspiration, forKey: .inspiration)
    }
}
