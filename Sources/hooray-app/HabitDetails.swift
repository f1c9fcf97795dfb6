import Foundation
import HoorayCalendar
import HoorayGtk

/// One habit, opened from its row (seed 004 §3.2): its name, the user's "remember why", its streak
/// and rhythm, the month calendar with the months before and after, its milestone badges, and the
/// buttons to edit it, pause or resume it and start it again. Read from hoorayd each time it shows
/// and at each change hoorayd pushes.
@MainActor
final class HabitDetails {
    let root = ScrolledWindow()
    /// Runs when the user goes back to the list.
    var onBack: @MainActor () -> Void = {}
    /// Runs when hoorayd could not be read: what went wrong, and what the user was doing.
    var onProblem: @MainActor (DaemonLink.Problem, String) -> Void = { _, _ in }
    /// The buttons' actions, given the habit as shown.
    var onEdit: @MainActor (DaemonLink.HabitMonth) -> Void = { _ in }
    var onPause: @MainActor (DaemonLink.HabitMonth, Bool) -> Void = { _, _ in }
    var onStartAgain: @MainActor (DaemonLink.HabitMonth) -> Void = { _ in }

    private let link: DaemonLink
    private let readings = LatestReading()
    private let title = Label("")
    private let why = Label("")
    private let summary = Label("")
    private let monthTitle = Label("")
    private let calendar = HabitCalendarView()
    private let badges = Box(.horizontal, spacing: 6)
    private var badgeLabels: [Label] = []
    private let pause = Button(label: localized("_Pause"))
    private let resume = Button(label: localized("_Resume"))
    /// The habit's id, and its name as last opened or read.
    private(set) var id = ""
    private(set) var name = ""
    /// The month shown, `YYYY-MM`; `nil`: hoorayd's this month.
    private var month: String?
    private var shown: DaemonLink.HabitMonth?

    init(link: DaemonLink) {
        self.link = link
        let column = Box(.vertical, spacing: 12)
        column.setMargin(18)

        let back = Button(iconName: "go-previous-symbolic", name: localized("Back to your habits"))
        back.addCSSClass("flat")
        back.onClicked { [unowned self] in onBack() }
        title.addCSSClass("title-2")
        title.wrapStart()
        let top = Box(.horizontal, spacing: 6)
        top.append(back)
        top.append(title)
        column.append(top)

        why.wrapStart()
        why.addCSSClass("dim-label")
        summary.wrapStart()
        column.append(why)
        column.append(summary)

        let previous = Button(iconName: "go-previous-symbolic", name: localized("Previous month"))
        let next = Button(iconName: "go-next-symbolic", name: localized("Next month"))
        for button in [previous, next] { button.addCSSClass("flat") }
        previous.onClicked { [unowned self] in step(by: -1) }
        next.onClicked { [unowned self] in step(by: 1) }
        monthTitle.addCSSClass("heading")
        monthTitle.expand(horizontally: true)
        let navigation = Box(.horizontal, spacing: 6)
        navigation.append(previous)
        navigation.append(monthTitle)
        navigation.append(next)
        let card = Box(.vertical, spacing: 6)
        card.addCSSClass("card")
        card.setMargin(0)
        let inside = Box(.vertical, spacing: 6)
        inside.setMargin(12)
        inside.append(navigation)
        inside.append(calendar.area)
        card.append(inside)
        column.append(card)

        let milestones = Label(localized("Milestones"))
        milestones.addCSSClass("heading")
        milestones.alignStart()
        column.append(milestones)
        column.append(badges)

        let edit = Button(label: localized("_Edit…"))
        let again = Button(label: localized("_Start again…"))
        // One under the other: side by side, four would not fit a narrow window.
        let actions = Box(.vertical, spacing: 12)
        for button in [edit, pause, resume, again] {
            button.addCSSClass("pill")
            actions.append(button)
        }
        actions.center()
        edit.onClicked { [unowned self] in if let shown { onEdit(shown) } }
        pause.onClicked { [unowned self] in if let shown { onPause(shown, true) } }
        resume.onClicked { [unowned self] in if let shown { onPause(shown, false) } }
        again.onClicked { [unowned self] in if let shown { onStartAgain(shown) } }
        column.append(actions)

        let clamp = Clamp()
        clamp.child = column
        root.child = clamp
        root.expand(horizontally: true, vertically: true)
    }

    /// Opens a habit, at hoorayd's this month; another habit than the one shown before shows its
    /// name alone until hoorayd's reading comes.
    func open(id: String, name: String) {
        if id != self.id {
            shown = nil
            title.text = name
            for label in [why, summary, monthTitle] { label.text = "" }
            why.isVisible = false
            calendar.clear()
            showBadges(of: nil)
        }
        self.id = id
        self.name = name
        month = nil
        refresh()
    }

    /// Follows the habit open to its new name, renamed elsewhere (from a terminal, say).
    func rename(to name: String) {
        self.name = name
    }

    /// Reads the habit and its month from hoorayd again and shows them. A habit hoorayd no longer
    /// has is the list's to tell (it shows the list instead); other problems are said.
    func refresh() {
        let (name, month) = (name, month)
        readings.start(
            { [link] () throws(DaemonLink.Problem) in try await link.habitMonth(name, month: month) },
            show: { [weak self] in self?.show($0) },
            fail: { [weak self] problem in
                if case .refused = problem { return }
                self?.onProblem(problem, localized("show the habit"))
            })
    }

    /// Shows the month before (-1) or after (+1) the one asked for last, however quickly the
    /// clicks come.
    private func step(by months: Int) {
        guard let current = (month ?? shown?.month).flatMap({ LocalDate(parsing: $0 + "-01") }) else { return }
        var (year, number) = (current.year, current.month + months)
        if number < 1 { (year, number) = (year - 1, 12) }
        if number > 12 { (year, number) = (year + 1, 1) }
        month = String(format: "%04d-%02d", year, number)
        refresh()
    }

    private func show(_ habit: DaemonLink.HabitMonth) {
        guard habit.id == id else { return }
        shown = habit
        name = habit.name
        title.text = habit.name
        let words = habit.why ?? ""
        why.isVisible = !words.isEmpty
        why.text = localized("You started because: “%@”", words)
        summary.text = Self.summary(of: habit)
        monthTitle.text = HabitCalendarView.title(of: habit)
        calendar.show(habit)
        let paused = habit.today == "paused"
        pause.isVisible = !paused
        resume.isVisible = paused
        showBadges(of: habit)
    }

    /// "15 days · every day at 20:00 · since 2 November".
    static func summary(of habit: DaemonLink.HabitMonth) -> String {
        var parts = [HabitsScreen.days(habit.streak)]
        let rhythm =
            habit.every.map { localized(one: "every %d day", other: "every %d days", count: $0) } ?? rhythmWords(habit)
        parts.append(habit.remindAt.map { localized("%@ at %@", rhythm, $0) } ?? rhythm)
        if let start = HabitCalendarView.date(habit.start) {
            let formatter = DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.setLocalizedDateFormatFromTemplate(
                habit.start.prefix(4) == habit.asOf.prefix(4) ? "dMMMM" : "dMMMMy")
            parts.append(localized("since %@", formatter.string(from: start)))
        }
        if habit.today == "paused" { parts.append(localized("paused")) }
        return parts.joined(separator: " · ")
    }

    /// "every day", or the weekdays in the user's language: "Mon, Wed, Fri".
    private static func rhythmWords(_ habit: DaemonLink.HabitMonth) -> String {
        guard let on = habit.on, on.count < 7 else { return localized("every day") }
        let names = DateNames.shortWeekdays
        let order = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        return on.compactMap { day in order.firstIndex(of: day).flatMap { $0 < names.count ? names[$0] : nil } }
            .joined(separator: ", ")
    }

    /// A badge for each milestone: earned ones stand out; screen readers hear which are earned and
    /// how many days the next one is away.
    private func showBadges(of habit: DaemonLink.HabitMonth?) {
        for label in badgeLabels { badges.remove(label) }
        guard let habit else {
            badgeLabels = []
            return
        }
        badgeLabels = habit.milestones.map { days in
            let earned = habit.streak >= days
            let label = Label(earned ? "🏅 " + HabitsScreen.days(days) : HabitsScreen.days(days))
            label.addCSSClass(earned ? "accent" : "dim-label")
            label.addCSSClass("heading")
            label.setAccessibleLabel(
                earned
                    ? localized("%ld Day badge: earned", days)
                    : localized("%ld Day badge: ", days)
                        + localized(one: "%d day to go", other: "%d days to go", count: days - habit.streak))
            badges.append(label)
            return label
        }
        badges.isVisible = !badgeLabels.isEmpty
    }
}
