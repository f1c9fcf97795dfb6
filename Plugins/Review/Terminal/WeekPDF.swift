import CPDF
import Foundation
import HoorayCommandLine
import HoorayTerminal

/// The weekly review as a one-page PDF (`hooray review --pdf FILE`), the seed's "PDF export of
/// weekly reflections": the warm lines, a chart of this week beside last week, and the table.
///
/// Drawn with Cairo's PDF surface and Pango's text layout — the libraries GTK draws with, kept by
/// GNOME and on every desktop already — rather than a PDF writer of our own: fonts, shaping,
/// wrapping and the file format are theirs. They are loaded with dlopen when a PDF is written, so
/// no other command maps them (CPDF).
enum WeekPDF {
    /// A4, in points.
    static let width = 595.28
    static let height = 841.89
    static let margin = 48.0

    typealias Colour = (Double, Double, Double)
    static let ink: Colour = (0.12, 0.18, 0.23)
    static let muted: Colour = (0.36, 0.42, 0.47)
    static let teal: Colour = (0.10, 0.50, 0.55)
    static let grey: Colour = (0.72, 0.77, 0.80)

    /// Writes the report to `path`, whole or not at all.
    ///
    /// - Returns: Why it could not be written, in a few words, or `nil`.
    static func write(_ report: WeekReport, to path: String) -> String? {
        var why = [CChar](repeating: 0, count: 512)
        guard hooray_pdf_load(&why, why.count) == 1 else {
            return "the PDF libraries could not be loaded (\(text(of: why))); install them with "
                + "`sudo apt install libcairo2 libpangocairo-1.0-0`"
        }
        // Written beside the file and renamed over it: a failure leaves nothing half-written, and
        // opening it first says exactly why a folder cannot be written to.
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/.hooray-review-\(getpid()).pdf"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return String(cString: strerror(errno)).lowercased() }
        close(descriptor)
        guard let pdf = hooray_pdf_create(temporary, width, height, "Your week \(report.week)", &why, why.count) else {
            unlink(temporary)
            return text(of: why)
        }
        draw(report, on: pdf)
        guard hooray_pdf_finish(pdf, &why, why.count) == 1 else {
            unlink(temporary)
            return text(of: why)
        }
        // On disk before it takes the name: whole or not at all, past a crash too.
        let written = open(temporary, O_RDONLY | O_CLOEXEC)
        if written >= 0 {
            _ = fsync(written)
            close(written)
        }
        guard rename(temporary, path) == 0 else {
            let problem = String(cString: strerror(errno)).lowercased()
            unlink(temporary)
            return problem
        }
        return nil
    }

    /// The text of a NUL-terminated buffer.
    private static func text(of buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func draw(_ report: WeekReport, on pdf: OpaquePointer) {
        let right = width - margin
        let textWidth = right - margin
        var y = margin
        func text(
            _ words: String, _ font: String, x: Double = margin, width: Double = textWidth, _ colour: Colour = ink
        )
            -> Double
        {
            hooray_pdf_text(pdf, words, font, x, y, width, colour.0, colour.1, colour.2)
        }
        func rightAligned(_ words: String, _ font: String, at edge: Double, _ colour: Colour = ink) {
            let wide = hooray_pdf_text_width(pdf, words, font)
            _ = hooray_pdf_text(pdf, words, font, edge - wide, y, 0, colour.0, colour.1, colour.2)
        }
        y += text("Your week", "Sans Bold 22", teal) + 2
        y +=
            text(
                "\(report.dates) \(report.week.monday.year) · \(report.week)\(report.isComplete ? "" : " · so far")",
                "Sans 11", muted)
            + 14
        if let reflection = report.reflection {
            y += text(reflection, "Sans Italic 10.5") + 12
        }
        if report.shownAreas.isEmpty {
            y += text("A quiet week: nothing logged in it, and that's okay. Rest is part of it too.", "Sans 11") + 10
        }
        for area in report.shownAreas {
            y += text(area.area, "Sans Bold 11.5") + 1
            y += text(area.line, "Sans 10.5") + 2
            if !area.highlights.isEmpty {
                let quoted = area.highlights.map { "“\($0)”" }.joined(separator: " · ")
                y += text("\(area.highlightsLabel ?? "Highlights"): \(quoted)", "Sans Italic 9.5", muted) + 2
            }
            y += 5
        }
        let charted = report.shownAreas.flatMap { $0.figures.filter { $0.lastWeek != nil } }
        if !charted.isEmpty {
            y += 4
            let start = 262.0
            hooray_pdf_rectangle(pdf, start, y + 3, 10, 8, teal.0, teal.1, teal.2)
            _ = hooray_pdf_text(pdf, "this week", "Sans 8.5", start + 14, y, 0, muted.0, muted.1, muted.2)
            hooray_pdf_rectangle(pdf, start + 80, y + 3, 10, 8, grey.0, grey.1, grey.2)
            _ = hooray_pdf_text(pdf, "last week", "Sans 8.5", start + 94, y, 0, muted.0, muted.1, muted.2)
            y += 15
            for figure in charted {
                let largest = max(figure.thisWeek, figure.lastWeek ?? 0, 1)
                let full = right - start - 24
                _ = text(figure.label, "Sans 8.5", width: start - margin - 6)
                hooray_pdf_rectangle(
                    pdf, start, y + 2, max(0.5, figure.thisWeek / largest * full), 7, teal.0, teal.1, teal.2)
                _ = hooray_pdf_text(
                    pdf, WeekReview.Figure.shown(figure.thisWeek, of: nil), "Sans 7.5",
                    start + 4 + figure.thisWeek / largest * full, y, 0, ink.0, ink.1, ink.2)
                hooray_pdf_rectangle(
                    pdf, start, y + 10, max(0.5, (figure.lastWeek ?? 0) / largest * full), 4, grey.0, grey.1, grey.2)
                y += 17
            }
            y += 8
        }
        if !report.shownAreas.isEmpty {
            rightAligned("this week", "Sans Bold 9", at: right - 90, muted)
            rightAligned("last week", "Sans Bold 9", at: right, muted)
            y += 15
            for area in report.shownAreas {
                for figure in area.figures {
                    _ = text(figure.label, "Sans 9.5", width: 300)
                    rightAligned(WeekReview.Figure.shown(figure.thisWeek, of: figure.outOf), "Sans 9.5", at: right - 90)
                    if figure.lastWeek != nil {
                        rightAligned(
                            WeekReview.Figure.shown(figure.lastWeek, of: figure.lastOutOf), "Sans 9.5", at: right)
                    }
                    y += 14
                    hooray_pdf_rectangle(pdf, margin, y, textWidth, 0.5, grey.0, grey.1, grey.2)
                    y += 1.5
                }
            }
        }
        let quiet = report.areas.filter(\.isEmpty).map(\.area)
        if !quiet.isEmpty {
            y += 6
            y += text("Nothing this week or the last in: \(quiet.joined(separator: ", ")).", "Sans 9", muted)
        }
        y = max(y + 20, height - margin - 14)
        _ = text(
            "Kept with Hooray on \(report.today.written(today: report.today)) \(report.today.year).", "Sans 8.5", muted)
    }
}
