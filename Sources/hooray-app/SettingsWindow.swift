import Foundation
import HoorayClient
import HoorayGtk

/// Settings (seeds' Settings screens): how celebrations look, quiet hours, and each plugin on or
/// off. Each change is asked of hoorayd, which writes it to the user's hooray.toml with the
/// lossless editor — one line changed, the comments kept — and applies it at once. What hoorayd
/// refuses (a time such as 25:00, a file broken by hand, a key the file has twice) is named under
/// its group, the control goes back to what the file holds, and the file is untouched. Read again
/// each time the window comes back to the front, so a file edited meanwhile shows as it is.
@MainActor
final class SettingsWindow {
    let window: PreferencesWindow
    private let link: DaemonLink
    /// Shown over everything while the files have errors: which line to fix.
    private let fileProblem = Label("")
    private let fileGroup = PreferencesGroup(title: localized("Your hooray.toml"))
    private let style = ComboRow(
        title: localized("Celebration style"),
        choices: [localized("Calm"), localized("Playful"), localized("Off")])
    private let celebrationWindow = Switch(name: localized("Celebration window"))
    private let celebrationsProblem = Label("")
    private let quietHours = EntryRow(title: localized("Quiet hours"))
    private let quietProblem = Label("")
    private let pluginsGroup = PreferencesGroup(title: localized("Plugins"))
    private let pluginsProblem = Label("")
    private var pluginRows: [String: (row: ActionRow, toggle: Switch)] = [:]
    /// While hoorayd's reading is shown: the controls change, and nothing is sent.
    private var showing = false
    /// The settings as hoorayd last read them, by key.
    private var read: [String: DaemonLink.Setting] = [:]
    private let readings = LatestReading()

    /// The values of ``style``'s choices, in order.
    private static let styles = ["calm", "playful", "off"]

    init(parent: Window, link: DaemonLink) {
        self.link = link
        window = PreferencesWindow(parent: parent, title: localized("Settings"))
        window.setDefaultSize(width: 560, height: 640)
        let page = PreferencesPage(title: localized("General"), iconName: "emblem-system-symbolic")

        for label in [fileProblem, celebrationsProblem, quietProblem, pluginsProblem] {
            label.addCSSClass("error")
            label.wrapStart()
            label.isVisible = false
        }
        fileGroup.add(fileProblem)
        fileGroup.isVisible = false
        page.add(fileGroup)

        let celebrations = PreferencesGroup(title: localized("Celebrations"))
        celebrations.details = localized("How Hooray celebrates what you did: a habit done, a streak reached.")
        celebrations.add(style)
        let windowRow = ActionRow(
            title: localized("Celebration window"),
            subtitle: localized("A short window beside the notification at a milestone"))
        windowRow.addSuffix(celebrationWindow)
        celebrations.add(windowRow)
        celebrations.add(celebrationsProblem)
        page.add(celebrations)

        let quiet = PreferencesGroup(title: localized("Quiet hours"))
        quiet.details = localized(
            "Notices that are not urgent wait, and come as one digest when they end: such as 22:00-07:30, or none.")
        let saveQuiet = Button(iconName: "object-select-symbolic", name: localized("Save quiet hours"))
        saveQuiet.addCSSClass("flat")
        quietHours.addSuffix(saveQuiet)
        quiet.add(quietHours)
        quiet.add(quietProblem)
        page.add(quiet)

        pluginsGroup.details = localized("Each part of Hooray, on or off.")
        pluginsGroup.add(pluginsProblem)
        page.add(pluginsGroup)
        window.add(page)

        style.onSelected { [unowned self] in
            guard !showing, style.selected < Self.styles.count else { return }
            change("celebrations.style", to: Self.styles[style.selected], problem: celebrationsProblem, on: style)
        }
        celebrationWindow.onToggled { [unowned self] in
            guard !showing else { return }
            change(
                "celebrations.window", to: celebrationWindow.isOn ? "true" : "false", problem: celebrationsProblem,
                on: celebrationWindow)
        }
        let applyQuiet = { @MainActor [unowned self] in
            let text = quietHours.text.trimmingCharacters(in: .whitespaces)
            change("delivery.quiet_hours", to: text.isEmpty ? "none" : text, problem: quietProblem, on: quietHours)
        }
        quietHours.onActivated(applyQuiet)
        saveQuiet.onClicked(applyQuiet)
        // Back from editing the file elsewhere: read again.
        window.onActiveChanged { [unowned self] in
            if window.isActive { refresh() }
        }
    }

    /// Shows the window and reads the settings.
    func present() {
        window.present()
        refresh()
    }

    /// Reads the plugins and the settings from hoorayd and shows them.
    func refresh() {
        readings.start(
            { [link] () throws(DaemonLink.Problem) in
                let plugins = try await link.plugins()
                let names = plugins.map(\.name).sorted()
                let keys =
                    ["celebrations.style", "celebrations.window", "delivery.quiet_hours"]
                    + names.map { "plugins.\($0).enabled" }
                do throws(DaemonLink.Problem) {
                    return (plugins, Result.success(try await link.settings(keys)))
                } catch {
                    return (plugins, Result.failure(error))
                }
            },
            show: {
                [weak self]
                (plugins: [DaemonLink.ListedPlugin], settings: Result<[DaemonLink.Setting], DaemonLink.Problem>) in
                guard let self else { return }
                showPlugins(plugins)
                switch settings {
                case .success(let settings): show(settings)
                case .failure(.refused(_, let message)): showFileProblem(message)
                case .failure(let problem): showFileProblem(Self.words(of: problem))
                }
            },
            fail: { [weak self] in self?.showFileProblem(Self.words(of: $0)) })
    }

    private func showPlugins(_ plugins: [DaemonLink.ListedPlugin]) {
        for plugin in plugins where pluginRows[plugin.name] == nil {
            let row = ActionRow(title: plugin.name.capitalized, subtitle: plugin.summary)
            let toggle = Switch(name: localized("%@ plugin", plugin.name.capitalized))
            row.addSuffix(toggle)
            pluginsGroup.add(row)
            pluginRows[plugin.name] = (row, toggle)
            let key = "plugins.\(plugin.name).enabled"
            toggle.onToggled { [unowned self, unowned toggle] in
                guard !showing else { return }
                change(key, to: toggle.isOn ? "true" : "false", problem: pluginsProblem, on: toggle)
            }
        }
    }

    /// Shows what hoorayd read; the files are fine.
    private func show(_ settings: [DaemonLink.Setting]) {
        fileGroup.isVisible = false
        fileProblem.isVisible = false
        for setting in settings { read[setting.key] = setting }
        showing = true
        defer { showing = false }
        if case .string(let value) = read["celebrations.style"]?.effective,
            let index = Self.styles.firstIndex(of: value)
        {
            style.selected = index
        }
        if case .bool(let on) = read["celebrations.window"]?.effective { celebrationWindow.isOn = on }
        if case .string(let value) = read["delivery.quiet_hours"]?.effective { quietHours.text = value }
        for (name, entry) in pluginRows {
            if case .bool(let on) = read["plugins.\(name).enabled"]?.effective { entry.toggle.isOn = on }
        }
    }

    /// The files have errors: which line to fix, over everything.
    private func showFileProblem(_ words: String) {
        fileProblem.text = words
        fileProblem.isVisible = true
        fileGroup.isVisible = true
    }

    /// Asks hoorayd to set `key`; what it refuses is named under the group, and the controls go
    /// back to what the file holds.
    private func change(_ key: String, to value: String, problem: Label, on control: Widget) {
        control.isSensitive = false
        Task { @MainActor in
            do throws(DaemonLink.Problem) {
                let now = try await link.setSetting(key, to: value)
                problem.isVisible = false
                control.markInvalid(describedBy: nil)
                if let now { show([now]) }
            } catch {
                problem.text = Self.words(of: error)
                problem.isVisible = true
                control.markInvalid(describedBy: problem)
                // Back to what the file holds.
                show(Array(read.values))
            }
            control.isSensitive = true
        }
    }

    private static func words(of problem: DaemonLink.Problem) -> String {
        switch problem {
        case .notRunning: localized("Hooray isn't running, so nothing was changed; start it and try again.")
        case .failed(let message), .refused(_, let message): message
        case .alreadySaved: ""
        }
    }
}
