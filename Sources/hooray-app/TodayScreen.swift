import Foundation
import HoorayClient
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
    /// Runs with what hoorayd adds for the user to know, such as the daily reminders a first swap started.
    var onNotice: @MainActor (String) -> Void = { _ in }

    private let link: DaemonLink
    private let readings = LatestReading()
    private let inspiration = Label("")
    private let inspirationGroup = PreferencesGroup(title: localized("Today's inspiration"))
    private let lastNight = PreferencesGroup(title: localized("From last night:"))
    private var lastNightRows: [ActionRow] = []
    private let sprout = SproutView()
    private let streak = Label("")
    private let swapField = EntryRow(title: localized("What did you swap?"))
    private let logButton = Button(label: localized("_Log my swap"))
    private let celebration = Label("")
    private let swapProblem = Label("")
    private let prepFields = (1...3).map { EntryRow(title: localized("Swap %ld for tomorrow", $0)) }
    private let prepButton = Button(label: localized("_Save tonight's prep"))
    private let prepProblem = Label("")
    private let off = StatusPage(title: localized("Swaps are off"), iconName: "weather-clear-symbolic")
    private let content = Box(.vertical, spacing: 18)
    private let tonightGroup = PreferencesGroup(title: localized("Tonight's swap"))
    private let prepGroup = PreferencesGroup(title: localized("Night Prep"))
    private let sproutColumn = Box(.vertical, spacing: 12)
    /// The cards plugins in other languages declare (`[card]` of their plugin.toml), first.
    private let cards = Box(.vertical, spacing: 18)
    private var cardGroups: [PreferencesGroup] = []
    /// The cards' buttons, kept while their cards show: their actions grey them out while they run.
    private var cardButtons: [Button] = []
    private var shownCards: [String: PluginCard] = [:]
    private let cardReadings = LatestReading()
    /// The cards' commands running now, and the request ids of those whose outcome is unknown, by
    /// "PLUGIN COMMAND".
    private var runningCards: Set<String> = []
    private var pendingCards: [String: String] = [:]
    /// The prep last put in the fields, and its day: the fields follow hoorayd's prep while they
    /// hold it (a prep changed in a terminal, a new day), not while the user types another.
    private var filledPrep: (day: String, items: [String])?
    /// The words and request id of a swap or prep whose outcome is unknown: sent again, the same words
    /// are the same request, which hoorayd runs once.
    private var pendingSwap: (text: String, id: String)?
    private var pendingPrep: (items: [String], id: String)?
    /// The streak shown, to grow the sprout from.
    private var shownStreak: Int?

    /// The window dialogs open over.
    private let window: Window
    private var helpDialog: NeedHelpDialog?
    private let helpButton = Button(label: localized("I _need help"))

    init(link: DaemonLink, window: Window) {
        self.link = link
        self.window = window
        content.setMargin(18)
        content.append(cards)
        off.isVisible = false
        content.append(off)

        inspiration.wrapStart()
        inspiration.addCSSClass("title-4")
        inspirationGroup.add(inspiration)
        content.append(inspirationGroup)
        helpButton.addCSSClass("pill")
        helpButton.center()
        helpButton.onClicked { [unowned self] in needHelp() }
        content.append(helpButton)
        lastNight.details = localized("Your prep for today, made last night.")
        content.append(lastNight)

        let tonight = tonightGroup
        tonight.details = localized("One healthy swap a day grows your sprout a leaf.")
        let column = sproutColumn
        column.append(sprout.area)
        streak.addCSSClass("heading")
        streak.wrapCentered()
        column.append(streak)
        // Above the group: a group's rows come before whatever else it holds.
        content.append(column)
        swapField.onActivated { [unowned self] in logSwap() }
        tonight.add(swapField)
        logButton.addCSSClass("suggested-action")
        logButton.addCSSClass("pill")
        logButton.center()
        logButton.setMargin(6)
        logButton.onClicked { [unowned self] in logSwap() }
        tonight.add(logButton)
        celebration.wrapCentered()
        celebration.isVisible = false
        tonight.add(celebration)
        tonight.add(swapProblem)
        content.append(tonight)

        let prep = prepGroup
        prep.details = localized("Prep tonight: up to three swaps for tomorrow. Morning Focus shows them.")
        for field in prepFields { prep.add(field) }
        prepButton.addCSSClass("pill")
        prepButton.center()
        prepButton.setMargin(6)
        prepButton.onClicked { [unowned self] in savePrep() }
        prep.add(prepButton)
        prep.add(prepProblem)
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
        root.child = clamp
        root.expand(horizontally: true, vertically: true)
    }

    /// The swaps' parts of the page, hidden with the plugin off.
    private var swapsParts: [Widget] {
        [inspirationGroup, helpButton, lastNight, sproutColumn, tonightGroup, prepGroup]
    }

    /// Reads Today from hoorayd again and shows it: the plugins' cards, and the swaps.
    func refresh() {
        cardReadings.start(
            { [link] () throws(DaemonLink.Problem) in try await link.plugins() },
            show: { [weak self] in self?.showCards($0) },
            fail: { _ in })
        readings.start(
            { [link] () throws(DaemonLink.Problem) in try await link.swapsToday() },
            show: { [weak self] in self?.show($0) },
            fail: { [weak self] problem in
                guard let self else { return }
                // The swaps plugin turned off: said on the page, with where to turn it on.
                if case .refused(_, let message) = problem, message.contains("not enabled") {
                    off.details = localized("Turn the Swaps plugin on in Settings to log a swap a day.")
                    for part in swapsParts { part.isVisible = false }
                    off.isVisible = true
                    return
                }
                onProblem(problem, localized("show today's swaps"))
            })
    }

    private func show(_ today: DaemonLink.SwapsToday) {
        off.isVisible = false
        for part in [helpButton, sproutColumn, tonightGroup, prepGroup] as [Widget] { part.isVisible = true }
        inspiration.text = today.inspiration ?? ""
        inspirationGroup.isVisible = today.inspiration != nil
        for row in lastNightRows { lastNight.remove(row) }
        lastNightRows = today.fromLastNight.map { item in
            let row = ActionRow(title: item)
            lastNight.add(row)
            return row
        }
        lastNight.isVisible = !lastNightRows.isEmpty
        showStreak(today.currentStreak, longest: today.longestStreak, swappedToday: today.swapsToday > 0, grow: false)
        // Tonight's prep, while the fields hold what was put in them last (or nothing): a prep
        // changed in a terminal shows, and the next day starts empty; what the user types stays.
        let typed = prepFields.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        if typed.isEmpty || (filledPrep.map { typed == $0.items } ?? false) {
            for (index, field) in prepFields.enumerated() {
                field.text = index < today.tonight.count ? today.tonight[index] : ""
            }
            filledPrep = (today.prepDay, today.tonight)
        }
    }

    private func showStreak(_ days: Int, longest: Int?, swappedToday: Bool, grow: Bool) {
        var line =
            days == 0
            ? localized("No swap in a row yet: tonight can be the first.")
            : localized(one: "%d day in a row", other: "%d days in a row", count: days)
        if let longest, longest > days { line += " · " + localized("longest %ld", longest) }
        if swappedToday { line += " · " + localized("today's swap logged ✓") }
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
                // The user's celebration style: words and a growing sprout, or with `off` the words alone.
                celebration.text = logged.celebration ?? ""
                celebration.isVisible = logged.celebration != nil
                showStreak(logged.streak, longest: nil, swappedToday: true, grow: logged.style != "off")
                for note in logged.notes { onNotice(note) }
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
                let notes = try await link.prepSwaps(items, requestID: attempt.id)
                pendingPrep = nil
                // Saved: the fields follow hoorayd's prep again.
                filledPrep = (filledPrep?.day ?? "", items)
                hideProblem(on: prepFields[0])
                for note in notes { onNotice(note) }
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
    private func showProblem(_ message: String, on field: EntryRow) {
        let line = field === swapField ? swapProblem : prepProblem
        line.text = message
        line.isVisible = true
        field.markInvalid(describedBy: line)
        field.grabFocus()
    }

    private func hideProblem(on field: EntryRow) {
        let line = field === swapField ? swapProblem : prepProblem
        line.isVisible = false
        field.markInvalid(describedBy: nil)
    }

    /// Shows the cards of the plugins in other languages that run, each a group with its title,
    /// its line and its buttons; made again only when they change.
    private func showCards(_ plugins: [DaemonLink.ListedPlugin]) {
        let wanted = Dictionary(
            plugins.compactMap { plugin in plugin.card.map { (plugin.name, $0) } }.filter { name, _ in
                plugins.first { $0.name == name }?.state == "running"
            }, uniquingKeysWith: { first, _ in first })
        guard wanted != shownCards else { return }
        for group in cardGroups { cards.remove(group) }
        cardButtons = []
        cardGroups = wanted.keys.sorted().map { name in
            let card = wanted[name]!
            let group = PreferencesGroup(title: card.title)
            group.details = card.text
            // One under the other: a plugin's long labels side by side would widen the window.
            let buttons = Box(.vertical, spacing: 6)
            for button in card.buttons {
                // The plugin's words as they are: no mnemonic taken from an underscore.
                let press = Button(plainLabel: button.label)
                press.addCSSClass("pill")
                press.center()
                press.onClicked { [unowned self, weak press] in
                    guard let press else { return }
                    run(button, of: name, from: press)
                }
                buttons.append(press)
                cardButtons.append(press)
            }
            group.add(buttons)
            cards.append(group)
            return group
        }
        shownCards = wanted
    }

    /// Runs a card's command, as `hooray PLUGIN COMMAND` does; what the plugin answers is said. One
    /// that writes is sent under a request id, the same again while its outcome is unknown, so
    /// that hoorayd runs it once however often it is clicked.
    private func run(_ button: PluginCard.Button, of plugin: String, from press: Button) {
        let key = plugin + " " + button.command
        guard !runningCards.contains(key) else { return }
        runningCards.insert(key)
        press.isSensitive = false
        let id = button.writes ? (pendingCards[key] ?? Self.newRequestID()) : nil
        pendingCards[key] = id
        Task { @MainActor in
            do throws(DaemonLink.Problem) {
                let said = try await link.runCardCommand(button.command, plugin: plugin, requestID: id)
                pendingCards[key] = nil
                for line in said { onNotice(line) }
            } catch .alreadySaved {
                // Done by an earlier try.
                pendingCards[key] = nil
            } catch {
                if case .refused = error { pendingCards[key] = nil }
                let what = "\(plugin) \(button.command)"
                onProblem(error, localized("run %@", what))
            }
            runningCards.remove(key)
            press.isSensitive = true
        }
    }

    /// "I need help": the top swaps and the breathing guide, over the window.
    private func needHelp() {
        helpButton.isSensitive = false
        Task { @MainActor in
            do throws(DaemonLink.Problem) {
                let help = try await link.needHelp()
                let dialog = NeedHelpDialog(parent: window, words: help.words, guide: help.guide)
                dialog.onClosed = { [weak self] in self?.helpDialog = nil }
                helpDialog = dialog
                dialog.present()
            } catch {
                onProblem(error, localized("open I need help"))
            }
            helpButton.isSensitive = true
        }
    }

    private static func newRequestID() -> String {
        UUID().uuidString.lowercased()
    }
}
