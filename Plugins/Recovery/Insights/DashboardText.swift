import Foundation
import HoorayKit
import HoorayText

/// The dashboard as the terminal shows it: "Your Resilience", the score line, then this week's
/// reality, patterns, the recovery-time trend and the streaks. Columns are aligned in terminal
/// cells, emoji included; colour (bold headings) only when the terminal takes it.
extension RecoveryDashboard {
    /// The text view.
    ///
    /// - Parameter color: Whether headings may be bold.
    func text(color: Bool) -> String {
        let style = TextStyle(color: color)
        var lines = [style.heading("Your Resilience"), ""]
        if isFirstRun {
            lines += Self.firstRunLines
            return lines.joined(separator: "\n")
        }
        lines.append("Resilience score: \(score.total)/100 — \(score.message)")
        lines += scoreLines
        lines.append("")
        lines += realityLines(style)
        lines.append("")
        lines += patternLines(style)
        lines.append("")
        lines += trendLines(style)
        lines.append("")
        lines += streakLines(style)
        return lines.joined(separator: "\n")
    }

    /// What an empty history shows: how to start.
    static let firstRunLines = [
        "Nothing logged yet, and that's a fine place to start.",
        "When a rejection stings, log it in 30 seconds and get a plan that fits:",
        "  hooray reject --type job --impact 5 \"No reply after the interview\"",
        "Check in with yourself any day:",
        "  hooray recovery checkin good",
        "Your score, patterns and trends fill in here as you go.",
    ]

    /// The score's four parts, each out of its most.
    var scoreLines: [String] {
        let parts: [(String, Double, Int)] = [
            ("Recovery speed", score.recoverySpeed, 40),
            ("Challenges done", score.challenges, 25),
            ("Check-ins", score.checkIns, 20),
            ("Steady logging", score.steadyLogging, 15),
        ]
        let labels = parts.map { "  " + $0.0 }
        let figures = parts.map { Self.figure($0.1) }
        let labelWidth = labels.map(TerminalText.width).max()! + 2
        let figureWidth = figures.map(TerminalText.width).max()!
        return parts.indices.map { index in
            TerminalText.padding(labels[index], toWidth: labelWidth)
                + Self.rightAligned(figures[index], toWidth: figureWidth) + " of \(parts[index].2)"
        }
    }

    /// "This week's reality": counts by type, average impact and recovery time, beside last week's.
    func realityLines(_ style: TextStyle) -> [String] {
        let this = reality.thisWeek
        let last = reality.lastWeek
        // The weeks are the 7 days up to today and the 7 before, not calendar weeks: say which.
        var rows: [(label: String, this: String, last: String)] = [
            ("  Days", Self.span(this.week), Self.span(last.week))
        ]
        rows += RejectionType.allCases.compactMap { type in
            let now = this.counts[type, default: 0]
            let before = last.counts[type, default: 0]
            return now + before == 0 ? nil : ("  " + type.label, "\(now)", "\(before)")
        }
        rows.append(("  All rejections", "\(this.total)", "\(last.total)"))
        rows.append(("  Average impact", Self.impact(this.averageImpact), Self.impact(last.averageImpact)))
        rows.append(
            (
                "  Average recovery time", Self.duration(this.averageRecoverySeconds),
                Self.duration(last.averageRecoverySeconds)
            ))
        let heading = "This week's reality"
        let labelWidth = ([heading] + rows.map(\.label)).map(TerminalText.width).max()! + 3
        let columns = ["This week", "Last week"]
        let columnWidth = (columns + rows.flatMap { [$0.this, $0.last] }).map(TerminalText.width).max()!
        func line(_ label: String, _ first: String, _ second: String) -> String {
            TerminalText.padding(label, toWidth: labelWidth) + Self.rightAligned(first, toWidth: columnWidth) + "   "
                + Self.rightAligned(second, toWidth: columnWidth)
        }
        let header = line(heading, columns[0], columns[1])
        return [style.heading(header)] + rows.map { line($0.label, $0.this, $0.last) }
    }

    /// The patterns, each with what it is, an insight and something to try.
    func patternLines(_ style: TextStyle) -> [String] {
        var lines = [style.heading("Patterns")]
        guard !patterns.isEmpty else {
            lines.append("  Nothing stands out yet. Patterns show here as your history grows.")
            return lines
        }
        for pattern in patterns {
            lines.append("  \(pattern.emoji) \(pattern.title)")
            lines += [pattern.description, pattern.insight, pattern.actionable].map { "     " + $0 }
        }
        return lines
    }

    /// The recovery-time sparkline, with the first and last week's figure.
    func trendLines(_ style: TextStyle) -> [String] {
        let count = trend.weeks.count
        let from = trend.weeks.first!.week.from
        var lines = [
            style.heading(
                "Recovery time, week by week (\(count) \(count == 1 ? "week" : "weeks") from \(from.written(today: today)), in hours)"
            )
        ]
        guard trend.weeks.contains(where: { $0.averageRecoveryHours != nil }) else {
            lines.append("  Nothing marked okay yet. When you feel better, `hooray recovery okay` records it.")
            return lines
        }
        let first = trend.weeks.first!.averageRecoveryHours
        let last = trend.weeks.last!.averageRecoveryHours
        lines.append("  \(trend.sparkline)  \(Self.hours(first)) → \(Self.hours(last))")
        if trend.sparkline.contains(RecoveryTrend.noFigure) {
            lines.append("  \(RecoveryTrend.noFigure) a week with nothing marked okay")
        }
        return lines
    }

    /// The challenge and check-in streaks.
    func streakLines(_ style: TextStyle) -> [String] {
        let rows = [("  Challenges", streaks.challenge), ("  Check-ins", streaks.checkIn)]
        let width = rows.map { TerminalText.width($0.0) }.max()! + 3
        return [style.heading("Streaks")]
            + rows.map { label, days in
                TerminalText.padding(label, toWidth: width)
                    + (days == 0 ? "ready when you are" : "\(days) \(days == 1 ? "day" : "days") in a row")
            }
            + [
                "  Today: "
                    + (todayCheckIn.map { "checked in \($0.mood.label)" }
                        ?? "not checked in yet (hooray recovery checkin)")
            ]
    }

    /// `18–24 Nov`, `29 Oct–4 Nov`: day before month, as every date in Hooray's text.
    static func span(_ week: DashboardWeek) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let (from, through) = (week.from, week.through)
        let end = "\(through.day) \(months[through.month - 1])"
        return from.month == through.month ? "\(from.day)–\(end)" : "\(from.day) \(months[from.month - 1])–\(end)"
    }

    /// `30`, `17.5`, `11.25`: at most two decimals, none when whole.
    static func figure(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        if hundredths % 100 == 0 { return "\(hundredths / 100)" }
        let text = String(format: "%d.%02d", hundredths / 100, hundredths % 100)
        return text.hasSuffix("0") ? String(text.dropLast()) : text
    }

    /// An average impact with one decimal, such as `5.8`; `—` when there is none.
    static func impact(_ value: Double?) -> String {
        value.map { String(format: "%.1f", $0) } ?? "—"
    }

    /// A recovery time such as `12 h` or `1 d 4 h`; `—` when there is none.
    static func duration(_ seconds: Double?) -> String {
        seconds.map(RecoveryFormat.duration) ?? "—"
    }

    /// Hours with at most one decimal, such as `45 h` or `22.5 h`; `under 0.1 h` for a few minutes;
    /// `—` when there are none.
    static func hours(_ value: Double?) -> String {
        guard let value else { return "—" }
        guard value >= 0.05 else { return "under 0.1 h" }
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10) h" : "\(tenths / 10).\(tenths % 10) h"
    }

    /// The text after spaces that make it `width` cells wide.
    static func rightAligned(_ text: String, toWidth width: Int) -> String {
        String(repeating: " ", count: max(0, width - TerminalText.width(text))) + text
    }
}

/// Bold headings when the terminal takes colour; plain text otherwise.
struct TextStyle: Sendable, Hashable {
    /// Whether escape sequences may be used.
    var color: Bool

    /// A heading.
    func heading(_ text: String) -> String {
        color ? "\u{1B}[1m\(text)\u{1B}[0m" : text
    }
}
