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
        askingForTexts(
            parent: parent, heading: heading, body: body,
            fields: [TextField(name: fieldName, placeholder: placeholder, text: text, maximumLength: maximumLength)],
            confirm: confirm
        ) { texts in answered(texts?.first) }
    }

    /// One field of a question: its name for screen readers, its example, what it holds at first
    /// and the most characters it takes (0 for no limit).
    struct TextField {
        var name: String
        var placeholder: String
        var text: String
        var maximumLength = 0
    }

    /// A question with one-line fields, one under the other, such as "Add a habit" with its name and
    /// its "remember why": as ``askingForText(parent:heading:body:placeholder:fieldName:text:maximumLength:confirm:_:)``,
    /// answered with each field's text in order.
    static func askingForTexts(
        parent: Window, heading: String, body: String, fields: [TextField], confirm: String,
        _ answered: @escaping @MainActor ([String]?) -> Void
    ) -> MessageDialog {
        let dialog = MessageDialog(parent: parent, heading: heading, body: body)
        let entries = fields.map { field in
            let entry = Entry(placeholder: field.placeholder)
            entry.setAccessibleLabel(field.name)
            entry.maximumLength = field.maximumLength
            entry.text = field.text
            return entry
        }
        // Enter in the last field answers; in another, it would answer before the rest is filled.
        entries.last?.activatesDefault = true
        if entries.count == 1 {
            dialog.extraChild = entries[0]
        } else {
            let column = Box(.vertical, spacing: 12)
            for entry in entries { column.append(entry) }
            dialog.extraChild = column
        }
        dialog.addResponse("cancel", label: localized("Cancel"))
        dialog.addResponse("confirm", label: confirm, appearance: .suggested)
        dialog.defaultResponse = "confirm"
        dialog.closeResponse = "cancel"
        dialog.onResponse { answer in answered(answer == "confirm" ? entries.map(\.text) : nil) }
        return dialog
    }
}
