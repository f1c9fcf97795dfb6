import Foundation
import HoorayGtk

/// The sprout of seed 002 §3 ("Tonight's swap"): a pot whose plant grows a leaf for each day in a
/// row with a swap, up to seven; logging a swap grows it, gently (at once when the desktop has
/// animations off). Drawn with cairo in the style's colours; screen readers hear the streak.
@MainActor
final class SproutView {
    let area = DrawingArea()
    /// The leaves drawn now: a fraction while one grows.
    private var leaves = 0.0
    /// Counts each growth started, so that only the newest one moves the leaves.
    private var growth = 0
    /// The leaves shown or growing towards.
    private var target = 0.0

    /// The most leaves drawn: a week's streak fills the plant.
    static let mostLeaves = 7

    init() {
        area.setContentSize(width: 160, height: 172)
        area.center()
        area.onDraw { [weak self] canvas in self?.draw(on: canvas) }
        describe(streak: 0)
    }

    /// Shows a streak: grown from the leaves drawn now when `grow`, else at once.
    func show(streak: Int, grow: Bool) {
        describe(streak: streak)
        let target = Double(min(max(streak, 0), Self.mostLeaves))
        // The same again (a reading after the log that grew it): a growth under way goes on.
        guard target != self.target else { return }
        self.target = target
        growth += 1
        guard grow, Style.animationsEnabled, target != leaves else {
            leaves = target
            area.redraw()
            return
        }
        let (start, number) = (leaves, growth)
        Task { @MainActor [weak self] in
            let steps = 36
            for step in 1...steps {
                try? await Task.sleep(for: .milliseconds(33))
                guard let self, growth == number else { return }
                let t = Double(step) / Double(steps)
                // Eased out: quick at first, settling gently.
                leaves = start + (target - start) * (1 - pow(1 - t, 3))
                area.redraw()
            }
        }
    }

    private func describe(streak: Int) {
        area.setAccessibleLabel(
            streak == 0
                ? localized("Your sprout: a seed, waiting for your first swap")
                : localized(one: "Your sprout: %d day in a row", other: "Your sprout: %d days in a row", count: streak))
    }

    private func draw(on canvas: Canvas) {
        let green = canvas.color(named: "success_color", fallback: Color(red: 0.15, green: 0.64, blue: 0.41))
        let earth = Color(red: 0.72, green: 0.42, blue: 0.26)
        let middle = canvas.width / 2
        let potTop = canvas.height - 44
        // The pot, and the soil in it.
        canvas.setColor(earth)
        canvas.fillPolygon([
            (middle - 34, potTop), (middle + 34, potTop), (middle + 26, canvas.height - 4),
            (middle - 26, canvas.height - 4),
        ])
        canvas.setColor(earth.withAlpha(0.6))
        canvas.fillRoundedRectangle(x: middle - 38, y: potTop - 6, width: 76, height: 10, radius: 3)
        // The stem grows with the leaves; a seed shows before the first.
        canvas.setColor(green)
        guard leaves > 0 else {
            canvas.fillEllipse(x: middle, y: potTop - 9, radiusX: 6, radiusY: 4)
            return
        }
        let stem = 14 + leaves * 12
        canvas.strokeLine([(middle, potTop - 4), (middle, potTop - 4 - stem)], lineWidth: 4)
        for index in 0..<Int(leaves.rounded(.up)) {
            let grown = min(1, leaves - Double(index))
            let y = potTop - 14 - Double(index) * 12
            let side: Double = index.isMultiple(of: 2) ? -1 : 1
            canvas.fillEllipse(
                x: middle + side * 12 * grown, y: y, radiusX: 13 * grown, radiusY: 6 * grown, angle: side * -0.5)
        }
        // A bud at the top once the week is full.
        if leaves >= Double(Self.mostLeaves) {
            canvas.setColor(canvas.color(named: "accent_color", fallback: Color(red: 0.11, green: 0.44, blue: 0.85)))
            canvas.fillCircle(x: middle, y: potTop - 8 - stem, radius: 7)
        }
    }
}
