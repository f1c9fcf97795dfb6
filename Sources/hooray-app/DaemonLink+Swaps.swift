import HoorayClient
import HoorayKit

/// The swaps plugin's commands the Today view runs, as `hooray swap …` does from a terminal.
extension DaemonLink {
    /// The built-in plugin of healthy swaps.
    static let swapsPlugin = "swaps"

    /// What Today shows of the swaps: the day's inspiration, this morning's swaps from last night's
    /// prep, tonight's prep, and the streak.
    /// A `hooray swap today --json` reply (docs/json.md, `swapsToday`).
    struct SwapsToday: Sendable, Equatable, Decodable {
        /// The day, `YYYY-MM-DD`.
        var day: String
        /// The day's sentence; `nil` when inspiration is off.
        var inspiration: String?
        /// The prep made last night for today ("From last night:").
        var fromLastNight: [String]
        /// The day tonight's prep is for, and its swaps.
        var prepDay: String
        var tonight: [String]
        /// Days in a row with a swap, up to today; the longest run ever.
        var currentStreak: Int
        var longestStreak: Int
        /// The swaps logged today.
        var swapsToday: Int
    }

    /// Reads what Today shows in one read that changes nothing, as `hooray swap today --json` prints it.
    func swapsToday() async throws(Problem) -> SwapsToday {
        let reply = try await command("today", plugin: Self.swapsPlugin, values: [:], json: true, requestID: nil)
        guard let today = try? reply.json?.decode(SwapsToday.self) else {
            throw .failed("hoorayd told the swaps in a form this window does not read; update Hooray")
        }
        return today
    }

    /// A swap hoorayd saved, and what it did.
    struct LoggedSwap: Sendable, Equatable {
        /// Days in a row with a swap now.
        var streak: Int
        /// The milestone it reached, celebrated big by hoorayd, such as 3.
        var milestone: Int?
        /// The celebration's style: `calm`, `playful` or `off`.
        var style: String
        /// The celebration's words, such as "✓ Sparkling water instead of soda · 1 day — Nice choice.".
        var celebration: String?
        /// What hoorayd adds for the user to know, such as the daily reminders this first swap started.
        var notes: [String]
    }

    /// Logs tonight's healthy swap, as `hooray swap TEXT` does; a milestone is celebrated by hoorayd.
    func logSwap(_ text: String, requestID: String) async throws(Problem) -> LoggedSwap {
        let reply = try await command(
            "log", plugin: Self.swapsPlugin, values: ["text": [text]], json: true, requestID: requestID)
        guard case .number(let streak) = reply.json?["streak"] else {
            throw .failed("hoorayd saved the swap but sent no streak back; see `hooray swap history`")
        }
        var milestone: Int?
        if case .number(let reached) = reply.json?["milestone"] { milestone = Int(reached) }
        return LoggedSwap(
            streak: Int(streak), milestone: milestone, style: reply.json?["style"]?.stringValue ?? "calm",
            celebration: reply.json?["celebration"]?.stringValue, notes: reply.warnings)
    }

    /// Keeps up to three swaps for tomorrow, as `hooray swap prep "…"…` does, replacing tonight's prep.
    ///
    /// - Returns: What hoorayd adds for the user to know, such as the daily reminders a first prep started.
    func prepSwaps(_ items: [String], requestID: String) async throws(Problem) -> [String] {
        try await command(
            "prep", plugin: Self.swapsPlugin, values: ["items": items], json: true, requestID: requestID
        ).warnings
    }

    /// Runs a command a plugin's card offers, with nothing more than its name, as `hooray PLUGIN
    /// COMMAND` does; `requestID` for one that writes (kept in the spool, run once), `nil` for one
    /// that only reads.
    ///
    /// - Returns: What the plugin answered, for a terminal, and its warnings.
    func runCardCommand(_ command: String, plugin: String, requestID: String?) async throws(Problem) -> [String] {
        let reply = try await self.command(command, plugin: plugin, values: [:], json: false, requestID: requestID)
        return ([reply.text] + reply.warnings).filter { !$0.isEmpty }
    }

    /// "I need help", as `hooray swap help` gives it: the top swaps in words, and the breathing guide.
    func needHelp() async throws(Problem) -> (words: String, guide: TerminalGuide?) {
        let reply = try await command("need-help", plugin: Self.swapsPlugin, values: [:], json: false, requestID: nil)
        return (reply.text, reply.guide)
    }
}
