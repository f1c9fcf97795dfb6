import Foundation
import HoorayClient
import HoorayGtk

/// "I need help" (seed 004 §3.4): the user's top three swaps and a 90-second calm breathing guide —
/// breathe in 4 seconds, hold 4, out 7, six rounds — as `hooray swap help` gives them. A circle the
/// app draws swells with each breath in, rests, and settles with each breath out (at rest with
/// animations off); the cue under it, which screen readers hear, counts the seconds down.
@MainActor
final class NeedHelpDialog {
    let dialog: MessageDialog
    private let circle = DrawingArea()
    private let cue = Label("")
    /// The circle's size now, from 0 (settled) to 1 (full).
    private var fullness = 0.0
    private var finished = false
    /// Runs once the dialog is closed.
    var onClosed: @MainActor () -> Void = {}

    /// A dialog over `parent` with what hoorayd answered: the top swaps in words, and the guide.
    init(parent: Window, words: String, guide: TerminalGuide?) {
        dialog = MessageDialog(parent: parent, heading: localized("I need help"), body: words)
        let column = Box(.vertical, spacing: 12)
        circle.setContentSize(width: 200, height: 200)
        circle.center()
        circle.setAccessibleLabel(localized("A circle to breathe with"))
        circle.onDraw { [weak self] canvas in self?.draw(on: canvas) }
        cue.addCSSClass("title-3")
        cue.wrapCentered()
        column.append(circle)
        column.append(cue)
        dialog.extraChild = column
        dialog.addResponse("close", label: localized("Back to my day"))
        dialog.defaultResponse = "close"
        dialog.closeResponse = "close"
        dialog.onResponse { [weak self] _ in
            self?.finished = true
            self?.onClosed()
        }
        if let guide { play(guide) }
    }

    func present() {
        dialog.present()
    }

    /// Goes through the guide's steps: a breath in swells the circle, a hold keeps it, a breath out
    /// settles it; each second the cue counts down.
    private func play(_ guide: TerminalGuide) {
        cue.text = guide.title
        let animated = Style.animationsEnabled
        Task { @MainActor [weak self] in
            for (index, step) in guide.steps.enumerated() {
                let start = self?.fullness ?? 0
                // In, hold, out, as the guide's rounds go.
                let end = [1.0, start, 0.0][index % 3]
                let ticks = max(1, step.seconds * 10)
                for tick in 0..<ticks {
                    guard let self, !finished else { return }
                    if tick % 10 == 0 {
                        cue.text = "\(step.cue) · \(step.seconds - tick / 10)"
                    }
                    if animated {
                        let t = Double(tick + 1) / Double(ticks)
                        // Eased in and out, as a breath is.
                        fullness = start + (end - start) * (0.5 - cos(t * Double.pi) / 2)
                        circle.redraw()
                    }
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            guard let self, !finished else { return }
            cue.text = guide.closing
        }
    }

    private func draw(on canvas: Canvas) {
        let accent = canvas.color(named: "accent_color", fallback: Color(red: 0.11, green: 0.44, blue: 0.85))
        let middle = (x: canvas.width / 2, y: canvas.height / 2)
        let largest = min(canvas.width, canvas.height) / 2 - 4
        let radius = largest * (0.45 + 0.55 * fullness)
        canvas.setColor(accent.withAlpha(0.15))
        canvas.fillCircle(x: middle.x, y: middle.y, radius: largest)
        canvas.setColor(accent.withAlpha(0.35 + 0.4 * fullness))
        canvas.fillCircle(x: middle.x, y: middle.y, radius: radius)
    }
}
