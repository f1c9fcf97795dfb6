import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayMessages

/// The daily inspiration: one sentence a day from `Config/pools/swaps-inspiration.txt`, picked by the
/// user's local date so that it stays the same all day, in `hooray` and `hoorayd` alike.
enum SwapInspiration {
    /// The sentences, in the pool's order.
    static let sentences = MessagePools.swapsInspiration

    /// The sentence for `day`: the same all day, in every process, and never the same twice within
    /// as many days in a row as the pool has sentences.
    ///
    /// The hash of the date is a step through the pool: the day's number (days since 1970) times a
    /// step that shares no factor with the pool's size, so that consecutive days walk the whole pool
    /// before a sentence comes back; a plain hash of each day would repeat one within a month now
    /// and then.
    static func sentence(on day: LocalDate) -> String {
        sentences[index(on: day, among: sentences.count)]
    }

    /// The index of the day's sentence among `count`.
    static func index(on day: LocalDate, among count: Int) -> Int {
        let step = [13, 17, 19, 23, 29, 31, 37, 1].first { gcd($0, count) == 1 }!
        return ((day.daysSinceEpoch % count + count) * step) % count
    }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    /// The storage key holding the last day the inspiration came with a swap command's reply.
    static let shownKey = "inspiration.shown-on"
}

extension SwapsPlugin {
    /// The day's inspiration: one sentence, the same all day; `nil` when `inspiration = false`.
    func inspiration(on day: LocalDate, configuration: SwapsConfiguration) -> String? {
        configuration.inspiration ? SwapInspiration.sentence(on: day) : nil
    }

    /// The day's inspiration when this is the day's first swap command to show it, and notes that it
    /// was shown; `nil` when it was already shown today or is turned off.
    ///
    /// - Parameters:
    ///   - day: The user's day.
    ///   - configuration: The plugin's configuration.
    ///   - context: The plugin's context, whose storage keeps the day it was last shown.
    func firstInspiration(on day: LocalDate, configuration: SwapsConfiguration, context: PluginContext) async throws
        -> String?
    {
        guard let sentence = inspiration(on: day, configuration: configuration) else { return nil }
        let mark = Data(day.description.utf8)
        let isFirst = try await context.storage.update(forKey: SwapInspiration.shownKey) { data in
            defer { data = mark }
            return data != mark
        }
        return isFirst ? sentence : nil
    }

    /// `hooray swap inspire [--json]`.
    func inspireCommand(_ command: CommandInvocation, context: PluginContext, configuration: SwapsConfiguration)
        throws -> CommandReply
    {
        let today = LocalDate(instant: context.now, in: command.environment.timeZone)
        let sentence = inspiration(on: today, configuration: configuration)
        let text =
            sentence.map { "💡 " + $0 }
                ?? """
                The daily inspiration is turned off (inspiration = false in [plugins.swaps]). \
                Set inspiration = true in \(context.settingsFile) for one sentence a day.
                """
        return CommandReply(text: text, json: try JSONValue(encoding: InspirationView(day: today, text: sentence)))
    }
}

/// `hooray swap inspire --json`: `{"day":"2026-11-23","text":"…"}`, `text` null when turned off.
struct InspirationView: Codable, Sendable, Hashable {
    var day: LocalDate
    var text: String?

    enum CodingKeys: String, CodingKey {
        case day, text
    }

    /// Encodes every key, an absent text as `null` (docs/json.md).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(day, forKey: .day)
        try container.encode(text, forKey: .text)
    }
}
