import Foundation
import HoorayGtk

/// The resilience score ring of seed 002 §2 (`ResilienceScoreView`): a grey track and, over it, an
/// arc from twelve o'clock for the score out of 100, the number in the middle. Drawn with cairo in the
/// style's colours (light or dark); screen readers hear the score and its line.
@MainActor
final class ScoreRingView {
    let area = DrawingArea()
    private var score = 0.0

    init() {
        area.setContentSize(width: 140, height: 140)
        area.center()
        area.onDraw { [weak self] canvas in self?.draw(on: canvas) }
        show(score: 0, message: "")
    }

    /// Shows a score from 0 to 100 and its band's line, such as "Building solid resilience 💪".
    func show(score: Double, message: String) {
        self.score = min(max(score, 0), 100)
        let points = Int(self.score.rounded())
        area.setAccessibleLabel(localized("Resilience Score: %ld of 100", points))
        area.setAccessibleDescription(message)
        area.redraw()
    }

    private func draw(on canvas: Canvas) {
        let (x, y) = (canvas.width / 2, canvas.height / 2)
        let line = 12.0
        let radius = min(canvas.width, canvas.height) / 2 - line / 2 - 2
        canvas.setColor(canvas.foreground.withAlpha(0.15))
        canvas.strokeArc(x: x, y: y, radius: radius, lineWidth: line)
        if score > 0 {
            canvas.setColor(canvas.color(named: "accent_color", fallback: Color(red: 0.21, green: 0.52, blue: 0.89)))
            let start = -Double.pi / 2
            canvas.strokeArc(
                x: x, y: y, radius: radius, from: start, to: start + 2 * Double.pi * score / 100, lineWidth: line,
                roundCaps: true)
        }
        canvas.setColor(canvas.foreground)
        canvas.drawText(String(Int(score.rounded())), centeredAt: x, y, bold: true, scale: 2.2)
    }
}

/// The recovery-time trend of seed 002 §2 (`RecoveryTrendsChart`): a bar a week, oldest on the left,
/// as tall as the hours it took on average to be okay again; a week without a recovery is a dot on the
/// base line. Shorter bars are faster recoveries. Screen readers get it week by week.
@MainActor
final class RecoveryTrendView {
    let area = DrawingArea()
    private var weeks: [DaemonLink.Dashboard.TrendWeek] = []

    init() {
        area.setContentSize(width: 240, height: 120)
        area.expand(horizontally: true)
        area.onDraw { [weak self] canvas in self?.draw(on: canvas) }
        area.setAccessibleLabel(localized("Recovery time, week by week"))
    }

    /// Shows the weeks, oldest first.
    func show(_ weeks: [DaemonLink.Dashboard.TrendWeek]) {
        self.weeks = weeks
        area.setAccessibleDescription(Self.describe(weeks))
        area.redraw()
    }

    /// The chart in words: each week's days and its average time to be okay again, or that none was.
    static func describe(_ weeks: [DaemonLink.Dashboard.TrendWeek]) -> String {
        weeks.map { week in
            let days = DateNames.range(from: week.from, through: week.through)
            guard let hours = week.averageRecoveryHours else {
                return localized("%@: no recovery", days)
            }
            let took = hours.formatted(.number.precision(.fractionLength(0...1)))
            return localized("%1$@: okay again after %2$@ h on average", days, took)
        }.joined(separator: "; ")
    }

    private func draw(on canvas: Canvas) {
        guard !weeks.isEmpty else { return }
        let labelHeight = canvas.measure("0").height + 4
        let chartHeight = canvas.height - labelHeight - 4
        let most = max(weeks.compactMap(\.averageRecoveryHours).max() ?? 1, 1)
        let slot = canvas.width / Double(weeks.count)
        let barWidth = min(28, slot * 0.6)
        let accent = canvas.color(named: "accent_color", fallback: Color(red: 0.21, green: 0.52, blue: 0.89))
        canvas.setColor(canvas.foreground.withAlpha(0.2))
        canvas.strokeLine([(0, chartHeight + 0.5), (canvas.width, chartHeight + 0.5)], lineWidth: 1, roundCaps: false)
        for (index, week) in weeks.enumerated() {
            let x = slot * (Double(index) + 0.5)
            if let hours = week.averageRecoveryHours {
                let height = max(3, (chartHeight - 6) * hours / most)
                canvas.setColor(accent)
                canvas.fillRoundedRectangle(
                    x: x - barWidth / 2, y: chartHeight - height, width: barWidth, height: height, radius: 4)
            } else {
                canvas.setColor(canvas.foreground.withAlpha(0.3))
                canvas.fillCircle(x: x, y: chartHeight - 3, radius: 2.5)
            }
            canvas.setColor(canvas.foreground.withAlpha(0.6))
            canvas.drawText(
                DateNames.dayOfMonth(week.from), centeredAt: x, chartHeight + 4 + labelHeight / 2, scale: 0.8)
        }
    }
}
