import HoorayGtk

/// The window, titled "Hooray": Home, Log a moment and Praise in a stack, the page for a hoorayd
/// that is not running, and toasts for what went wrong.
@MainActor
final class MainWindow {
    private let window: ApplicationWindow
    private let link: DaemonLink
    private let stack = Stack()
    private let toasts = ToastOverlay()
    private let home = HomeScreen()
    private let log = LogScreen()
    private let praise = PraiseScreen()
    private let notRunning = NotRunningScreen()
    private var isFirstRun = false
    private var isWatching = false

    init(application: Application, link: DaemonLink) {
        self.link = link
        window = ApplicationWindow(application: application, title: "Hooray")
        window.setDefaultSize(width: 480, height: 560)
        stack.add(home.root, name: "home")
        stack.add(log.root, name: "log")
        stack.add(praise.root, name: "praise")
        stack.add(notRunning.root, name: "not-running")
        stack.expand(horizontally: true, vertically: true)
        let column = Box(.vertical)
        column.append(HeaderBar())
        column.append(stack)
        toasts.child = column
        window.content = toasts

        home.onDidAThing = { [unowned self] in
            log.start(firstRun: isFirstRun)
            stack.visiblePage = "log"
        }
        log.onCancel = { [unowned self] in
            log.finishDraft()
            showHome()
        }
        log.onSave = { [unowned self] text, mood in save(text, mood: mood) }
        praise.onDone = { [unowned self] in showHome() }
        notRunning.onStart = { [unowned self] in startDaemon() }
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
        Task { @MainActor in
            let deadline = ContinuousClock.now + patience
            while true {
                do throws(DaemonLink.Problem) {
                    let state = try await link.home()
                    isFirstRun = state.isFirstRun
                    home.show(state)
                    showHome()
                    return
                } catch .notRunning where ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(250))
                } catch .failed(let message) {
                    // hoorayd is there but did not answer: Home stays greyed out until it does.
                    let retry = Toast("Couldn't reach Hooray: \(message)", timeout: 0)
                    retry.setButton("_Retry") { [unowned self] in connect() }
                    toasts.show(retry)
                    return
                } catch {
                    handle(error, doing: "reach Hooray")
                    return
                }
            }
        }
    }

    private func showHome() {
        stack.visiblePage = "home"
        home.focus()
    }

    private func save(_ text: String, mood: String?) {
        guard let requestID = log.draftID else { return }
        log.saving(true)
        Task { @MainActor in
            do throws(DaemonLink.Problem) {
                let logged = try await link.log(text: text, mood: mood, requestID: requestID)
                log.saving(false)
                log.finishDraft()
                isFirstRun = false
                home.show(DaemonLink.Home(isFirstRun: false))
                praise.show(logged, link: link)
                // The user may have gone back meanwhile: the praise waits for them on its page.
                if stack.visiblePage == "log" { stack.visiblePage = "praise" }
            } catch .alreadySaved {
                log.saving(false)
                log.finishDraft()
                isFirstRun = false
                home.show(DaemonLink.Home(isFirstRun: false))
                toast("Your moment was saved already, once; `hooray moments` lists it")
                if stack.visiblePage == "log" { showHome() }
            } catch {
                // What the user typed stays in the field, and a second try is run once.
                log.saving(false)
                handle(error, doing: "save your moment")
            }
        }
    }

    private func startDaemon() {
        notRunning.starting(true)
        Task { @MainActor in
            if let problem = await link.startDaemon() {
                notRunning.starting(false)
                toast("Couldn't start Hooray: \(problem) — `journalctl --user -u hooray` says more")
                return
            }
            notRunning.starting(false)
            connect(patience: .seconds(15))
        }
    }

    private func handle(_ problem: DaemonLink.Problem, doing what: String) {
        switch problem {
        case .notRunning:
            stack.visiblePage = "not-running"
            watchForDaemon()
        case .failed(let message):
            toast("Couldn't \(what): \(message)")
        case .alreadySaved:
            toast("That was done already")
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

    private func toast(_ message: String) {
        toasts.show(Toast(message, timeout: 8))
    }
}
