import Foundation
import HoorayGtk

/// "Edit “NAME”": a habit's "remember why", its rhythm — every day, on some weekdays, or every few
/// days — and its reminder, as `hooray habit edit` changes them; its history stays. A value that
/// cannot be (no weekday chosen, a time hoorayd does not take) is named under its field, which is
/// marked invalid for screen readers and given the focus, and nothing is saved.
@MainActor
enum HabitEditDialog {
    /// What the dialog holds: the habit's values at first, what the user typed when it comes back.
    struct Draft: Equatable {
        var why: String
        /// 0: every day; 1: on the weekdays of ``on``; 2: every ``every`` days.
        var rhythm: Int
        var on: [String]
        var every: Int
        /// `HH:MM`, or empty for no reminder.
        var remindAt: String

        /// The habit as hoorayd shows it.
        init(_ habit: DaemonLink.HabitMonth) {
            why = habit.why ?? ""
            if let every = habit.every {
                (rhythm, on, self.every) = (2, [], every)
            } else {
                let on = habit.on ?? Self.weekdays
                (rhythm, self.on, every) = (on.count == 7 ? 0 : 1, on, 2)
            }
            remindAt = habit.remindAt ?? ""
        }

        /// The change to ask hoorayd for; a problem to show first when the draft cannot be one.
        var change: Result<DaemonLink.HabitChange, Problem> {
            var change = DaemonLink.HabitChange(
                why: why.trimmingCharacters(in: .whitespacesAndNewlines),
                remindAt: remindAt.trimmingCharacters(in: .whitespaces))
            switch rhythm {
            case 0: change.on = Self.weekdays
            case 1:
                guard !on.isEmpty else {
                    return .failure(
                        Problem(
                            field: "--on",
                            message: localized("Choose at least one day, or make it every day.")))
                }
                change.on = Self.weekdays.filter(on.contains)
            default: change.every = every
            }
            return .success(change)
        }

        static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    }

    /// The fields the dialog names a problem under, as the command line's options.
    static let fields: Set<String> = ["--why", "--on", "--every", "--remind"]

    /// A value to fix: the field it is about, as the command line's option (`--why`, `--on`,
    /// `--every`, `--remind`; `nil` when none), and what to do.
    struct Problem: Error, Equatable {
        var field: String?
        var message: String
    }

    /// The dialog, not shown yet (keep it while it is asked), and the field to give the focus once it
    /// shows: the one named by `problem`.
    ///
    /// - Parameters:
    ///   - parent: The window it opens over.
    ///   - name: The habit's name.
    ///   - draft: What the fields hold.
    ///   - problem: A value to fix, named under its field.
    ///   - answered: Runs once with the fields, or `nil` when the user cancelled.
    static func make(
        parent: Window, name: String, draft: Draft, problem: Problem?,
        _ answered: @escaping @MainActor (Draft?) -> Void
    ) -> (dialog: MessageDialog, focus: Widget?) {
        let dialog = MessageDialog(
            parent: parent, heading: localized("Edit “%@”", name),
            body: localized("Its days done, reset and paused stay as they are."))
        let column = Box(.vertical, spacing: 6)

        let why = Entry(placeholder: localized("Why you start, for the days it is hard"))
        why.text = draft.why
        why.setAccessibleLabel(localized("Remember why"))
        column.append(heading(localized("Remember why")))
        column.append(why)

        let rhythm = DropDown(choices: [
            localized("Every day"), localized("On some days of the week"), localized("Every few days"),
        ])
        rhythm.selected = draft.rhythm
        rhythm.setAccessibleLabel(localized("Rhythm"))
        column.append(heading(localized("Rhythm")))
        column.append(rhythm)
        let days = Box(.horizontal, spacing: 4)
        let toggles = zip(Draft.weekdays, zip(Self.weekdayNames, Self.weekdayInitials)).map { day, names in
            let toggle = ToggleButton(label: names.1, name: names.0)
            toggle.isActive = draft.on.contains(day)
            days.append(toggle)
            return toggle
        }
        let every = SpinButton(minimum: 2, maximum: 365, value: draft.every)
        every.setAccessibleLabel(localized("Every how many days"))
        let everyRow = Box(.horizontal, spacing: 6)
        everyRow.append(Label(localized("Days from one to the next:")))
        everyRow.append(every)
        days.isVisible = draft.rhythm == 1
        everyRow.isVisible = draft.rhythm == 2
        // Weakly: the drop-down keeps its handler, which must not keep the drop-down.
        rhythm.onSelected { [weak rhythm, weak days, weak everyRow] in
            guard let rhythm else { return }
            days?.isVisible = rhythm.selected == 1
            everyRow?.isVisible = rhythm.selected == 2
        }
        column.append(days)
        column.append(everyRow)
        let rhythmProblem = problemLine()
        column.append(rhythmProblem)

        let remind = Entry(placeholder: localized("HH:MM, such as 20:00; empty for none"))
        remind.text = draft.remindAt
        remind.setAccessibleLabel(localized("Reminder"))
        remind.activatesDefault = true
        column.append(heading(localized("Reminder")))
        column.append(remind)
        let remindProblem = problemLine()
        let whyProblem = problemLine()
        column.append(remindProblem)
        column.append(whyProblem)

        var focus: Widget?
        if let problem {
            let (line, field): (Label, Widget) =
                switch problem.field {
                case "--remind": (remindProblem, remind)
                case "--on": (rhythmProblem, rhythm.selected == 1 ? toggles[0] : rhythm)
                case "--every": (rhythmProblem, every)
                case "--why": (whyProblem, why)
                default: (whyProblem, why)
                }
            line.text = problem.message
            line.isVisible = true
            field.markInvalid(describedBy: line)
            focus = field
        }

        dialog.extraChild = column
        dialog.addResponse("cancel", label: localized("Cancel"))
        dialog.addResponse("save", label: localized("Save"), appearance: .suggested)
        dialog.defaultResponse = "save"
        dialog.closeResponse = "cancel"
        dialog.onResponse { answer in
            guard answer == "save" else { return answered(nil) }
            every.update()
            var typed = draft
            typed.why = why.text
            typed.rhythm = rhythm.selected
            typed.on = zip(Draft.weekdays, toggles).filter { $0.1.isActive }.map(\.0)
            typed.every = every.value
            typed.remindAt = remind.text
            answered(typed)
        }
        return (dialog, focus)
    }

    /// The weekdays' names, Monday first, in the user's language.
    private static var weekdayNames: [String] {
        let names = DateNames.weekdays
        return Array(names[1...]) + [names[0]]
    }

    /// The weekdays' shortest names, Monday first, in the user's language: what a toggle shows.
    private static var weekdayInitials: [String] {
        let names = DateNames.shortWeekdays
        return Array(names[1...]) + [names[0]]
    }

    private static func heading(_ text: String) -> Label {
        let label = Label(text)
        label.addCSSClass("heading")
        label.alignStart()
        return label
    }

    /// A line under a field that names what to fix; hidden until there is something.
    private static func problemLine() -> Label {
        let line = Label("")
        line.addCSSClass("error")
        line.wrapStart()
        line.isVisible = false
        return line
    }
}
