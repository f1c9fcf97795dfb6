import Foundation
import HoorayCalendar
import HoorayKit

/// The swap streak, on the shared streak engine (``StreakHistory``): days in a row with at least one
/// swap. A second swap the same day adds no day; after a day without one the next swap starts at 1;
/// today without a swap yet neither counts nor ends the run.
enum SwapStreak {
    /// The storage key of the milestones already celebrated, with the first day of the run that
    /// reached each: kept so that each is celebrated once per run, across restarts.
    static let celebratedKey = "streak.celebrated"

    /// The history of these days, every day due, from the earliest (or from `from`, when earlier).
    static func history(days: DaySet, from: LocalDate? = nil, celebrated: [CelebratedMilestone] = []) -> StreakHistory {
        let earliest = [days.min(), from].compactMap { $0 }.min() ?? LocalDate(daysSinceEpoch: 0)
        return StreakHistory(due: .daily, start: earliest, done: days, celebrated: celebrated)
    }

    /// The longest run of consecutive days in `days`.
    static func longest(_ days: DaySet) -> Int {
        var longest = 0
        var current = 0
        var previous: LocalDate?
        for day in days {
            current = previous.map { $0.adding(days: 1) == day } == true ? current + 1 : 1
            longest = max(longest, current)
            previous = day
        }
        return longest
    }

    /// Adds `day` to the streak and finds the milestone to celebrate for it, remembering it in
    /// `storage` in the same step, so that no run celebrates a milestone twice: not after a restart,
    /// not for a second swap the same day, and not when filling a gap joins a run that already
    /// celebrated it to an earlier one.
    ///
    /// - Parameters:
    ///   - day: The swap's day.
    ///   - earlierDays: The days of every other swap.
    ///   - today: The user's day.
    ///   - milestones: The configured milestones.
    ///   - storage: The plugin's storage.
    /// - Returns: The milestone to celebrate, or `nil`.
    static func complete(
        _ day: LocalDate, earlierDays: DaySet, today: LocalDate, milestones: MilestoneSet, storage: any PluginStore
    ) async throws -> Int? {
        try await storage.update(forKey: celebratedKey) { data in
            let celebrated = data.flatMap { try? JSONDecoder().decode([CelebratedMilestone].self, from: $0) } ?? []
            var history = history(days: earlierDays, from: day, celebrated: celebrated)
            guard let milestone = history.complete(day, today: today, milestones: milestones),
                let runStart = history.streak(today: today).runStart
            else { return nil }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            data = try encoder.encode(history.celebrated)
            // A run that reached it before a filled gap joined it to this one celebrated it already.
            let joined = celebrated.contains { $0.days == milestone && $0.runStart > runStart && $0.runStart <= today }
            return joined ? nil : milestone
        }
    }
}

/// How a swap is celebrated: the seed's phrases through the shared celebration engine.
enum SwapCelebration {
    /// The swaps plugin's own phrases, by style (seed 004).
    static let phrases = CelebrationPhrasePool(
        name: "swaps",
        phrases: [
            .calm: ["Swap complete. 🌿", "Nice choice.", "You're building momentum."],
            .playful: ["🌱 One healthier choice, done.", "🌟 That swap makes you stronger.", "🎈 Small steps, big wins."],
        ])

    /// The whole reply of the `off` style.
    static let savedLine = "✅ Swap saved."

    /// `Swap streak: 3 days in a row!`; `nil` without a streak.
    static func streakLine(_ streak: Int) -> String? {
        switch streak {
        case ..<1: nil
        case 1: "Swap streak: 1 day. Every streak starts with one."
        default: "Swap streak: \(streak) days in a row!"
        }
    }

    /// `3 days`, `1 day`.
    static func days(_ count: Int) -> String {
        count == 1 ? "1 day" : "\(count) days"
    }

    /// The celebration of a swap: a big one at a milestone, with a line from the shared big pool;
    /// else a small one with the plugin's own phrases.
    ///
    /// - Parameters:
    ///   - swap: The swap.
    ///   - streak: The streak after it.
    ///   - milestone: The milestone it reached, if any.
    ///   - style: The user's style for the plugin, which already frames a playful big one with 🎉.
    static func celebration(for swap: Swap, streak: Int, milestone: Int?, style: CelebrationStyle) -> Celebration {
        if let milestone {
            let title = "\(milestone)-day swap streak!"
            return Celebration(size: .big, title: style == .playful ? title : "🎉 " + title)
        }
        let text = oneLine(swap.text)
        switch style {
        case .playful:
            return Celebration(size: .small, title: text, detail: streakLine(streak), phrases: phrases)
        case .calm, .off:
            return Celebration(
                size: .small, title: streak > 0 ? "\(text) · \(days(streak))" : text, phrases: phrases)
        }
    }

    /// A swap's text on one line, for a title.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The small sprout the playful style draws in the terminal; green leaves and brown soil when
    /// `color`, plain otherwise.
    static func sprout(color: Bool) -> String {
        let (green, soil, reset) = color ? ("\u{1B}[32m", "\u{1B}[33m", "\u{1B}[0m") : ("", "", "")
        return [
            "   \(green)\\ | /\(reset)",
            "    \(green)\\|/\(reset)",
            "  \(soil)~~~\(reset)\(green)|\(reset)\(soil)~~~\(reset)",
        ].joined(separator: "\n")
    }
}
