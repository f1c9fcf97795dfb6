import Foundation
import HoorayGtk

/// Log a moment's details, hidden behind **Add a note or photos** until wanted (seed 001 §4.3,
/// "all hidden/collapsed by default"): a note, and photos chosen in the desktop's file chooser, each
/// with a button to take it off again. (A button rather than a `GtkExpander`, which GTK 4.8 gives
/// screen readers no action to open.)
@MainActor
final class LogDetails {
    /// The most photos a moment keeps, as `hooray win --photo` takes them.
    static let maxPhotos = 20

    let root = Box(.vertical, spacing: 8)
    private let open = Button(label: localized("_Add a note or photos"))
    private let column = Box(.vertical, spacing: 8)

    private let window: Window
    private let note = TextView()
    private let noteProblem: FieldProblem
    private let photoRows = Box(.vertical, spacing: 6)
    private let addPhotos = Button(label: localized("Add _photos…"))
    private let photoProblem: FieldProblem
    /// The photos chosen, in order, with their rows.
    private var photos: [(path: String, row: Widget)] = []

    init(window: Window) {
        self.window = window
        noteProblem = FieldProblem(for: note)
        photoProblem = FieldProblem(for: addPhotos)
        note.setAccessibleLabel(localized("Note"))
        note.addCSSClass("card")
        note.setMargin(0)
        let noteTitle = Label(localized("Note"))
        noteTitle.addCSSClass("heading")
        let noteBox = ScrolledWindow()
        noteBox.child = note
        noteBox.setMinimumHeight(72)
        let photosTitle = Label(localized("Photos"))
        photosTitle.addCSSClass("heading")
        addPhotos.onClicked { [unowned self] in choosePhotos() }
        for widget in [noteTitle, noteBox, noteProblem.label, photosTitle, photoRows, addPhotos, photoProblem.label]
            as [Widget]
        {
            column.append(widget)
        }
        open.addCSSClass("flat")
        open.onClicked { [unowned self] in
            isOpen = true
            note.grabFocus()
        }
        root.append(open)
        root.append(column)
        isOpen = false
    }

    /// Whether the details show; when they do not, the button to show them does.
    private var isOpen: Bool {
        get { column.isVisible }
        set {
            column.isVisible = newValue
            open.isVisible = !newValue
        }
    }

    /// Empties the note and the photos, and closes the details: a new moment starts plain.
    func clear() {
        note.text = ""
        for photo in photos { photoRows.remove(photo.row) }
        photos = []
        addPhotos.isSensitive = true
        for problem in [noteProblem, photoProblem] { problem.hide() }
        isOpen = false
    }

    /// The note (`nil` when there is none) and the photos, as they are now.
    var current: (note: String?, photos: [String]) {
        let text = note.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return (text.isEmpty ? nil : text, photos.map(\.path))
    }

    /// The note (`nil` when there is none) and the photos, or `nil` when the note is too long:
    /// then it says so under the note, and opens the details to show it.
    func checked() -> (note: String?, photos: [String])? {
        for problem in [noteProblem, photoProblem] { problem.hide() }
        let text = note.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count <= DaemonLink.maxTextLength else {
            showRefusal(
                field: "--note",
                message: localized(
                    "The note is %ld characters long; a note takes at most %ld. Shorten it.", text.count,
                    DaemonLink.maxTextLength)
            )
            return nil
        }
        return current
    }

    /// Shows what hoorayd refused of the note (`--note`) or the photos (`--photo`), with the details open.
    func showRefusal(field: String, message: String) {
        isOpen = true
        (field == "--note" ? noteProblem : photoProblem).show(message)
    }

    private func choosePhotos() {
        let chooser = FileChooser(
            title: localized("Add photos"), parent: window, accept: localized("_Add"),
            filters: [
                .init(name: localized("Photos"), mimeTypes: ["image/*"]),
                .init(name: localized("All files"), patterns: ["*"]),
            ], allowsSeveral: true)
        chooser.choose { [weak self] paths in self?.add(paths) }
    }

    private func add(_ paths: [String]) {
        photoProblem.hide()
        let room = Self.maxPhotos - photos.count
        let new = paths.reduce(into: [String]()) { kept, path in
            if !kept.contains(path), !photos.contains(where: { $0.path == path }) { kept.append(path) }
        }
        for path in new.prefix(room) {
            let name = (path as NSString).lastPathComponent
            let row = Box(.horizontal, spacing: 6)
            let label = Label(name)
            label.expand(horizontally: true)
            label.alignStart()
            let remove = Button(iconName: "list-remove-symbolic", name: localized("Remove photo %@", name))
            remove.addCSSClass("flat")
            row.append(label)
            row.append(remove)
            remove.onClicked { [unowned self, weak row] in
                // `photos` holds the row: it goes from the screen first, then from the list.
                guard let row else { return }
                photoRows.remove(row)
                photos.removeAll { $0.row === row }
                // What was said of the photos may have been of this one.
                photoProblem.hide()
                addPhotos.isSensitive = photos.count < Self.maxPhotos
            }
            photoRows.append(row)
            photos.append((path, row))
        }
        if new.count > room {
            photoProblem.show(
                localized(
                    "A moment keeps at most %ld photos; %ld of those chosen were not added.", Self.maxPhotos,
                    new.count - room))
        }
        addPhotos.isSensitive = photos.count < Self.maxPhotos
    }
}
