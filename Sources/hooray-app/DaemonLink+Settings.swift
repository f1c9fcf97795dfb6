import Foundation
import HoorayClient
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
    }

    /// The settings at `keys`. When the files have errors, ``Problem/refused(field:message:)`` names
    /// each with its file and line.
    func settings(_ keys: [String]) async throws(Problem) -> [Setting] {
        let response = try await control(.settings(keys: keys))
        return (response.settings ?? []).map {
            Setting(key: $0.key, value: $0.value, defaultValue: $0.defaultValue)
        }
    }

    /// Sets a setting in the user's own file (`nil`: removes it), as `hooray config set KEY VALUE`
    /// does; hoorayd applies it at once.
    ///
    /// - Returns: The setting as it is now.
    @discardableResult
    func setSetting(_ key: String, to value: String?) async throws(Problem) -> Setting? {
        let response = try await control(.setSetting(key: key, value: value))
        return response.settings?.first.map { Setting(key: $0.key, value: $0.value, defaultValue: $0.defaultValue) }
    }

    /// Every plugin hoorayd knows, built in or in another language.
    func plugins() async throws(Problem) -> [ListedPlugin] {
        let response = try await control(.plugins)
        return (response.plugins ?? []).map { ListedPlugin(name: $0.name, summary: $0.summary) }
    }

    /// Sends a request that writes nothing to the database and waits for its answer.
    private func control(_ request: ControlRequest) async throws(Problem) -> ControlResponse {
        let environment = environment
        let outcome: Result<ControlResponse, Problem> = await offMainThread {
            do {
                let paths = try HoorayPaths(environment: environment)
                guard let response = try Self.send(request, paths: paths) else { return .failure(.notRunning) }
                guard response.ok else {
                    return .failure(.refused(field: response.invalidValue, message: Self.words(of: response)))
                }
                return .success(response)
            } catch let error as ControlError {
                return .failure(.failed(error.message))
            } catch {
                return .failure(.failed("\(error)"))
            }
        }
        return try outcome.get()
    }

    /// A refusal in words: its message, each problem with its place ("hooray.toml line 3: …") and
    /// fix, and how to fix it.
    static func words(of response: ControlResponse) -> String {
        var lines = [response.message ?? "hoorayd refused without saying why"]
        for problem in response.problems ?? [] {
            var line = problem.message
            if let file = problem.file, let number = problem.line {
                line = "\((file as NSString).lastPathComponent) line \(number): " + line
            }
            if let hint = problem.hint { line += " (\(hint))" }
            lines.append(line)
        }
        if let hint = response.hint { lines.append(hint) }
        return lines.joined(separator: "\n")
    }
}
