import Foundation
import HoorayClient
import HoorayGtk
import HoorayKit

/// The settings the window shows and changes, asked of hoorayd as `hooray config get` and `set` do
/// (docs/protocol.md, `settings` and `set_setting`): hoorayd writes the user's hooray.toml with
/// the lossless editor, one line changed and the comments kept, and applies it at once.
extension DaemonLink {
    /// A setting as the files set it, with its built-in default.
    struct Setting: Sendable, Equatable {
        var key: String
        /// What the files set; `nil` when none does.
        var value: JSONValue?
        /// What applies when no file sets it.
        var defaultValue: JSONValue?

        /// What applies.
        var effective: JSONValue? { value ?? defaultValue }
    }

    /// A plugin as `hooray plugins` lists it.
    struct ListedPlugin: Sendable, Equatable {
        var name: String
        var summary: String
        /// `running`, `disabled`, `held` and so on.
        var state: String = ""
        /// The card a plugin in another language declares for Today.
        var card: PluginCard?
        /// The settings of its section Settings shows with controls of their own.
        var settings: [PluginSetting] = []
    }

    /// The settings, and the errors the files have, each with its file and line, in words.
    struct SettingsReading: Sendable, Equatable {
        var settings: [Setting]
        var problems: [String]
    }

    /// The settings at `keys`. When a key cannot be read because the files have errors,
    /// ``Problem/refused(field:message:)`` names each with its file and line.
    func settings(_ keys: [String]) async throws(Problem) -> SettingsReading {
        let response = try await control(.settings(keys: keys))
        return SettingsReading(
            settings: (response.settings ?? []).map(Self.setting), problems: (response.problems ?? []).map(words))
    }

    /// What a change did: the setting as it is now, and hoorayd's words, such as that a later file
    /// sets it too.
    struct SettingChange: Sendable, Equatable {
        var setting: Setting?
        var message: String
    }

    /// Sets a setting in the user's own file (`nil`: removes it), as `hooray config set KEY VALUE`
    /// does; hoorayd applies it at once. Refused, nothing was written: ``Problem/refused(field:message:)``
    /// has the key as its field when the value is the problem, no field when the file is.
    @discardableResult
    func setSetting(_ key: String, to value: String?) async throws(Problem) -> SettingChange {
        let response = try await control(.setSetting(key: key, value: value))
        return SettingChange(setting: response.settings?.first.map(Self.setting), message: response.message ?? "")
    }

    private static func setting(_ value: SettingValue) -> Setting {
        Setting(key: value.key, value: value.value, defaultValue: value.defaultValue)
    }

    /// Every plugin hoorayd knows, built in or in another language.
    func plugins() async throws(Problem) -> [ListedPlugin] {
        let response = try await control(.plugins)
        return (response.plugins ?? []).map {
            ListedPlugin(
                name: $0.name, summary: $0.summary, state: $0.state, card: $0.card, settings: $0.settings ?? [])
        }
    }

    /// Sends a request that writes nothing to the database; refused, its words.
    private func control(_ request: ControlRequest) async throws(Problem) -> ControlResponse {
        let response = try await exchange { _ in request }
        guard response.ok else { throw .refused(field: response.invalidValue, message: words(of: response)) }
        return response
    }

    /// A refusal in words: the file's errors, each where it is ("~/.config/hooray/hooray.toml, line
    /// 9: …") with its fix, when it has some; else hoorayd's message and each problem of the value.
    func words(of response: ControlResponse) -> String {
        let problems = response.problems ?? []
        if problems.contains(where: { $0.file != nil }) {
            return ([localized("Fix this in your file first; nothing was changed:")] + problems.map(words))
                .joined(separator: "\n")
        }
        var lines = [response.message ?? localized("hoorayd did not say why")]
        lines += problems.map(words)
        return lines.joined(separator: "\n")
    }

    /// A problem in words, with its place, its file shown from the home folder.
    func words(_ problem: SettingProblem) -> String {
        var line = problem.message
        if let file = problem.file, let number = problem.line {
            var shown = file
            if let home = environment["HOME"], !home.isEmpty, file.hasPrefix(home + "/") {
                shown = "~" + file.dropFirst(home.count)
            }
            line = localized("%1$@, line %2$ld: %3$@", shown, number, line)
        }
        if let hint = problem.hint { line += " (" + hint + ")" }
        return line
    }
}
