import ArgumentParser
import Foundation
import HoorayEngine
import HoorayKit
import HoorayTerminal
import HoorayText

/// What swift-argument-parser refuses in one of `hooray`'s own command lines, said the way every
/// other refusal of `hooray` is: `hooray COMMAND: the problem; did you mean …?`, the command's usage,
/// and where its help is; exit 64 (the exit status table's usage error).
///
/// swift-argument-parser's own words ("Error: Unknown option '--verison'") are read for what went
/// wrong, and the near match is found among the command's options or the option's values, as
/// plugin commands do (``NameSuggestion``).
enum ParserErrorReport {
    /// Prints the refusal and exits; help and the version, which end a parse cleanly, are printed as
    /// swift-argument-parser prints them.
    static func exit(_ error: any Error, arguments: [String]) -> Never {
        guard Hooray.exitCode(for: error) != .success else { Hooray.exit(withError: error) }
        for line in lines(for: error, arguments: arguments) { warn(line) }
        Foundation.exit(ExitStatus.usage.rawValue)
    }

    /// The lines that say what is wrong with `arguments`, and where to read more.
    static func lines(for error: any Error, arguments: [String]) -> [String] {
        let stack = commandStack(arguments)
        let path = stack.dropFirst().map { $0._commandName }
        let label = (["hooray"] + path).joined(separator: " ")
        let info = CommandInfo(stack.last ?? Hooray.self, isRoot: stack.count == 1)
        let problem = self.problem(Hooray.message(for: error), info: info)
        var lines = ["\(label): \(problem)"]
        if let command = stack.last, stack.count > 1 {
            lines.append("Usage: " + Hooray.usageString(for: command).trimmingCharacters(in: .whitespacesAndNewlines))
            lines.append("See `hooray help \(path.joined(separator: " "))`.")
        } else {
            lines.append("See `hooray --help`.")
        }
        return lines
    }

    /// `hooray`'s own commands that the words name, from the top: `[Hooray, AIGroup, SetKey]`.
    static func commandStack(_ arguments: [String]) -> [any ParsableCommand.Type] {
        var stack: [any ParsableCommand.Type] = [Hooray.self]
        var subcommands = Hooray.hostCommands
        for word in arguments where !word.hasPrefix("-") {
            guard
                let next = subcommands.first(where: {
                    $0._commandName == word || $0.configuration.aliases.contains(word)
                })
            else { break }
            stack.append(next)
            subcommands = next.configuration.subcommands
        }
        return stack
    }

    /// swift-argument-parser's message in Hooray's words, with a near match where there is one.
    static func problem(_ message: String, info: CommandInfo) -> String {
        if let option = captured(message, #"^Unknown option '([^']+)'"#) {
            var text = "unknown option \(option)"
            if let near = NameSuggestion.closest(to: option, among: info.optionNames) {
                text += "; did you mean \(near)?"
            } else {
                text += "; it takes \(info.optionNames.joined(separator: ", "))"
            }
            return text
        }
        if let value = captured(message, #"^The value '([^']*)' is invalid for"#) {
            let name = captured(message, #"is invalid for '(--[a-z0-9-]+)"#)
            let shown = name.map { "\($0) \"\(value)\"" } ?? "\"\(value)\""
            let values = name.flatMap { info.values[$0] } ?? []
            guard !values.isEmpty else {
                let valueName = captured(message, #"<([^>]+)>'"#).map { " for <\($0)>" } ?? ""
                return "\(shown) is not a valid value\(valueName)"
            }
            var text = "\(shown) is not one of \(values.joined(separator: ", "))"
            if let near = NameSuggestion.closest(to: value, among: values) {
                text += "; did you mean \(name.map { "\($0) \(near)" } ?? near)?"
            }
            return text
        }
        if let word = captured(message, #"^Unexpected argument '([^']*)'"#) {
            return "unexpected argument \"\(word)\"; put words with spaces in quotes, and see the usage below"
        }
        if let argument = captured(message, #"^Missing expected argument '([^']*)'"#) {
            return "missing \(argument)"
        }
        if let option = captured(message, #"^Missing value for '(--[a-z0-9-]+)"#) {
            return "\(option) needs a value"
        }
        // Hooray's own words, from a command's validation: already in its style.
        let first = message.prefix(1)
        return first.lowercased() + message.dropFirst()
    }

    /// The first group of `pattern` in `text`.
    static func captured(_ text: String, _ pattern: String) -> String? {
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            match.numberOfRanges > 1, let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    /// A command's options and the values each takes, from swift-argument-parser's description of it.
    struct CommandInfo {
        /// Every long option and flag, as typed: `--limit`, `--json`.
        var optionNames: [String] = []
        /// The values an option takes, when it names them, by the option as typed.
        var values: [String: [String]] = [:]

        init(_ command: any ParsableCommand.Type, isRoot: Bool) {
            struct Dump: Decodable {
                struct Command: Decodable { var arguments: [Argument]? }
                struct Argument: Decodable {
                    struct Name: Decodable {
                        var kind: String
                        var name: String
                    }
                    var names: [Name]?
                    var allValues: [String]?
                }
                var command: Command
            }
            let dump = try? JSONDecoder().decode(Dump.self, from: Data(command._dumpHelp().utf8))
            for argument in dump?.command.arguments ?? [] {
                guard let long = argument.names?.first(where: { $0.kind == "long" }) else { continue }
                let name = "--" + long.name
                // `--version` is the top's alone: the commands below refuse it.
                if name == "--version" && !isRoot { continue }
                if !optionNames.contains(name) { optionNames.append(name) }
                if let values = argument.allValues, !values.isEmpty { self.values[name] = values }
            }
            if isRoot && !optionNames.contains("--version") { optionNames.append("--version") }
        }
    }
}
