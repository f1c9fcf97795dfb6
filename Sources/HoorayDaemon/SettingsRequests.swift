import HoorayClient
import HoorayConfig
import HoorayEngine
import HoorayKit

/// The desktop app's Settings, answered by hoorayd: the settings as the configuration files set
/// them, and a change written to the user's own file with the lossless editor `hooray config set`
/// uses (only that line changes, comments stay), then applied at once. Changes and reloads take
/// turns (``DaemonState/configurationGate``): two changes at once are both written, one after the other.
enum SettingsRequests {
    /// A loader of every layer hoorayd reads, with the plugins it knows.
    static func loader(_ state: DaemonState) -> ConfigLoader {
        ConfigLoader(
            paths: ConfigPaths(environment: state.environment), explicitFile: state.extraFile,
            plugins: state.catalog.plugins, extraSections: ConfigurationLoader.extraSections)
    }

    /// The settings at `keys`, with the files' errors where they are, when they have any; a key
    /// that is no setting is refused.
    static func read(_ keys: [String], state: DaemonState) -> ControlResponse {
        let loader = loader(state)
        let problems = fileProblems(loader)
        var settings: [SettingValue] = []
        for key in keys {
            do throws(ConfigEditRefusal) {
                let lookup = try loader.lookUp(try ConfigKeyText.keys(key))
                settings.append(
                    SettingValue(
                        key: key, value: lookup.json, defaultValue: builtInDefault(key, state: state),
                        toml: lookup.toml, file: lookup.location?.file, line: lookup.location?.line))
            } catch  where error.kind == .configuration {
                // Not found, the files having errors: as not set, its default applying, which is
                // what hoorayd runs on (the broken part left out); the errors are in `problems`.
                settings.append(
                    SettingValue(
                        key: key, value: nil, defaultValue: builtInDefault(key, state: state), toml: nil, file: nil,
                        line: nil))
            } catch {
                return ControlResponse(
                    ok: false, message: error.message, problems: problems.isEmpty ? nil : problems)
            }
        }
        return ControlResponse(ok: true, settings: settings, problems: problems.isEmpty ? nil : problems)
    }

    /// Sets `key` to `value` (`nil`: removes it) in the user's file, then reloads, once the changes
    /// and reloads before it are done.
    ///
    /// - Parameter reload: Reloads hoorayd's configuration, the gate held; the problem when it kept
    ///   the last good one.
    static func set(
        _ key: String, to value: String?, state: DaemonState, reload: @escaping @Sendable () async -> String?
    ) async -> ControlResponse {
        await state.configurationGate.run {
            await setNow(key, to: value, state: state, reload: reload)
        }
    }

    private static func setNow(
        _ key: String, to value: String?, state: DaemonState, reload: @Sendable () async -> String?
    ) async -> ControlResponse {
        // A plugin installed since the last reload is one the change may name.
        state.catalog.refresh()
        let home = state.environment["HOME"]
        var written: String?
        var outcome: ConfigFileEditor.Outcome?
        var tries = 0
        while outcome == nil {
            do throws(ConfigEditRefusal) {
                let path = try ConfigKeyText.keys(key)
                let editor = try ConfigFileEditor(loader: loader(state))
                if let value {
                    let (done, literal) = try editor.set(path, typed: value)
                    (outcome, written) = (done, literal.text)
                } else {
                    outcome = try editor.apply(.remove(path))
                }
            } catch let refusal where refusal.kind == .changed && tries == 0 {
                // Changed by another program while it was read: once more, from the file as it is now.
                tries += 1
            } catch {
                return refused(error, key: key, state: state)
            }
        }
        guard let outcome else { return refused(.init(.io, "nothing was written"), key: key, state: state) }
        // Applied even when the file had it already: hoorayd may be running an older reading.
        let kept = await reload()
        var answer = read([key], state: state)
        let file = ConfigPaths.shown(outcome.file, home: home)
        var said =
            !outcome.changed
            ? "\(file) has this already; nothing changed"
            : written.map { "\(key) = \($0) in \(file)" } ?? "\(key) removed from \(file)"
        if let later = outcome.overriddenBy {
            said +=
                "; \(ConfigPaths.shown(later, home: home)) sets \(key) too, and is read later, so its value is the one used"
        }
        answer.message = said
        if kept != nil {
            // Saved, not applied: the files have other errors, which the answer's problems name.
            answer.ok = false
            answer.message =
                "\(said), but hoorayd did not apply it: it keeps its last good configuration until the files' errors are fixed"
        }
        return answer
    }

    /// The built-in default of the settings the desktop app shows: whether a plugin is on, the
    /// settings built-in plugins declare (``DeclaresSettings``), the celebrations' style and window,
    /// the quiet hours and the AI provider.
    static func builtInDefault(_ key: String, state: DaemonState) -> JSONValue? {
        let parts = key.split(separator: ".").map(String.init)
        if parts.count == 3, parts[0] == "plugins", parts[2] == "enabled" {
            return state.catalog.plugins.first { $0.name == parts[1] }.map { .bool($0.isEnabledByDefault) }
        }
        if parts.count == 3, parts[0] == "plugins",
            let declared = state.catalog.builtIns.first(where: { $0.name == parts[1] }) as? any DeclaresSettings,
            let setting = declared.settingDeclarations.first(where: { $0.key == parts[2] })
        {
            if setting.kind == .toggle { return .bool(setting.defaultValue == "true") }
            // A whole number (the water goal) as the file holds it: a number, not its text.
            return Int(setting.defaultValue).map { .number(Double($0)) } ?? .string(setting.defaultValue)
        }
        let defaults = CoreSettings.defaults
        switch key {
        case "celebrations.style": return .string(defaults.celebrations.style.rawValue)
        case "celebrations.window": return .bool(defaults.celebrations.window)
        case "delivery.quiet_hours": return .string(defaults.delivery.quietHours.description)
        case "ai.provider": return .string("off")
        default: return nil
        }
    }

    /// The errors of the files as they are, each with its file, line and column.
    private static func fileProblems(_ loader: ConfigLoader) -> [SettingProblem] {
        loader.check().diagnostics.filter(\.isError).map { diagnostic in
            SettingProblem(
                message: diagnostic.message, hint: diagnostic.hint, key: diagnostic.path?.description,
                file: diagnostic.location?.file, line: diagnostic.location?.line,
                column: diagnostic.location?.column)
        }
    }

    /// A refusal as an answer. A value the configuration refuses names the key (`invalid_value`) and
    /// its problems, without places (the edit was never written); a file that must be fixed first
    /// names its errors where they are.
    private static func refused(_ refusal: ConfigEditRefusal, key: String, state: DaemonState) -> ControlResponse {
        guard refusal.kind == .configuration, !refusal.diagnostics.isEmpty else {
            let problems = fileProblems(loader(state))
            var hint = refusal.hint
            if let file = state.extraFile, refusal.kind == .usage,
                refusal.message.hasSuffix("hooray changes only your own")
            {
                // The hint the editor gives is the command line's: here, hoorayd's own --config.
                hint = "hoorayd was started with --config \(file); start it without --config to change your own file"
            }
            return ControlResponse(
                ok: false, message: refusal.message, problems: problems.isEmpty ? nil : problems, hint: hint)
        }
        let problems = refusal.diagnostics.map { diagnostic in
            SettingProblem(message: diagnostic.message, hint: diagnostic.hint, key: diagnostic.path?.description)
        }
        return ControlResponse(
            ok: false, message: refusal.message, invalidValue: key, problems: problems, hint: refusal.hint)
    }
}
