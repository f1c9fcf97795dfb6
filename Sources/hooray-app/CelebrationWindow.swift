import Foundation
import HoorayGtk

/// The short window of a milestone (a habit's 7 days, a swap streak's 14), which hoorayd asks the
/// app for (`app.celebrate`, started through D-Bus activation when it is not running): the
/// celebration's title and words, with a gentle glow when calm, sparks and confetti when playful;
/// nothing moves when the desktop asks for reduced motion. It takes no focus from the window the
/// user is in, waits while a full-screen window is in front (at most ``longestWait``, and one
/// celebration at a time: a newer one takes the waiting one's place), and closes itself after a few
/// seconds.
@MainActor
final class CelebrationWindow {
    /// The app's action hoorayd calls for it (`app.celebrate`, with title, body and style).
    static let actionName = "celebrate"
    /// How long it stays.
    static let shownFor: Duration = .seconds(6)
    /// How often a celebration waiting for a full-screen window to go looks again.
    static let fullScreenCheck: Duration = .seconds(1)
    /// How long a celebration waits for a full-screen window to go before it is given up: the
    /// milestone was notified too, and an app started for it does not stay on unseen for hours.
    static let longestWait: Duration = .seconds(30 * 60)

    /// The glow (calm) and the sparks (playful); with animations off, the glow stays still.
    static let css = """
        .hooray-celebration { padding: 24px 32px; border-radius: 12px; }
        .hooray-glow-still { background-color: alpha(@accent_bg_color, 0.12); }
        @keyframes hooray-glow {
            from { background-color: alpha(@accent_bg_color, 0.04); }
            to { background-color: alpha(@accent_bg_color, 0.22); }
        }
        .hooray-glow { animation: hooray-glow 1.5s ease-in-out infinite alternate; }
        @keyframes hooray-spark { from { opacity: 0.25; } to { opacity: 1; } }
        .hooray-confetti { font-size: 2em; }
        .hooray-sparkling { animation: hooray-spark 0.6s ease-in-out infinite alternate; }
        """

    /// What the window shows: hoorayd's words for the milestone.
    struct Celebration: Equatable {
        /// Its title, such as "Read 10 pages · 7 days" (playful ones start with 🎉).
        var title: String
        /// The phrase, and on a line of its own the detail.
        var body: String
        /// `calm` or `playful`.
        var style: String

        /// The celebration `app.celebrate` was given (title, body, style); `nil` when it is not one.
        init?(_ texts: [String]) {
            guard texts.count == 3, !texts[0].isEmpty, ["calm", "playful"].contains(texts[2]) else { return nil }
            (title, body, style) = (texts[0], texts[1], texts[2])
        }
    }

    private static var styled = false
    private let window: Window
    /// When it started waiting for a full-screen window to go; `nil` when it is not waiting.
    private var waitingSince: ContinuousClock.Instant?
    /// Whether it waits, not shown yet, for a full-screen window to go.
    var isWaiting: Bool { waitingSince != nil }
    /// Runs once the window closed.
    var onClosed: @MainActor () -> Void = {}

    init(_ celebration: Celebration, application: Application) {
        if !Self.styled {
            Style.load(css: Self.css)
            Self.styled = true
        }
        window = Window(title: celebration.title)
        window.belong(to: application)
        window.setDefaultSize(width: 360, height: 180)
        window.isResizable = false
        let moves = Style.animationsEnabled
        let column = Box(.vertical, spacing: 12)
        column.addCSSClass("hooray-celebration")
        column.setMargin(12)
        if celebration.style == "calm" {
            column.addCSSClass(moves ? "hooray-glow" : "hooray-glow-still")
        } else {
            let confetti = Label("🎊 ✨ 🎉 ✨ 🎊")
            confetti.addCSSClass("hooray-confetti")
            if moves { confetti.addCSSClass("hooray-sparkling") }
            confetti.setAccessibleLabel(localized("Confetti"))
            column.append(confetti)
        }
        let title = Label(celebration.title)
        title.wrapCentered()
        title.addCSSClass("title-2")
        column.append(title)
        let body = Label(celebration.body)
        body.wrapCentered()
        column.append(body)
        window.child = column
        window.onCloseRequest { [weak self] in
            self?.closed()
            return false
        }
    }

    /// Shows the window without taking the focus, and closes it after ``shownFor``. Over a
    /// full-screen window it waits, looking again every ``fullScreenCheck``, as notifications wait
    /// for do-not-disturb; the app runs on meanwhile (the window, not shown yet, is the app's).
    func show() {
        guard !Window.aFullScreenWindowIsActive else {
            guard let since = waitingSince else {
                waitingSince = .now
                Self.say("a full-screen window is in front; the celebration waits until it is not")
                MainLoop.after(Self.fullScreenCheck) { [weak self] in self?.show() }
                return
            }
            if since.duration(to: .now) >= Self.longestWait {
                Self.say("a full-screen window stayed in front for 30 minutes; the celebration is given up")
                giveUp()
            } else {
                MainLoop.after(Self.fullScreenCheck) { [weak self] in self?.show() }
            }
            return
        }
        waitingSince = nil
        window.showWithoutFocus()
        MainLoop.after(Self.shownFor) { [weak self] in self?.window.close() }
    }

    /// Lets go of the window without showing it: the app holds on to it no more, so an app started
    /// for it quits.
    func giveUp() {
        waitingSince = nil
        window.destroy()
        closed()
    }

    private static func say(_ line: String) {
        FileHandle.standardError.write(Data("hooray-app: \(line)\n".utf8))
    }

    private func closed() {
        let done = onClosed
        onClosed = {}
        done()
    }
}
