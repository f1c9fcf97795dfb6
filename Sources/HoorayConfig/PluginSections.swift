import HoorayKit
import HoorayText

/// One plugin's part of the configuration: its `[plugins.NAME]` table, whether it is enabled and
/// its own celebration style.
public struct PluginSection: Sendable, Hashable {
    /// The plugin's name, such as `reminders`.
    public var name: String
    /// The `[plugins.NAME]` table, or `nil` when no file has one.
    public var node: ConfigNode?
    /// The section's `enabled` key, which the host reads for every plugin; when absent, the plugin's
    /// ``HoorayKit/HoorayPlugin/isEnabledByDefault``.
    public var isEnabled: Bool
    /// The section's `celebrations` key, which the host reads for every plugin: this plugin's
    /// celebration style, over `[celebrations] style`; `nil` when absent.
    public var celebrationStyle: CelebrationStyle?

    /// Creates a section.
    ///
    /// - Parameters:
    ///   - name: The plugin's name.
    ///   - node: The `[plugins.NAME]` table, if there is one.
    ///   - isEnabled: Whether the plugin runs.
    ///   - celebrationStyle: The plugin's own celebration style, if it has one.
    public init(name: String, node: ConfigNode?, isEnabled: Bool = true, celebrationStyle: CelebrationStyle? = nil) {
        self.name = name
        self.node = node
        self.isEnabled = isEnabled
        self.celebrationStyle = celebrationStyle
    }

    /// The keys of every plugin section that the host reads, whatever the plugin's configuration.
    public static let hostKeys: Set<String> = ["enabled", "celebrations"]

    /// The keys of `[plugins]` itself that the host reads: no plugin can have one of these names.
    ///
    /// `allow_unsandboxed` (a boolean, `false` by default): where no sandbox can be had, plugins in
    /// other languages run without one, with a warning each start, instead of not at all.
    public static let settingKeys: Set<String> = ["allow_unsandboxed"]

    /// The section's path, `plugins.NAME`.
    public var path: ConfigKeyPath { ConfigKeyPath(keys: ["plugins", name]) }
}

/// Finds each known plugin's section in the merged configuration and checks the part the host owns.
///
/// The host reads `enabled` (a boolean, `true` by default unless the plugin is off by default) and
/// `celebrations` (a ``CelebrationStyle``, none by default) of every section and leaves the other
/// keys to the plugin. A section whose name is no known plugin is a warning, with a suggestion when
/// it looks like a typo (`[plugins.remindrs]`).
/// - Parameters:
///   - root: The merged root table.
///   - knownPlugins: The names of the plugins that are installed.
///   - disabledByDefault: The names of the installed plugins that run only with `enabled = true`
///     (their ``HoorayKit/HoorayPlugin/isEnabledByDefault`` is `false`).
/// - Returns: A section for every known plugin (with `node == nil` when it has none), and the
///   diagnostics found.
public func pluginSections(
    in root: ConfigNode, knownPlugins: [String], disabledByDefault: Set<String> = []
) -> (sections: [String: PluginSection], diagnostics: [ConfigDiagnostic]) {
    var sections: [String: PluginSection] = [:]
    for name in knownPlugins {
        sections[name] = PluginSection(name: name, node: nil, isEnabled: !disabledByDefault.contains(name))
    }
    guard let plugins = root["plugins"] else { return (sections, []) }
    let pluginsPath = ConfigKeyPath(keys: ["plugins"])
    guard let table = plugins.table else {
        return (
            sections,
            [
                .error(
                    at: plugins.location, path: pluginsPath,
                    "plugins: expected a table of plugin sections such as [plugins.reminders], found \(plugins.kindDescription)"
                )
            ]
        )
    }
    var diagnostics: [ConfigDiagnostic] = []
    for (name, node) in table {
        let path = pluginsPath.appending(key: name)
        if PluginSection.settingKeys.contains(name) {
            if case .boolean = node.value { continue }
            diagnostics.append(
                .error(
                    at: node.location, path: path,
                    "\(path): expected true or false, found \(node.kindDescription)",
                    hint:
                        "allow_unsandboxed = true lets plugins in other languages run without a sandbox where none can be had"
                ))
            continue
        }
        guard sections[name] != nil else {
            let hint: String
            if let suggestion = NameSuggestion.closest(to: name, among: knownPlugins) {
                hint = "did you mean `\(suggestion)`?"
            } else if knownPlugins.isEmpty {
                hint = "no plugins are installed; `hooray plugins` lists the installed ones"
            } else {
                let names = knownPlugins.sorted().map { "`\($0)`" }.joined(separator: ", ")
                hint = "the installed plugins are \(names)"
            }
            diagnostics.append(
                .warning(
                    at: table.keyLocation(of: name) ?? node.location, path: path, "plugins: unknown plugin `\(name)`",
                    hint: hint))
            continue
        }
        guard let section = node.table else {
            diagnostics.append(
                .error(
                    at: node.location, path: path,
                    "\(path): expected a table such as [plugins.\(name)], found \(node.kindDescription)"))
            continue
        }
        var isEnabled = !disabledByDefault.contains(name)
        if let enabled = section["enabled"] {
            if case .boolean(let flag) = enabled.value {
                isEnabled = flag
            } else {
                diagnostics.append(
                    .error(
                        at: enabled.location, path: path.appending(key: "enabled"),
                        "\(path.appending(key: "enabled")): expected true or false, found \(enabled.kindDescription)"))
            }
        }
        var celebrationStyle: CelebrationStyle?
        if let style = section["celebrations"] {
            do {
                celebrationStyle = try ConfigDecoder().decode(
                    CelebrationStyle.self, from: style, at: path.appending(key: "celebrations")
                ).value
            } catch {
                diagnostics.append(contentsOf: error.diagnostics)
            }
        }
        sections[name] = PluginSection(
            name: name, node: node, isEnabled: isEnabled, celebrationStyle: celebrationStyle)
    }
    return (sections, diagnostics)
}

/// Decodes and checks a plugin's configuration from its section.
///
/// Errors and warnings name `plugins.NAME....` paths and the file, line and column of each value.
/// The `enabled` and `celebrations` keys belong to the host and are never reported as unknown. A
/// plugin without a section gets its configuration decoded from an empty table, so a
/// configuration whose keys all have defaults needs no section at all.
/// - Parameters:
///   - plugin: The plugin.
///   - section: The plugin's `[plugins.NAME]` table, or `nil` when there is none.
/// - Returns: The configuration and the warnings, such as unknown keys.
/// - Throws: ``ConfigDiagnostics`` with every error found and the warnings.
public func decodeConfiguration<P: HoorayPlugin>(
    of plugin: P, from section: ConfigNode?
) throws(ConfigDiagnostics) -> (P.Configuration, [ConfigDiagnostic]) {
    let node = section ?? .emptyTable()
    let path = ConfigKeyPath(keys: ["plugins", plugin.name])
    var (configuration, warnings) = try ConfigDecoder().decode(
        P.Configuration.self, from: node, at: path, permittedKeys: PluginSection.hostKeys)
    // A configuration without keys never opens the table, so the decoder cannot see stray keys.
    if P.Configuration.self == NoConfiguration.self, let table = node.table {
        for (key, value) in table where !PluginSection.hostKeys.contains(key) {
            warnings.append(
                .warning(
                    at: table.keyLocation(of: key) ?? value.location, path: path.appending(key: key),
                    "\(path): unknown key `\(key)`",
                    hint: "the \(plugin.name) plugin takes no settings besides `enabled` and `celebrations`"))
        }
    }
    return (configuration, warnings)
}
