import Foundation
import HoorayClient
import HoorayGtk

/// Settings (seeds' Settings screens): how celebrations look, quiet hours, and each plugin on or
/// off; "Your data" (``SettingsDataPage``) and "About" (``SettingsAboutPage``) on pages of their own. Each change is asked of hoorayd, which writes it to the user's hooray.toml with the
/// lossless editor — one line changed, the comments kept — and applies it at once. What hoorayd
/// refuses (a time such as 25:00, a file broken by hand, a key the file has twice) is named under
/// its group, and the settings are read again, so each control shows what the file holds. Read
/// again each time the window comes back to the front, so a file edited meanwhile shows as it is;
/// its errors, with the line to fix, head the page.
@MainActor
final class SettingsWindow {
    let window: PreferencesWindow
    /// Runs once an import or a deletion changed what the main window shows.
    var onDataChanged: @MainActor () -> Void = {}
    private let link: DaemonLink
    /// Shown over everything while the files have errors: which line to fix.
    private let fileProblem = Label("")
    private let fileGroup = PreferencesGroup(title: localized("Your hooray.toml"))
    private let celebrations = PreferencesGroup(title: localized("Celebrations"))
    private let quiet = PreferencesGroup(title: localized("Quiet hours"))
    private let pluginsGroup = PreferencesGroup(title: localized("Plugins"))
    private let style = ComboRow(
        title: localized("Celebration style"),
        choices: [localized("Calm"), localized("Playful"), localized("Off")])
    private let celebrationWindow = Switch(name: localized("Celebration window"))
    private let quietHours = EntryRow(title: localized("Quiet hours"))
    /// A line under each group that names what went wrong there, and the key it is about.
    private let celebrationsProblem = Label("")
    private let quietProblem = Label("")
    private let pluginsProblem = Label("")
    private let ai = SettingsAIGroup()
    private var problemKeys: [ObjectIdentifier: String] = [:]
    private var pluginRows: [String: (row: ActionRow, toggle: Switch)] = [:]
    /// While hoorayd's reading is shown: the controls change, and nothing is sent.
    private var showing = false
    /// Whether the quiet hours typed differ from the file's, not applied yet: readings leave them.
    private var quietTyped = false
    /// The changes sent and not answered yet.
    private var changing = 0
    /// The settings as hoorayd last told them, by key: what a refused change goes back to.
    private var known: [String: DaemonLink.Setting] = [:]
    private let readings = LatestReading()
    private let dataPage: SettingsDataPage
    private let aboutPage = SettingsAboutPage()
    private let pluginPage = PluginSettingsPage()

    /// The values of ``style``'s choices, in order.
    private static let styles = ["calm", "playful", "off"]
    /// The keys shown other than the plugins'.
    private static let coreKeys =
        ["celebrations.style", "celebrations.window", "delivery.quiet_hours"] + SettingsAIGroup.keys

    init(parent: Window, link: DaemonLink) {
        self.link = link
        window = PreferencesWindow(parent: parent, title: localized("Settings"))
        dataPage = SettingsDataPage(window: window)
        window.setDefaultSize(width: 560, height: 640)
        let page = PreferencesPage(title: localized("General"), iconName: "emblem-system-symbolic")

        for label in [fileProblem, celebrationsProblem, quietProblem, pluginsProblem, ai.problem] {
            label.addCSSClass("error")
            label.wrapStart()
            label.isVisible = false
        }
        fileGroup.add(fileProblem)
        fileGroup.isVisible = false
        page.add(fileGroup)

        celebrations.details = localized("How Hooray celebrates what you did: a habit done, a streak reached.")
        celebrations.add(style)
        let windowRow = ActionRow(
            title: localized("Celebration window"),
            subtitle: localized("A short window beside the notification at a milestone"))
        windowRow.addSuffix(celebrationWindow)
        celebrations.add(windowRow)
        celebrations.add(celebrationsProblem)
        page.add(celebrations)

        quiet.details = localized(
            "Notices that are not urgent wait, and come as one digest when they end: such as 22:00-07:30, or none.")
        let saveQuiet = Button(iconName: "object-select-symbolic", name: localized("Save quiet hours"))
        saveQuiet.addCSSClass("flat")
        quietHours.addSuffix(saveQuiet)
        quiet.add(quietHours)
        quiet.add(quietProblem)
        page.add(quiet)

        page.add(ai.group)
        ai.onChange = { [unowned self] key, value, control in change(key, to: value, problem: ai.problem, on: control) }
        ai.onNotice = { [unowned self] note in window.show(Toast(note, timeout: 8)) }
        pluginPage.onChange = { [unowned self] key, value, problem, control in
            change(key, to: value, problem: problem, on: control)
        }

        pluginsGroup.details = localized("Each part of Hooray, on or off.")
        pluginsGroup.add(pluginsProblem)
        page.add(pluginsGroup)
        window.add(page)
        window.add(pluginPage.page)
        window.add(dataPage.page)
        window.add(aboutPage.page)
        // Nothing to change before hoorayd said what the files hold.
        setControlsSensitive(false)

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
        quietHours.onChanged { [unowned self] in
            if !showing { quietTyped = true }
        }
        let applyQuiet = { @MainActor [unowned self] in
            let text = quietHours.text.trimmingCharacters(in: .whitespaces)
            change("delivery.quiet_hours", to: text.isEmpty ? "none" : text, problem: quietProblem, on: quietHours)
        }
        quietHours.onActivated(applyQuiet)
        saveQuiet.onClicked(applyQuiet)
        dataPage.onChanged = { [unowned self] in onDataChanged() }
        // Back from editing the file elsewhere: read again (the first showing reads as it opens).
        window.onActiveChanged { [unowned self] in
            if window.isActive { refresh() }
        }
    }

    /// Shows the window; becoming the active window, it reads the settings. Your id and About are
    /// read each time it is shown.
    func present() {
        window.present()
        dataPage.refresh()
        aboutPage.refresh()
    }

    private func setControlsSensitive(_ sensitive: Bool) {
        // The key's buttons stay: `hooray ai set-key` needs neither hoorayd nor a sound file.
        for control in [celebrations, quiet, pluginsGroup] + ai.controls + pluginPage.groups {
            control.isSensitive = sensitive
        }
    }

    /// Reads the plugins and the settings from hoorayd and shows them; `clearing` what went wrong
    /// before, unless the reading follows a change whose refusal is being said.
    func refresh(clearing: Bool = true) {
        readings.start(
            { [link] () throws(DaemonLink.Problem) in
                let plugins = try await link.plugins()
                let keys =
                    Self.coreKeys + plugins.map(\.name).sorted().map { "plugins.\($0).enabled" }
                    + plugins.flatMap { plugin in plugin.settings.map { "plugins.\(plugin.name).\($0.key)" } }
                return (plugins, try await link.settings(keys))
            },
            show: { [weak self] (plugins: [DaemonLink.ListedPlugin], reading: DaemonLink.SettingsReading) in
                guard let self else { return }
                showPlugins(plugins)
                pluginPage.showPlugins(plugins)
                // Made now, the plugins' groups take what the window allows.
                for group in pluginPage.groups { group.isSensitive = celebrations.isSensitive }
                // While the files have errors, a setting in a part hoorayd cannot read is unknown
                // (hoorayd runs on its last good reading): the control keeps what it shows.
                show(reading.problems.isEmpty ? reading.settings : reading.settings.filter { $0.value != nil })
                showFileProblems(reading.problems)
                // Read anew: what went wrong before is no longer said.
                if clearing {
                    for label in [celebrationsProblem, quietProblem, pluginsProblem, ai.problem] + pluginPage.problems {
                        clearProblem(label)
                    }
                    for control in [style, celebrationWindow, quietHours] + ai.controls + pluginPage.controls
                        as [Widget]
                    {
                        control.markInvalid(describedBy: nil)
                    }
                    for row in pluginRows.values { row.toggle.markInvalid(describedBy: nil) }
                }
                // Nothing can be changed until the files are fixed: each change would be refused.
                setControlsSensitive(reading.problems.isEmpty)
            },
            fail: { [weak self] problem in
                guard let self else { return }
                switch problem {
                case .notRunning:
                    showFileProblems([localized("Hooray isn't running: start it to see and change your settings.")])
                case .failed(let message), .refused(_, let message): showFileProblems([message])
                case .alreadySaved: break
                }
            })
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

    /// Shows what hoorayd read of these settings; the others stay as they are.
    private func show(_ settings: [DaemonLink.Setting]) {
        showing = true
        defer { showing = false }
        for setting in settings {
            known[setting.key] = setting
            // A plugin's own setting, on the Plugins page.
            if pluginPage.show(setting.key, setting.effective, setFromFile: setting.value != nil) { continue }
            switch (setting.key, setting.effective) {
            case ("celebrations.style", .string(let value)?):
                if let index = Self.styles.firstIndex(of: value) { style.selected = index }
            case ("celebrations.window", .bool(let on)?):
                celebrationWindow.isOn = on
            case ("delivery.quiet_hours", .string(let value)?):
                // What the user typed and did not apply yet stays.
                if !quietTyped { quietHours.text = value }
            case (let key, let value) where SettingsAIGroup.keys.contains(key):
                ai.show(key, value)
            default:
                let parts = setting.key.split(separator: ".")
                if parts.count == 3, parts[0] == "plugins", let row = pluginRows[String(parts[1])],
                    case .bool(let on)? = setting.effective
                {
                    row.toggle.isOn = on
                }
            }
        }
    }

    /// The files' errors, each with the line to fix, over everything; none hides them.
    private func showFileProblems(_ problems: [String]) {
        fileProblem.text = problems.joined(separator: "\n")
        fileProblem.isVisible = !problems.isEmpty
        fileGroup.isVisible = !problems.isEmpty
    }

    /// Asks hoorayd to set `key`. Refused, the reason is named under the group; either way the
    /// settings are read again, so that every control shows what the file holds.
    private func change(_ key: String, to value: String?, problem: Label, on control: Widget) {
        control.isSensitive = false
        changing += 1
        // A reading begun before this change would show the file as it was.
        readings.dropStarted()
        Task { @MainActor in
            do throws(DaemonLink.Problem) {
                let done = try await link.setSetting(key, to: value)
                if key == "delivery.quiet_hours" { quietTyped = false }
                ai.applied(key)
                pluginPage.applied(key)
                if problemKeys[ObjectIdentifier(problem)] == key { clearProblem(problem) }
                control.markInvalid(describedBy: nil)
                if let now = done.setting {
                    show([now])
                    // Set, but another file's value is the one used: said, not hidden.
                    let overridden =
                        value == nil
                        ? now.value != nil : now.value != now.effective || Self.text(of: now.effective) != value
                    if overridden {
                        say(done.message, under: problem, key: key, on: nil)
                    }
                }
            } catch {
                let words: String
                switch error {
                case .notRunning:
                    words = localized("Hooray isn't running, so nothing was changed; start it and try again.")
                case .failed(let message), .refused(_, let message): words = message
                case .alreadySaved: words = ""
                }
                say(words, under: problem, key: key, on: control)
                // Back to what hoorayd last told: nothing was written.
                if let before = known[key] { show([before]) }
            }
            control.isSensitive = true
            changing -= 1
            // Read again once the last change is answered: the file as it is now, its errors named.
            if changing == 0 { refresh(clearing: false) }
        }
    }

    /// A setting's value as the window sends it.
    private static func text(of value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: text
        case .bool(let on)?: on ? "true" : "false"
        case .number(let number)?: Int(exactly: number).map(String.init) ?? String(number)
        default: nil
        }
    }

    /// Names what went wrong, or what to know, under a group, for `key`; `control`, when given, is
    /// marked invalid and described by it.
    private func say(_ words: String, under label: Label, key: String, on control: Widget?) {
        guard !words.isEmpty else { return }
        label.text = words
        label.isVisible = true
        problemKeys[ObjectIdentifier(label)] = key
        control?.markInvalid(describedBy: label)
    }

    private func clearProblem(_ label: Label) {
        label.isVisible = false
        problemKeys[ObjectIdentifier(label)] = nil
    }
}
