import Foundation
import HoorayCalendar
import HoorayGtk
import HoorayKit

/// Moments (seed 001 §4.5): the moments newest first, in a card for each day (Today, Yesterday,
/// then dates), each row its words, mood, time and praise, with a star to mark a favourite and
/// buttons to edit its words and delete it (after asking). Without moments, the seed's empty
/// state. It is read from hoorayd each time it shows and after each change made here.
@MainActor
final class MomentsScreen {
    /// The empty state's words (seed 001 §4.5).
    static var emptyTitle: String { localized("No moments yet… but you're here, so that's one.") }
    /// The most moments listed; `hooray moments` lists them all.
    static let limit = 500

    let root = Box(.vertical)
    /// The list, the empty state, and the page for a search that found nothing.
    private let pages = Stack()
    private let searchEntry = SearchEntry(placeholder: localized("Search your moments"))
    private let searchBar: SearchBar
    private let noMatch = StatusPage(title: "", iconName: "edit-find-symbolic")
    /// Runs when the empty state's **Log your first moment** is clicked.
    var onLogMoment: @MainActor () -> Void = {}
    /// Runs when hoorayd could not do something: what went wrong, and what the user was doing,
    /// such as "delete the moment".
    var onProblem: @MainActor (DaemonLink.Problem, String) -> Void = { _, _ in }

    private let link: DaemonLink
    private let window: Window
    private let clamp = Clamp()
    /// The rows' stars, held while they are listed: a star's action reads and sets it.
    private var stars: [ToggleButton] = []
    /// The dialog waiting for an answer, held until it is answered.
    private var dialog: MessageDialog?
    private let readings = LatestReading()
    /// The moments listed now, and when: a reading that finds the same within a minute leaves the
    /// list as it is (a change the window made itself, pushed back by hoorayd, takes no button from
    /// under the user); after that it is drawn again, so "5 min ago" and "Today" stay true.
    private var listed: (moments: [DaemonLink.ListedMoment], at: Date)?
    /// The words searched for: what the search field held when the list was read; empty for all.
    private var query = ""
    /// The rows listed now, by moment id.
    private var rowsByID: [String: ActionRow] = [:]
    /// The moment a click on its notification asked for: its row takes the focus once listed.
    private var revealing: String?

    init(link: DaemonLink, window: Window) {
        self.link = link
        self.window = window
        searchBar = SearchBar(entry: searchEntry)
        let scrolled = ScrolledWindow()
        scrolled.child = clamp
        scrolled.expand(horizontally: true, vertically: true)
        let empty = StatusPage(title: Self.emptyTitle, iconName: "starred-symbolic")
        let logFirst = Button(label: localized("_Log your first moment"))
        logFirst.addCSSClass("suggested-action")
        logFirst.addCSSClass("pill")
        logFirst.center()
        logFirst.onClicked { [unowned self] in onLogMoment() }
        empty.child = logFirst
        pages.add(scrolled, name: "list")
        pages.add(empty, name: "empty")
        pages.add(noMatch, name: "no-match")
        pages.expand(horizontally: true, vertically: true)
        searchEntry.setAccessibleLabel(localized("Search your moments"))
        root.append(searchBar)
        root.append(pages)
        root.expand(horizontally: true, vertically: true)
        searchEntry.onSearchChanged { [unowned self] in refresh() }
        // Closed with Escape or its button: the whole list again.
        searchBar.onSearchingChanged { [unowned self] in
            if !searchBar.isSearching, !searchEntry.text.isEmpty { searchEntry.text = "" }
        }
    }

    /// Shows the moment `id` (a click on its notification): the whole list, with the focus on its row.
    func reveal(_ id: String) {
        revealing = id
        searchBar.isSearching = false
        searchEntry.text = ""
        refresh()
    }

    /// Opens the search bar (Ctrl+F) and gives it the focus.
    func search() {
        searchBar.isSearching = true
    }

    /// Reads the moments from hoorayd again and shows them: those whose words hold what the search
    /// field holds (case and accents aside), as `hooray moments --search` finds them.
    func refresh() {
        let searched = searchEntry.text.trimmingCharacters(in: .whitespacesAndNewlines)
        readings.start(
            { [link] () throws(DaemonLink.Problem) in try await link.moments(limit: Self.limit, search: searched) },
            show: { [weak self] in self?.show($0, searched: searched) },
            fail: { [weak self] in
                self?.revealing = nil
                self?.onProblem($0, localized("list your moments"))
            })
    }

    private func show(_ moments: [DaemonLink.ListedMoment], searched: String) {
        let now = Date()
        defer {
            query = searched
            if let id = revealing {
                revealing = nil
                rowsByID[id]?.grabFocus()
            }
        }
        if let listed, listed.moments == moments, searched == query, now.timeIntervalSince(listed.at) < 60,
            LocalDate(instant: listed.at, in: link.timeZone) == LocalDate(instant: now, in: link.timeZone)
        {
            return
        }
        listed = (moments, now)
        stars = []
        rowsByID = [:]
        guard !moments.isEmpty else {
            if searched.isEmpty {
                pages.visiblePage = "empty"
            } else {
                noMatch.title = localized("No moments match “%@”", Self.shortText(searched))
                noMatch.details = localized("Try other words, or press Escape to see every moment.")
                pages.visiblePage = "no-match"
            }
            clamp.child = nil
            return
        }
        let zone = link.timeZone
        let today = LocalDate(instant: now, in: zone)
        let column = Box(.vertical, spacing: 18)
        column.setMargin(18)
        var group: PreferencesGroup?
        var day: LocalDate?
        for moment in moments {
            if moment.day != day || group == nil {
                let header = Self.header(moment.day, today: today)
                let next = PreferencesGroup(title: header)
                column.append(next)
                group = next
                day = moment.day
            }
            let row = row(for: moment, now: now, timeZone: zone)
            rowsByID[moment.id] = row
            group?.add(row)
        }
        if moments.count >= Self.limit {
            let more = Label(
                localized("Your newest %ld moments are shown; `hooray moments` lists them all.", Self.limit))
            more.wrapCentered()
            more.addCSSClass("dim-label")
            column.append(more)
        }
        clamp.child = column
        pages.visiblePage = "list"
    }

    /// "Today", "Yesterday", or the date, as `hooray moments` heads its days.
    static func header(_ day: LocalDate, today: LocalDate) -> String {
        switch day.days(until: today) {
        case 0: localized("Today")
        case 1: localized("Yesterday")
        default: day.written(today: today)
        }
    }

    /// When a moment happened, under its day's heading: "just now", "5 min ago", "2 h ago", then
    /// the time of day.
    static func time(of instant: Date, now: Date, timeZone: TimeZone) -> String {
        let elapsed = now.timeIntervalSince(instant)
        if elapsed < 60 { return localized("just now") }
        if elapsed < 3600 { return localized("%ld min ago", Int(elapsed / 60)) }
        if elapsed < 12 * 3600 { return localized("%ld h ago", Int(elapsed / 3600)) }
        return clock(of: instant, timeZone: timeZone)
    }

    /// `16:40`: a time of day in the user's zone.
    static func clock(of instant: Date, timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// A moment's words as a button's name says them: one line, not too long.
    static func shortText(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > 60 ? line.prefix(59) + "…" : line
    }

    private func row(for moment: DaemonLink.ListedMoment, now: Date, timeZone: TimeZone) -> ActionRow {
        var details = [Self.time(of: moment.happenedAt, now: now, timeZone: timeZone)]
        if let mood = moment.mood { details.append(localized("feeling %@", DaemonLink.moodName(mood).lowercased())) }
        details.append("“\(moment.praise)”")
        let row = ActionRow(title: moment.text, subtitle: details.joined(separator: " · "))
        let name = "“\(Self.shortText(moment.text))”"

        let star = ToggleButton(
            iconName: moment.favorite ? "starred-symbolic" : "non-starred-symbolic",
            name: localized("Favourite %@", name))
        star.isActive = moment.favorite
        star.addCSSClass("flat")
        stars.append(star)
        star.onToggled { [unowned self, weak star] in
            // Set here, while greyed out, to what hoorayd answered: not a click.
            guard let star, star.isSensitive else { return }
            star.isSensitive = false
            Task { @MainActor in
                do throws(DaemonLink.Problem) {
                    // What the click asked for, whatever a terminal did meanwhile.
                    let favorite = try await link.setFavorite(
                        moment.id, to: star.isActive, requestID: Self.newRequestID())
                    star.isActive = favorite
                    star.setIcon(favorite ? "starred-symbolic" : "non-starred-symbolic")
                    // The list holds it now: the change hoorayd pushes for it rebuilds nothing.
                    if let place = listed?.moments.firstIndex(where: { $0.id == moment.id }) {
                        listed?.moments[place].favorite = favorite
                    }
                } catch {
                    // Back as it was: the star says what hoorayd holds.
                    star.isActive.toggle()
                    onProblem(error, localized("mark the moment"))
                }
                star.isSensitive = true
            }
        }
        let edit = Button(iconName: "document-edit-symbolic", name: localized("Edit %@", name))
        edit.addCSSClass("flat")
        edit.onClicked { [unowned self] in askToEdit(moment, draft: moment.text) }
        let delete = Button(iconName: "user-trash-symbolic", name: localized("Delete %@", name))
        delete.addCSSClass("flat")
        delete.onClicked { [unowned self] in askToDelete(moment) }
        for widget in [star, edit, delete] as [Widget] { row.addSuffix(widget) }
        return row
    }

    private func askToDelete(_ moment: DaemonLink.ListedMoment) {
        let dialog = MessageDialog(
            parent: window, heading: localized("Delete this moment?"),
            body: localized("“%@” goes for good, with its note and praise.", Self.shortText(moment.text)))
        dialog.addResponse("cancel", label: localized("Cancel"))
        dialog.addResponse("delete", label: localized("Delete"), appearance: .destructive)
        dialog.defaultResponse = "cancel"
        dialog.closeResponse = "cancel"
        dialog.onResponse { [unowned self] answer in
            self.dialog = nil
            guard answer == "delete" else { return }
            Task { @MainActor in
                do throws(DaemonLink.Problem) {
                    try await link.delete(moment.id, requestID: Self.newRequestID())
                } catch .alreadySaved {
                    // Deleted by an earlier try.
                } catch {
                    onProblem(error, localized("delete the moment"))
                }
                refresh()
            }
        }
        self.dialog = dialog
        dialog.present()
    }

    /// Asks for a moment's new words; what the user typed comes back in the field when hoorayd
    /// could not save it.
    private func askToEdit(_ moment: DaemonLink.ListedMoment, draft: String) {
        let dialog = MessageDialog.askingForText(
            parent: window, heading: localized("Edit this moment"),
            body: localized("When it happened, and its praise, stay."), placeholder: localized("Took a short walk"),
            fieldName: localized("The moment's words"), text: draft, maximumLength: DaemonLink.maxTextLength,
            confirm: localized("Save")
        ) { [unowned self] typed in
            self.dialog = nil
            guard let text = typed, text != moment.text else { return }
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                onProblem(
                    .failed(localized("a moment needs words; type what you did, or delete it")),
                    localized("save the moment"))
                askToEdit(moment, draft: text)
                return
            }
            Task { @MainActor in
                do throws(DaemonLink.Problem) {
                    try await link.edit(moment.id, text: text, requestID: Self.newRequestID())
                } catch .alreadySaved {
                    // Saved by an earlier try.
                } catch {
                    onProblem(error, localized("save the moment"))
                    askToEdit(moment, draft: text)
                }
                refresh()
            }
        }
        self.dialog = dialog
        dialog.present()
    }

    private static func newRequestID() -> String {
        UUID().uuidString.lowercased()
    }
}
