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
    private let textProblem: FieldProblem
    private let mood = DropDown(choices: DaemonLink.moodChoices)
    private let when = Label("")
    private let changeTime = Button(label: localized("C_hange time"))
    private let timeProblem: FieldProblem
    private let timeSheet = LogTimeSheet()
    private let details: LogDetails
    private let save = Button(label: localized("_Save this moment"))
    private var minutesAgo = 0
    /// When the time the moment happened was counted from: when **Change time** was answered, or the
    /// first Save of a moment that happened just now. A save tried again later counts from it too, so
    /// that the moment keeps the time it was given.
    private var timeChosenAt: Date?
    /// What the first Save sent under ``draftID``, its time as chosen: a save tried again after it
    /// seemed to fail may find that one saved already, and what changed since then is not.
    private var lastSent: Sent?

    /// A moment as Save sends it, but for its time as it drifts.
    private struct Sent: Equatable {
        var text: String
        var mood: String?
        var note: String?
        var photos: [String]
        var minutesAgo: Int
    }
    private var isSaving = false
    /// The request id of the moment being written: kept until it is saved or given up, so that a
    /// save tried again is run once.
    private(set) var draftID: String?

    init(window: Window) {
        self.window = window
        details = LogDetails(window: window)
        textProblem = FieldProblem(for: entry)
        timeProblem = FieldProblem(for: changeTime)
        let title = Label(localized("Nice — that counts. What did you do?"))
        title.wrapCentered()
        title.addCSSClass("title-2")
        entry.setAccessibleLabel(localized("What did you do?"))
        entry.maximumLength = DaemonLink.maxTextLength
        entry.onActivate { [unowned self] in saveClicked() }
        mood.setAccessibleLabel(localized("How did you feel?"))
        when.addCSSClass("dim-label")
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
        for widget in [title, entry, textProblem.label, mood, timeRow, timeProblem.label, details.root, save, cancel]
            as [Widget]
        {
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
            lastSent = nil
            details.clear()
            for problem in [textProblem, timeProblem] { problem.hide() }
            draftID = UUID().uuidString.lowercased()
        }
        entry.grabFocus()
    }

    /// The moment was saved, or the user gave it up: the next one starts afresh.
    func finishDraft() {
        draftID = nil
        lastSent = nil
    }

    /// Whether the moment was changed since the first Save of its request id sent it: when hoorayd
    /// says that request ran already, it saved what that one sent.
    var changedSinceFirstSave: Bool {
        guard let lastSent else { return false }
        let extra = details.current
        return lastSent
            != Sent(
                text: entry.text, mood: selectedMood, note: extra.note, photos: extra.photos, minutesAgo: minutesAgo)
    }

    /// hoorayd refused the moment and saved nothing: the next save is a request of its own (hoorayd
    /// answers a request id it has seen with its first answer), with what the user typed still there.
    func refused() {
        if draftID != nil { draftID = UUID().uuidString.lowercased() }
        lastSent = nil
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
    func showRefusal(field: String?, message: String) -> Bool {
        guard let field else { return false }
        switch field {
        case "<text>", "--text": textProblem.show(message)
        case "--ago": timeProblem.show(message)
        case "--note", "--photo": details.showRefusal(field: field, message: message)
        default: return false
        }
        return true
    }

    private func setTime(_ minutes: Int) {
        minutesAgo = minutes
        timeChosenAt = minutes > 0 ? Date() : nil
        when.text = "⏱ " + LogTimeSheet.phrase(minutesAgo: minutes)
        timeProblem.hide()
    }

    private func saveClicked() {
        guard !isSaving else { return }
        for problem in [textProblem, timeProblem] { problem.hide() }
        guard let extra = details.checked() else { return }
        let chosenAt = timeChosenAt ?? Date()
        timeChosenAt = chosenAt
        let drift = max(0, Int(Date().timeIntervalSince(chosenAt) / 60))
        // hoorayd answers a request id it has seen with what its first try did: that one is remembered.
        if lastSent == nil {
            lastSent = Sent(
                text: entry.text, mood: selectedMood, note: extra.note, photos: extra.photos, minutesAgo: minutesAgo)
        }
        onSave(
            entry.text, selectedMood,
            DaemonLink.Details(note: extra.note, minutesAgo: minutesAgo + drift, photos: extra.photos))
    }

    private var selectedMood: String? {
        mood.selected > 0 ? DaemonLink.moods[mood.selected - 1] : nil
    }
}
