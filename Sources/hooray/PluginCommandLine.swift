import ArgumentParser
import Foundation
import HoorayCLIHost
import HoorayCommandLine
import HoorayCommands
import HoorayConfig
import HoorayEngine
import HoorayKit
import HoorayStorage
import HoorayTerminal
import HoorayText

/// Every plugin command, from the registered plugins.
let commandTree: CommandTree = {
    do {
        // hoorayd reserves CommandTree.hostWords; these are hooray's own commands as they stand.
        return try CommandTree(
            plugins: installedPlugins,
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
            guard let word = rest.first else { return nil }
            if isHostWord(word) {
                // `hooray help config check` is swift-argument-parser's; a word past hooray's own
                // command is not a command.
                let host = Hooray.hostCommands.first { $0._commandName == word }
                let names = host?.configuration.subcommands.map { $0._commandName } ?? []
                let known = rest.count == 1 || (rest.count == 2 && names.contains(rest[1]))
                guard !known else { return nil }
                let extra = names.contains(rest[1]) ? rest[2] : rest[1]
                let path = names.contains(rest[1]) ? "\(word) \(rest[1])" : word
                var message = "hooray help \(path): there is no command \"\(extra)\""
                if path == word, let near = NameSuggestion.closest(to: extra, among: names) {
                    message += "; did you mean `hooray help \(word) \(near)`?"
                }
                warn(message)
                warn("See `hooray help \(path)`.")
                return ExitStatus.usage.rawValue
            }
            // The deepest command or group the words name; a word after it that names nothing is unknown.
            guard
                let depth = (1...rest.count).reversed().first(where: {
                    commandTree.index(of: Array(rest.prefix($0))) != nil
                }),
                let node = commandTree.index(of: Array(rest.prefix(depth)))
            else {
                return unknown(rest, prefix: "hooray help")
            }
            if depth < rest.count {
                return unknownBelow(node: node, word: rest[depth], prefix: "hooray help")
            }
            if commandTree.nodes[node].command == nil {
                print(CommandHelp.groupText(tree: commandTree, node: node), terminator: "")
            } else {
                print(CommandHelp.text(tree: commandTree, node: node), terminator: "")
            }
            return 0
        }
        if isHostWord(first), let group = Hooray.hostCommands.first(where: { $0._commandName == first }),
            case let names = group.configuration.subcommands.map({ $0._commandName }), !names.isEmpty,
            let word = arguments.dropFirst().first, !word.hasPrefix("-"), !names.contains(word), word != "help"
        {
            // `hooray config chek`: a mistyped command of one of hooray's own groups.
            var message = "hooray \(first): there is no command \"\(word)\""
            if let near = NameSuggestion.closest(to: word, among: names) {
                message += "; did you mean `hooray \(first) \(near)`?"
            }
            warn(message)
            warn("Commands: \(names.joined(separator: ", ")). See `hooray help \(first)`.")
            return ExitStatus.usage.rawValue
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
        guard let session = try? CLISession(configFile: GlobalArguments.current.config) else { return false }
        if let response = try? session.send(.status), let status = response.status {
            return status.plugins.contains(plugin)
        }
        // Errors in the plugin's own section: its command runs, and says what to fix.
        guard let (loaded, _) = try? session.loadConfigurationLeniently(plugins: installedPlugins, for: plugin) else {
            return true
        }
        return loaded.enabledPlugins.contains(plugin)
    }

    static func isHostWord(_ word: String) -> Bool {
        hostCommandNames.contains(word)
    }

    /// The names of `hooray`'s own commands, as a table.
    ///
    /// Every command line asks for them, and ArgumentParser's names cost a third of the start of
    /// `hooray win` without hoorayd: each `_commandName` builds the command's configuration (the
    /// plugins' importers, for `import`) and, for a type that does not name itself, scans every
    /// protocol conformance of the binary. The debug build checks the table against ArgumentParser's
    /// names whenever it is first read, so any test that runs `hooray` catches a command added to
    /// ``Hooray/hostCommands`` and not here.
    static let hostCommandNames: Set<String> = {
        let table: Set<String> = [
            "next", "inbox", "missed", "act", "pause", "status", "bar", "menu", "plugins", "plugin", "config",
            "reload", "delete-my-data", "export", "import", "identity", "ai", "sync", "doctor", "help", "coach",
            "review",
        ]
        assert(
            table == namesFromArgumentParser,
            "PluginCommandLine.hostCommandNames is not hooray's own commands: \(namesFromArgumentParser.sorted())")
        return table
    }()

    /// The names of `hooray`'s own commands as ArgumentParser gives them, with their aliases.
    static var namesFromArgumentParser: Set<String> {
        Set(
            Hooray.hostCommands.flatMap { command in [command._commandName] + command.configuration.aliases } + ["help"]
        )
    }

    static func run(path: [String], arguments: [String]) async -> Int32 {
        switch commandTree.route(path + arguments) {
        case nil:
            return unknown(arguments, prefix: "hooray")
        case .group(let node, let unknownWord):
            if let unknownWord { return unknownBelow(node: node, word: unknownWord, prefix: "hooray") }
            print(CommandHelp.groupText(tree: commandTree, node: node), terminator: "")
            return 0
        case .command(let node, let target, let rest):
            // A command with commands under it and no arguments of its own (such as a plugin's list
            // command with an `edit` under it): a word after it can only be a mistyped command.
            if let word = rest.first, !word.hasPrefix("-"), target.spec.arguments.isEmpty,
                !commandTree.visibleChildren(of: node).isEmpty
            {
                return unknownBelow(node: node, word: word, prefix: "hooray")
            }
            return await runCommand(path: commandTree.nodes[node].path, target: target, words: rest)
        }
    }

    /// Reports a word under a group or command that names none of its commands, with the near
    /// match and the commands there are.
    static func unknownBelow(node: Int, word: String, prefix: String) -> Int32 {
        let path = commandTree.nodes[node].path.joined(separator: " ")
        let names = commandTree.visibleChildren(of: node).map(\.word)
        var message = "\(prefix) \(path): there is no command \"\(word)\""
        if let near = NameSuggestion.closest(to: word, among: names) {
            message += "; did you mean `\(prefix) \(path) \(near)`?"
        }
        warn(message)
        if names.isEmpty {
            warn("`hooray \(path)` has no commands under it. See `hooray help \(path)`.")
        } else {
            warn("Commands: \(names.joined(separator: ", ")). See `hooray help \(path)`.")
        }
        return ExitStatus.usage.rawValue
    }

    static func unknown(_ words: [String], prefix: String) -> Int32 {
        let word = words.first ?? ""
        let candidates = Array(hostCommandNames) + commandTree.visibleChildren(of: 0).map(\.word)
        var message = "\(prefix): there is no command \"\(word)\""
        if let near = NameSuggestion.closest(to: word, among: candidates.sorted()) {
            // `hooray help nxt` suggests `hooray help next`.
            message += "; did you mean `\(prefix) \(near)`?"
        }
        warn(message)
        warn("See `hooray --help` for the commands.")
        return ExitStatus.usage.rawValue
    }

    static func runCommand(path: [String], target: CommandTree.Target, words: [String]) async -> Int32 {
        let spec = target.spec
        let label = "hooray " + path.joined(separator: " ")
        let session: CLISession
        var parsed: ParsedCommandLine
        do {
            let global = GlobalArguments.current
            var probe = try CLISession(configFile: global.config)
            parsed = try CommandLineParser.parse(words, spec: spec, environment: environment(session: probe))
            if !parsed.wantsHelp, let node = commandTree.index(of: path),
                let refusal = FreeTextGuard.refusal(words, node: node, tree: commandTree)
            {
                throw CommandUsageError(refusal.joined(separator: "\n"))
            }
            if parsed.configFile != nil { probe = try CLISession(configFile: parsed.configFile) }
            session = probe
            if global.json, !parsed.wantsHelp {
                guard spec.offersJSON else {
                    throw CommandUsageError("this command has no JSON output; leave out --json")
                }
                parsed.invocation.json = true
            }
        } catch let error as CommandUsageError {
            warn("\(label): \(error.message)")
            if let hint = titleHint(path: path, spec: spec, words: words) { warn(hint) }
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
        // Words given where an id is expected are no id: the command refuses them, with no question first.
        let givenIDs = invocation.values["id"] ?? []
        let idsLookRight = givenIDs.allSatisfy { $0.count >= 4 && $0.allSatisfy { $0.isHexDigit || $0 == "-" } }
        if let question = spec.confirmation, !parsed.yes, idsLookRight {
            guard interactive else {
                // Going ahead needs a word on the command line: a usage matter, as a missing argument is.
                warn("\(label): not asking without a terminal; add --yes to go ahead")
                return ExitStatus.usage.rawValue
            }
            var asked = question
            for (name, values) in invocation.values {
                asked = asked.replacingOccurrences(of: "{\(name)}", with: values.joined(separator: " "))
            }
            Self.prompt("\(asked) [y/N] ")
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                print("Kept.")
                return 0
            }
        }
        // What was left out and has a question is asked on a terminal, arguments first, in the order
        // declared; Enter leaves it out. A question with a menu is answered with one key.
        let questions =
            spec.arguments.compactMap { argument in
                argument.prompt.map {
                    (argument.name, MenuQuestion(text: $0, choices: argument.menu, isOptional: argument.isOptional))
                }
            }
            + spec.options.compactMap { option in
                option.prompt.map {
                    (option.name, MenuQuestion(text: $0, choices: option.menu, isOptional: !option.isRequired))
                }
            }
        for (name, question) in questions where interactive && invocation.values[name] == nil {
            guard !question.choices.isEmpty else {
                Self.prompt("\(question.text) ")
                if let answer = readLine(), !answer.isEmpty { invocation.values[name] = [answer] }
                continue
            }
            switch question.ask() {
            case .picked(let value): invocation.values[name] = [value]
            case .leftOut: break
            case .cancelled:
                warn(MenuQuestion.cancelledMessage)
                return ExitStatus.failed.rawValue
            }
        }
        for argument in spec.arguments where !argument.isOptional && invocation.values[argument.name] == nil {
            warn("\(label): missing <\(argument.name)>: \(argument.help)")
            warn("Usage: \(CommandHelp.usage(path: path, spec: spec))")
            return 64
        }
        if spec.streams, !pluginCatalog.external.contains(where: { $0.name == target.plugin }) {
            return await runListing(invocation, plugin: target.plugin, path: path, spec: spec, session: session)
        }
        let runner = PluginCommandRunner(session: session, plugins: installedPlugins)
        let reply: CommandReply
        let venue: PluginCommandRunner.Venue
        do {
            (reply, venue) = try await ConfigEntryWrite.run(
                runner, invocation, plugin: target.plugin, spec: spec)
        } catch let failure as PluginCommandFailed where failure.invalidValue != nil {
            await runner.stopHostedPlugins()
            // A value the plugin refused is a usage error, as an unknown option is.
            warn("\(label): \(TerminalText.safe(failure.message, multiline: true))")
            warn("Usage: \(CommandHelp.usage(path: path, spec: spec))")
            warn("See `hooray help \(path.joined(separator: " "))`.")
            return ExitStatus.usage.rawValue
        } catch let failure as PluginCommandFailed {
            await runner.stopHostedPlugins()
            switch failure.status {
            case .busy:
                // Kept for a hoorayd that has not answered (it runs once), or turned away by a busy one:
                // the message says which, and neither is the command's failure.
                warn(TerminalText.safe(failure.message, multiline: true))
            default:
                // The message may quote stored text, such as a name the user gave.
                warn("\(label): \(TerminalText.safe(failure.message, multiline: true))")
                // A plugin in another language keeps its own promises; only a built-in one's are known here.
                let isBuiltIn = !pluginCatalog.external.contains { $0.name == target.plugin }
                if !failure.mayHaveRun && spec.writes(invocation) && isBuiltIn { warn("Nothing was saved.") }
            }
            return failure.exitCode ?? failure.status.rawValue
        } catch {
            await runner.stopHostedPlugins()
            warn("\(label): \(TerminalText.safe("\(error)", multiline: true))")
            return 1
        }
        show(reply, json: invocation.json)
        var status: Int32 = 0
        if let text = reply.clipboard {
            // Here, not in the plugin: hoorayd may have run the command, outside the user's desktop session.
            switch Clipboard.copy(text, environment: session.environment) {
            case .copied(let tool):
                let line = "Copied to the clipboard with \(tool.name)."
                if invocation.json { warn(line) } else { print(line) }
            case .notCopied(let message):
                warn("\(label): \(message)")
                status = ExitStatus.failed.rawValue
            }
        }
        if let file = session.configFile, venue == .daemon {
            // The daemon's plugins run with the configuration it read; say so rather than seem to have read FILE.
            warn(
                "Note: hoorayd ran this with the configuration it started with, not \(file); "
                    + "give --config to hoorayd itself (or `hooray reload` after adding the file to \(UserPaths.configDropIns)/)."
            )
        }
        if let finished = await runner.finish(after: reply) {
            if let followUp = finished.followUp, !invocation.json, !followUp.text.isEmpty { print(followUp.text) }
            if finished.undelivered {
                warn(
                    "No notification server answered; the notification waits in `hooray inbox`. What you did is saved.")
            }
        }
        if let guide = reply.guide {
            // Here, not in the plugin: hoorayd, which may have run the command, has no terminal. Last,
            // once all else is said; stopping it early is the user's choice, not a failure.
            GuidePlayer.play(
                guide,
                mode: GuidePlayer.mode(
                    json: invocation.json, environment: session.environment, color: invocation.environment.color))
        }
        return status
    }

    /// When the last word of a command is also what its parent command takes as an argument, such as
    /// a title that reads like a command (`hooray remind list --at 18:00`), and the words have options
    /// only the parent takes: the parent's full name, which reads every word after it as arguments.
    ///
    /// - Returns: A line saying which options belong to the parent and what to type; `nil` otherwise.
    static func titleHint(path: [String], spec: CommandSpec, words: [String]) -> String? {
        guard path.count >= 2, let node = commandTree.index(of: Array(path.dropLast())),
            let parent = commandTree.nodes[node].command, let argument = parent.spec.arguments.first
        else { return nil }
        let own = Set(spec.options.map(\.name) + spec.flags.map(\.name))
        let theirs = Set(parent.spec.options.map(\.name) + parent.spec.flags.map(\.name))
        let foreign = words.compactMap { word -> String? in
            guard word.hasPrefix("--") else { return nil }
            let name = String(word.dropFirst(2).prefix { $0 != "=" })
            return !own.contains(name) && theirs.contains(name) ? "--" + name : nil
        }
        guard !foreign.isEmpty else { return nil }
        let word = path[path.count - 1]
        let full = ["hooray", parent.plugin, parent.spec.name, "\"\(word)\""] + words.map(ShellCommand.quoted)
        let parentName = "hooray " + path.dropLast().joined(separator: " ")
        return "\(Set(foreign).sorted().joined(separator: ", ")) belongs to `\(parentName)`; "
            + "for <\(argument.name)> \"\(word)\", write it in full: \(full.joined(separator: " "))"
    }

    /// Asks a question where the user sees it: on standard output when it is the terminal, else on
    /// standard error (with output to a file or a pipe, a question there would never be seen).
    static func prompt(_ question: String) {
        if isatty(STDOUT_FILENO) == 1 {
            print(question, terminator: "")
            fflush(nil)
        } else {
            FileHandle.standardError.write(Data(question.utf8))
        }
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
        CommandEnvironment.terminal(session: session)
    }
}

/// Shell completion of plugin commands' options and values, which swift-argument-parser's scripts
/// ask `hooray` for: option names, an option's choices, files for paths and `--config`, and values
/// a command prints (a plugin command's `completionCommand`, such as a list of names).
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
            if let previous = rest.last, previous == "--config" {
                return files(matching: prefix, extensions: ["toml"])
            }
            if let previous = rest.last, previous.hasPrefix("--"),
                let option = spec.options.first(where: { "--" + $0.name == previous })
            {
                if !option.choices.isEmpty { return option.choices.filter { $0.hasPrefix(prefix) } }
                if option.isPath { return files(matching: prefix) }
                if let command = option.completionCommand { return lines(of: command, matching: prefix) }
                return []
            }
            if prefix.hasPrefix("-") {
                suggestions += CommandLineParser.optionNames(of: spec)
            } else if let argument = argument(at: rest, spec: spec) {
                if argument.isPath { return files(matching: prefix) }
                if let command = argument.completionCommand { return lines(of: command, matching: prefix) }
            }
        }
        return suggestions.filter { $0.hasPrefix(prefix) }
    }

    /// The positional argument the next word is, given the words of the command so far.
    static func argument(at rest: [String], spec: CommandSpec) -> CommandSpec.Argument? {
        var count = 0
        var index = 0
        while index < rest.count {
            let word = rest[index]
            if word.hasPrefix("--") {
                let name = String(word.dropFirst(2))
                if !name.contains("="), name == "config" || spec.options.contains(where: { $0.name == name }) {
                    index += 1
                }
            } else {
                count += 1
            }
            index += 1
        }
        guard let last = spec.arguments.last else { return nil }
        return count < spec.arguments.count ? spec.arguments[count] : last.isRepeating ? last : nil
    }

    /// The files and folders whose paths start with what was typed, as the shell would offer them.
    static func files(matching typed: String, extensions: [String] = []) -> [String] {
        // What bash passes is the word as typed, escapes included (`my\ photos/`).
        let prefix = unescaped(typed)
        let slash = prefix.lastIndex(of: "/")
        let folder = slash.map { String(prefix[...$0]) } ?? ""
        let start = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        var path = folder.isEmpty ? "." : folder
        if path.hasPrefix("~/") { path = NSHomeDirectory() + path.dropFirst(1) }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [] }
        return names.filter { $0.hasPrefix(start) && (start.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted()
            .compactMap { name in
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(
                    atPath: (path as NSString).appendingPathComponent(name), isDirectory: &isFolder)
                if isFolder.boolValue { return escaped(folder + name) + "/" }
                guard extensions.isEmpty || extensions.contains((name as NSString).pathExtension) else { return nil }
                return escaped(folder + name)
            }
    }

    /// The lines `hooray WORDS…` prints that start with `prefix`; none when it fails or takes
    /// longer than five seconds. It takes a tenth of a second on an idle computer; a busy one can
    /// take seconds, and a slow offer is better than none, but the shell is never kept waiting long.
    static func lines(of command: [String], matching prefix: String) -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = command
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return [] }
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            return []
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else { return [] }
        let typed = unescaped(prefix)
        return text.split(separator: "\n").map(String.init).filter { $0.hasPrefix(typed) }.map(escaped)
    }

    /// A value as bash is to insert it into the command line, spaces and other special characters
    /// escaped with a backslash (`Read\ books`). The script passes the words through `compgen -W`,
    /// which takes one level of backslashes away, so they are doubled here. zsh and fish quote what
    /// they insert themselves.
    static func escaped(_ value: String) -> String {
        guard isBash else { return value }
        let special = Set(" \t'\"\\$`()&;|<>*?[]{}!#")
        return value.map { special.contains($0) ? "\\\\\($0)" : String($0) }.joined()
    }

    /// A word as typed in bash without its backslash escapes: `my\ photos/` is `my photos/`.
    static func unescaped(_ typed: String) -> String {
        guard isBash else { return typed }
        var plain = ""
        var escaping = false
        for character in typed {
            if character == "\\" && !escaping {
                escaping = true
                continue
            }
            escaping = false
            plain.append(character)
        }
        return plain
    }

    static var isBash: Bool { ProcessInfo.processInfo.environment["SAP_SHELL"] == "bash" }
}
