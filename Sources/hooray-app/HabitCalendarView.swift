import Foundation
import HoorayCalendar
import HoorayGtk

/// A habit's month, drawn by the app (seed 004 §3.2's calendar view): weeks from Monday, each day's
/// number with its mark under it — done ●, started again ✗, paused ‖, missed ○, coming up ◌, not due ·
/// — and today framed; a legend under the grid. Marks differ in shape as well as in colour, and the
/// colours are the style's (libadwaita's success, error, warning and accent), light or dark.
/// Screen readers read the month in words: its name, then which days were done, missed and so on.
@MainActor
final class HabitCalendarView {
    let area = DrawingArea()
    private var month: DaemonLink.HabitMonth?

    /// The height of the weekday header, of a week's row and of a legend line, in pixels.
    private static let headerHeight = 24.0
    private static let rowHeight = 44.0
    private static let legendHeight = 24.0
    /// The narrowest it is drawn: a phone-sized window's, 360 pixels less margins.
    private static let width = 280

    init() {
        area.setContentSize(width: Self.width, height: Self.height(weeks: 5))
        area.expand(horizontally: true)
        area.onDraw { [weak self] canvas in self?.draw(on: canvas) }
    }

    /// Shows a month hoorayd sent.
    func show(_ month: DaemonLink.HabitMonth) {
        self.month = month
        area.setContentSize(width: Self.width, height: Self.height(weeks: Self.weeks(of: month).count))
        area.setAccessibleLabel(localized("Calendar of %@", Self.title(of: month)))
        area.setAccessibleDescription(Self.description(of: month))
        area.redraw()
    }

    /// Shows nothing, until the next month comes.
    func clear() {
        month = nil
        area.setAccessibleLabel("")
        area.setAccessibleDescription("")
        area.redraw()
    }

    /// The instant at noon UTC of a day written `YYYY-MM-DD`, for formatting it in the user's language.
    static func date(_ text: String) -> Date? {
        guard let day = LocalDate(parsing: text) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))
    }

    private static func height(weeks: Int) -> Int {
        Int(headerHeight + Double(weeks) * rowHeight + 3 * legendHeight + 8)
    }

    // MARK: Words

    /// "November 2026", in the user's language.
    static func title(of month: DaemonLink.HabitMonth) -> String {
        guard let middle = date(month.month + "-15") else { return month.month }
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.setLocalizedDateFormatFromTemplate("MMMMy")
        return formatter.string(from: middle)
    }

    /// What a day's state is called, and the order the description names them in.
    private static let kinds: [(state: String, words: String)] = [
        ("done", localized("Done")),
        ("reset", localized("Started again")),
        ("paused", localized("Paused")),
        ("missed", localized("Missed")),
        ("open", localized("Due today, not done yet")),
        ("comingUp", localized("Coming up")),
    ]

    /// The month in words, for screen readers: "November 2026. Today is the 23rd. Done: 3, 4, 5. Missed:
    /// 11. …"; days not due are left out.
    static func description(of month: DaemonLink.HabitMonth) -> String {
        var sentences = [title(of: month)]
        if month.asOf.hasPrefix(month.month), let day = Int(month.asOf.suffix(2)) {
            sentences.append(localized("Today: %ld", day))
        }
        for kind in kinds {
            let days = month.days.filter { $0.state == kind.state }.compactMap { Int($0.date.suffix(2)) }
            guard !days.isEmpty else { continue }
            sentences.append(kind.words + ": " + days.map(String.init).joined(separator: ", "))
        }
        if month.days.allSatisfy({ $0.state == "notDue" }) { sentences.append(localized("No due days")) }
        return sentences.joined(separator: ". ") + "."
    }

    /// The month's days in weeks of seven from Monday; `nil` pads the first and last weeks.
    static func weeks(of month: DaemonLink.HabitMonth) -> [[DaemonLink.HabitMonth.Day?]] {
        guard let first = month.days.first.flatMap({ LocalDate(parsing: $0.date) }) else { return [] }
        let cells = Array(repeating: nil, count: first.weekday.rawValue - 1) + month.days.map { Optional($0) }
        return stride(from: 0, to: cells.count, by: 7).map { start in
            let week = Array(cells[start..<min(start + 7, cells.count)])
            return week + Array(repeating: nil, count: 7 - week.count)
        }
    }

    /// The weekdays' short names, Monday first, in the user's language.
    private static let weekdayNames: [String] = {
        let formatter = DateFormatter()
        let names = formatter.veryShortStandaloneWeekdaySymbols
        return Array(names[1...]) + [names[0]]
    }()

    // MARK: Drawing

    private func draw(on canvas: Canvas) {
        guard let month else { return }
        let palette = Palette(canvas)
        let column = canvas.width / 7
        canvas.setColor(palette.dim)
        for (index, name) in Self.weekdayNames.enumerated() {
            canvas.drawText(name, centeredAt: column * (Double(index) + 0.5), Self.headerHeight / 2, scale: 0.85)
        }
        let weeks = Self.weeks(of: month)
        for (row, week) in weeks.enumerated() {
            for (index, day) in week.enumerated() {
                guard let day, let number = Int(day.date.suffix(2)) else { continue }
                let x = column * (Double(index) + 0.5)
                let top = Self.headerHeight + Double(row) * Self.rowHeight
                let isToday = day.date == month.asOf
                if isToday {
                    canvas.setColor(palette.accent)
                    canvas.strokeRoundedRectangle(
                        x: x - min(column, Self.rowHeight) / 2 + 2, y: top + 2, width: min(column, Self.rowHeight) - 4,
                        height: Self.rowHeight - 4, radius: 8, lineWidth: 2)
                }
                canvas.setColor(day.state == "notDue" || day.state == "comingUp" ? palette.dim : palette.text)
                canvas.drawText(String(number), centeredAt: x, top + 14, bold: isToday)
                Self.mark(day.state, at: x, top + 32, on: canvas, palette: palette)
            }
        }
        // The legend: three lines of two, which fit the narrowest window.
        let legendTop = Self.headerHeight + Double(weeks.count) * Self.rowHeight + 8
        let half = canvas.width / 2
        for (index, kind) in Self.legend.enumerated() {
            let y = legendTop + Self.legendHeight * (Double(index / 2) + 0.5)
            let x = half * Double(index % 2) + 14
            Self.mark(kind.state, at: x, y, on: canvas, palette: palette)
            let size = canvas.measure(kind.words, scale: 0.85)
            canvas.setColor(palette.text)
            canvas.drawText(kind.words, centeredAt: x + 12 + size.width / 2, y, scale: 0.85)
        }
    }

    /// The legend's marks and words.
    private static let legend: [(state: String, words: String)] = [
        ("done", localized("done")), ("reset", localized("started again")), ("paused", localized("paused")),
        ("missed", localized("missed")), ("comingUp", localized("coming up")), ("notDue", localized("not due")),
    ]

    /// Draws a day's mark, centred on a point.
    private static func mark(_ state: String, at x: Double, _ y: Double, on canvas: Canvas, palette: Palette) {
        switch state {
        case "done":
            canvas.setColor(palette.success)
            canvas.fillCircle(x: x, y: y, radius: 5)
        case "reset":
            canvas.setColor(palette.error)
            canvas.strokeLine([(x - 4.5, y - 4.5), (x + 4.5, y + 4.5)], lineWidth: 2)
            canvas.strokeLine([(x - 4.5, y + 4.5), (x + 4.5, y - 4.5)], lineWidth: 2)
        case "paused":
            canvas.setColor(palette.dim)
            canvas.fillRoundedRectangle(x: x - 4, y: y - 5, width: 3, height: 10, radius: 1)
            canvas.fillRoundedRectangle(x: x + 1, y: y - 5, width: 3, height: 10, radius: 1)
        case "missed":
            canvas.setColor(palette.warning)
            canvas.strokeArc(x: x, y: y, radius: 4.5, lineWidth: 1.5)
        case "open":
            canvas.setColor(palette.accent)
            canvas.strokeArc(x: x, y: y, radius: 4.5, lineWidth: 2)
        case "comingUp":
            canvas.setColor(palette.dim)
            canvas.strokeArc(x: x, y: y, radius: 4.5, lineWidth: 1.5, dashes: [2, 2])
        default:
            canvas.setColor(palette.dim)
            canvas.fillCircle(x: x, y: y, radius: 1.5)
        }
    }

    /// The style's colours, light or dark.
    private struct Palette {
        let text: Color
        let dim: Color
        let success: Color
        let error: Color
        let warning: Color
        let accent: Color

        @MainActor init(_ canvas: Canvas) {
            text = canvas.foreground
            dim = text.withAlpha(0.45)
            success = canvas.color(named: "success_color", fallback: Color(red: 0.15, green: 0.64, blue: 0.41))
            error = canvas.color(named: "error_color", fallback: Color(red: 0.75, green: 0.11, blue: 0.16))
            warning = canvas.color(named: "warning_color", fallback: Color(red: 0.61, green: 0.43, blue: 0.0))
            accent = canvas.color(named: "accent_color", fallback: Color(red: 0.11, green: 0.44, blue: 0.85))
        }
    }
}

/// Weekday names in the user's language, Sunday first, as Foundation gives them.
enum DateNames {
    /// "Sunday", "Monday", …
    static var weekdays: [String] { DateFormatter().standaloneWeekdaySymbols }
    /// "Sun", "Mon", …
    static var shortWeekdays: [String] { DateFormatter().shortStandaloneWeekdaySymbols }

    /// A local day, `YYYY-MM-DD`, at noon in this computer's zone; `nil` when it is not one.
    static func date(_ day: String) -> Date? {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return Calendar.current.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))
    }

    /// A day's number in its month, such as "18".
    static func dayOfMonth(_ day: String) -> String {
        day.split(separator: "-").last.flatMap { Int($0) }.map(String.init) ?? day
    }

    /// Two local days as the user's language writes a span of days, such as "Nov 18 – 24".
    static func range(from: String, through: String) -> String {
        guard let start = date(from), let end = date(through) else { return "\(from) – \(through)" }
        let formatter = DateIntervalFormatter()
        formatter.dateTemplate = "MMMd"
        return formatter.string(from: start, to: end)
    }
}
