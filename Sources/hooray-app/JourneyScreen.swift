import Foundation
import HoorayCalendar
import HoorayGtk
import HoorayKit

/// Journey (seed 001 §4.6): "Your journey", "Tiny steps, day by day.", and a card for each recent
/// day with moments, newest first: its date and mood, how many moments, their words and a short
/// summary. Without moments, the seed's empty state. Read from hoorayd each time it shows, and at
/// each change hoorayd pushes while it does.
@MainActor
final class JourneyScreen {
    /// The empty state's words (seed 001 §4.6).
    static var emptyTitle: String { localized("Once you have a few days of moments, you'll see your journey here.") }
    /// How many days back the journey reaches, today included.
    static let days = 30

    let root = Stack()
    /// Runs when hoorayd could not tell the journey: what went wrong, and what the user was doing.
    var onProblem: @MainActor (DaemonLink.Problem, String) -> Void = { _, _ in }

    private let link: DaemonLink
    private let clamp = Clamp()
    private let readings = LatestReading()
    /// The days shown, and on which day: the same read again leaves the cards as they are.
    private var shown: (days: [DaemonLink.JourneyDay], on: LocalDate)?

    init(link: DaemonLink) {
        self.link = link
        let scrolled = ScrolledWindow()
        scrolled.child = clamp
        scrolled.expand(horizontally: true, vertically: true)
        let empty = StatusPage(
            title: localized("Your journey"), description: Self.emptyTitle, iconName: "document-open-recent-symbolic")
        root.add(scrolled, name: "list")
        root.add(empty, name: "empty")
        root.expand(horizontally: true, vertically: true)
    }

    /// Reads the journey from hoorayd again and shows it.
    func refresh() {
        readings.start(
            { [link] () throws(DaemonLink.Problem) in try await link.journey(days: Self.days) },
            show: { [weak self] in self?.show($0) },
            fail: { [weak self] in self?.onProblem($0, localized("show your journey")) })
    }

    private func show(_ days: [DaemonLink.JourneyDay]) {
        let today = LocalDate(instant: Date(), in: link.timeZone)
        if let shown, shown.days == days, shown.on == today { return }
        shown = (days, today)
        guard !days.isEmpty else {
            root.visiblePage = "empty"
            clamp.child = nil
            return
        }
        let column = Box(.vertical, spacing: 18)
        column.setMargin(18)
        let title = Label(localized("Your journey"))
        title.addCSSClass("title-1")
        let subtitle = Label(localized("Tiny steps, day by day."))
        subtitle.addCSSClass("dim-label")
        column.append(title)
        column.append(subtitle)
        for day in days { column.append(Self.card(day, today: today)) }
        clamp.child = column
        root.visiblePage = "list"
    }

    /// A day's card, as `hooray journey` prints it.
    static func card(_ day: DaemonLink.JourneyDay, today: LocalDate) -> Widget {
        let card = Box(.vertical, spacing: 6)
        card.addCSSClass("card")
        card.addCSSClass("hooray-day")
        let heading = Label("\(MomentsScreen.header(day.date, today: today)) \(day.moodEmoji) \(day.moodLabel)")
        heading.addCSSClass("heading")
        heading.alignStart()
        let count = Label(localized(one: "%d moment logged", other: "%d moments logged", count: day.moments.count))
        count.addCSSClass("dim-label")
        count.alignStart()
        card.append(heading)
        card.append(count)
        for moment in day.moments {
            let line = Label("• " + MomentsScreen.shortText(moment))
            line.wrapStart()
            card.append(line)
        }
        if let summary = day.summary {
            let said = Label(localized("Summary: “%@”", summary))
            said.wrapStart()
            said.addCSSClass("hooray-summary")
            card.append(said)
        }
        return card
    }
}
