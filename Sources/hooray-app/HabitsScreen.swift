import Foundation
import HoorayGtk

/// Habits (seed 004 §3.1): each habit with its streak ("15 days") and today's check, a round
/// button named for screen readers "Done today: NAME"; checking it asks hoorayd as `hooray habit
/// done NAME` does, so a milestone reached here is celebrated as from a terminal. Without habits,
/// the seed's empty state and its **Add your first habit** button; under the list, **Add a habit**,
/// which asks for its name and its "remember why". Read from hoorayd each time it
/// shows and at each change hoorayd pushes; rows are updated in place while the same habits are
/// listed, so a change pushed back takes no button from under the user.
///
/// Each row also pauses the habit without guilt (and resumes it), and starts it again (seed 003,
/// "Resetting") after asking "What happened?" under the user's own "remember why", as `hooray habit
/// pause`, `resume` and `reset --note` do.
@MainActor
final class HabitsScreen {
    /// The empty state's words.
    static var emptyTitle: String { localized("No habits yet") }
    static var emptyDetails: String {
        localized("Something small you want to do each day: check it here and watch its streak grow.")
    }

    let root = Stack()
    /// Runs when hoorayd could not do something: what went wrong, and what the user was doing.
    var onProblem: @MainActor (DaemonLink.Problem, String) -> Void = { _, _ in }
    /// Runs with what hoorayd says for the user to know, such as until when a habit is paused.
    var onNotice: @MainActor (String) -> Void = { _ in }

    private let link: DaemonLink
    private let window: Window
    private let clamp = Clamp()
    /// The rows listed now, by habit id, with their check and their buttons.
    private var rows: [Row] = []
    private var dialog: MessageDialog?
    /// "Pause “NAME”?", kept while it asks.
    private var pauseQuestion: MessageDialog?
    private let readings = LatestReading()
    /// The habits whose check, Pause or Resume was clicked and whose save hoorayd has not answered
    /// yet: their rows keep what the user asked for until it has.
    private var saving: Set<String> = []
    /// The request id of the last Add a habit whose outcome is unknown (hoorayd did not answer, or
    /// does not run), with the words it sent: the same words sent again are the same request, which
    /// hoorayd runs once.
    private var pendingAdd: PendingTry?
    /// The same for Start again and Edit, by habit id.
    private var pendingAgain: [String: PendingTry] = [:]
    private var pendingEdit: [String: PendingTry] = [:]
    /// One habit with its calendar, opened from its row.
    private let details: HabitDetails
    /// The habit a click on its notification asked for, opened once the list has it.
    private var revealing: String?

    init(link: DaemonLink, window: Window) {
        self.link = link
        self.window = window
        details = HabitDetails(link: link)
        let scrolled = ScrolledWindow()
        scrolled.child = clamp
        scrolled.expand(horizontally: true, vertically: true)
        let empty = StatusPage(
            title: Self.emptyTitle, description: Self.emptyDetails, iconName: "object-select-symbolic")
        let addFirst = Button(label: localized("_Add your first habit"))
        addFirst.addCSSClass("suggested-action")
        addFirst.addCSSClass("pill")
        addFirst.center()
        addFirst.onClicked { [unowned self] in askForHabit(draft: "") }
        empty.child = addFirst
        root.add(scrolled, name: "list")
        root.add(empty, name: "empty")
        root.add(details.root, name: "habit")
        root.expand(horizontally: true, vertically: true)
        details.onBack = { [unowned self] in
            root.visiblePage = rows.isEmpty ? "empty" : "list"
            refresh()
        }
        details.onProblem = { [unowned self] in onProblem($0, $1) }
        details.onPause = { [unowned self] habit, paused in setPaused(habit.id, paused) }
        details.onStartAgain = { [unowned self] habit in
            askToStartAgain(
                DaemonLink.ListedHabit(
                    id: habit.id, name: habit.name, streak: habit.streak, today: habit.today, badge: habit.badge,
                    why: habit.why), draft: "")
        }
        details.onEdit = { [unowned self] habit in
            askToEdit(habit, draft: HabitEditDialog.Draft(habit), problem: nil)
        }
    }

    /// Whether one habit is open, with its calendar, rather than the list.
    private var isShowingHabit: Bool { root.visiblePage == "habit" }

    /// Opens a habit with its calendar.
    private func open(_ id: String) {
        guard let habit = rows.first(where: { $0.habit.id == id })?.habit else { return }
        details.open(id: id, name: habit.name)
        root.visiblePage = "habit"
    }

    /// Opens the habit `id` with its calendar (a click on its notification), once the habits are read.
    func reveal(_ id: String) {
        revealing = id
        refresh()
    }

    /// Reads the habits from hoorayd again and shows them; and the habit open, with its calendar.
    func refresh() {
        readings.start(
            { [link] () throws(DaemonLink.Problem) in try await link.habits() },
            show: { [weak self] in self?.show($0) },
            fail: { [weak self] in
                self?.revealing = nil
                self?.onProblem($0, localized("list your habits"))
            })
    }

    /// "1 day", "15 days".
    static func days(_ count: Int) -> String {
        localized(one: "%d day", other: "%d days", count: count)
    }

    /// The line under a habit's name: its streak, today, and its badge.
    static func subtitle(of habit: DaemonLink.ListedHabit) -> String {
        var parts = [days(habit.streak)]
        switch habit.today {
        case "done": parts.append(localized("done today"))
        case "paused": parts.append(localized("paused"))
        case "notDue": parts.append(localized("not due today"))
        default: break
        }
        if let badge = habit.badge { parts.append(localized("%ld Day badge", badge)) }
        return parts.joined(separator: " · ")
    }

    private func show(_ habits: [DaemonLink.ListedHabit]) {
        defer {
            if let id = revealing {
                revealing = nil
                open(id)
            }
        }
        // The habit open is read again, by its id: renamed meanwhile (from a terminal, say), under
        // its new name; deleted, the list shows instead.
        if isShowingHabit {
            if let open = habits.first(where: { $0.id == details.id }) {
                details.rename(to: open.name)
                details.refresh()
            } else {
                root.visiblePage = "list"
            }
        }
        guard !habits.isEmpty else {
            rows = []
            clamp.child = nil
            if !isShowingHabit { root.visiblePage = "empty" }
            return
        }
        // The same habits: each row is brought up to date where it is.
        if rows.map({ $0.habit.id }) == habits.map(\.id) {
            // A paused row is greyed out too: only a save in flight keeps its row as it is.
            for (index, habit) in habits.enumerated() where !saving.contains(habit.id) {
                update(index, to: habit)
            }
            if !isShowingHabit { root.visiblePage = "list" }
            return
        }
        let group = PreferencesGroup(title: localized("Today"))
        rows = habits.map { habit in
            let row = ActionRow(title: habit.name, subtitle: Self.subtitle(of: habit))
            let pause = Button(iconName: "media-playback-pause-symbolic", name: localized("Pause %@", habit.name))
            let resume = Button(iconName: "media-playback-start-symbolic", name: localized("Resume %@", habit.name))
            let again = Button(iconName: "view-refresh-symbolic", name: localized("Start %@ again", habit.name))
            let check = ToggleButton(iconName: "object-select-symbolic", name: localized("Done today: %@", habit.name))
            let open = Button(iconName: "go-next-symbolic", name: localized("Show %@", habit.name))
            for button in [pause, resume, again] {
                button.addCSSClass("flat")
                button.center()
                row.addSuffix(button)
            }
            check.addCSSClass("circular")
            check.isActive = habit.today == "done"
            check.isSensitive = habit.today != "paused"
            row.addSuffix(check)
            open.addCSSClass("flat")
            row.addSuffix(open)
            group.add(row)
            let entry = Row(
                habit: habit, row: row, check: check, pause: pause, resume: resume, again: again, open: open)
            Self.showState(of: habit, on: entry)
            return entry
        }
        for (index, entry) in rows.enumerated() {
            let id = entry.habit.id
            entry.check.onToggled { [unowned self] in toggled(id, index: index) }
            entry.pause.onClicked { [unowned self] in setPaused(id, true) }
            entry.resume.onClicked { [unowned self] in setPaused(id, false) }
            entry.open.onClicked { [unowned self] in open(id) }
            entry.again.onClicked { [unowned self] in
                guard let habit = rows.first(where: { $0.habit.id == id })?.habit else { return }
                askToStartAgain(habit, draft: "")
            }
        }
        let column = Box(.vertical, spacing: 18)
        column.setMargin(18)
        column.append(group)
        let add = Button(label: localized("_Add a habit"))
        add.addCSSClass("pill")
        add.center()
        add.onClicked { [unowned self] in askForHabit(draft: "") }
        column.append(add)
        clamp.child = column
        if !isShowingHabit { root.visiblePage = "list" }
    }

    private func update(_ index: Int, to habit: DaemonLink.ListedHabit) {
        let check = rows[index].check
        rows[index].habit = habit
        rows[index].row.subtitle = Self.subtitle(of: habit)
        Self.showState(of: habit, on: rows[index])
        rows[index].pause.isSensitive = true
        rows[index].resume.isSensitive = true
        // Set while greyed out: not a click.
        check.isSensitive = false
        check.isActive = habit.today == "done"
        check.isSensitive = habit.today != "paused"
    }

    /// A check clicked: what it asks for, whatever a terminal did meanwhile.
    private func toggled(_ id: String, index: Int) {
        guard index < rows.count, rows[index].habit.id == id else { return }
        let (habit, row, check) = (rows[index].habit, rows[index].row, rows[index].check)
        // Set here, while greyed out, to what hoorayd answered: not a click.
        guard check.isSensitive, !saving.contains(id) else { return }
        check.isSensitive = false
        saving.insert(id)
        let done = check.isActive
        Task { @MainActor in
            do throws(DaemonLink.Problem) {
                let streak = try await link.setHabitDone(habit.name, to: done, requestID: Self.newRequestID())
                var now = habit
                // Marked done, it is done today. A mark taken back leaves the day due, or not due
                // on a day off: only hoorayd knows which, and the reading below brings it; until
                // then the line says nothing of today rather than guess.
                now.today = done ? "done" : ""
                if let streak { now.streak = streak }
                row.subtitle = Self.subtitle(of: now)
                if index < rows.count, rows[index].habit.id == id { rows[index].habit = now }
            } catch .alreadySaved {
                // Done by an earlier try.
            } catch {
                // Back as it was: the check says what hoorayd holds.
                check.isActive.toggle()
                onProblem(error, done ? localized("mark the habit done") : localized("take back the habit's mark"))
            }
            saving.remove(id)
            check.isSensitive = rows.first { $0.habit.id == id }.map { $0.habit.today != "paused" } ?? true
            // Read again for what only hoorayd knows, such as a milestone's badge or the day's status.
            refresh()
        }
    }

    /// Asks for a new habit's name and why the user starts it ("remember why", seed 003: shown
    /// when they are tempted to give up); what the user typed comes back when hoorayd refused it.
    private func askForHabit(draft: String, why: String = "") {
        let dialog = MessageDialog.askingForTexts(
            parent: window, heading: localized("Add a habit"),
            body: localized("Done every day; `hooray habit edit` changes its rhythm."),
            fields: [
                .init(name: localized("The habit's name"), placeholder: localized("Read 10 pages"), text: draft),
                .init(
                    name: localized("Remember why"), placeholder: localized("Why you start, for the days it is hard"),
                    text: why),
            ],
            confirm: localized("Add")
        ) { [unowned self] typed in
            self.dialog = nil
            guard let typed, typed.count == 2 else { return }
            let name = typed[0].trimmingCharacters(in: .whitespacesAndNewlines)
            let why = typed[1].trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else {
                onProblem(
                    .failed(localized("a habit needs a name; type one, such as “Read 10 pages”")),
                    localized("add the habit"))
                askForHabit(draft: typed[0], why: typed[1])
                return
            }
            send([name, why], pending: \.pendingAdd, doing: localized("add the habit")) {
                [link] id throws(DaemonLink.Problem) in
                try await link.addHabit(name, why: why, requestID: id)
            } askAgain: { [unowned self] _ in
                askForHabit(draft: typed[0], why: typed[1])
                return false
            }
        }
        self.dialog = dialog
        dialog.present()
    }

    /// A request sent with the words the user gave, whose outcome is not known yet.
    private struct PendingTry {
        var words: [String]
        var id: String
    }

    /// Sends what the user answered a question with, under the request id of the try kept at
    /// `pending` when it sent the same words (an earlier try that may have reached hoorayd), a new
    /// one otherwise; when it fails, asks again, and says what went wrong unless `askAgain` showed
    /// it itself (under the field it names) and answered `true`. Reads the habits again after.
    private func send(
        _ words: [String], pending: ReferenceWritableKeyPath<HabitsScreen, PendingTry?>, doing: String,
        _ request: @escaping @MainActor (String) async throws(DaemonLink.Problem) -> Void,
        askAgain: @escaping @MainActor (DaemonLink.Problem) -> Bool
    ) {
        let attempt =
            self[keyPath: pending].flatMap { $0.words == words ? $0 : nil }
            ?? PendingTry(words: words, id: Self.newRequestID())
        self[keyPath: pending] = attempt
        Task { @MainActor in
            do throws(DaemonLink.Problem) {
                try await request(attempt.id)
                self[keyPath: pending] = nil
            } catch .alreadySaved {
                // Done by an earlier try.
                self[keyPath: pending] = nil
            } catch {
                if !Self.mayStillRun(error) { self[keyPath: pending] = nil }
                if !askAgain(error) { onProblem(error, doing) }
            }
            refresh()
        }
    }

    /// Whether a try that failed so may still run (hoorayd did not answer, or is not running and
    /// keeps it for when it starts), so that sending the same words again must be the same request.
    private static func mayStillRun(_ problem: DaemonLink.Problem) -> Bool {
        switch problem {
        case .failed, .notRunning: true
        case .refused, .alreadySaved: false
        }
    }

    /// A habit's row: its check for today, and its buttons to pause or resume it and to start it again.
    private struct Row {
        var habit: DaemonLink.ListedHabit
        let row: ActionRow
        let check: ToggleButton
        let pause: Button
        let resume: Button
        let again: Button
        let open: Button
    }

    /// Shows the habit's state on its row's buttons: one of Pause and Resume, and a check that works
    /// unless it is paused.
    private static func showState(of habit: DaemonLink.ListedHabit, on row: Row) {
        let paused = habit.today == "paused"
        row.pause.isVisible = !paused
        row.resume.isVisible = paused
    }

    /// Asks how long to pause a habit — a week, or until it is resumed — then pauses it; resumes one
    /// that is paused.
    private func setPaused(_ id: String, _ paused: Bool) {
        guard paused else { return save(paused: false, id: id, days: nil) }
        guard let habit = rows.first(where: { $0.habit.id == id })?.habit, !saving.contains(id) else { return }
        let dialog = MessageDialog(
            parent: window, heading: localized("Pause “%@”?", habit.name),
            body: localized("Paused days neither count nor break your streak, and its reminders wait. For how long?"))
        dialog.addResponse("cancel", label: localized("_Cancel"))
        dialog.addResponse("week", label: localized("For a _week"))
        dialog.addResponse("resumed", label: localized("_Until I resume"), appearance: .suggested)
        dialog.defaultResponse = "resumed"
        dialog.closeResponse = "cancel"
        dialog.onResponse { [unowned self] response in
            pauseQuestion = nil
            guard response != "cancel" else { return }
            save(paused: true, id: id, days: response == "week" ? 7 : nil)
        }
        pauseQuestion = dialog
        dialog.present()
    }

    /// Pauses a habit (for `days` days, or until resumed), or resumes it; hoorayd's words are said.
    private func save(paused: Bool, id: String, days: Int?) {
        guard let index = rows.firstIndex(where: { $0.habit.id == id }), !saving.contains(id) else { return }
        let entry = rows[index]
        saving.insert(id)
        entry.pause.isSensitive = false
        entry.resume.isSensitive = false
        entry.check.isSensitive = false
        Task { @MainActor in
            do throws(DaemonLink.Problem) {
                if paused {
                    onNotice(try await link.pauseHabit(entry.habit.name, days: days, requestID: Self.newRequestID()))
                } else {
                    try await link.resumeHabit(entry.habit.name, requestID: Self.newRequestID())
                }
            } catch .alreadySaved {
                // Done by an earlier try.
            } catch {
                // As it was: the reading below says the same.
                entry.pause.isSensitive = true
                entry.resume.isSensitive = true
                entry.check.isSensitive = entry.habit.today != "paused"
                onProblem(error, paused ? localized("pause the habit") : localized("resume the habit"))
            }
            saving.remove(id)
            // The row's buttons, check and line change together, to what hoorayd holds now.
            refresh()
        }
    }

    /// Asks what happened, under the habit's "remember why", and starts its streak again today with
    /// that note; what the user typed comes back when hoorayd refused it.
    private func askToStartAgain(_ habit: DaemonLink.ListedHabit, draft: String) {
        var body = localized("Your streak starts again today. What happened? A few words for yourself, or none.")
        if let why = habit.why, !why.isEmpty {
            body = localized("You started because: “%@”", why) + "\n\n" + body
        }
        let dialog = MessageDialog.askingForText(
            parent: window, heading: localized("Start “%@” again?", habit.name), body: body,
            placeholder: localized("Came home late and tired"), fieldName: localized("What happened?"), text: draft,
            confirm: localized("Start again")
        ) { [unowned self] typed in
            self.dialog = nil
            guard let typed else { return }
            let note = typed.trimmingCharacters(in: .whitespacesAndNewlines)
            send([note], pending: \.pendingAgain[habit.id], doing: localized("start the habit again")) {
                [link] id throws(DaemonLink.Problem) in
                try await link.resetHabit(habit.name, note: note, requestID: id)
            } askAgain: { [unowned self] _ in
                askToStartAgain(habit, draft: typed)
                return false
            }
        }
        self.dialog = dialog
        dialog.present()
    }

    /// Asks for a habit's new "remember why", rhythm and reminder; a value to fix is named under its
    /// field, and what the user typed comes back with it.
    private func askToEdit(
        _ habit: DaemonLink.HabitMonth, draft: HabitEditDialog.Draft, problem: HabitEditDialog.Problem?
    ) {
        let (dialog, focus) = HabitEditDialog.make(parent: window, name: habit.name, draft: draft, problem: problem) {
            [unowned self] typed in
            self.dialog = nil
            guard let typed else { return }
            let change: DaemonLink.HabitChange
            switch typed.change {
            case .success(let made): change = made
            case .failure(let problem):
                askToEdit(habit, draft: typed, problem: problem)
                return
            }
            let words = change.values.sorted { $0.key < $1.key }.flatMap { [$0.key] + $0.value }
            send(words, pending: \.pendingEdit[habit.id], doing: localized("change the habit")) {
                [link] id throws(DaemonLink.Problem) in
                try await link.editHabit(habit.name, change, requestID: id)
            } askAgain: { [unowned self] problem in
                guard case .refused(let field?, let message) = problem,
                    HabitEditDialog.fields.contains(field)
                else {
                    askToEdit(habit, draft: typed, problem: nil)
                    return false
                }
                askToEdit(habit, draft: typed, problem: HabitEditDialog.Problem(field: field, message: message))
                return true
            }
        }
        self.dialog = dialog
        dialog.present()
        focus?.grabFocus()
    }

    private static func newRequestID() -> String {
        UUID().uuidString.lowercased()
    }
}
