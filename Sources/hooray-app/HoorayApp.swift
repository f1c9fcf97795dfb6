import Foundation
import HoorayGtk

/// The app: one window, titled "Hooray" (Home, Moments, Journey and Habits, with Log a moment and Praise), the page
/// for a hoorayd that is not running, and toasts for what went wrong. A second launch raises it.
@MainActor
final class HoorayApp {
    /// The application id: also the desktop entry's name and the D-Bus name.
    static let id = "org.hooray.Hooray"

    /// The breathing of Home's phrase, added only when the desktop has animations on.
    static let css = """
        @keyframes hooray-breathe { from { opacity: 0.6; } to { opacity: 1; } }
        .hooray-breathing { animation: hooray-breathe 3s ease-in-out infinite alternate; }
        .hooray-big { font-size: 1.4em; padding: 12px 36px; }
        .hooray-moment { padding: 12px 18px; }
        .hooray-day { padding: 12px 18px; }
        .hooray-summary { font-style: italic; margin-top: 6px; }
        """

    private let application = Application(id: id)
    private var window: MainWindow?
    /// The celebration windows on screen, held until they close.
    private var celebrations: [ObjectIdentifier: CelebrationWindow] = [:]

    init() {
        application.onActivate { [unowned self] in activate() }
        FirstFrameReport.attach(to: application)
        // hoorayd asks for a milestone's window (docs/configuration.md, "The celebration window"); started by the session bus
        // for it (D-Bus activation), the app opens that window alone and quits once it closed.
        if CommandLine.arguments.contains(Application.serviceArgument) { application.runAsService() }
        application.addAction(CelebrationWindow.actionName, takingTexts: 3) { [unowned self] in celebrate($0) }
        // hoorayd asks for a place when a notification is clicked (HoorayKit's AppPlace).
        application.addAction("show", takingTexts: 1) { [unowned self] in show($0.first ?? "home") }
        // The desktop entry's actions (a right click in a dock or menu), asked for over the bus.
        application.addAction("log-win", shortcuts: []) { [unowned self] in show("log") }
        application.addAction("open-journey", shortcuts: []) { [unowned self] in show("journey") }
        application.addAction("pause-notifications", shortcuts: []) { [unowned self] in pauseNotifications() }
    }

    /// The desktop entry's "Pause notifications": asks hoorayd to hold reminders back for an hour,
    /// without opening the window; an open window says until when. When hoorayd cannot be asked, the
    /// window opens and says why.
    private func pauseNotifications() {
        application.hold()
        Task { @MainActor in
            defer { application.release() }
            let link = window?.link ?? DaemonLink()
            let until = Date().addingTimeInterval(3600)
            do throws(DaemonLink.Problem) {
                let answer = try await link.exchange { _ in .pause(until: until) }
                guard answer.ok else { throw .refused(field: nil, message: answer.message ?? "") }
                if let window, let end = answer.pausedUntil {
                    window.toast(localized("Notifications paused until %@", MomentsScreen.clock(of: end)))
                }
            } catch {
                activate()
                window?.handle(error, doing: localized("pause notifications"))
            }
        }
    }

    /// Opens the window at a place, as a click on a notification asked.
    private func show(_ place: String) {
        activate()
        window?.open(place)
    }

    /// Shows a milestone's celebration window, as hoorayd asked.
    private func celebrate(_ texts: [String]) {
        guard let celebration = CelebrationWindow.Celebration(texts) else { return }
        // One waits at a time: a newer celebration takes the place of one still waiting behind a
        // full-screen window (each was notified too).
        for waiting in celebrations.values where waiting.isWaiting { waiting.giveUp() }
        let shown = CelebrationWindow(celebration, application: application)
        let key = ObjectIdentifier(shown)
        celebrations[key] = shown
        shown.onClosed = { [unowned self] in celebrations[key] = nil }
        shown.show()
    }

    /// Runs until the window closes.
    func run() -> Int32 {
        application.run()
    }

    /// Opens the window on the first launch; raises it when the app is launched again.
    private func activate() {
        if let window {
            window.present()
            return
        }
        // Widgets are made once GTK has started, which is now.
        Style.load(css: Self.css)
        let window = MainWindow(application: application, link: DaemonLink())
        self.window = window
        window.present()
    }
}
