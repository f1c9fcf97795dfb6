import Foundation
import HoorayGtk

/// Log a moment (seed 001 §4.3): what the user did, **Save this moment**, and, collapsed until
/// wanted, a mood, a note and photos; "Happened just now" with **Change time**. On the first run
/// the text starts as the CLI's first moment, which the user may change or clear. A value hoorayd
/// refuses is named under its field, and everything typed stays.
@MainActor
final class LogScreen {
    /// The words of the first moment, as `hooray win` saves them on the first run (Plugins/Wins).
    static var firstMomentText: String { localized("I installed this app. A tiny step, but it counts.") }

    let root = ScrolledWindow()
    /// Runs with the text, the mood (`nil`: none) and the details when **Save this moment** is
    /// clicked or Enter pressed in the text.
    var onSave: @MainActor (String, String?, DaemonLink.Details) -> Void = { _, _, _ in }
    /// Runs when the user goes back without saving.
    var onCancel: @MainActor () -> Void = {}

    private let window: Window
    private let entry = Entry(placeholder: localized("Took a short walk"))
    private let textProblem = LogScreen.problemLabel()
    private let mood = DropDown(choices: DaemonLink.moodChoices)
    private let when = Label("")
    private let timeProblem = LogScreen.problemLabel()
    private let timeSheet = LogTimeSheet()
    private let details: LogDetails
    private let save = Button(label: localized("_Save this moment"))
    private var minutesAgo = 0
    private var isSaving = false
    /// The request id of the moment being written: kept until it is saved or given up, so that a
    /// save tried again is run once.
    private(set) var draftID: String?

    init(window: Window) {
        self.window = window
        details = LogDetails(window: window)
        let title = Label(localized("Nice — that counts. What did you do?"))
        title.wrapCentered()
        title.addCSSClass("title-2")
        entry.setAccessibleLabel(localized("What did you do?"))
        entry.maximumLength = DaemonLink.maxTextLength
        entry.onActivate { [unowned self] in saveClicked() }
        mood.setAccessibleLabel(localized("How did you feel?"))
        when.addCSSClass("dim-label")
        let changeTime = Button(label: localized("C_hange time"))
        changeTime.addCSSClass("flat")
        changeTime.onClicked { [unowned self] in
            timeSheet.ask(over: self.window, minutesAgo: minutesAgo) { [unowned self] minutes in setTime(minutes) }
        }
        let timeRow = Box(.horizontal, spacing: 6)
        timeRow.center()
        timeRow.append(when)
        timeRow.append(changeTime)
        save.addCSSClass("suggested-action")
        save.addCSSClass("pill")
        save.onClicked { [unowned self] in saveClicked() }
        let cancel = Button(label: localized("_Cancel"))
        cancel.addCSSClass("flat")
        cancel.onClicked { [unowned self] in onCancel() }

        let column = Box(.vertical, spacing: 12)
        column.setMargin(24)
        for widget in [title, entry, textProblem, mood, timeRow, timeProblem, details.root, save, cancel] as [Widget] {
            column.append(widget)
        }
        let clamp = Clamp(maximumWidth: 520)
        clamp.child = column
        clamp.center()
        root.child = clamp
        root.expand(horizontally: true, vertically: true)
        setTime(0)
    }

    /// Opens the screen: the moment being written when there is one (a save that failed, hoorayd
    /// gone meanwhile: nothing typed is lost), otherwise a new one, empty or pre-filled on the first run.
    func start(firstRun: Bool) {
        if draftID == nil {
            entry.text = firstRun ? Self.firstMomentText : ""
            mood.selected = 0
            setTime(0)
            details.clear()
            for label in [textProblem, timeProblem] { label.isVisible = false }
            draftID = UUID().uuidString.lowercased()
        }
        entry.grabFocus()
    }

    /// The moment was saved, or the user gave it up: the next one starts afresh.
    func finishDraft() {
        draftID = nil
    }

    /// hoorayd refused the moment and saved nothing: the next save is a request of its own (hoorayd
    /// answers a request id it has seen with its first answer), with what the user typed still there.
    func refused() {
        if draftID != nil { draftID = UUID().uuidString.lowercased() }
    }

    /// Greys the button out while hoorayd saves, so a double click logs one moment; the text stays.
    func saving(_ busy: Bool) {
        isSaving = busy
        save.isSensitive = !busy
        save.label = busy ? localized("Saving…") : localized("_Save this moment")
    }

    /// Shows what hoorayd refused under the field it names (``DaemonLink/Problem/refused(field:message:)``).
    ///
    /// - Returns: Whether the field is one of this screen's; otherwise the caller says it.
    func showRefusal(field: String, message: String) -> Bool {
        switch field {
        case "<text>", "--text": Self.show(message, in: textProblem)
        case "--ago": Self.show(message, in: timeProblem)
        case "--note", "--photo": details.showRefusal(field: field, message: message)
        default: return false
        }
        return true
    }

    private func setTime(_ minutes: Int) {
        minutesAgo = minutes
        when.text = "⏱ " + LogTimeSheet.phrase(minutesAgo: minutes)
        timeProblem.isVisible = false
    }

    private func saveClicked() {
        guard !isSaving else { return }
        for label in [textProblem, timeProblem] { label.isVisible = false }
        guard let extra = details.checked() else { return }
        onSave(
            entry.text, mood.selected > 0 ? DaemonLink.moods[mood.selected - 1] : nil,
            DaemonLink.Details(note: extra.note, minutesAgo: minutesAgo, photos: extra.photos))
    }

    /// A line in the error colour under a field, hidden until it names a problem.
    static func problemLabel() -> Label {
        let label = Label("")
        label.wrapCentered()
        label.addCSSClass("error")
        label.isVisible = false
        return label
    }

    /// Shows `message` in a ``problemLabel()``; a photo's, which starts with the command line's
    /// `--photo`, starts with the photo's path.
    static func show(_ message: String, in label: Label) {
        let text = message.hasPrefix("--photo ") ? String(message.dropFirst("--photo ".count)) : message
        label.text = text.prefix(1).uppercased() + text.dropFirst()
        label.isVisible = true
    }
}
