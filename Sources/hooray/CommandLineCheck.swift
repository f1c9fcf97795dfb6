import ArgumentParser
import Foundation
import HoorayCommands
import HoorayEngine
import HoorayKit
import HoorayTerminal

/// Parses a command line as `hooray` would and runs nothing: the hidden check behind the test that
/// every `hooray …` command shown in the documentation parses (`Tests/DocsTests`).
///
/// With `HOORAY_CHECK_COMMAND_LINE=1` in its environment, `hooray-cli` parses its arguments with the
/// same parsers that would run them — swift-argument-parser for `hooray`'s own commands, each plugin's
/// ``CommandSpec`` through ``CommandLineParser`` for the plugins' — and exits 0 when they are understood,
/// or prints the parser's message and exits 64. It reads no configuration and database, talks to no
/// `hoorayd` and asks nothing. It is not a user's command, so no help text shows it.
enum CommandLineCheck {
    /// The environment variable that turns the check on.
    static let variable = "HOORAY_CHECK_COMMAND_LINE"

    /// Whether this process only checks its command line.
    static var isRequested: Bool {
        // One variable: getenv, rather than the whole environment made into a dictionary at every start.
        getenv(variable).map { String(cString: $0) } == "1"
    }

    /// Checks the command line and exits.
    static func run() -> Never {
        let global = GlobalArguments.current
        if let problem = global.problem { fail(problem) }
        if let message = problem(with: global.remaining, json: global.json) { fail(message) }
        exit(0)
    }

    private static func fail(_ message: String) -> Never {
        warn(message)
        exit(ExitStatus.usage.rawValue)
    }

    /// What the parser would refuse in these words, or `nil` when it understands them.
    static func problem(with arguments: [String], json: Bool) -> String? {
        guard let first = arguments.first else { return nil }  // `hooray` alone
        if first == "help" {
            let rest = Array(arguments.dropFirst())
            guard let word = rest.first, !PluginCommandLine.isHostWord(word) else {
                return hostProblem(arguments, json: false)
            }
            return commandTree.index(of: rest) == nil
                ? "hooray help: there is no command \"\(rest.joined(separator: " "))\"" : nil
        }
        if first.hasPrefix("-") || PluginCommandLine.isHostWord(first) {
            return hostProblem(arguments, json: json)
        }
        switch commandTree.route(arguments) {
        case nil:
            return "hooray: there is no command \"\(first)\""
        case .group(let node, let unknownWord):
            guard let unknownWord else { return nil }
            return
                "hooray \(commandTree.nodes[node].path.joined(separator: " ")): there is no command \"\(unknownWord)\""
        case .command(let node, let target, let rest):
            let label = "hooray " + commandTree.nodes[node].path.joined(separator: " ")
            let spec = target.spec
            if let word = rest.first, !word.hasPrefix("-"), spec.arguments.isEmpty,
                !commandTree.visibleChildren(of: node).isEmpty
            {
                return "\(label): there is no command \"\(word)\""
            }
            let parsed: ParsedCommandLine
            do {
                parsed = try CommandLineParser.parse(rest, spec: spec)
            } catch {
                return "\(label): \(error)"
            }
            if parsed.wantsHelp { return nil }
            if let refusal = FreeTextGuard.refusal(rest, node: node, tree: commandTree) {
                return "\(label): \(refusal.joined(separator: "\n"))"
            }
            if json && !spec.offersJSON { return "\(label): this command has no JSON output; leave out --json" }
            // A missing argument with a question is asked on a terminal; one without is an error.
            for argument in spec.arguments
            where !argument.isOptional && argument.prompt == nil && parsed.invocation.values[argument.name] == nil {
                return "\(label): missing <\(argument.name)>: \(argument.help)"
            }
            return nil
        }
    }

    /// What swift-argument-parser refuses in one of `hooray`'s own command lines.
    private static func hostProblem(_ arguments: [String], json: Bool) -> String? {
        let command: any ParsableCommand
        do {
            command = try Hooray.parseAsRoot(arguments)
        } catch {
            // `--help`, `--version` and `help NAME` end the parse cleanly, with exit code 0.
            return Hooray.exitCode(for: error) == .success ? nil : Hooray.message(for: error)
        }
        if json, !(command is Hooray), !(command is any OffersJSON) {
            return "\((["hooray"] + arguments.prefix { !$0.hasPrefix("-") }).joined(separator: " ")) has no JSON output"
        }
        return nil
    }
}
