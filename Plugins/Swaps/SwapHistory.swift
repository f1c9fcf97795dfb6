import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayText

extension SwapsPlugin {
    /// The most days `hooray swap history --days` shows: a year.
    static let maxHistoryDays = 366

    /// `hooray swap history [--days N] [--json]`.
    func historyCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        let days = try command.value("days").map(Self.checkedHistoryDays) ?? 28
        let today = LocalDate(instant: context.now, in: command.environment.timeZone)
        let swaps = try await context.records(of: Swap.self).all()
        let history = SwapHistory(swaps: swaps, through: today, days: days)
        return CommandReply(
            text: history.text(color: command.environment.color), json: try JSONValue(encoding: history.view))
    }

    /// `--days`: a whole number from 1 to 366.
    static func checkedHistoryDays(_ text: String) throws -> Int {
        guard let days = Int(text.trimmingCharacters(in: .whitespaces)), (1...maxHistoryDays).contains(days) else {
            throw PluginCommandError.invalidValue(
                "--days",
                "--days \"\(text)\" is not a number of days from 1 to \(maxHistoryDays); give one such as --days 60")
        }
        return days
    }
}

/// What `hooray swap history` shows: the days with a swap over a stretch of days up to today, in
/// week rows from Monday, with totals and the current and longest streaks.
struct SwapHistory: Sendable, Hashable {
    /// The first day shown.
    var from: LocalDate
    /// The last day shown: today.
    var through: LocalDate
    /// How many swaps each day of the stretch has.
    var counts: [LocalDate: Int]
    /// The current streak, counted up to today.
    var currentStreak: Int
    /// The longest streak ever.
    var longestStreak: Int
    /// Every swap ever logged.
    var totalSwaps: Int

    init(swaps: [Swap], through today: LocalDate, days: Int) {
        from = today.adding(days: 1 - days)
        through = today
        counts = [:]
        for swap in swaps where swap.day >= from && swap.day <= today {
            counts[swap.day, default: 0] += 1
        }
        let all = DaySet(swaps.map(\.day).filter { $0 <= today })
        currentStreak = SwapStreak.history(days: all).streak(today: today).days
        longestStreak = SwapStreak.longest(all)
        totalSwaps = swaps.count
    }

    /// The days with a swap, earliest first.
    var swapDays: [LocalDate] { counts.keys.sorted() }

    /// The swaps in the stretch.
    var swapsShown: Int { counts.values.reduce(0, +) }

    /// What `--json` prints.
    var view: SwapHistoryView {
        SwapHistoryView(
            from: from, through: through, swapDays: swapDays, swaps: swapsShown, currentStreak: currentStreak,
            longestStreak: longestStreak, totalSwaps: totalSwaps)
    }

    /// The legend under the grid.
    static let legend = "● a day with a swap  · a day without  ◌ today, still open"

    /// The calendar as text: a header of weekdays, then one row a week, each labelled with its
    /// Monday; days outside the stretch are blank. Lines carry no trailing spaces.
    ///
    /// ```
    /// Your swaps, Tue 10 Nov to Mon 23 Nov
    ///
    ///             Mo Tu We Th Fr Sa Su
    /// Mon 9 Nov       ●  ●  ·  ●  ●  ●
    /// Mon 16 Nov   ●  ●  ●  ●  ·  ·  ●
    /// Mon 23 Nov   ◌
    /// ● a day with a swap  · a day without  ◌ today, still open
    ///
    /// 12 swaps on 10 of 14 days.
    /// Current streak: 1 day · longest: 5 days
    /// ```
    func text(color: Bool) -> String {
        let (green, reset) = color ? ("\u{1B}[32m", "\u{1B}[0m") : ("", "")
        let firstMonday = from.adding(days: 1 - from.weekday.rawValue)
        // Days written as everywhere in Hooray's text, the year only when it is not the last day's.
        let labelWidth =
            stride(from: 0, through: firstMonday.days(until: through), by: 7).map {
                TerminalText.width(firstMonday.adding(days: $0).written(today: through))
            }.max() ?? 0
        var lines = ["Your swaps, \(from.written(today: through)) to \(through.written(today: through))", ""]
        lines.append(String(repeating: " ", count: labelWidth) + "  Mo Tu We Th Fr Sa Su")
        var monday = firstMonday
        while monday <= through {
            var cells: [String] = []
            for offset in 0..<7 {
                let day = monday.adding(days: offset)
                if day < from || day > through {
                    cells.append("  ")
                } else if counts[day] != nil {
                    cells.append(" " + green + "●" + reset)
                } else {
                    cells.append(day == through ? " ◌" : " ·")
                }
            }
            let row =
                TerminalText.padding(monday.written(today: through), toWidth: labelWidth) + " "
                + cells.joined(separator: " ")
            lines.append(String(row.reversed().drop { $0 == " " }.reversed()))
            monday = monday.adding(days: 7)
        }
        lines.append(color ? "\(green)●\(reset) a day with a swap  · a day without  ◌ today, still open" : Self.legend)
        lines.append("")
        let shownDays = from.days(until: through) + 1
        let swaps = swapsShown == 1 ? "1 swap" : "\(swapsShown) swaps"
        lines.append(
            swapsShown == 0
                ? "No swaps in these \(shownDays) days yet. `hooray swap \"…\"` logs one."
                : "\(swaps) on \(counts.count) of \(shownDays) days.")
        lines.append(
            "Current streak: \(SwapCelebration.days(currentStreak)) · longest: \(SwapCelebration.days(longestStreak))")
        return lines.joined(separator: "\n")
    }
}

/// `hooray swap history --json` (docs/json.md, `swapHistory`).
struct SwapHistoryView: Codable, Sendable, Hashable {
    var from: LocalDate
    var through: LocalDate
    var swapDays: [LocalDate]
    var swaps: Int
    var currentStreak: Int
    var longestStreak: Int
    var totalSwaps: Int
}
