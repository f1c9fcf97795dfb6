import Foundation
import HoorayClient
import HoorayCommandLine
import HoorayConfig
import HoorayKit
import HoorayText

/// A plugin command's words, parsed against its ``CommandSpec``.
public struct ParsedCommandLine: Sendable, Equatable {
    /// The command as the plugin gets it.
    public var invocation: CommandInvocation
    /// `--config FILE`, which every command takes.
    public var configFile: String?
    /// `--yes`, which commands with a confirmation take.
    public var yes: Bool
    /// `-h` or `--help` was given: show help, run nothing.
    public var wantsHelp: Bool
}

/// The command line was not understood: `hooray` prints the message with the usage and exits 64.
public struct CommandUsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, and the fix.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Parses a plugin command's words: positional arguments, `--option VALUE`, `--option=VALUE`,
/// `--flag`, `--` before words that start with a dash, and the options every command takes
/// (`--config`, `--help`, and `--json` or `--yes` where the command offers them).
public enum CommandLineParser {
    /// Parses the words after the command's name.
    ///
    /// - Parameters:
    ///   - words: The words.
    ///   - spec: The command.
    ///   - environment: Where it was given.
    ///   - workingDirectory: The folder relative paths start from.
    ///   - home: The home folder, for `~/`.
    /// - Throws: ``CommandUsageError`` naming the word that was not understood.
    public static func parse(
        _ words: [String], spec: CommandSpec, environment: CommandEnvironment = CommandEnvironment(),
        workingDirectory: String = FileManager.default.currentDirectoryPath, home: String = NSHomeDirectory()
    ) throws -> ParsedCommandLine {
        var parsed = ParsedCommandLine(
            invocation: CommandInvocation(command: spec.name, environment: environment), configFile: nil, yes: false,
            wantsHelp: false)
        if words.prefix(while: { $0 != "--" }).contains(where: CommandHelp.isHelp) {
            parsed.wantsHelp = true
            return parsed
        }
        var positionals: [String] = []
        var index = 0
        var onlyPositionals = false
        func value(for name: String, inline: String?) throws -> String {
            if let inline { return inline }
            index += 1
            guard index < words.count else {
                throw CommandUsageError("--\(name) needs a value")
            }
            return words[index]
        }
        while index < words.count {
            let word = words[index]
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
            } else if word == "--" {
                onlyPositionals = true
            } else if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                if let option = spec.options.first(where: { $0.name == name }) {
                    let given = try value(for: name, inline: inline)
                    // An empty path would otherwise become the current folder.
                    if option.isPath && given.isEmpty {
                        throw CommandUsageError(
                            "--\(name) needs a \(option.valueName), and \"\" names none; give its path")
                    }
                    let stored = option.isPath ? absolute(given, workingDirectory: workingDirectory, home: home) : given
                    if option.isRepeating {
                        parsed.invocation.values[name, default: []].append(stored)
                    } else {
                        parsed.invocation.values[name] = [stored]
                    }
                } else if spec.flags.contains(where: { $0.name == name }) || (name == "json" && spec.offersJSON)
                    || (name == "yes" && spec.confirmation != nil)
                {
                    if let inline {
                        throw CommandUsageError("--\(name) is a flag and takes no value; leave out \"\(inline)\"")
                    }
                    switch name {
                    case "json" where spec.offersJSON: parsed.invocation.json = true
                    case "yes" where spec.confirmation != nil: parsed.yes = true
                    default: parsed.invocation.flags.insert(name)
                    }
                } else if name == "no-color" {
                    parsed.invocation.environment.color = false
                } else if name == "config" {
                    parsed.configFile = absolute(
                        try value(for: name, inline: inline), workingDirectory: workingDirectory, home: home)
                } else {
                    let known = optionNames(of: spec)
                    let hint =
                        NameSuggestion.closest(to: "--" + name, among: known).map { "; did you mean \($0)?" }
                        ?? "; it takes \(known.joined(separator: ", "))"
                    throw CommandUsageError("unknown option --\(name)\(hint)")
                }
            } else {
                throw CommandUsageError("unknown option \(word); options are written with two dashes, such as --help")
            }
            index += 1
        }
        try assign(positionals, to: spec, into: &parsed.invocation, workingDirectory: workingDirectory, home: home)
        return parsed
    }

    /// Every option and flag of a command as typed, `--config`, `--no-color` and `--help` included.
    public static func optionNames(of spec: CommandSpec) -> [String] {
        var names = spec.options.map { "--" + $0.name } + spec.flags.map { "--" + $0.name }
        if spec.offersJSON { names.append("--json") }
        if spec.confirmation != nil { names.append("--yes") }
        return names + ["--config", "--no-color", "--help"]
    }

    private static func assign(
        _ positionals: [String], to spec: CommandSpec, into invocation: inout CommandInvocation,
        workingDirectory: String, home: String
    ) throws {
        var remaining = positionals[...]
        for argument in spec.arguments {
            let taken: [String]
            if argument.isRepeating {
                taken = Array(remaining)
                remaining = []
            } else if let first = remaining.first {
                taken = [first]
                remaining = remaining.dropFirst()
            } else {
                taken = []
            }
            if taken.isEmpty {
                guard argument.isOptional || argument.prompt != nil else {
                    throw CommandUsageError("missing <\(argument.name)>: \(argument.help)")
                }
                continue
            }
            if argument.isPath && taken.contains("") {
                throw CommandUsageError("<\(argument.name)> needs a path, and \"\" names none; give its path")
            }
            invocation.values[argument.name] =
                argument.isPath ? taken.map { absolute($0, workingDirectory: workingDirectory, home: home) } : taken
        }
        if let extra = remaining.first {
            let quoted = remaining.count > 1 ? "\"\(remaining.joined(separator: " "))\"" : "\"\(extra)\""
            throw CommandUsageError(
                "unexpected argument\(remaining.count > 1 ? "s" : "") \(quoted)"
                    + (spec.arguments.isEmpty
                        ? "; this command takes none" : "; put words with spaces in quotes"))
        }
    }

    /// A path made absolute: `~/` is the home folder, relative paths start at the working folder.
    static func absolute(_ path: String, workingDirectory: String, home: String) -> String {
        let expanded = path == "~" ? home : path.hasPrefix("~/") ? home + path.dropFirst(1) : path
        let full = expanded.hasPrefix("/") ? expanded : (workingDirectory as NSString).appendingPathComponent(expanded)
        return (full as NSString).standardizingPath
    }
}
