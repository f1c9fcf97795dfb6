import Foundation
import HoorayCalendar
import HoorayKit
import HoorayMessages

/// The Journey of `hooray journey`: one card per recent day with moments, with a short summary.
///
/// Both renderings are pure: the current time, the time zone and the summary pool are parameters,
/// so the same moments always render the same text; a day's summary does not change between runs.
public enum JourneyView {
    /// The journey as text for a terminal.
    ///
    /// The title `Your journey` and the subtitle `Tiny steps, day by day.` come first, then one
    /// card per local day in `timeZone` that has moments, newest day first:
    ///
    /// ```
    /// Oct 25, 2025 🙂 Calm day
    /// 3 moments logged
    ///
    /// • Cleaned something quietly bothering me
    /// • Took a short walk
    /// • Called a friend
    ///
    /// Summary:
    /// “Steady, gentle progress. You took care of small things.”
    /// ```
    ///
    /// The moments of a day are listed oldest first. The day's mood is the most common mood of its
    /// moments; a tie goes to the mood of the latest moment among the tied ones. A day without any
    /// mood is a `🌱 Gentle day` with 1 moment, a `🙂 Calm day` with 2 or 3, a `✨ Full day` with
    /// more. The summary comes from the `single` (1 moment), `few` (2 or 3) or `many` (more)
    /// section of `summaries`, picked by a stable hash of the date, so a day always shows the same
    /// one; without a line to pick, the card has no summary.
    ///
    /// - Parameters:
    ///   - moments: The moments, in any order.
    ///   - now: The current time; its local day is today.
    ///   - timeZone: The time zone whose calendar days make the cards.
    ///   - days: How many local days to show, counting today (`--days`); less than 1 counts as 1.
    ///     Moments of later days than today, from a clock that ran ahead, are shown too.
    ///   - summaries: The local summaries by section: `single`, `few` and `many`.
    /// - Returns: The text, without a trailing newline.
    public static func text(
        _ moments: [Moment], now: Date, timeZone: TimeZone, days: Int = 14,
        summaries: [String: [String]] = MessagePools.journeySummaries
    ) -> String {
        var lines = ["Your journey", "Tiny steps, day by day."]
        let cards = cards(moments, now: now, timeZone: timeZone, days: days, summaries: summaries)
        guard !cards.isEmpty else {
            lines += ["", "Once you have a few days of moments, you'll see your journey here."]
            return lines.joined(separator: "\n")
        }
        for card in cards {
            let today = LocalCalendar.day(of: now, in: timeZone)
            lines += ["", "\(card.date.written(today: today)) \(card.mood.emoji) \(card.mood.label)"]
            lines.append(card.texts.count == 1 ? "1 moment logged" : "\(card.texts.count) moments logged")
            lines.append("")
            lines += card.texts.map { "• \(ViewText.singleLine($0))" }
            if let summary = card.summary {
                lines += ["", "Summary:", "“\(ViewText.singleLine(summary))”"]
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The journey as JSON, for `hooray journey --json`.
    ///
    /// A pretty-printed array with sorted keys, one object per day of
    /// ``text(_:now:timeZone:days:summaries:)``, newest first, with:
    ///
    /// - `date`: the local day, such as `2026-11-21`;
    /// - `moodLabel`, `moodEmoji`: the day's mood, such as `Calm day` and `🙂`;
    /// - `count`: how many moments the day has;
    /// - `moments`: their texts, oldest first;
    /// - `summary`: the day's summary, and `summarySource`: `local`; both `null` without a summary.
    ///
    /// - Parameters:
    ///   - moments: The moments, in any order.
    ///   - now: The current time; its local day is today.
    ///   - timeZone: The time zone whose calendar days make the days.
    ///   - days: How many local days to include, counting today; less than 1 counts as 1.
    ///   - summaries: The local summaries by section: `single`, `few` and `many`.
    /// - Returns: The JSON text, `[]` when no day has moments.
    public static func json(
        _ moments: [Moment], now: Date, timeZone: TimeZone, days: Int = 14,
        summaries: [String: [String]] = MessagePools.journeySummaries
    ) -> String {
        let cards = cards(moments, now: now, timeZone: timeZone, days: days, summaries: summaries)
        guard !cards.isEmpty else { return "[]" }
        return ViewText.json(cards)
    }

    /// The summary section for a day with `count` moments: `single`, `few` or `many`.
    static func summarySection(count: Int) -> String {
        switch count {
        case ...1: "single"
        case 2...3: "few"
        default: "many"
        }
    }

    private static func cards(
        _ moments: [Moment], now: Date, timeZone: TimeZone, days: Int, summaries: [String: [String]]
    ) -> [Card] {
        let first = LocalCalendar.day(of: now, in: timeZone).adding(days: -(max(1, days) - 1))
        let byDay = Dictionary(grouping: moments) { LocalCalendar.day(of: $0.happenedAt, in: timeZone) }
        return byDay.keys.filter { $0 >= first }.sorted(by: >).map { date in
            let oldestFirst = byDay[date, default: []].sorted { MomentsView.isNewer($1, than: $0) }
            let pool = summaries[summarySection(count: oldestFirst.count)] ?? []
            return Card(
                date: date, mood: mood(of: oldestFirst), texts: oldestFirst.map(\.text),
                summary: pool.isEmpty ? nil : pool[date.stableIndex(among: pool.count)])
        }
    }

    /// The day's mood label; `moments` are oldest first.
    private static func mood(of moments: [Moment]) -> (emoji: String, label: String) {
        let counts = Dictionary(moments.compactMap(\.mood).map { ($0, 1) }, uniquingKeysWith: +)
        guard let most = counts.values.max() else {
            switch moments.count {
            case ...1: return ("🌱", "Gentle day")
            case 2...3: return ("🙂", "Calm day")
            default: return ("✨", "Full day")
            }
        }
        // The latest moment whose mood is among the most common ones breaks the tie.
        let mood = moments.reversed().compactMap(\.mood).first { counts[$0] == most }!
        return (mood.emoji, mood.dayLabel)
    }
}

/// One day of the journey, as the text shows it and `hooray journey --json` prints it.
private struct Card: Encodable {
    let date: LocalDate
    let mood: (emoji: String, label: String)
    /// The moments' texts, oldest first.
    let texts: [String]
    let summary: String?

    enum CodingKeys: String, CodingKey {
        case date, moodLabel, moodEmoji, count, moments, summary, summarySource
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date.description, forKey: .date)
        try container.encode(mood.label, forKey: .moodLabel)
        try container.encode(mood.emoji, forKey: .moodEmoji)
        try container.encode(texts.count, forKey: .count)
        try container.encode(texts, forKey: .moments)
        try container.encode(summary, forKey: .summary)
        try container.encode(summary == nil ? nil : "local", forKey: .summarySource)
    }
}
