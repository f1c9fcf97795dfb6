import Foundation
import HoorayClient
import HoorayCommandLine
import HoorayCommands
import HoorayEngine
import HoorayKit
import HoorayText

/// The daemon's side of the `hooray` front door: a small program users run as `hooray`, which
/// hands a command line to the running `hoorayd` and prints the answer, so that `hooray win` costs
/// no more than starting a tiny process and one round trip. The daemon reads the command line with
/// `hooray`'s own code (``GlobalArguments``, ``CommandTree``, ``CommandLineParser``) and runs it
/// only when `hooray` would have sent the very same command to it without a word to the user:
/// a built-in plugin's command that writes, with everything it needs on the command line. For
/// anything else — help, a mistake in the arguments, a question on the terminal, `--config`, a
/// command that only reads — it answers ``ControlResponse/handOver`` having done nothing, and the
/// front door runs the full `hooray` program with the same arguments, which words it as always.
public enum FrontDoor {
    /// A command line the daemon runs for the front door.
    public struct Prepared: Sendable {
        /// The plugin.
        public var plugin: String
        /// The command, parsed.
        public var invocation: CommandInvocation
        /// The command's words, such as `["win"]`.
        public var path: [String]
        /// The command's declaration.
        public var spec: CommandSpec
    }

    /// Reads a command line as `hooray` would.
    ///
    /// - Parameters:
    ///   - arguments: The words after `hooray`.
    ///   - caller: What the front door says of its terminal and environment.
    ///   - tree: The plugins' commands.
    ///   - builtIns: The names of the built-in plugins.
    ///   - hostVersion: This daemon's version.
    /// - Returns: The command to run; `nil` when the full `hooray` program is to run the line.
    public static func prepare(
        arguments: [String], caller: FrontDoorCaller, tree: CommandTree, builtIns: Set<String>, hostVersion: String
    ) -> Prepared? {
        guard caller.version == hostVersion, caller.workingDirectory.hasPrefix("/"), caller.home.hasPrefix("/") else {
            return nil
        }
        let global = GlobalArguments(parsing: arguments, workingDirectory: "/", home: "/")
        guard global.problem == nil, global.config == nil else { return nil }
        let words = global.remaining
        // Help, the version, completions, `hooray` alone and hooray's own commands are the full program's
        // (`act` among them, which asks a button's question on the terminal).
        guard let first = words.first, !first.hasPrefix("-"), !CommandTree.hostWords.contains(first),
            !words.contains(where: { ["--help", "-h", "--version"].contains($0) || $0.hasPrefix("---") })
        else { return nil }
        guard case .command(let node, let target, let rest) = tree.route(words) else { return nil }
        let spec = target.spec
        guard builtIns.contains(target.plugin), spec.writes else { return nil }
        if let word = rest.first, !word.hasPrefix("-"), spec.arguments.isEmpty, !tree.visibleChildren(of: node).isEmpty
        {
            return nil
        }
        var variables = ["TZ": caller.timeZone]
        if let localtime = caller.localtime { variables["HOORAY_LOCALTIME"] = localtime }
        let environment = CommandEnvironment(
            timeZoneIdentifier: SystemTimeZone(environment: variables.compactMapValues { $0 }).current().identifier,
            color: caller.color && !global.noColor, dataDirectory: caller.dataDirectory, hostVersion: hostVersion)
        // Relative paths and `~/` are the caller's, not this daemon's.
        guard
            var parsed = try? CommandLineParser.parse(
                rest, spec: spec, environment: environment, workingDirectory: caller.workingDirectory,
                home: caller.home),
            parsed.configFile == nil, !parsed.wantsHelp
        else { return nil }
        // Words that read as a mistyped command are the full program's to refuse.
        if FreeTextGuard.refusal(rest, node: node, tree: tree) != nil { return nil }
        // With a flag that saves nothing (`remind --to-file`), the full program runs it as a reading.
        guard spec.writes(parsed.invocation) else { return nil }
        if global.json {
            guard spec.offersJSON else { return nil }
            parsed.invocation.json = true
        }
        // A confirmation, a question or a missing argument is the full program's to ask about or refuse.
        if spec.confirmation != nil, !parsed.yes { return nil }
        let prompted =
            spec.arguments.filter { $0.prompt != nil }.map(\.name)
            + spec.options.filter { $0.prompt != nil }.map(\.name)
        if caller.interactive, prompted.contains(where: { parsed.invocation.values[$0] == nil }) { return nil }
        if spec.arguments.contains(where: { !$0.isOptional && parsed.invocation.values[$0.name] == nil }) {
            return nil
        }
        return Prepared(plugin: target.plugin, invocation: parsed.invocation, path: tree.nodes[node].path, spec: spec)
    }

    /// What `hooray` prints for the daemon's answer to the command, as it prints it when it sends the
    /// command to the daemon itself.
    ///
    /// - Parameters:
    ///   - response: The answer to the command (``ControlRequest/command(plugin:invocation:requestID:)``).
    ///   - prepared: The command.
    /// - Returns: The output, with a note in place of what only the full program can do (a clipboard
    ///   text, a guide to play, an entry for hooray.toml), which no command the front door is given
    ///   answers with (``CommandSpec/writes(_:)``); `nil` for an answer of a busy daemon.
    public static func output(for response: ControlResponse, of prepared: Prepared) -> CommandOutput? {
        let label = "hooray " + prepared.path.joined(separator: " ")
        var writes: [CommandOutput.Write] = []
        func say(_ text: String, to stream: Int32) { writes.append(.init(to: stream, text: text + "\n")) }
        guard response.ok, let reply = response.reply else {
            let message = TerminalText.safe(response.message ?? "hoorayd could not run the command", multiline: true)
            if response.busy == true { return nil }
            say("\(label): \(message)", to: 2)
            if response.invalidValue != nil {
                say("Usage: \(CommandHelp.usage(path: prepared.path, spec: prepared.spec))", to: 2)
                say("See `hooray help \(prepared.path.joined(separator: " "))`.", to: 2)
                return CommandOutput(writes: writes, status: ExitStatus.usage.rawValue)
            }
            // Only built-in plugins' commands come here, whose promise this is.
            if prepared.spec.writes { say("Nothing was saved.", to: 2) }
            return CommandOutput(writes: writes, status: response.exitCode ?? ExitStatus.failed.rawValue)
        }
        for line in reply.warnings { say(TerminalText.safe(line, multiline: true), to: 2) }
        if reply.clipboard != nil || reply.guide != nil || reply.configurationEntry != nil {
            say("\(label): part of the answer is for the full program (hooray-cli), which did not run.", to: 2)
        }
        if prepared.invocation.json {
            say((reply.json ?? .null).text(pretty: true), to: 1)
        } else if !reply.text.isEmpty {
            say(reply.text, to: 1)
        }
        return CommandOutput(writes: writes, status: 0)
    }
}
