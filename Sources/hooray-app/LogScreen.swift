import Foundation
import HoorayGtk

/// Log a moment (seed 001 §4.3): what the user did, and **Save this moment**. On the first run the
/// text starts as the CLI's first moment, which the user may change or clear.
@MainActor
final class LogScreen {
    /// The words of the first moment, as `hooray win` saves them on the first run (Plugins/Wins).
    static let firstMomentText = "I installed this app. A tiny step, but it counts."

    let root = Box(.vertical, spacing: 12)
    /// Runs with the text and the mood (`nil`: none) when **Save this moment** is clicked or Enter pressed.
    var onSave: @MainActor (String, String?) -> Void = { _, _ in }
    /// Runs when the user goes back without saving.
    var onCancel: @MainActor () -> Void = {}

    private let entry = Entry(placeholder: "Took a short walk")
    private let mood = DropDown(
        choices: ["No mood"] + DaemonLink.moods.map { $0.prefix(1).uppercased() + $0.dropFirst() })
    private let save = Button(label: "_Save this moment")
    private var isSaving = false
    /// The request id of the moment being written: kept until it is saved or given up, so that a
    /// save tried again is run once.
    private(set) var draftID: String?

    init() {
        let title = Label("Nice — that counts. What did you do?")
        title.wrapCentered()
        title.addCSSClass("title-2")
        entry.setAccessibleLabel("What did you do?")
        entry.maximumLength = DaemonLink.maxTextLength
        entry.onActivate { [unowned self] in saveClicked() }
        mood.setAccessibleLabel("How did you feel?")
        let when = Label("⏱ Happened just now")
        when.addCSSClass("dim-label")
        save.addCSSClass("suggested-action")
        save.addCSSClass("pill")
        save.onClicked { [unowned self] in saveClicked() }
        let cancel = Button(label: "_Cancel")
        cancel.addCSSClass("flat")
        cancel.onClicked { [unowned self] in onCancel() }

        root.center()
        root.setMargin(24)
        for widget in [title, entry, mood, when, save, cancel] as [Widget] { root.append(widget) }
    }

    /// Opens the screen: the moment being written when there is one (a save that failed, hoorayd
    /// gone meanwhile: nothing typed is lost), otherwise a new one, empty or pre-filled on the first run.
    func start(firstRun: Bool) {
        if draftID == nil {
            entry.text = firstRun ? Self.firstMomentText : ""
            mood.selected = 0
            draftID = UUID().uuidString.lowercased()
        }
        entry.grabFocus()
    }

    /// The moment was saved, or the user gave it up: the next one starts afresh.
    func finishDraft() {
        draftID = nil
    }

    /// Greys the button out while hoorayd saves, so a double click logs one moment; the text stays.
    func saving(_ busy: Bool) {
        isSaving = busy
        save.isSensitive = !busy
        save.label = busy ? "Saving…" : "_Save this moment"
    }

    private func saveClicked() {
        guard !isSaving else { return }
        onSave(entry.text, mood.selected > 0 ? DaemonLink.moods[mood.selected - 1] : nil)
    }
}
