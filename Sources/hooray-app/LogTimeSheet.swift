import Foundation
import HoorayGtk

/// "When did it happen?" (seed 001 §4.3's time picker): a number, minutes, hours or days, "ago";
/// **Done** and **Set to just now**. A time further back than hoorayd keeps is named in the sheet,
/// and Done waits until it is fixed.
@MainActor
final class LogTimeSheet {
    /// The largest number the field takes: in days, far past what a moment may be; in minutes,
    /// past it too, so the sheet can say so.
    static let largest = 999_999

    /// The units the sheet offers, with their length in minutes.
    static var units: [(name: String, minutes: Int)] {
        [(localized("minutes"), 1), (localized("hours"), 60), (localized("days"), 24 * 60)]
    }

    /// The dialog on screen, held until it is answered.
    private var dialog: MessageDialog?

    /// Asks when the moment happened, starting from `minutesAgo` (5 minutes for just now).
    ///
    /// - Parameters:
    ///   - window: The window it opens over.
    ///   - minutesAgo: The time the moment has now; 0 for just now.
    ///   - answered: Runs with the new time in minutes ago (0: just now), and not when the user
    ///     closes the sheet with Escape.
    func ask(over window: Window, minutesAgo: Int, _ answered: @escaping @MainActor (Int) -> Void) {
        let (number, unit) = Self.split(minutesAgo)
        present(over: window, number: number, unit: unit, answered)
    }

    private func present(
        over window: Window, number: Int, unit: Int, _ answered: @escaping @MainActor (Int) -> Void
    ) {
        let dialog = MessageDialog(parent: window, heading: localized("When did it happen?"), body: "")
        let spin = SpinButton(minimum: 1, maximum: Self.largest, value: number)
        spin.setAccessibleLabel(localized("How long ago"))
        let units = DropDown(choices: Self.units.map(\.name))
        units.selected = unit
        units.setAccessibleLabel(localized("Minutes, hours or days"))
        let row = Box(.horizontal, spacing: 8)
        row.center()
        for widget in [spin, units, Label(localized("ago"))] as [Widget] { row.append(widget) }
        let problem = Label("")
        problem.wrapCentered()
        problem.addCSSClass("error")
        let column = Box(.vertical, spacing: 12)
        column.append(row)
        column.append(problem)
        dialog.extraChild = column
        dialog.addResponse("cancel", label: localized("Cancel"))
        dialog.addResponse("now", label: localized("Set to just now"))
        dialog.addResponse("done", label: localized("Done"), appearance: .suggested)
        dialog.defaultResponse = "done"
        dialog.closeResponse = "cancel"
        // The number and the unit are held by the answer's action (which the dialog lets go of when
        // it goes), not by their own handlers: that would keep them for ever.
        let check: @MainActor () -> Void = { [weak dialog, weak spin, weak units] in
            // Told too as the sheet goes (Done takes what was typed): nothing is left to check then.
            guard let dialog, let spin, let units else { return }
            // What is typed counts at once, before Enter takes it: Done is greyed out as the number goes too far.
            // At most the field's own end: a longer number would overflow in minutes.
            let number = min(Int(spin.text.trimmingCharacters(in: .whitespaces)) ?? spin.value, Self.largest)
            let refusal = Self.refusal(minutes: number * Self.units[units.selected].minutes)
            problem.text = refusal ?? ""
            problem.isVisible = refusal != nil
            spin.markInvalid(describedBy: refusal == nil ? nil : problem)
            dialog.setResponseEnabled("done", refusal == nil)
        }
        spin.onChanged(check)
        spin.onTyped(check)
        units.onSelected(check)
        check()
        dialog.onResponse { [unowned self, unowned window] answer in
            self.dialog = nil
            switch answer {
            case "now":
                answered(0)
            case "done":
                // A number typed without Enter counts too; one too far back opens the sheet again, naming it.
                spin.update()
                let minutes = spin.value * Self.units[units.selected].minutes
                if Self.refusal(minutes: minutes) != nil {
                    present(over: window, number: spin.value, unit: units.selected, answered)
                } else {
                    answered(minutes)
                }
            default:
                break
            }
        }
        self.dialog = dialog
        dialog.present()
    }

    /// Why a time `minutes` ago cannot be kept, or `nil` when it can.
    static func refusal(minutes: Int) -> String? {
        guard minutes > DaemonLink.maxMinutesAgo else { return nil }
        return localized(
            "That's more than 366 days ago. A moment can be from the last 366 days: choose a smaller number.")
    }

    /// A time in minutes as the sheet shows it: the largest unit it is a whole number of (5 minutes
    /// for 0, the sheet's starting point).
    static func split(_ minutes: Int) -> (number: Int, unit: Int) {
        guard minutes > 0 else { return (5, 0) }
        for (index, unit) in units.enumerated().reversed() where minutes % unit.minutes == 0 {
            return (minutes / unit.minutes, index)
        }
        return (minutes, 0)
    }

    /// "Happened just now", "Happened 5 minutes ago", "Happened 1 hour ago".
    static func phrase(minutesAgo: Int) -> String {
        guard minutesAgo > 0 else { return localized("Happened just now") }
        let (number, unit) = split(minutesAgo)
        switch unit {
        case 0: return localized(one: "Happened %d minute ago", other: "Happened %d minutes ago", count: number)
        case 1: return localized(one: "Happened %d hour ago", other: "Happened %d hours ago", count: number)
        default: return localized(one: "Happened %d day ago", other: "Happened %d days ago", count: number)
        }
    }
}
