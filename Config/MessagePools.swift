import Foundation

/// The message pools shipped with Hooray, compiled in so that `hooray` and `hoorayd` need no data
/// files. Each pool is a text file in `Config/pools/`: one message per line; blank lines and lines
/// starting with `#` are ignored.
public enum MessagePools {
    /// Praise shown the moment a win is logged (`wins-praise.txt`).
    public static var winsPraise: [String] { lines(PackageResources.wins_praise_txt) }

    /// The home phrases of `hooray` with no arguments (`home-phrases.txt`).
    public static var homePhrases: [String] { lines(PackageResources.home_phrases_txt) }

    /// Local daily summaries for Journey, by section: `single`, `few` and `many` (`journey-summaries.txt`).
    public static var journeySummaries: [String: [String]] { sections(PackageResources.journey_summaries_txt) }

    /// The encouraging phrases of celebrations, by section: `calm.small`, `calm.big`, `playful.small`
    /// and `playful.big` (`celebrations.txt`).
    public static var celebrations: [String: [String]] { sections(PackageResources.celebrations_txt) }

    /// The daily inspiration of the swaps plugin: one sentence a day (`swaps-inspiration.txt`).
    public static var swapsInspiration: [String] { lines(PackageResources.swaps_inspiration_txt) }

    /// The built-in coach's answers, by intent: `craving`, `stress`, `boredom`, `tiredness` and
    /// `general`; `{swap}` stands for one of the user's swaps (`coach-replies.txt`).
    public static var coachReplies: [String: [String]] { sections(PackageResources.coach_replies_txt) }

    /// The swap coach's instructions to an AI service (`Config/coach-prompt.txt`), without its
    /// comment lines.
    public static var coachPrompt: String { prompt(String(decoding: PackageResources.coach_prompt_txt, as: UTF8.self)) }

    /// A prompt file's text without its comment lines (`#`) and with its ends trimmed.
    public static func prompt(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
            .joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The messages of a pool file's text.
    public static func lines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The messages of a pool file's text, grouped under `[section]` lines.
    public static func sections(_ text: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        var current = ""
        for line in lines(text) {
            if line.hasPrefix("["), line.hasSuffix("]") {
                current = String(line.dropFirst().dropLast())
            } else {
                result[current, default: []].append(line)
            }
        }
        return result
    }

    static func lines(_ bytes: [UInt8]) -> [String] { lines(String(decoding: bytes, as: UTF8.self)) }
    static func sections(_ bytes: [UInt8]) -> [String: [String]] { sections(String(decoding: bytes, as: UTF8.self)) }
}
