import Foundation
import HoorayClient
import HoorayGtk

/// Settings' "Plugins" page: each built-in plugin's switches and times as it declares them
/// (`PluginReport.settings`) — the daily check-in and its time, Night Prep, the water goal — one
/// group a plugin, each change written to `[plugins.NAME]` of hooray.toml like every setting.
@MainActor
final class PluginSettingsPage {
    let page = PreferencesPage(title: localized("Plugins"), iconName: "application-x-addon-symbolic")
    /// Runs with a setting to change (`nil`: removed from the file), the line under its group and the
    /// control it came from.
    var onChange: @MainActor (String, String?, Label, Widget) -> Void = { _, _, _, _ in }

    /// A plugin's group: its rows, and the line that names what went wrong.
    private struct Part {
        var group: PreferencesGroup
        var problem: Label
    }
    private var parts: [String: Part] = [:]
    private var switches: [String: Switch] = [:]
    private var fields: [String: EntryRow] = [:]
    /// The fields whose text was typed and not applied yet, by key: readings leave them.
    private var typed: Set<String> = []
    /// The settings a file sets, by key: the others show their defaults.
    private var fileSets: Set<String> = []
    /// While hoorayd's reading is shown: nothing is sent.
    private var showing = false
    private let empty = PreferencesGroup(title: localized("Reading your settings…"))

    init() {
        empty.details = localized("Each plugin's switches and times show here once Hooray has read them.")
        page.add(empty)
    }

    /// The groups, greyed out together while nothing can be changed.
    var groups: [Widget] { parts.values.map(\.group) }
    /// The lines under the groups.
    var problems: [Label] { parts.values.map(\.problem) }
    /// The controls marked invalid when a change is refused.
    var controls: [Widget] { Array(switches.values) + Array(fields.values) }

    /// Adds the groups of plugins not shown yet, in the order listed.
    func showPlugins(_ plugins: [DaemonLink.ListedPlugin]) {
        for plugin in plugins where !plugin.settings.isEmpty && parts[plugin.name] == nil {
            let group = PreferencesGroup(title: plugin.name.capitalized)
            group.details = plugin.summary
            for setting in plugin.settings {
                let key = "plugins.\(plugin.name).\(setting.key)"
                if setting.kind == "toggle" {
                    let row = ActionRow(title: setting.title, subtitle: setting.hint)
                    let toggle = Switch(name: setting.title)
                    row.addSuffix(toggle)
                    group.add(row)
                    switches[key] = toggle
                    toggle.onToggled { [unowned self, unowned toggle] in
                        guard !showing, let part = parts[plugin.name] else { return }
                        onChange(key, toggle.isOn ? "true" : "false", part.problem, toggle)
                    }
                } else {
                    // What to type in the title: a line under the group would stand apart from its field.
                    let field = EntryRow(title: "\(setting.title) (\(setting.hint))")
                    let save = Button(iconName: "object-select-symbolic", name: localized("Save %@", setting.title))
                    save.addCSSClass("flat")
                    field.addSuffix(save)
                    let apply = { @MainActor [unowned self, unowned field] in
                        guard let part = parts[plugin.name] else { return }
                        let text = field.text.trimmingCharacters(in: .whitespaces)
                        // The default left as it is, the file silent: nothing to write (written, a
                        // reminder that starts on first use would start now).
                        if !fileSets.contains(key), text == setting.defaultValue {
                            typed.remove(key)
                            return
                        }
                        onChange(key, text.isEmpty ? nil : text, part.problem, field)
                    }
                    field.onActivated(apply)
                    save.onClicked(apply)
                    field.onChanged { [unowned self] in
                        if !showing { typed.insert(key) }
                    }
                    group.add(field)
                    fields[key] = field
                }
            }
            let problem = Label("")
            problem.addCSSClass("error")
            problem.wrapStart()
            problem.isVisible = false
            group.add(problem)
            page.add(group)
            parts[plugin.name] = Part(group: group, problem: problem)
        }
        // A plugin that is off says so: its settings wait until it is turned on.
        for plugin in plugins {
            guard let part = parts[plugin.name] else { continue }
            let off = plugin.state == "disabled"
            part.group.details = off ? localized("%@ — off: turn it on under General.", plugin.summary) : plugin.summary
        }
        empty.isVisible = parts.isEmpty
    }

    /// Shows a setting as hoorayd read it (`setFromFile`: a file sets it, rather than its default);
    /// `false` when it is none of this page's.
    func show(_ key: String, _ value: JSONValue?, setFromFile: Bool) -> Bool {
        guard switches[key] != nil || fields[key] != nil else { return false }
        if setFromFile { fileSets.insert(key) } else { fileSets.remove(key) }
        showing = true
        defer { showing = false }
        if let toggle = switches[key] {
            if case .bool(let on)? = value { toggle.isOn = on }
            return true
        }
        guard let field = fields[key] else { return false }
        if !typed.contains(key) { field.text = Self.text(of: value) }
        return true
    }

    /// A change of `key` was applied: its field follows the file again.
    func applied(_ key: String) {
        typed.remove(key)
    }

    /// A value as its field shows it: `20:00`, `8`, `off`.
    private static func text(of value: JSONValue?) -> String {
        switch value {
        case .string(let text)?: text
        case .number(let number)?: Int(exactly: number).map(String.init) ?? String(number)
        case .bool(let on)?: on ? "true" : "false"
        default: ""
        }
    }
}
