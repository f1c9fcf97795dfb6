import ArgumentParser
import Foundation
import HoorayConfig
import HoorayEngine
import HoorayKit

/// Every plugin command, from the registered plugins.
let commandTree: CommandTree = {
    do {
        // hoorayd reserves CommandTree.hostWords; these are hooray's own commands as they stand.
        return try CommandTree(
            plugins: builtInPlugins,
            reserved: Array(Set(CommandTree.hostWords).union(PluginCommandLine.hostCommandNames)))
    } catch {
        warn("hooray: \(error)")
        exit(70)  // EX_SOFTWARE: the plugins as built cannot work together.
    }
}()

/// Runs plugin commands: `hooray PLUGIN COMMAND …` and their aliases, parsed from each plugin's
/// ``CommandSpec``s, with help, prompts and confirmation; the command itself runs in `hoorayd`, or
/// here when no daemon is running.
enum PluginCommandLine {
    /// Handles the command line when it is a plugin's; `nil` when it is one of `hooray`'s own.
    ///
    /// - Returns: The exit code.
    static func handle(_ arguments: [String]) async -> Int32? {
        guard let first = arguments.first else {
            // `hooray` alone: the default a plugin offers at the top (a kind word), or the help.
            guard let home = rootDefault, let plugin = commandTree.nodes[home].command?.plugin,
                isActive(plugin)
            else { return nil }
            return await run(path: commandTree.nodes[home].path, arguments: [])
        }
        if first == "help" {
            let rest = Array(arguments.dropFirst())
            guard let word = rest.first, !isHostWord(word) else { return nil }
            if let node = commandTree.index(of: rest), commandTree.nodes[node].command == nil {
                print(CommandHelp.groupText(tree: commandTree, node: node), terminator: "")
                return 0
            }
            switch commandTree.route(rest) {
            case .command(let node, _, let extra) where extra.isEmpty:
                print(CommandHelp.text(tree: commandTree, node: node), terminator: "")
                return 0
            case .group(let node, nil):
                print(CommandHelp.groupText(tree: commandTree, node: node), terminator: "")
                return 0
            default:
                return unknown(rest, prefix: "hooray help")
            }
        }
        if first.hasPrefix("-") || isHostWord(first) { return nil }
        return await run(path: [], arguments: arguments)
    }

    /// The top-level default: a one-word alias of a plugin's default command.
    static var rootDefault: Int? {
        commandTree.nodes[0].children.first { index in
            commandTree.nodes[index].command?.spec.isDefault == true
        }
    }

    /// Whether a plugin runs: in the daemon when it is running, otherwise by the configuration,
    /// read as its command reads it: a broken part elsewhere is left out (and the command says so).
    static func isActive(_ plugin: String) -> Bool {
        guard let session = try? CLISession(configFile: nil) else { return false }
        if let response = try? session.send(.status), let status = response.status {
            return status.plugins.contains(plugin)
        }
        // Errors in the plugin's own section: its command runs, and says what to fix.
        guard let (loaded, _) = try? session.loadConfigurationLeniently(plugins: builtInPlugins, for: plugin) else {
            return true
        }
        return loaded.enabledPlugins.contains(plugin)
    }

    static func isHostWord(_ word: String) -> Bool {
        hostCommandNames.contains(word)
    }

    /// The names of `hooray`'s own commands.
    static let hostCommandNames: Set<String> =
        Set(
            Hooray.hostCommands.flatMap { command in
                [command._commandName] + command.configuration.aliases
            } + ["help"])

    static func run(path: [String], arguments: [String]) async -> Int32 {
        switch commandTree.route(path + arguments) {
        case nil:
            return unknown(arguments, prefix: "hooray")
        case .group(let node, let unknownWord):
            let group = commandTree.nodes[node]
            if let unknownWord {
                let names = commandTree.visibleChildren(of: node).map(\.word)
                var message = "hooray \(group.path.joined(separator: " ")): there is no command \"\(unknownWord)\""
                if let near = NameSuggestion.closest(to: unknownWord, among: names) {
                    message += "; did you mean `hooray \((group.path + [near]).joined(separator: " "))`?"
                }
                warn(message)
                warn(
                    "Commands: \(names.joined(separator: ", ")). See `hooray help \(group.path.joined(separator: " "))`."
                )
                return 64
            }
            print(CommandHelp.groupText(tree: commandTree, node: node), terminator: "")
            return 0
        case .command(let node, let target, let rest):
            return await runCommand(path: commandTree.nodes[node].path, target: target, words: rest)
        }
    }

    static func unknown(_ words: [String], prefix: String) -> Int32 {
        let word = words.first ?? ""
        let candidates = Array(hostCommandNames) + commandTree.visibleChildren(of: 0).map(\.word)
        var message = "\(prefix): there is no command \"\(word)\""
        if let near = NameSuggestion.closest(to: word, among: candidates.sorted()) {
            message += "; did you mean `hooray \(near)`?"
        }
        warn(message)
        warn("See `hooray --help` for the commands.")
        return 64
    }

    static func runCommand(path: [String], target: CommandTree.Target, words: [String]) async -> Int32 {
        let spec = target.spec
        let label = "hooray " + path.joined(separator: " ")
        let session: CLISession
        let parsed: ParsedCommandLine
        do {
            var probe = try CLISession(configFile: nil)
            parsed = try CommandLineParser.parse(words, spec: spec, environment: environment(session: probe))
            if parsed.configFile != nil { probe = try CLISession(configFile: parsed.configFile) }
            session = probe
        } catch let error as CommandUsageError {
            warn("\(label): \(error.message)")
            warn("Usage: \(CommandHelp.usage(path: path, spec: spec))")
            warn("See `hooray help \(path.joined(separator: " "))`.")
            return 64
        } catch {
            warn("\(label): \(error)")
            return 1
        }
        if parsed.wantsHelp {
            print(
                commandTree.index(of: path).map { CommandHelp.text(tree: commandTree, node: $0) }
                    ?? CommandHelp.text(path: path, spec: spec), terminator: "")
            return 0
        }
        var invocation = parsed.invocation
        let interactive = isatty(STDIN_FILENO) == 1
        if let question = spec.confirmation, !parsed.yes {
            guard interactive else {
                warn("\(label): not asking without a terminal; add --yes to go ahead")
                return 1
            }
            var asked = question
            for (name, values) in invocation.values {
                asked = asked.replacingOccurrences(of: "{\(name)}", with: values.joined(separator: " "))
            }
            print("\(asked) [y/N] ", terminator: "")
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                print("Kept.")
                return 0
            }
        }
        // What was left out and has a question is asked on a terminal; Enter leaves it out.
        let questions =
            spec.arguments.compactMap { argument in argument.prompt.map { (argument.name, $0) } }
            + spec.options.compactMap { option in option.prompt.map { (option.name, $0) } }
        for (name, question) in questions where interactive && invocation.values[name] == nil {
            print("\(question) ", terminator: "")
            if let answer = readLine(), !answer.isEmpty { invocation.values[name] = [answer] }
        }
        for argument in spec.arguments where !argument.isOptional && invocation.values[argument.name] == nil {
            warn("\(label): missing <\(argument.name)>: \(argument.help)")
            warn("Usage: \(CommandHelp.usage(path: path, spec: spec))")
            return 64
        }
        let runner = PluginCommandRunner(session: session, plugins: builtInPlugins)
        let reply: CommandReply
        do {
            (reply, _) = try await runner.run(invocation, plugin: target.plugin, noun: spec.noun, writes: spec.writes)
        } catch let failure as PluginCommandFailed {
            switch failure.status {
            case .busy:
                // Queued in a hoorayd that has not answered: it runs once, so this is no failure to retry.
                warn(TerminalText.safe(failure.message, multiline: true))
            default:
                // The message may quote stored text, such as a habit's name.
                warn("\(label): \(TerminalText.safe(failure.message, multiline: true))")
                if !failure.mayHaveRun && spec.writes { warn("Nothing was saved.") }
            }
            return failure.status.rawValue
        } catch {
            warn("\(label): \(TerminalText.safe("\(error)", multiline: true))")
            return 1
        }
        show(reply, json: invocation.json)
        if let finished = await runner.finish(after: reply) {
            if let followUp = finished.followUp, !invocation.json, !followUp.text.isEmpty { print(followUp.text) }
            if finished.undelivered {
                warn(
                    "No notification server answered; the notification waits in `hooray inbox`. What you did is saved.")
            }
        }
        return 0
    }

    static func show(_ reply: CommandReply, json: Bool) {
        for line in reply.warnings { warn(TerminalText.safe(line, multiline: true)) }
        if json {
            print((reply.json ?? .null).text(pretty: true))
        } else if !reply.text.isEmpty {
            print(reply.text)
        }
    }

    static func environment(session: CLISession) -> CommandEnvironment {
        let variables = session.environment
        let color =
            isatty(STDOUT_FILENO) == 1 && (variables["NO_COLOR"] ?? "").isEmpty && variables["TERM"] != "dumb"
        return CommandEnvironment(
            timeZoneIdentifier: SystemTimeZone(environment: variables).current().identifier, color: color,
            dataDirectory: session.paths.dataDirectory, hostVersion: HoorayVersion.current)
    }
}

// MARK: The plugin commands as swift-argument-parser commands

/// A number as a type, so that each node of the command tree is a type of its own, as
/// swift-argument-parser wants commands to be.
protocol TypeIndex {
    static var value: Int { get }
}

enum ZeroIndex: TypeIndex {
    static var value: Int { 0 }
}

enum NextIndex<Previous: TypeIndex>: TypeIndex {
    static var value: Int { Previous.value + 1 }
}

/// A node of the plugin command tree as swift-argument-parser sees it: for `hooray --help`, man
/// pages and completions. Running one goes through ``PluginCommandLine``.
struct PluginNode<Index: TypeIndex>: AsyncParsableCommand {
    static var node: CommandTree.Node { commandTree.nodes[Index.value] }

    static var configuration: CommandConfiguration {
        let node = node
        var discussion = ""
        var usage: String?
        if let spec = node.command?.spec {
            discussion = CommandHelp.body(path: node.path, spec: spec).trimmingCharacters(in: .newlines)
            usage = CommandHelp.usage(path: node.path, spec: spec)
        }
        return CommandConfiguration(
            commandName: node.word, abstract: node.summary, usage: usage, discussion: discussion,
            shouldDisplay: !node.isHidden,
            subcommands: node.children.filter { !commandTree.nodes[$0].isHidden }.map { pluginNodeTypes[$0] })
    }

    @Argument(
        parsing: .captureForPassthrough,
        help: ArgumentHelp("Arguments and options (see above).", valueName: "arguments"),
        completion: .custom { words, index, prefix in
            PluginCompletion.complete(words: words, index: index, prefix: prefix)
        })
    var arguments: [String] = []

    func run() async throws {
        let code = await PluginCommandLine.run(path: Self.node.path, arguments: arguments)
        if code != 0 { throw ExitCode(code) }
    }
}

/// One command type per node of the plugin command tree.
let pluginNodeTypes: [any ParsableCommand.Type] = makeNodeTypes(ZeroIndex.self, count: commandTree.nodes.count)

func makeNodeTypes<Index: TypeIndex>(_ index: Index.Type, count: Int) -> [any ParsableCommand.Type] {
    guard count > 0 else { return [] }
    return [PluginNode<Index>.self] + makeNodeTypes(NextIndex<Index>.self, count: count - 1)
}

/// Shell completion of plugin commands' options and values, which swift-argument-parser's scripts
/// ask `hooray` for.
enum PluginCompletion {
    static func complete(words: [String], index: Int, prefix: String) -> [String] {
        // The words before the one being completed, without `hooray` itself.
        let before = Array(words.prefix(index).dropFirst())
        var suggestions: [String] = []
        if let node = commandTree.index(of: before) {
            // Right after a group or a command with subcommands: the words that may follow.
            suggestions += commandTree.visibleChildren(of: node).map(\.word)
        }
        if case .command(_, let target, let rest) = commandTree.route(before) {
            let spec = target.spec
            if let previous = rest.last, previous.hasPrefix("--"),
                let option = spec.options.first(where: { "--" + $0.name == previous })
            {
                return option.choices.filter { $0.hasPrefix(prefix) }
            }
            if prefix.hasPrefix("-") { suggestions += CommandLineParser.optionNames(of: spec) }
        }
        return suggestions.filter { $0.hasPrefix(prefix) }
    }
}
