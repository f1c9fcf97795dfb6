import Foundation
import HoorayGtk

/// `hooray-app --quick`: a small window, centred, to log a moment from anywhere (a key bound to
/// it, README "Log from anywhere with a key"): what the user did, an optional mood; Enter saves through
/// hoorayd as Log a moment does (the same request, limits and messages), Esc closes without saving.
///
/// An application of its own (``id``), so it opens beside a main window already open, and a second
/// `--quick` raises the first quick window rather than opening another. It does the least before its
/// first frame: no main window, no following of hoorayd's changes, no request until Enter.
@MainActor
final class QuickLog {
    /// Its application id: the main window's, `.Quick` added (also its Wayland `app_id`).
    static let id = HoorayApp.id + ".Quick"
    /// Its title, which window managers' rules can match (README): in English whatever the language,
    /// so that a rule keeps matching.
    static let title = "Log a moment"
    /// What it says when no hoorayd listens; what the user typed stays in the field.
    static var notRunningLine: String {
        localized(
            "Hooray isn't running, so this moment isn't saved yet. Start it (systemctl --user start hooray), then press Enter again."
        )
    }
    /// How long the praise shows before the window closes by itself (Enter or Esc closes it sooner):
    /// time to read a sentence.
    static let praiseShown = Duration.seconds(4)

    private let application = Application(id: id)
    private var window: ApplicationWindow?
    private var parts: Parts?
    private let link = DaemonLink()
    private var isSaving = false
    private var isSaved = false
    /// The moment's request id: the same for every try, so a save tried again runs once.
    private var draftID = UUID().uuidString.lowercased()
    /// What the first try under ``draftID`` sent, once one was made.
    private var firstSent: (text: String, mood: String?)?

    /// The window's widgets, made once GTK has started.
    @MainActor
    private struct Parts {
        let entry = Entry(placeholder: localized("Took a short walk"))
        let mood = DropDown(choices: DaemonLink.moodChoices)
        let message = Label("")
    }

    init() {
        application.onActivate { [unowned self] in activate() }
        FirstFrameReport.attach(to: application)
    }

    /// Runs until the window closes.
    func run() -> Int32 {
        application.run()
    }

    /// Opens the window; raises it when `--quick` is launched again while it is open.
    private func activate() {
        if let window {
            window.present()
            return
        }
        let parts = Parts()
        self.parts = parts
        let window = ApplicationWindow(application: application, title: Self.title)
        window.setDefaultSize(width: 460, height: -1)
        let header = HeaderBar()
        header.addCSSClass("flat")
        let column = Box(.vertical, spacing: 12)
        column.setMargin(18)
        let title = Label(localized("What did you do?"))
        title.addCSSClass("title-4")
        parts.entry.setAccessibleLabel(localized("What did you do?"))
        parts.entry.maximumLength = DaemonLink.maxTextLength
        parts.entry.expand(horizontally: true)
        parts.entry.onActivate { [unowned self] in save() }
        parts.mood.setAccessibleLabel(localized("How did you feel?"))
        let row = Box(.horizontal, spacing: 6)
        row.append(parts.entry)
        row.append(parts.mood)
        parts.message.wrapCentered()
        parts.message.isVisible = false
        let keys = Label(localized("Enter saves · Esc closes"))
        keys.addCSSClass("dim-label")
        for widget in [title, row, parts.message, keys] as [Widget] { column.append(widget) }
        let content = Box(.vertical)
        content.append(header)
        content.append(column)
        window.content = content
        window.keepCentered()
        application.addAction("close", shortcuts: ["Escape"]) { [weak window] in window?.close() }
        self.window = window
        window.present()
        parts.entry.grabFocus()
    }

    private func save() {
        if isSaved {
            // Enter again, once the praise shows: done reading.
            window?.close()
            return
        }
        guard let parts, !isSaving else { return }
        let text = parts.entry.text
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            say(localized("Type what you did first, then press Enter."), problem: true)
            return
        }
        let mood = parts.mood.selected > 0 ? DaemonLink.moods[parts.mood.selected - 1] : nil
        // hoorayd answers a request id it has seen with what its first try did: that one is remembered.
        let sent = firstSent ?? (text, mood)
        firstSent = sent
        isSaving = true
        Task { @MainActor in
            defer { isSaving = false }
            do throws(DaemonLink.Problem) {
                let logged = try await link.log(text: text, mood: mood, requestID: draftID)
                saved("“\(logged.offlinePraise)”")
            } catch .alreadySaved where sent != (text, mood) {
                // An earlier try, whose answer did not come, saved it as it was then: the changes stay.
                draftID = UUID().uuidString.lowercased()
                firstSent = nil
                say(
                    localized(
                        "An earlier try saved your moment as it was then; your changes are still here. Press Enter to log them as another moment, or Esc."
                    ), problem: true)
            } catch .alreadySaved {
                saved(localized("Your moment was saved already, once; `hooray moments` lists it."))
            } catch .notRunning {
                say(Self.notRunningLine, problem: true)
            } catch .refused(_, let message) {
                // Nothing was saved; hoorayd keeps the request's answer, so the next try is a new request.
                draftID = UUID().uuidString.lowercased()
                firstSent = nil
                say(localized("Couldn't save your moment: %@", message), problem: true)
            } catch .failed(let message) {
                say(localized("Couldn't save your moment: %@", message), problem: true)
            }
        }
    }

    /// Shows the praise, then closes.
    private func saved(_ line: String) {
        isSaved = true
        say(line, problem: false)
        MainLoop.after(Self.praiseShown) { [weak self] in self?.window?.close() }
    }

    private func say(_ line: String, problem: Bool) {
        guard let message = parts?.message else { return }
        message.text = line
        if problem {
            message.addCSSClass("error")
        } else {
            message.removeCSSClass("error")
        }
        message.isVisible = true
    }
}
