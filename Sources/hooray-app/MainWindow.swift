import Foundation
import HoorayGtk

/// The window, titled "Hooray": Home, Moments, Journey, Habits, Today and Recovery, switched in the header bar (at the bottom of a
/// narrow window); Log a moment and Praise over them; the page for a hoorayd that is not running;
/// and toasts for what went wrong. Ctrl+N starts a new moment from anywhere in the window, Ctrl+F
/// searches the moments.
@MainActor
final class MainWindow {
    private let window: ApplicationWindow
    let link: DaemonLink
    private let stack = Stack()
    /// Home, Moments, Journey and Habits: the stack's "home" page.
    private let views = ViewStack()
    private let switcher: ViewSwitcherTitle
    private let bottomSwitcher: ViewSwitcherBar
    private let toasts = ToastOverlay()
    private let home = HomeScreen()
    private let log: LogScreen
    private let praise = PraiseScreen()
    private let moments: MomentsScreen
    private let journey: JourneyScreen
    private let habits: HabitsScreen
    private let today: TodayScreen
    private let recovery: RecoveryScreen
    private let notRunning = NotRunningScreen()
    /// Opens Moments' search: in the header bar while the views show.
    private let search = Button(iconName: "system-search-symbolic", name: localized("Search your moments"))
    /// Opens Settings.
    private let settingsButton = Button(iconName: "emblem-system-symbolic", name: localized("Settings"))
    private var settings: SettingsWindow?
    private var isFirstRun = false
    private var isWatching = false
    /// Whether hoorayd answered Home: a new moment can be logged.
    private var isConnected = false
    /// Whether the window follows hoorayd's changes (from its first answer on).
    private var isFollowing = false
    /// Where a click on a notification asked the window to open, until hoorayd answers.
    private var pendingPlace: String?
    /// Whether hoorayd is being asked for Home: a place asked for meanwhile waits for its answer.
    private var isConnecting = false

    init(application: Application, link: DaemonLink) {
        self.link = link
        window = ApplicationWindow(application: application, title: "Hooray")
        window.setDefaultSize(width: 480, height: 560)
        log = LogScreen(window: window)
        moments = MomentsScreen(link: link, window: window)
        journey = JourneyScreen(link: link)
        habits = HabitsScreen(link: link, window: window)
        today = TodayScreen(link: link, window: window)
        recovery = RecoveryScreen(link: link, window: window)
        views.add(home.root, name: "home", title: localized("Home"), iconName: "go-home-symbolic")
        views.add(moments.root, name: "moments", title: localized("Moments"), iconName: "view-list-symbolic")
        views.add(journey.root, name: "journey", title: localized("Journey"), iconName: "document-open-recent-symbolic")
        views.add(habits.root, name: "habits", title: localized("Habits"), iconName: "object-select-symbolic")
        views.add(today.root, name: "today", title: localized("Today"), iconName: "weather-clear-symbolic")
        views.add(
            recovery.root, name: "recovery", title: localized("Recovery"), iconName: "emblem-favorite-symbolic")
        views.expand(horizontally: true, vertically: true)
        switcher = ViewSwitcherTitle(stack: views, title: "Hooray")
        bottomSwitcher = ViewSwitcherBar(stack: views)
        let main = Box(.vertical)
        main.append(views)
        main.append(bottomSwitcher)
        stack.add(main, name: "home")
        stack.add(log.root, name: "log")
        stack.add(praise.root, name: "praise")
        stack.add(notRunning.root, name: "not-running")
        stack.expand(horizontally: true, vertically: true)
        let header = HeaderBar()
        header.titleWidget = switcher
        search.onClicked { [unowned self] in searchMoments() }
        header.packStart(search)
        settingsButton.onClicked { [unowned self] in showSettings() }
        header.packEnd(settingsButton)
        let column = Box(.vertical)
        column.append(header)
        column.append(stack)
        toasts.child = column
        window.content = toasts

        // A window too narrow for the switcher in the header has it at the bottom.
        switcher.onTitleVisibleChanged { [unowned self] in revealBottomSwitcher() }
        views.onViewChanged { [unowned self] in
            refreshView()
        }
        home.onDidAThing = { [unowned self] in newMoment() }
        moments.onLogMoment = { [unowned self] in newMoment() }
        moments.onProblem = { [unowned self] problem, what in handle(problem, doing: what) }
        habits.onProblem = { [unowned self] problem, what in handle(problem, doing: what) }
        habits.onNotice = { [unowned self] note in toast(note) }
        today.onProblem = { [unowned self] problem, what in handle(problem, doing: what) }
        today.onNotice = { [unowned self] note in toast(note) }
        recovery.onProblem = { [unowned self] problem, what in handle(problem, doing: what) }
        recovery.onNotice = { [unowned self] note in toast(note) }
        journey.onProblem = { [unowned self] problem, what in handle(problem, doing: what) }
        log.onCancel = { [unowned self] in
            log.finishDraft()
            showHome()
        }
        log.onSave = { [unowned self] text, mood, details in save(text, mood: mood, details: details) }
        praise.onDone = { [unowned self] in showHome() }
        praise.onViewMoments = { [unowned self] in
            showPage("home")
            if views.visibleView == "moments" { moments.refresh() } else { views.visibleView = "moments" }
        }
        notRunning.onStart = { [unowned self] in startDaemon() }
        application.addAction("new-moment", shortcuts: ["<Control>n"]) { [unowned self] in newMoment() }
        application.addAction("search-moments", shortcuts: ["<Control>f"]) { [unowned self] in searchMoments() }
        application.addAction("settings", shortcuts: ["<Control>comma"]) { [unowned self] in showSettings() }
    }

    /// Opens Settings over the window, or brings it back to the front.
    private func showSettings() {
        let settings = settings ?? SettingsWindow(parent: window, link: link)
        settings.onDataChanged = { [unowned self] in
            // Imported or deleted: a page showing a record that may be gone goes back to its view.
            recovery.showDashboard()
            refreshView()
        }
        self.settings = settings
        settings.present()
    }

    /// Shows the window, raised, and asks hoorayd for Home the first time.
    func present() {
        let first = !window.isVisible
        window.present()
        if first { connect() }
    }

    /// Asks hoorayd for Home's state: Home when it answers, the not-running page when none is there.
    ///
    /// - Parameter patience: How long to keep asking while no hoorayd listens yet: one just started
    ///   (`systemctl --user start` returns once it runs, before it listens) takes a moment.
    private func connect(patience: Duration = .zero) {
        isConnecting = true
        Task { @MainActor in
            defer { isConnecting = false }
            let deadline = ContinuousClock.now + patience
            while true {
                do throws(DaemonLink.Problem) {
                    let state = try await link.home()
                    isFirstRun = state.isFirstRun
                    isConnected = true
                    home.show(state)
                    if let place = pendingPlace {
                        pendingPlace = nil
                        go(to: place)
                    } else {
                        showHome()
                    }
                    followChanges()
                    return
                } catch .notRunning where ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(250))
                } catch .failed(let message) {
                    // hoorayd is there but did not answer: Home stays greyed out until it does.
                    let retry = Toast(localized("Couldn't reach Hooray: %@", message), timeout: 0)
                    retry.setButton(localized("_Retry")) { [unowned self] in connect() }
                    toasts.show(retry)
                    return
                } catch {
                    handle(error, doing: localized("reach Hooray"))
                    return
                }
            }
        }
    }

    /// Opens the window at `place` (``HoorayKit/AppPlace``: `moment/ID`, `habit/ID`, `recovery/plan/ID`,
    /// `recovery`, `today`, `log`, `home`; and `journey`, for the desktop entry's action), as a click
    /// on a notification asks; once hoorayd has answered.
    func open(_ place: String) {
        present()
        guard isConnected, !isConnecting else {
            pendingPlace = place
            // hoorayd sent the click, so it runs: the page saying it does not is out of date.
            if !isConnecting { connect(patience: .seconds(5)) }
            return
        }
        go(to: place)
    }

    private func go(to place: String) {
        let parts = place.split(separator: "/", maxSplits: 2).map(String.init)
        showPage("home")
        switch (parts.first ?? "", parts.count) {
        case ("moment", 2):
            views.visibleView = "moments"
            moments.reveal(parts[1])
        case ("habit", 2):
            views.visibleView = "habits"
            habits.reveal(parts[1])
        case ("recovery", 3) where parts[1] == "plan":
            views.visibleView = "recovery"
            recovery.reveal(plan: parts[2])
        case ("recovery", 1):
            views.visibleView = "recovery"
            recovery.revealNote()
        case ("today", 1):
            views.visibleView = "today"
        case ("log", 1):
            showHome()
            newMoment()
        case ("journey", 1):
            views.visibleView = "journey"
        default:
            showHome()
        }
    }

    private func showHome() {
        showPage("home")
        views.visibleView = "home"
        home.focus()
    }

    /// Shows a page of the window; the view switcher works on the views alone.
    private func showPage(_ name: String) {
        stack.visiblePage = name
        switcher.isSwitcherEnabled = name == "home"
        search.isVisible = name == "home"
        revealBottomSwitcher()
    }

    private func revealBottomSwitcher() {
        bottomSwitcher.isRevealed = switcher.isTitleVisible && stack.visiblePage == "home"
    }

    /// Opens Log a moment (I Did a Thing, Ctrl+N), once hoorayd answered; a moment being written stays.
    private func newMoment() {
        guard isConnected, stack.visiblePage != "not-running" else { return }
        log.start(firstRun: isFirstRun)
        showPage("log")
    }

    /// Opens Moments with its search bar (Ctrl+F), from any view, once hoorayd answered.
    private func searchMoments() {
        guard isConnected, stack.visiblePage == "home" else { return }
        views.visibleView = "moments"
        moments.search()
    }

    private func save(_ text: String, mood: String?, details: DaemonLink.Details) {
        guard let requestID = log.draftID else { return }
        log.saving(true)
        Task { @MainActor in
            do throws(DaemonLink.Problem) {
                let logged = try await link.log(text: text, mood: mood, details: details, requestID: requestID)
                log.saving(false)
                log.finishDraft()
                isFirstRun = false
                home.show(DaemonLink.Home(isFirstRun: false))
                praise.show(logged, link: link)
                // The user may have gone back meanwhile: the praise waits for them on its page.
                if stack.visiblePage == "log" { showPage("praise") }
            } catch .alreadySaved where log.changedSinceFirstSave {
                // An earlier try, whose answer did not come, saved the moment as it was then: what the
                // user changed since stays here, to save as a moment of its own or to drop.
                log.saving(false)
                log.refused()
                isFirstRun = false
                home.show(DaemonLink.Home(isFirstRun: false))
                toast(
                    localized(
                        "An earlier try saved your moment as it was then; your changes are still here. Save again to log them as another moment, or cancel."
                    ))
            } catch .alreadySaved {
                log.saving(false)
                log.finishDraft()
                isFirstRun = false
                home.show(DaemonLink.Home(isFirstRun: false))
                toast(localized("Your moment was saved already, once; `hooray moments` lists it"))
                if stack.visiblePage == "log" { showHome() }
            } catch .refused(let field, let message) {
                // Named under its field when it is one of the screen's; what the user typed stays. Nothing
                // was saved, and hoorayd keeps the request's answer: the next try is a new request.
                log.saving(false)
                log.refused()
                if !log.showRefusal(field: field, message: message) {
                    handle(.refused(field: field, message: message), doing: localized("save your moment"))
                }
            } catch {
                // What the user typed stays in the field, and a second try is run once.
                log.saving(false)
                handle(error, doing: localized("save your moment"))
            }
        }
    }

    private func startDaemon() {
        notRunning.starting(true)
        Task { @MainActor in
            if let problem = await link.startDaemon() {
                notRunning.starting(false)
                toast(localized("Couldn't start Hooray: %@ — `journalctl --user -u hooray` says more", problem))
                return
            }
            notRunning.starting(false)
            connect(patience: .seconds(15))
        }
    }

    func handle(_ problem: DaemonLink.Problem, doing what: String) {
        switch problem {
        case .notRunning:
            isConnected = false
            showPage("not-running")
            watchForDaemon()
        case .failed(let message), .refused(_, let message):
            toast(localized("Couldn't %1$@: %2$@", what, message))
        case .alreadySaved:
            toast(localized("That was done already"))
        }
    }

    /// What changed elsewhere (a win typed in a terminal, praise arriving) shows at once: Moments,
    /// or the AI praise Praise waits for, is read again at each change hoorayd pushes.
    private func followChanges() {
        guard !isFollowing else { return }
        isFollowing = true
        readAgainAtMidnight()
        link.followChanges { [weak self] in
            guard let self else { return }
            if stack.visiblePage == "praise" { praise.changed() }
            if stack.visiblePage == "home" { refreshView() }
        }
    }

    /// At each local midnight the view shown is read again: nothing changed in hoorayd, but today is
    /// another day (a habit's check for today, a calendar's today).
    private func readAgainAtMidnight() {
        Task { @MainActor [weak self] in
            while true {
                let now = Date()
                let midnight =
                    Calendar.current.nextDate(
                        after: now, matching: DateComponents(hour: 0, minute: 0, second: 0),
                        matchingPolicy: .nextTime) ?? now.addingTimeInterval(3600)
                try? await Task.sleep(for: .seconds(max(1, midnight.timeIntervalSince(now) + 1)))
                guard let self else { return }
                if stack.visiblePage == "home" { refreshView() }
            }
        }
    }

    /// Reads the view shown again from hoorayd: Moments, Journey or Habits (Home has nothing to read).
    private func refreshView() {
        switch views.visibleView {
        case "moments": moments.refresh()
        case "journey": journey.refresh()
        case "habits": habits.refresh()
        case "today": today.refresh()
        case "recovery": recovery.refresh()
        default: break
        }
    }

    /// While the not-running page shows: a hoorayd started anywhere else brings Home back at once.
    private func watchForDaemon() {
        guard !isWatching else { return }
        isWatching = true
        Task { @MainActor in
            await link.waitUntilListening()
            isWatching = false
            if stack.visiblePage == "not-running" { connect(patience: .seconds(5)) }
        }
    }

    func toast(_ message: String) {
        toasts.show(Toast(message, timeout: 8))
    }
}
