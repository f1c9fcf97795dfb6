import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayTerminal
import HoorayText

/// The weekly review as `hooray review` shows it: warm lines, then a small table of this week
/// beside last week; as JSON (the `weekReview` type of docs/json.md); or as a one-page web page
/// with a chart.
struct WeekReport: Encodable {
    let week: ISOWeek
    let today: LocalDate
    let areas: [WeekReview]
    /// The AI service's paragraph about the week, when there is one.
    var reflection: String? = nil

    /// Whether the week is over.
    var isComplete: Bool { week.sunday < today }

    /// The areas with something in them, this week or the week before.
    var shownAreas: [WeekReview] { areas.filter { !$0.isEmpty } }

    /// `Mon 23 Nov – Sun 29 Nov`.
    var dates: String {
        "\(week.monday.written(today: today)) – \(week.sunday.written(today: today))"
    }

    // MARK: Text

    var text: String {
        var lines = ["Your week, \(dates) (\(week))" + (isComplete ? "" : ", so far"), ""]
        if let reflection {
            lines += ["✨ " + TerminalText.safe(reflection), "   (written by your AI service from these figures)", ""]
        }
        guard !shownAreas.isEmpty else {
            lines.append(
                "A quiet week: nothing logged in it, and that's okay. Rest is part of it too. "
                    + "When you're ready: hooray win \"…\", hooray swap \"…\" or hooray habit done NAME.")
            return lines.joined(separator: "\n")
        }
        for area in shownAreas {
            lines.append("• \(TerminalText.safe(area.area)): \(TerminalText.safe(area.line))")
            if !area.highlights.isEmpty {
                let quoted = area.highlights.map { "“\(TerminalText.safe($0))”" }.joined(separator: " · ")
                lines.append("  \(TerminalText.safe(area.highlightsLabel ?? "Highlights")): \(quoted)")
            }
        }
        lines.append("")
        let rows = shownAreas.flatMap { area in
            area.figures.map { figure in
                (
                    TerminalText.safe(figure.label), WeekReview.Figure.shown(figure.thisWeek, of: figure.outOf),
                    figure.lastWeek == nil ? "" : WeekReview.Figure.shown(figure.lastWeek, of: figure.lastOutOf)
                )
            }
        }
        let labelWidth = max(rows.map { TerminalText.width($0.0) }.max() ?? 0, 10)
        let thisWidth = max(rows.map(\.1.count).max() ?? 0, "this week".count)
        let lastWidth = max(rows.map(\.2.count).max() ?? 0, "last week".count)
        func pad(_ text: String, _ width: Int, right: Bool) -> String {
            let gap = String(repeating: " ", count: max(0, width - TerminalText.width(text)))
            return right ? gap + text : text + gap
        }
        lines.append(
            pad("", labelWidth, right: false) + "  " + pad("this week", thisWidth, right: true) + "  "
                + pad("last week", lastWidth, right: true))
        for row in rows {
            let line =
                pad(row.0, labelWidth, right: false) + "  " + pad(row.1, thisWidth, right: true) + "  "
                + pad(row.2, lastWidth, right: true)
            lines.append(String(line.reversed().drop { $0 == " " }.reversed()))
        }
        let quiet = areas.filter(\.isEmpty).map(\.area)
        if !quiet.isEmpty {
            lines += ["", "Nothing this week or the last in: \(TerminalText.safe(quiet.joined(separator: ", ")))."]
        }
        return lines.joined(separator: "\n")
    }

    // MARK: JSON

    enum CodingKeys: String, CodingKey {
        case week, from, through, complete, areas, reflection
    }

    enum AreaKeys: String, CodingKey {
        case area, line, highlights, highlightsLabel, empty, figures
    }

    enum FigureKeys: String, CodingKey {
        case key, label, thisWeek, lastWeek, outOf, lastOutOf
    }

    /// Every key is written, `null` when it does not apply.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(week.description, forKey: .week)
        try container.encode(week.monday, forKey: .from)
        try container.encode(week.sunday, forKey: .through)
        try container.encode(isComplete, forKey: .complete)
        try container.encode(reflection, forKey: .reflection)
        var list = container.nestedUnkeyedContainer(forKey: .areas)
        for area in areas {
            var item = list.nestedContainer(keyedBy: AreaKeys.self)
            try item.encode(area.area, forKey: .area)
            try item.encode(area.line, forKey: .line)
            try item.encode(area.highlights, forKey: .highlights)
            try item.encode(area.highlightsLabel, forKey: .highlightsLabel)
            try item.encode(area.isEmpty, forKey: .empty)
            var figures = item.nestedUnkeyedContainer(forKey: .figures)
            for figure in area.figures {
                var entry = figures.nestedContainer(keyedBy: FigureKeys.self)
                try entry.encode(figure.key, forKey: .key)
                try entry.encode(figure.label, forKey: .label)
                try entry.encode(figure.thisWeek, forKey: .thisWeek)
                try entry.encode(figure.lastWeek, forKey: .lastWeek)
                try entry.encode(figure.outOf, forKey: .outOf)
                try entry.encode(figure.lastOutOf, forKey: .lastOutOf)
            }
        }
    }

    // MARK: HTML

    /// A page that stands alone (no script, no file beside it) and prints on one A4 page.
    var html: String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        var body: [String] = [
            "<h1>Your week</h1>",
            "<p class=\"dates\">\(escaped(dates)) \(week.monday.year) · \(week)\(isComplete ? "" : " · so far")</p>",
        ]
        if let reflection { body.append("<p class=\"reflection\">\(escaped(reflection))</p>") }
        if shownAreas.isEmpty {
            body.append(
                "<p class=\"line\">A quiet week: nothing logged in it, and that's okay. Rest is part of it too.</p>")
        }
        for area in shownAreas {
            body.append("<section><h2>\(escaped(area.area))</h2><p class=\"line\">\(escaped(area.line))</p>")
            if !area.highlights.isEmpty {
                let items = area.highlights.map { "<li>\(escaped($0))</li>" }.joined()
                body.append("<p class=\"label\">\(escaped(area.highlightsLabel ?? "Highlights"))</p><ul>\(items)</ul>")
            }
            body.append("</section>")
        }
        let charted = shownAreas.flatMap { area in area.figures.filter { $0.lastWeek != nil }.map { (area.area, $0) } }
        if !charted.isEmpty { body.append(chart(charted, escaped: escaped)) }
        if !shownAreas.isEmpty {
            var table = ["<table><thead><tr><th></th><th>this week</th><th>last week</th></tr></thead><tbody>"]
            for area in shownAreas {
                for figure in area.figures {
                    let last =
                        figure.lastWeek == nil ? "" : WeekReview.Figure.shown(figure.lastWeek, of: figure.lastOutOf)
                    table.append(
                        "<tr><td>\(escaped(figure.label))</td><td>\(WeekReview.Figure.shown(figure.thisWeek, of: figure.outOf))</td>"
                            + "<td>\(last)</td></tr>")
                }
            }
            table.append("</tbody></table>")
            body.append(table.joined())
        }
        let quiet = areas.filter(\.isEmpty).map(\.area)
        if !quiet.isEmpty {
            body.append(
                "<p class=\"label\">Nothing this week or the last in: \(escaped(quiet.joined(separator: ", "))).</p>")
        }
        body.append("<footer>Kept with Hooray on \(escaped(today.written(today: today))) \(today.year).</footer>")
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Your week \(week)</title>
            <style>
            @page { size: A4; margin: 16mm; }
            body { font-family: "Cantarell", "Noto Sans", sans-serif; color: #1f2d3a; margin: 0; }
            main { max-width: 44em; margin: 0 auto; padding: 1.5em; }
            h1 { font-size: 1.6em; margin: 0; color: #1a7f8c; }
            h2 { font-size: 1.05em; margin: 0.9em 0 0.2em; }
            .dates, .label, footer { color: #5b6b78; }
            .line { margin: 0.2em 0; }
            .reflection { font-style: italic; margin: 0.8em 0; }
            ul { margin: 0.2em 0 0.4em 1.2em; padding: 0; }
            table { border-collapse: collapse; margin-top: 1em; width: 100%; }
            th, td { padding: 0.25em 0.5em; border-bottom: 1px solid #dde4ea; text-align: right; }
            th:first-child, td:first-child { text-align: left; }
            svg { width: 100%; height: auto; margin-top: 1em; }
            footer { margin-top: 1.5em; font-size: 0.85em; }
            </style>
            </head>
            <body>
            <main>
            \(body.joined(separator: "\n"))
            </main>
            </body>
            </html>

            """
    }

    /// A bar chart of this week (teal) beside last week (grey), one pair of bars per figure, each
    /// pair scaled to its larger value.
    private func chart(_ figures: [(String, WeekReview.Figure)], escaped: (String) -> String) -> String {
        let rowHeight = 34
        let height = figures.count * rowHeight + 30
        var parts = [
            "<svg viewBox=\"0 0 640 \(height)\" role=\"img\" aria-label=\"This week beside last week\">",
            "<rect x=\"250\" y=\"4\" width=\"12\" height=\"10\" fill=\"#1a7f8c\"/><text x=\"268\" y=\"13\" font-size=\"11\">this week</text>",
            "<rect x=\"340\" y=\"4\" width=\"12\" height=\"10\" fill=\"#b8c4cc\"/><text x=\"358\" y=\"13\" font-size=\"11\">last week</text>",
        ]
        for (index, (_, figure)) in figures.enumerated() {
            let top = 24 + index * rowHeight
            let largest = max(figure.thisWeek, figure.lastWeek ?? 0, 1)
            let this = Int((figure.thisWeek / largest * 330).rounded())
            let last = Int(((figure.lastWeek ?? 0) / largest * 330).rounded())
            parts.append("<text x=\"0\" y=\"\(top + 16)\" font-size=\"12\">\(escaped(figure.label))</text>")
            parts.append("<rect x=\"250\" y=\"\(top + 2)\" width=\"\(this)\" height=\"12\" fill=\"#1a7f8c\"/>")
            parts.append("<rect x=\"250\" y=\"\(top + 16)\" width=\"\(last)\" height=\"8\" fill=\"#b8c4cc\"/>")
            parts.append(
                "<text x=\"\(256 + this)\" y=\"\(top + 12)\" font-size=\"11\">\(WeekReview.Figure.shown(figure.thisWeek, of: nil))</text>"
            )
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }
}
