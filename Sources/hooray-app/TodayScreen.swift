import Foundation
import HoorayGtk

/// Today (seed 002 §3, Weight Loss Coach's Today): the day's inspiration, "From last night:" with
/// this morning's swaps from last night's prep (Morning Focus), tonight's swap with the sprout that
/// grows a leaf for each day in a row and the streak, and Night Prep: up to three swaps for
/// tomorrow. A client of hoorayd as `hooray swap` is; read each time it shows and at each change
/// hoorayd pushes.
@MainActor
final class TodayScreen {
    let root = ScrolledWindow()
    /// Runs when hoorayd could not do something: what went wrong, and what the user was doing.
    var onProblem: @MainActor (DaemonLink.Problem, String) -> Void = { _, _ in }

    private let link: DaemonLink
    private let readings = LatestReading()
    private let inspiration = Label("")
    private let inspirationGroup = PreferencesGroup(title: localized("Today's inspiration"))
    private let lastNight = PreferencesGroup(title: localized("From last night:"))
    private var lastNightRows: [ActionRow] = []
    private let sprout = SproutView()
    private let streak = Label("")
    private let swapField = Entry(placeholder: localized("Sparkling water instead of soda"))
    private let logButton = Button(label: localized("_Log my swap"))
    private let swapProblem = Label("")
    private let prepFields = (1...3).map { _ in Entry(placeholder: "") }
    private let prepButton = Button(label: localized("_Save tonight's prep"))
    private let prepProblem = Label("")
    private let off = StatusPage(title: localized("Swaps are off"), iconName: "weather-clear-symbolic")
    private let content = Box(.vertical, spacing: 18)
    private let stack = Stack()
    /// Whether the prep's fields show tonight's prep as hoorayd holds it: at first and after a save,
    /// not while the user types another.
    private var fillPrep = true
    /// The words and request id of a swap or prep whose outcome is unknown: sent again, the same words
    /// are the same request, which hoorayd runs once.
    private var pendingSwap: (text: String, id: String)?
    private var pendingPrep: (items: [String], id: String)?
    /// The streak shown, to grow the sprout from.
    private var shownStreak: Int?

    init(link: DaemonLink) {
        self.link = link
        content.setMargin(18)

        inspiration.wrapStart()
        inspiration.addCSSClass("title-4")
        inspirationGroup.add(inspiration)
        content.append(inspirationGroup)
        lastNight.details = localized("Your prep for today, made last night.")
        content.append(lastNight)

        let tonight = PreferencesGroup(title: localized("Tonight's swap"))
        tonight.details = localized("One healthy swap a day grows your sprout a leaf.")
        let column = Box(.vertical, spacing: 12)
        column.append(sprout.area)
        streak.addCSSClass("heading")
        column.append(streak)
        swapField.setAccessibleLabel(localized("What did you swap?"))
        swapField.maximumLength = 200
        swapField.activatesDefault = false
        swapField.onActivate { [unowned self] in logSwap() }
        column.append(swapField)
        logButton.addCSSClass("suggested-action")
        logButton.addCSSClass("pill")
        logButton.center()
        logButton.onClicked { [unowned self] in logSwap() }
        column.append(logButton)
        column.append(swapProblem)
        tonight.add(column)
        content.append(tonight)

        let prep = PreferencesGroup(title: localized("Night Prep"))
        prep.details = localized("Prep tonight: up to three swaps for tomorrow. Morning Focus shows them.")
        let fields = Box(.vertical, spacing: 6)
        for (index, field) in prepFields.enumerated() {
            field.setAccessibleLabel(localized("Swap %ld for tomorrow", index + 1))
            field.maximumLength = 200
            fields.append(field)
        }
        fields.append(prepButton)
        fields.append(prepProblem)
        prepButton.addCSSClass("pill")
        prepButton.center()
        prepButton.onClicked { [unowned self] in savePrep() }
        prep.add(fields)
        content.append(prep)

        for label in [swapProblem, prepProblem] {
            label.addCSSClass("error")
            label.wrapStart()
            label.isVisible = false
        }
        // Nothing to say before hoorayd's reading.
        inspirationGroup.isVisible = false
        lastNight.isVisible = false
        let clamp = Clamp()
        clamp.child = content
        stack.add(clamp, name: "today")
        stack.add(off, name: "off")
        root.child = stack
        root.expand(horizontally: true, vertically: true)
    }

    /// Reads Today from hoorayd again and shows it.
    func refresh() {
        readings.start(
            { [link] () throws(DaemonLink.Problem) in try await link.swapsToday() },
            show: { [weak self] in self?.show($0) },
            fail: { [weak self] problem in
                guard let self else { return }
                // The swaps plugin turned off: said on the page, with where to turn it on.
                if case .refused(_, let message) = problem, message.contains("not enabled") {
                    off.details = localized("Turn the Swaps plugin on in Settings to log a swap a day.")
                    stack.visiblePage = "off"
                    return
                }
                onProblem(problem, localized("show today's swaps"))
            })
    }

    private func show(_ today: DaemonLink.SwapsToday) {
        stack.visiblePage = "today"
        inspiration.text = today.inspiration ?? ""
        inspirationGroup.isVisible = today.inspiration != nil
        for row in lastNightRows { lastNight.remove(row) }
        lastNightRows = today.fromLastNight.map { item in
            let row = ActionRow(title: item)
            lastNight.add(row)
            return row
        }
        lastNight.isVisible = !lastNightRows.isEmpty
        showStreak(today.streak, longest: today.longest, grow: false)
        // Tonight's prep, unless the user is typing another.
        if fillPrep || prepFields.allSatisfy({ $0.text.isEmpty }) {
            for (index, field) in prepFields.enumerated() {
                field.text = index < today.tonight.count ? today.tonight[index] : ""
            }
            fillPrep = false
        }
    }

    private func showStreak(_ days: Int, longest: Int?, grow: Bool) {
        var line =
            days == 0
            ? localized("No swap in a row yet: tonight can be the first.")
            : localized(one: "%d day in a row", other: "%d days in a row", count: days)
        if let longest, longest > days { line += " · " + localized("longest %ld", longest) }
        streak.text = line
        sprout.show(streak: days, grow: grow && shownStreak != nil && days > (shownStreak ?? 0))
        shownStreak = days
    }

    /// Logs the swap typed, as `hooray swap TEXT` does; the sprout grows.
    private func logSwap() {
        let text = swapField.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            showProblem(localized("Type what you swapped, such as “Sparkling water instead of soda”."), on: swapField)
            return
        }
        guard logButton.isSensitive else { return }
        logButton.isSensitive = false
        let attempt = pendingSwap.flatMap { $0.text == text ? $0 : nil } ?? (text: text, id: Self.newRequestID())
        pendingSwap = attempt
        Task { @MainActor in
            do throws(DaemonLink.Problem) {
                let logged = try await link.logSwap(text, requestID: attempt.id)
                pendingSwap = nil
                swapField.text = ""
                hideProblem(on: swapField)
                showStreak(logged.streak, longest: nil, grow: true)
            } catch .alreadySaved {
                pendingSwap = nil
                swapField.text = ""
            } catch .refused(_, let message) {
                pendingSwap = nil
                showProblem(message, on: swapField)
            } catch {
                onProblem(error, localized("log your swap"))
            }
            logButton.isSensitive = true
            refresh()
        }
    }

    /// Keeps tonight's prep, as `hooray swap prep "…"…` does.
    private func savePrep() {
        let items = prepFields.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        guard !items.isEmpty else {
            showProblem(
                localized("Type a swap for tomorrow, such as “Oatmeal instead of a pastry”."), on: prepFields[0])
            return
        }
        guard prepButton.isSensitive else { return }
        prepButton.isSensitive = false
        let attempt = pendingPrep.flatMap { $0.items == items ? $0 : nil } ?? (items: items, id: Self.newRequestID())
        pendingPrep = attempt
        Task { @MainActor in
            do throws(DaemonLink.Problem) {
                try await link.prepSwaps(items, requestID: attempt.id)
                pendingPrep = nil
                fillPrep = true
                hideProblem(on: prepFields[0])
            } catch .alreadySaved {
                pendingPrep = nil
            } catch .refused(_, let message) {
                pendingPrep = nil
                showProblem(message, on: prepFields[0])
            } catch {
                onProblem(error, localized("save tonight's prep"))
            }
            prepButton.isSensitive = true
            refresh()
        }
    }

    /// Names what to fix under its group, the field marked invalid and focused.
    private func showProblem(_ message: String, on field: Entry) {
        let line = field === swapField ? swapProblem : prepProblem
        line.text = message
        line.isVisible = true
        field.markInvalid(describedBy: line)
        field.grabFocus()
    }

    private func hideProblem(on field: Entry) {
        let line = field === swapField ? swapProblem : prepProblem
        line.isVisible = false
        field.markInvalid(describedBy: nil)
    }

    private static func newRequestID() -> String {
        UUID().uuidString.lowercased()
    }
}
