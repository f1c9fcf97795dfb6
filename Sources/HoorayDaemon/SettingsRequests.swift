import HoorayClient
import HoorayConfig
import HoorayEngine
import HoorayKit

/// The desktop app's Settings, answered by hoorayd: the settings as the configuration files set
/// them, and a change written to the user's own file with the lossless editor `hooray config set`
/// uses (only that line changes, comments stay), then applied at once.
enum SettingsRequests {
    /// A loader of every layer hoorayd reads, with the plugins it knows.
    static func loader(_ state: DaemonState) -> ConfigLoader {
        ConfigLoader(
            paths: ConfigPaths(environment: state.environment), explicitFile: state.extraFile,
            plugins: state.catalog.plugins, extraSections: ConfigurationLoader.extraSections)
    }

    /// The settings at `keys`, or where the files are broken.
    static func read(_ keys: [String], state: DaemonState) -> ControlResponse {
        let loader = loader(state)
        var settings: [SettingValue] = []
        for key in keys {
            do throws(ConfigEditRefusal) {
                let lookup = try loader.lookUp(try ConfigKeyText.keys(key))
                settings.append(
                    SettingValue(
                        key: key, value: lookup.json, defaultValue: builtInDefault(key, state: state),
                        toml: lookup.toml, file: lookup.location?.file, line: lookup.location?.line))
            } catch {
                return refused(error, key: key, inFiles: true)
            }
        }
        return ControlResponse(ok: true, settings: settings)
    }

    /// Sets `key` to `value` (`nil`: removes it) in the user's file, then reloads.
    ///
    /// - Parameter reload: Reloads hoorayd's configuration; the problem when it kept the last good one.
    static func set(
        _ key: String, to value: String?, state: DaemonState, reload: () async -> String?
    ) async -> ControlResponse {
        let outcome: ConfigFileEditor.Outcome
        let path: [String]
        do throws(ConfigEditRefusal) {
            path = try ConfigKeyText.keys(key)
            let editor = try ConfigFileEditor(loader: loader(state))
            if let value {
                outcome = try editor.set(path, typed: value).0
            } else {
                outcome = try editor.apply(.remove(path))
            }
        } catch {
            return refused(error, key: key, inFiles: false)
        }
        if outcome.changed, let problem = await reload() {
            return ControlResponse(
                ok: false,
                message: "\(outcome.file) is saved, but hoorayd kept its last good configuration: \(problem)",
                invalidValue: key)
        }
        var answer = read([key], state: state)
        if answer.ok {
            let written = answer.settings?.first?.toml.map { "\(key) = \($0)" } ?? "\(key) removed"
            answer.message =
                outcome.changed
                ? "\(written) in \(outcome.file)" : "\(outcome.file) has this already; nothing changed"
            if let later = outcome.overriddenBy {
                answer.message! += "; \(later) sets \(key) too, and is read later, so its value is the one used"
            }
        }
        return answer
    }

    /// The built-in default of the settings the desktop app shows: whether a plugin is on, the
    /// celebrations' style and window, the quiet hours.
    static func builtInDefault(_ key: String, state: DaemonState) -> JSONValue? {
        let parts = key.split(separator: ".").map(String.init)
        if parts.count == 3, parts[0] == "plugins", parts[2] == "enabled" {
            return state.catalog.plugins.first { $0.name == parts[1] }.map { .bool($0.isEnabledByDefault) }
        }
        let defaults = CoreSettings.defaults
        switch key {
        case "celebrations.style": return .string(defaults.celebrations.style.rawValue)
        case "celebrations.window": return .bool(defaults.celebrations.window)
        case "delivery.quiet_hours": return .string(defaults.delivery.quietHours.description)
        default: return nil
        }
    }

    /// A refusal as an answer: its message, its fix and its problems; with the places in the files
    /// only when they are the files' own (an edit refused was never written).
    private static func refused(_ refusal: ConfigEditRefusal, key: String, inFiles: Bool) -> ControlResponse {
        let problems = refusal.diagnostics.map { diagnostic in
            SettingProblem(
                message: diagnostic.message, hint: diagnostic.hint, key: diagnostic.path?.description,
                file: inFiles ? diagnostic.location?.file : nil, line: inFiles ? diagnostic.location?.line : nil,
                column: inFiles ? diagnostic.location?.column : nil)
        }
        return ControlResponse(
            ok: false, message: refusal.message, invalidValue: key, problems: problems, hint: refusal.hint)
    }
}
