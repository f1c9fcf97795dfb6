import Foundation
import HoorayCalendar
import HoorayKit

/// The month calendar of `hooray habit show`: one symbol per day, weeks from Monday.
///
/// Rendering is pure: today is a parameter, so the same habit always renders the same text.
public enum HabitCalendar {
    /// The legend printed under the grid, without colours.
    public static let legend = "● done  ✗ reset  ‖ paused  ○ due, not done  · not due  ◌ coming up"

    /// The month as text for a terminal.
    ///
    /// The title (such as `November 2026`) is centred over the grid, then comes the header
    /// `Mo  Tu  We  Th  Fr  Sa  Su`, then each week as two lines: the day numbers and, under each
    /// day's last digit, its symbol. The legend ends the text. A Monday-to-Friday habit on Monday
    /// 23 November 2026:
    ///
    /// ```
    ///        November 2026
    ///  Mo  Tu  We  Th  Fr  Sa  Su
    ///                           1
    ///                           ·
    ///   2   3   4   5   6   7   8
    ///   ·   ●   ●   ●   ●   ·   ·
    ///   9  10  11  12  13  14  15
    ///   ●   ●   ○   ✗   ●   ·   ·
    ///  16  17  18  19  20  21  22
    ///   ‖   ‖   ‖   ●   ●   ●   ·
    /// [23] 24  25  26  27  28  29
    ///   ○   ◌   ◌   ◌   ◌
    ///  30
    ///   ‖
    /// ● done  ✗ reset  ‖ paused  ○ due, not done  · not due  ◌ coming up
    /// ```
    ///
    /// Each day is a cell four columns wide: a column for an opening bracket, two for the number
    /// and one for a closing bracket. Today's number is in brackets, which stay inside its own cell,
    /// so they never touch the next day's number. The symbols follow
    /// ``Habit/state(on:today:)``: `●` done, `✗` reset, `‖` paused, `○` due and not done (missed
    /// in the past, still open today), `·` not due. After today, `◌` marks a day the habit will
    /// be due, `‖` a day inside a pause already planned, and other days are blank. Lines carry no
    /// trailing spaces.
    ///
    /// - Parameters:
    ///   - habit: The habit.
    ///   - month: The year and the month (1 through 12) to show.
    ///   - today: The current day in the user's time zone.
    ///   - color: Whether to colour the symbols with ANSI escape codes (done green, reset red,
    ///     paused and coming days dim, open yellow, today's bracketed number bold); without it the
    ///     text has no escape codes at all.
    /// - Returns: The calendar, without a trailing newline; an empty string for a month that does
    ///   not exist.
    public static func render(_ habit: Habit, month: (year: Int, month: Int), today: LocalDate, color: Bool) -> String {
        guard let first = LocalDate(year: month.year, month: month.month, day: 1) else { return "" }
        let length = daysInMonth(first)
        let style = Style(color: color)
        let width = 7 * cellWidth
        let header = " Mo  Tu  We  Th  Fr  Sa  Su"
        let title = "\(monthNames[month.month - 1]) \(month.year)"
        var lines = [String(repeating: " ", count: max(0, (header.count - title.count) / 2)) + title]
        lines.append(header)
        // Day numbers of the month, laid out in weeks of seven cells; `nil` pads the first week.
        let padding = first.weekday.rawValue - 1
        let cells: [Int?] = Array(repeating: nil, count: padding) + (1...length).map { Optional($0) }
        for weekStart in stride(from: 0, to: cells.count, by: 7) {
            let week = cells[weekStart..<min(weekStart + 7, cells.count)]
            var numbers = Row(width: width)
            var symbols = Row(width: width)
            for (column, number) in zip(0..., week) {
                guard let number else { continue }
                let day = first.adding(days: number - 1)
                let left = column * cellWidth
                let digits = Array(String(number))
                for (offset, digit) in zip((3 - digits.count)..., digits) {
                    numbers[left + offset] = String(digit)
                }
                if day == today {
                    // Both brackets stay inside the day's own cell: `[23] 24`, never `[23]24`.
                    numbers[left + 2 - digits.count] = style.todayOpening
                    numbers[left + 3] = style.todayClosing
                }
                symbols[left + 2] = style.symbol(for: habit, on: day, today: today)
            }
            lines.append(numbers.text)
            lines.append(symbols.text)
        }
        lines.append(style.legend)
        return lines.joined(separator: "\n")
    }

    /// Parses a month written `YYYY-MM`, such as `2026-11`.
    ///
    /// - Returns: The year and the month, or `nil` when the text is not a month.
    public static func parseMonth(_ text: String) -> (year: Int, month: Int)? {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(
            separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month)
        else { return nil }
        return (year, month)
    }

    /// The columns of one day: an opening bracket, two digits and a closing bracket.
    private static let cellWidth = 4

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// The number of days in the month that starts on `first`.
    private static func daysInMonth(_ first: LocalDate) -> Int {
        let next =
            first.month == 12
            ? LocalDate(year: first.year + 1, month: 1, day: 1)!
            : LocalDate(year: first.year, month: first.month + 1, day: 1)!
        return first.days(until: next)
    }

    /// One line of the grid, one string per terminal column, so a coloured symbol still takes one column.
    private struct Row {
        private var columns: [String]

        init(width: Int) { columns = Array(repeating: " ", count: width) }

        subscript(column: Int) -> String {
            get { columns[column] }
            set { columns[column] = newValue }
        }

        /// The line without trailing spaces.
        var text: String {
            let used = (columns.lastIndex { $0 != " " } ?? -1) + 1
            return columns.prefix(used).joined()
        }
    }

    /// Symbols, with or without ANSI colours.
    private struct Style {
        let color: Bool

        private static let reset = "\u{1B}[0m"
        private static let green = "\u{1B}[32m"
        private static let red = "\u{1B}[31m"
        private static let yellow = "\u{1B}[33m"
        private static let dim = "\u{1B}[2m"
        private static let bold = "\u{1B}[1m"

        private func paint(_ text: String, _ code: String?) -> String {
            guard color, let code else { return text }
            return code + text + Style.reset
        }

        /// The bracket before today's number; in colour, today's number is bold, brackets included.
        var todayOpening: String { color ? Style.bold + "[" : "[" }

        /// The bracket after today's number.
        var todayClosing: String { color ? "]" + Style.reset : "]" }

        func symbol(for habit: Habit, on day: LocalDate, today: LocalDate) -> String {
            switch habit.state(on: day, today: today) {
            case .done: paint("●", Style.green)
            case .reset: paint("✗", Style.red)
            case .paused: paint("‖", Style.dim)
            case .open: paint("○", Style.yellow)
            case .notDue: "·"
            case .future:
                if habit.isPaused(on: day) && day >= habit.start {
                    paint("‖", Style.dim)
                } else if habit.isDue(on: day) {
                    paint("◌", Style.dim)
                } else {
                    " "
                }
            }
        }

        var legend: String {
            guard color else { return HabitCalendar.legend }
            return [
                (paint("●", Style.green), "done"), (paint("✗", Style.red), "reset"), (paint("‖", Style.dim), "paused"),
                (paint("○", Style.yellow), "due, not done"), ("·", "not due"), (paint("◌", Style.dim), "coming up"),
            ]
            .map { "\($0.0) \($0.1)" }.joined(separator: "  ")
        }
    }
}
