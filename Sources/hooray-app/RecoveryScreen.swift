import Foundation
import HoorayGtk

/// Recovery (seed 002, ResilientMe): **Log a rejection** in 30 seconds and its plan; the rejections
/// still healing, each with its plan and **I'm okay now**; "Your Resilience" — the score ring, today's
/// challenge (done or skip), the check-in with its moods, this week's reality, the patterns, the
/// recovery-time trend drawn as a chart and the streaks; and the response templates. A client of
/// hoorayd as `hooray reject`, `hooray recovery` and `hooray challenge` are; read each time it shows
/// and at each change hoorayd pushes.
@MainActor
final class RecoveryScreen {
    let root = Stack()
    /// Runs when hoorayd could not do something: what went wrong, and what the user was doing.
    var onProblem: @MainActor (DaemonLink.Problem, String) -> Void = { _, _ in }
    /// Runs with what hoorayd or the view says for the user to know, such as "Glad you're okay.".
    var onNotice: @MainActor (String) -> Void = { _ in }

    /// What the dashboard shows, read in one go.
    struct Reading: Sendable, Equatable {
        var dashboard: DaemonLink.Dashboard
        var rejections: [DaemonLink.Rejection]
        var challenge: DaemonLink.Challenge
    }

    private let link: DaemonLink
    private let logPage: RejectionLogPage
    private let planPage = RecoveryPlanPage()
    private let templatesPage = TemplatesPage()
    private let dashboard = RecoveryDashboardPage()
    private let readings = LatestReading()
    private let templateReadings = LatestReading()
    private let planReadings = LatestReading()
    /// The day hoorayd's last reading was for: a check-in or a challenge asked again is the same
    /// request on the same day only.
    private var today = ""
    private let pending = PendingRequests()
    /// The page **Back** of the templates returns to.
    private var templatesReturnTo = "dashboard"
    /// The kind of the latest rejection: the templates open on it.
    private var latestKind = "dating"

    init(link: DaemonLink, window: Window) {
        self.link = link
        logPage = RejectionLogPage(window: window)
        root.add(dashboard.root, name: "dashboard")
        root.add(logPage.root, name: "log")
        root.add(planPage.root, name: "plan")
        root.add(templatesPage.root, name: "templates")
        root.expand(horizontally: true, vertically: true)

        dashboard.onLog = { [unowned self] in
            planReadings.dropStarted()
            logPage.clear()
            root.visiblePage = "log"
            logPage.focus()
        }
        dashboard.onPlan = { [unowned self] rejection in showPlan(for: rejection, encouragement: nil) }
        dashboard.onOkay = { [unowned self] rejection in markOkay(rejection) }
        dashboard.onCheckIn = { [unowned self] mood in checkIn(mood) }
        dashboard.onNote = { [unowned self] mood, note in checkIn(mood, note: note) }
        dashboard.onChallenge = { [unowned self] done in finishChallenge(done: done) }
        dashboard.onTemplates = { [unowned self] in openTemplates(kind: latestKind, highlighted: nil) }
        logPage.onCancel = { [unowned self] in showDashboard() }
        logPage.onLog = { [unowned self] rejection in log(rejection) }
        planPage.onBack = { [unowned self] in
            planReadings.dropStarted()
            root.visiblePage = "dashboard"
            refresh()
        }
        planPage.onOkay = { [unowned self] rejection in markOkay(rejection) }
        planPage.onTemplates = { [unowned self] kind, number in openTemplates(kind: kind, highlighted: number) }
        templatesPage.onBack = { [unowned self] in root.visiblePage = templatesReturnTo }
        templatesPage.onKind = { [unowned self] kind in readTemplates(kind: kind, highlighted: nil) }
        templatesPage.onNotice = { [unowned self] note in onNotice(note) }
    }

    /// Leaves Quick Log, a plan or the templates for the dashboard, dropping a plan being read.
    func showDashboard() {
        planReadings.dropStarted()
        root.visiblePage = "dashboard"
    }

    /// Shows the dashboard with today's note ready to write, once today's check-in exists (a
    /// notification's **Add a note** where the server takes no typed reply).
    func revealNote() {
        showDashboard()
        dashboard.focusNote()
    }

    /// Reads the dashboard from hoorayd again and shows it.
    func refresh() {
        readings.start(
            { [link] () throws(DaemonLink.Problem) in
                Reading(
                    dashboard: try await link.recoveryDashboard(), rejections: try await link.rejections(),
                    challenge: try await link.challenge())
            },
            show: { [weak self] reading in
                guard let self else { return }
                latestKind = reading.rejections.first?.type ?? latestKind
                today = reading.dashboard.today
                // Said okay elsewhere (a terminal, a notification's button): the plan shown follows.
                if let shown = planPage.rejection,
                    reading.rejections.contains(where: { $0.id == shown && $0.recoveredAt != nil })
                {
                    planPage.markedOkay()
                }
                dashboard.show(reading)
            },
            fail: { [weak self] problem in
                guard let self else { return }
                if case .refused(_, let message) = problem, message.contains("not enabled") {
                    root.visiblePage = "dashboard"
                    dashboard.showOff()
                    return
                }
                onProblem(problem, localized("show your resilience"))
            })
    }

    /// Logs the rejection, as `hooray reject` does, and shows its plan with its encouraging line.
    private func log(_ rejection: DaemonLink.NewRejection) {
        // The rejection being written, whatever was changed since a try whose outcome is unknown: at
        // worst a change is not saved, never the rejection twice.
        let key = "log \(logPage.draftID)"
        logPage.saving(true)
        Task { @MainActor in
            defer { logPage.saving(false) }
            do throws(DaemonLink.Problem) {
                let (saved, notes) = try await link.logRejection(rejection, requestID: pending.id(for: key))
                pending.settled(key)
                logPage.clear()
                for note in notes { onNotice(note) }
                showPlan(for: saved.id, encouragement: saved.encouragement)
            } catch .alreadySaved {
                pending.settled(key)
                logPage.clear()
                root.visiblePage = "dashboard"
                onNotice(localized("That rejection was logged already, once; it is under Still healing."))
                refresh()
            } catch .refused(let field, let message) {
                pending.settled(key)
                if !logPage.showRefusal(field: field, message: message) {
                    onProblem(.refused(field: field, message: message), localized("log your rejection"))
                }
            } catch {
                // What the user chose stays; the same rejection sent again is the same request.
                onProblem(error, localized("log your rejection"))
            }
        }
    }

    /// Shows a rejection's plan (a click on its notification).
    func reveal(plan rejection: String) {
        showPlan(for: rejection, encouragement: nil)
    }

    /// Shows a rejection's plan; `encouragement` when it was just logged. Only the newest plan asked
    /// for shows, and none once the user went back meanwhile.
    private func showPlan(for rejection: String, encouragement: String?) {
        planReadings.start(
            { [link] () throws(DaemonLink.Problem) in
                let plan = try await link.plan(for: rejection)
                let open = try await link.rejections().first { $0.id == rejection }.map { $0.recoveredAt == nil }
                return (plan, open ?? false)
            },
            show: { [weak self] (plan: DaemonLink.Plan, open: Bool) in
                guard let self else { return }
                planPage.show(plan, encouragement: encouragement, canMarkOkay: open)
                root.visiblePage = "plan"
                refresh()
            },
            fail: { [weak self] problem in
                guard let self else { return }
                root.visiblePage = "dashboard"
                onProblem(problem, localized("show the plan"))
                refresh()
            })
    }

    /// Says the user is okay now, as `hooray recovery okay ID` does; the dashboard follows.
    private func markOkay(_ rejection: String) {
        let key = "okay \(rejection)"
        planPage.saving(true)
        Task { @MainActor in
            do throws(DaemonLink.Problem) {
                let said = try await link.markOkay(rejection, requestID: pending.id(for: key))
                pending.settled(key)
                if planPage.rejection == rejection { planPage.markedOkay() }
                onNotice(said)
            } catch .alreadySaved {
                pending.settled(key)
                if planPage.rejection == rejection { planPage.markedOkay() }
            } catch {
                if case .refused = error { pending.settled(key) }
                onProblem(error, localized("say you're okay"))
            }
            planPage.saving(false)
            refresh()
        }
    }

    /// Today's check-in, as `hooray recovery checkin MOOD [--note TEXT]` does.
    private func checkIn(_ mood: String, note: String? = nil) {
        let key = "checkin \(today) \(mood) \(note ?? "")"
        dashboard.busy(true)
        Task { @MainActor in
            do throws(DaemonLink.Problem) {
                let said = try await link.checkIn(mood, note: note, requestID: pending.id(for: key))
                pending.settled(key)
                for line in said { onNotice(line) }
            } catch .alreadySaved {
                pending.settled(key)
            } catch {
                if case .refused = error { pending.settled(key) }
                onProblem(error, note == nil ? localized("check in") : localized("save the note"))
            }
            dashboard.busy(false)
            refresh()
        }
    }

    /// Marks today's challenge done or skipped, as `hooray challenge done` (`skip`) does.
    private func finishChallenge(done: Bool) {
        let key = (done ? "challenge done " : "challenge skip ") + today
        dashboard.busy(true)
        Task { @MainActor in
            do throws(DaemonLink.Problem) {
                let (challenge, notes) = try await link.finishChallenge(done: done, requestID: pending.id(for: key))
                pending.settled(key)
                if let celebration = challenge.celebration { onNotice(celebration) }
                for note in notes { onNotice(note) }
            } catch .alreadySaved {
                pending.settled(key)
            } catch {
                if case .refused = error { pending.settled(key) }
                onProblem(error, done ? localized("mark the challenge done") : localized("skip the challenge"))
            }
            dashboard.busy(false)
            refresh()
        }
    }

    private func openTemplates(kind: String, highlighted: Int?) {
        templatesReturnTo = root.visiblePage
        templatesPage.choose(kind: kind)
        readTemplates(kind: kind, highlighted: highlighted)
        root.visiblePage = "templates"
    }

    private func readTemplates(kind: String, highlighted: Int?) {
        templateReadings.start(
            { [link] () throws(DaemonLink.Problem) in try await link.templates(for: kind) },
            show: { [weak self] in self?.templatesPage.show($0, highlighted: highlighted) },
            fail: { [weak self] in self?.onProblem($0, localized("show the templates")) })
    }
}
