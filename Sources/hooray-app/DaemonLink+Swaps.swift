import HoorayKit

/// The swaps plugin's commands the Today view runs, as `hooray swap …` does from a terminal.
extension DaemonLink {
    /// The built-in plugin of healthy swaps.
    static let swapsPlugin = "swaps"

    /// What Today shows of the swaps: the day's inspiration, this morning's swaps from last night's
    /// prep, tonight's prep, and the streak.
    struct SwapsToday: Sendable, Equatable {
        /// The day's sentence; `nil` when inspiration is off.
        var inspiration: String?
        /// The prep made last night for today ("From last night:").
        var fromLastNight: [String]
        /// Tonight's prep, for the next day.
        var tonight: [String]
        /// Days in a row with a swap, up to today.
        var streak: Int
        /// The longest run ever.
        var longest: Int
        /// Whether a swap was logged today.
        var swappedToday: Bool
    }

    /// Reads what Today shows, as `hooray swap inspire`, `swap prep` and `swap history --json` print it.
    func swapsToday() async throws(Problem) -> SwapsToday {
        let inspiration = try await command(
            "inspire", plugin: Self.swapsPlugin, values: [:], json: true, requestID: nil)
        let prep = try await command("prep", plugin: Self.swapsPlugin, values: [:], json: true, requestID: nil)
        let history = try await command(
            "history", plugin: Self.swapsPlugin, values: ["days": ["7"]], json: true, requestID: nil)
        guard let through = history.json?["through"]?.stringValue,
            case .number(let streak) = history.json?["currentStreak"],
            case .number(let longest) = history.json?["longestStreak"]
        else {
            throw .failed("hoorayd told the swaps in a form this window does not read; update Hooray")
        }
        let days = (try? history.json?["swapDays"]?.decode([String].self)) ?? []
        return SwapsToday(
            inspiration: inspiration.json?["text"]?.stringValue,
            fromLastNight: (try? prep.json?["fromLastNight"]?.decode([String].self)) ?? [],
            tonight: (try? prep.json?["items"]?.decode([String].self)) ?? [],
            streak: Int(streak), longest: Int(longest), swappedToday: days.contains(through))
    }

    /// A swap hoorayd saved, and what it did.
    struct LoggedSwap: Sendable, Equatable {
        /// Days in a row with a swap now.
        var streak: Int
        /// The milestone it reached, celebrated big by hoorayd, such as 3.
        var milestone: Int?
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
        return LoggedSwap(streak: Int(streak), milestone: milestone)
    }

    /// Keeps up to three swaps for tomorrow, as `hooray swap prep "…"…` does, replacing tonight's prep.
    func prepSwaps(_ items: [String], requestID: String) async throws(Problem) {
        _ = try await command(
            "prep", plugin: Self.swapsPlugin, values: ["items": items], json: true, requestID: requestID)
    }
}
