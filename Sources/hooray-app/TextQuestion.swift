import HoorayGtk

extension MessageDialog {
    /// A question with a one-line field, such as "Add a habit": **Cancel**, and `confirm`, which
    /// Enter in the field gives too. Not shown yet; keep it while it is asked.
    ///
    /// - Parameters:
    ///   - parent: The window it opens over.
    ///   - heading: The question.
    ///   - body: What answering does.
    ///   - placeholder: The field's example, shown while it is empty.
    ///   - fieldName: The field's name for screen readers.
    ///   - text: What the field holds at first (a draft the user typed before).
    ///   - maximumLength: The most characters it takes; 0 for no limit.
    ///   - confirm: The answer's button, such as "Add".
    ///   - answered: Runs once with the field's text, or `nil` when the user cancelled. The field is
    ///     held by the answer's action, which the dialog lets go of when it goes.
    static func askingForText(
        parent: Window, heading: String, body: String, placeholder: String, fieldName: String, text: String,
        maximumLength: Int = 0, confirm: String, _ answered: @escaping @MainActor (String?) -> Void
    ) -> MessageDialog {
        let dialog = MessageDialog(parent: parent, heading: heading, body: body)
        let field = Entry(placeholder: placeholder)
        field.setAccessibleLabel(fieldName)
        field.maximumLength = maximumLength
        field.text = text
        field.activatesDefault = true
        dialog.extraChild = field
        dialog.addResponse("cancel", label: localized("Cancel"))
        dialog.addResponse("confirm", label: confirm, appearance: .suggested)
        dialog.defaultResponse = "confirm"
        dialog.closeResponse = "cancel"
        dialog.onResponse { answer in answered(answer == "confirm" ? field.text : nil) }
        return dialog
    }
}
