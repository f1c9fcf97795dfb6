import Foundation
import HoorayGtk
import HoorayText

/// Quick Log (seed 002 §1): a rejection logged in 30 seconds — its kind in one click, how much it
/// hurt on a slider whose face follows it, a quick note and screenshots if the user likes, and
/// **Log Rejection**. A value hoorayd refuses is named under its field; what was typed stays.
@MainActor
final class RejectionLogPage {
    /// The kinds of rejection, as `hooray reject --type` takes them, with the seed's labels.
    static var kinds: [(type: String, label: String)] {
        [
            ("dating", localized("💔 Dating")), ("job", localized("💼 Job")), ("social", localized("👥 Social")),
            ("academic", localized("📚 Academic")), ("other", localized("😔 Other")),
        ]
    }

    /// The most screenshots a rejection keeps, as `hooray reject --screenshot` takes them.
    static let maxScreenshots = 20

    let root = ScrolledWindow()
    /// Runs with the rejection to log when **Log Rejection** is clicked.
    var onLog: @MainActor (DaemonLink.NewRejection) -> Void = { _ in }
    /// Runs when the user goes back without logging.
    var onCancel: @MainActor () -> Void = {}

    private let window: Window
    private let kindButtons: [ToggleButton]
    private let impactLine = Label("")
    private let impact = Scale(minimum: 1, maximum: 10, value: 5)
    private let note = Entry(placeholder: localized("Quick note (optional)"))
    private let noteProblem: FieldProblem
    private let addScreenshot = Button(label: localized("Add _Screenshot (Optional)"))
    private let screenshotRows = Box(.vertical, spacing: 6)
    private let screenshotProblem: FieldProblem
    private let logButton = Button(label: localized("_Log Rejection"))
    private var screenshots: [(path: String, row: Widget)] = []
    /// The rejection being written: made new for each one, so that a rejection sent again after an
    /// unknown outcome is the same request, and the next one, however alike, is another.
    private(set) var draftID = UUID().uuidString.lowercased()

    init(window: Window) {
        self.window = window
        noteProblem = FieldProblem(for: note)
        screenshotProblem = FieldProblem(for: addScreenshot)
        kindButtons = Self.kinds.map { kind in
            let button = ToggleButton(label: kind.label, name: kind.label)
            button.expand(horizontally: true)
            return button
        }
        for button in kindButtons.dropFirst() { button.join(kindButtons[0]) }
        let title = Label(localized("What happened?"))
        title.addCSSClass("title-2")
        title.wrapCentered()
        let kinds = Box(.vertical, spacing: 6)
        // Two a row, as the seed's grid: large targets.
        for start in stride(from: 0, to: kindButtons.count, by: 2) {
            let row = Box(.horizontal, spacing: 6)
            row.setHomogeneous(true)
            for button in kindButtons[start..<min(start + 2, kindButtons.count)] { row.append(button) }
            kinds.append(row)
        }
        impactLine.addCSSClass("heading")
        impactLine.alignStart()
        impact.setAccessibleLabel(localized("How much did this hurt?"))
        impact.onChanged { [unowned self] in showImpact() }
        note.setAccessibleLabel(localized("Quick note (optional)"))
        note.maximumLength = DaemonLink.maxTextLength
        note.onActivate { [unowned self] in logClicked() }
        addScreenshot.addCSSClass("flat")
        addScreenshot.onClicked { [unowned self] in chooseScreenshots() }
        logButton.addCSSClass("suggested-action")
        logButton.addCSSClass("pill")
        logButton.onClicked { [unowned self] in logClicked() }
        let cancel = Button(label: localized("_Cancel"))
        cancel.addCSSClass("flat")
        cancel.onClicked { [unowned self] in onCancel() }
        let privacy = Label(localized("Notes and screenshots stay on this computer."))
        privacy.addCSSClass("dim-label")
        privacy.wrapCentered()

        let column = Box(.vertical, spacing: 12)
        column.setMargin(24)
        for widget in [
            title, kinds, impactLine, impact, note, noteProblem.label, screenshotRows, addScreenshot,
            screenshotProblem.label, logButton, cancel, privacy,
        ] as [Widget] {
            column.append(widget)
        }
        let clamp = Clamp(maximumWidth: 520)
        clamp.child = column
        root.child = clamp
        root.expand(horizontally: true, vertically: true)
        clear()
    }

    /// Empties the form for a new rejection: Dating, 5/10, no note, no screenshot.
    func clear() {
        draftID = UUID().uuidString.lowercased()
        kindButtons[0].isActive = true
        impact.value = 5
        note.text = ""
        for screenshot in screenshots { screenshotRows.remove(screenshot.row) }
        screenshots = []
        for problem in [noteProblem, screenshotProblem] { problem.hide() }
        showImpact()
    }

    /// Greys out **Log Rejection** while hoorayd saves.
    func saving(_ isSaving: Bool) {
        logButton.isSensitive = !isSaving
    }

    /// Names what hoorayd refused under its field (the note or the screenshots); `false` when it is
    /// about none of them, for the caller to say.
    func showRefusal(field: String?, message: String) -> Bool {
        switch field {
        case "--note", "<words>": noteProblem.show(message)
        case "--screenshot": screenshotProblem.show(message)
        default: return false
        }
        return true
    }

    /// Gives the focus to the kinds, the first thing to choose.
    func focus() {
        kindButtons.first { $0.isActive }?.grabFocus()
    }

    /// "How much did this hurt? 5/10 😟": the seed's question with the slider's value and its face.
    private func showImpact() {
        let value = impact.value
        let face = ImpactFaces.face(forImpact: value)
        impactLine.text = localized("How much did this hurt? %1$ld/10 %2$@", value, face)
    }

    private func logClicked() {
        guard logButton.isSensitive else { return }
        for problem in [noteProblem, screenshotProblem] { problem.hide() }
        let type = zip(Self.kinds, kindButtons).first { $0.1.isActive }?.0.type ?? "other"
        let text = note.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count <= DaemonLink.maxTextLength else {
            noteProblem.show(
                localized(
                    "The note is %ld characters long; a note takes at most %ld. Shorten it.", text.count,
                    DaemonLink.maxTextLength))
            return
        }
        onLog(
            DaemonLink.NewRejection(type: type, impact: impact.value, note: text, screenshots: screenshots.map(\.path)))
    }

    private func chooseScreenshots() {
        let chooser = FileChooser(
            title: localized("Add a screenshot"), parent: window, accept: localized("_Add"),
            filters: [
                .init(name: localized("Images"), mimeTypes: ["image/*"]),
                .init(name: localized("All files"), patterns: ["*"]),
            ], allowsSeveral: true)
        chooser.choose { [weak self] paths in self?.add(paths) }
    }

    private func add(_ paths: [String]) {
        screenshotProblem.hide()
        let new = paths.reduce(into: [String]()) { kept, path in
            if !kept.contains(path), !screenshots.contains(where: { $0.path == path }) { kept.append(path) }
        }
        let room = Self.maxScreenshots - screenshots.count
        for path in new.prefix(room) {
            let name = (path as NSString).lastPathComponent
            let row = Box(.horizontal, spacing: 6)
            let label = Label(name)
            label.expand(horizontally: true)
            label.alignStart()
            let remove = Button(iconName: "list-remove-symbolic", name: localized("Remove screenshot %@", name))
            remove.addCSSClass("flat")
            row.append(label)
            row.append(remove)
            remove.onClicked { [unowned self, weak row] in
                guard let row else { return }
                screenshotRows.remove(row)
                screenshots.removeAll { $0.row === row }
            }
            screenshotRows.append(row)
            screenshots.append((path, row))
        }
        if new.count > room {
            screenshotProblem.show(localized("A rejection keeps at most %ld screenshots.", Self.maxScreenshots))
        }
    }
}
