import Foundation
import HoorayCLIHost
import HoorayCommandLine
import HoorayConfig
import HoorayEngine
import HoorayKit
import HoorayTOML
import HoorayTerminal

/// Writes the table a plugin's reply asks for (``CommandReply/configurationEntry``) into the user's
/// own configuration file: here, never in the plugin, since `hoorayd` may have run the command.
enum ConfigEntryWrite {
    /// Runs a plugin's command as ``PluginCommandRunner/run(_:plugin:noun:writes:)`` does, and
    /// writes the table its reply asks for, if any; then a running `hoorayd` reloads.
    ///
    /// - Throws: What the runner throws, and ``PluginCommandFailed`` (status 78) when the table is
    ///   refused: the file is then untouched and the reply not printed.
    static func run(
        _ runner: PluginCommandRunner, _ invocation: CommandInvocation, plugin: String, spec: CommandSpec
    ) async throws -> (reply: CommandReply, venue: PluginCommandRunner.Venue) {
        let result = try await runner.run(
            invocation, plugin: plugin, noun: spec.noun, writes: spec.writes(invocation))
        guard let entry = result.reply.configurationEntry else { return result }
        var reply = result.reply
        let table = ["plugins", plugin, entry.table]
        var keys: [(String, TOMLLiteral)] = []
        for key in entry.keys {
            guard let literal = literal(key.value) else { continue }
            keys.append((key.name, literal))
        }
        let outcome: ConfigFileEditor.Outcome
        do {
            let editor = try ConfigEditing.editor(configFile: runner.session.configFile)
            outcome = try editor.apply(.appendArrayTable(table, keys))
        } catch {
            throw PluginCommandFailed(
                message: error.description,
                status: error.kind == .changed ? .busy : error.kind == .io ? .failed : .configuration)
        }
        let file = UserPaths.shown(outcome.file)
        reply.text +=
            (reply.text.isEmpty ? "" : "\n")
            + "Added a [[\(ConfigKeyText.text(table))]] to \(file)\(outcome.created ? " (a new file)" : ""): "
            + "change or remove it there."
        reply.configurationEntry = nil
        if let note = reload(configFile: runner.session.configFile) { reply.text += "\n" + note }
        return (reply, result.venue)
    }

    /// Asks a running `hoorayd` to reload; what to say about it.
    static func reload(configFile: String?) -> String? {
        guard configFile == nil else {
            return "hoorayd reads its own files, not the one of --config."
        }
        guard let session = try? CLISession(configFile: nil) else { return nil }
        switch Result(catching: { try session.send(.reload) }) {
        case .success(nil): return "hoorayd is not running; it reads the file when it starts."
        case .success(let answer?) where answer.ok: return "hoorayd reloaded its configuration."
        case .success(let answer?): return "hoorayd kept its last good configuration: \(answer.message ?? "")"
        case .failure: return "hoorayd did not answer; it reloads once it gets to the request."
        }
    }

    /// A JSON value as TOML writes it; `nil` for `null`, which TOML has no word for.
    static func literal(_ value: JSONValue) -> TOMLLiteral? {
        switch value {
        case .null: return nil
        case .bool(let flag): return .boolean(flag)
        case .number(let number):
            if number.rounded() == number, abs(number) < 9e15 { return .integer(Int64(number)) }
            return .float(number)
        case .string(let text): return .string(text)
        case .array(let elements): return .array(elements.compactMap(literal))
        case .object(let members):
            return .inlineTable(
                members.sorted { $0.key < $1.key }.compactMap { key, value in literal(value).map { (key, $0) } })
        }
    }
}
