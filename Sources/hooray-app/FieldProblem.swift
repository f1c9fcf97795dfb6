import HoorayGtk

/// A line in the error colour under a field, hidden until it names a problem. While it shows, the
/// field is marked invalid and described by it, so that a screen reader says both, and the field has
/// the focus: the user is where the fix is.
@MainActor
final class FieldProblem {
    /// The line, to place under the field.
    let label = Label("")
    private let field: Widget

    /// A hidden line for `field`.
    init(for field: Widget) {
        self.field = field
        label.wrapCentered()
        label.addCSSClass("error")
        label.isVisible = false
    }

    /// Shows `message`, capitalised; a photo's or a screenshot's, which starts with the command
    /// line's `--photo` or `--screenshot`, starts with the file's path.
    func show(_ message: String) {
        let option = ["--photo ", "--screenshot "].first { message.hasPrefix($0) }
        let text = option.map { String(message.dropFirst($0.count)) } ?? message
        label.text = text.prefix(1).uppercased() + text.dropFirst()
        label.isVisible = true
        field.markInvalid(describedBy: label)
        field.grabFocus()
    }

    /// Hides the line: the field is fine again, or about to be checked again.
    func hide() {
        guard label.isVisible else { return }
        label.isVisible = false
        field.markInvalid(describedBy: nil)
    }
}
