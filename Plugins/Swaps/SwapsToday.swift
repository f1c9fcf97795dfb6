import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayText

extension SwapsPlugin {
    /// `hooray swap today [--json]`: what the desktop app's Today shows, read in one go and changing
    /// nothing — the day's inspiration (not counted as shown: the day's first swap command on a
    /// terminal still shows it), this morning's swaps from last night's prep, tonight's prep and the
    /// streak.
    func todayCommand(_ command: CommandInvocation, context: PluginContext, configuration: SwapsConfiguration)
        async throws -> CommandReply
    {
        let zone = command.environment.timeZone
        let now = context.now
        let today = LocalDate(instant: now, in: zone)
        let prepDay = Self.prepDay(at: now, in: zone)
        let preps = context.records(of: Prep.self)
        let tonight = try await preps.record(prepDay.description)
        let fromLastNight = prepDay == today ? nil : try await preps.record(today.description)
        let history = SwapHistory(swaps: try await context.records(of: Swap.self).all(), through: today, days: 1)
        let view = SwapsTodayView(
            day: today, inspiration: inspiration(on: today, configuration: configuration),
            fromLastNight: fromLastNight?.items ?? [], prepDay: prepDay, tonight: tonight?.items ?? [],
            currentStreak: history.currentStreak, longestStreak: history.longestStreak,
            swapsToday: history.counts[today] ?? 0)
        return CommandReply(text: view.text(today: today), json: try JSONValue(encoding: view))
    }
}

/// `hooray swap today --json` (docs/json.md, `swapsToday`): every key, `null` when absent.
struct SwapsTodayView: Encodable, Sendable, Hashable {
    var day: LocalDate
    var inspiration: String?
    var fromLastNight: [String]
    var prepDay: LocalDate
    var tonight: [String]
    var currentStreak: Int
    var longestStreak: Int
    var swapsToday: Int

    enum CodingKeys: String, CodingKey {
        case day, inspiration, fromLastNight, prepDay, tonight, currentStreak, longestStreak, swapsToday
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(day, forKey: .day)
        try container.encode(inspiration, forKey: .inspiration)
        try container.encode(fromLastNight, forKey: .fromLastNight)
        try container.encode(prepDay, forKey: .prepDay)
        try container.encode(tonight, forKey: .tonight)
        try container.encode(currentStreak, forKey: .currentStreak)
        try container.encode(longestStreak, forKey: .longestStreak)
        try container.encode(swapsToday, forKey: .swapsToday)
    }

    /// The same for a terminal.
    func text(today: LocalDate) -> String {
        var lines: [String] = []
        if let inspiration { lines += ["💡 " + inspiration, ""] }
        if !fromLastNight.isEmpty {
            lines += ["☀️ From last night:"] + SwapsPlugin.bulletLines(fromLastNight) + [""]
        }
        lines.append(
            swapsToday > 0
                ? "✓ Today's swap is logged · \(SwapCelebration.days(currentStreak)) in a row"
                : currentStreak > 0
                    ? "Tonight's swap keeps your \(SwapCelebration.days(currentStreak)) going: hooray swap \"…\""
                    : "Tonight's swap can be the first: hooray swap \"Sparkling water instead of soda\"")
        if tonight.isEmpty {
            lines.append("No prep for \(SwapsPlugin.dayLabel(prepDay, today: today)) yet.")
        } else {
            lines +=
                ["🌙 Your prep for \(SwapsPlugin.dayLabel(prepDay, today: today)):"] + SwapsPlugin.numberedLines(tonight)
        }
        return lines.joined(separator: "\n")
    }
}
