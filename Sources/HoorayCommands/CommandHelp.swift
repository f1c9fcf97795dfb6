import Foundation
import HoorayCommandLine
import HoorayKit

/// `--help` for plugin commands, laid out as swift-argument-parser lays out `hooray`'s own.
public enum CommandHelp {
    /// Whether a word asks for help.
    public static func isHelp(_ word: String) -> Bool {
        word == "-h" || word == "--help"
    }

    /// The usage line of a command, such as `hooray win [<text> ...] [--ago <time>] [--json]`.
    public static func usage(path: [String], spec: CommandSpec) -> String {
        var parts = ["hooray"] + path
        for argument in spec.arguments {
            var part = "<\(argument.name)>"
            if argument.isRepeating { part += " ..." }
            parts.append(argument.isOptional || argument.prompt != nil ? "[\(part)]" : part)
        }
        for option in spec.options {
            parts.append("[--\(option.name) <\(option.valueName)>\(option.isRepeating ? " ..." : "")]")
        }
        for flag in spec.flags { parts.append("[--\(flag.name)]") }
        if spec.offersJSON { parts.append("[--json]") }
        if spec.confirmation != nil { parts.append("[--yes]") }
        return parts.joined(separator: " ")
    }

    /// The whole help of a command.
    ///
    /// - Parameters:
    ///   - path: The words that run it.
    ///   - spec: The command.
    ///   - subcommands: The commands nested under it (`moments fav` under `moments`), as words and summaries.
    public static func text(path: [String], spec: CommandSpec, subcommands: [(word: String, summary: String)] = [])
        -> String
    {
        "OVERVIEW: \(spec.summary)\n" + body(path: path, spec: spec, subcommands: subcommands)
    }

    /// The help after its overview line: discussion, usage, arguments, options, subcommands, examples.
    public static func body(path: [String], spec: CommandSpec, subcommands: [(word: String, summary: String)] = [])
        -> String
    {
        var out = ""
        if !spec.discussion.isEmpty { out += "\n" + wrap(spec.discussion, indent: 0) + "\n" }
        out += "\nUSAGE: \(usage(path: path, spec: spec))\n"
        if !spec.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for argument in spec.arguments {
                out += row("<\(argument.name)>", argument.help)
            }
        }
        out += "\nOPTIONS:\n"
        for option in spec.options {
            var help = option.help
            if !option.choices.isEmpty && !help.contains(option.choices[0]) {
                help += " (\(option.choices.joined(separator: ", ")))"
            }
            out += row("--\(option.name) <\(option.valueName)>", help)
        }
        for flag in spec.flags { out += row("--\(flag.name)", flag.help) }
        if spec.offersJSON { out += row("--json", "Print JSON instead of text.") }
        if spec.confirmation != nil { out += row("--yes", "Go ahead without asking.") }
        out += row("--config <file>", "Read this configuration file after all others.")
        out += row("--no-color", "Print no colours, as NO_COLOR=1 does.")
        out += row("-h, --help", "Show help information.")
        if !subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for (word, summary) in subcommands { out += row(word, summary) }
        }
        if !spec.examples.isEmpty {
            out += "\nEXAMPLES:\n" + spec.examples.map { "  " + $0 }.joined(separator: "\n") + "\n"
        }
        return out
    }

    /// The help of the command at a node of the tree, with the commands nested under it.
    public static func text(tree: CommandTree, node: Int) -> String {
        guard let spec = tree.nodes[node].command?.spec else { return groupText(tree: tree, node: node) }
        return text(
            path: tree.nodes[node].path, spec: spec,
            subcommands: tree.visibleChildren(of: node).map { ($0.word, $0.summary) })
    }

    /// The help of a group: a plugin, or an alias such as `habit`, and its commands.
    public static func groupText(tree: CommandTree, node: Int) -> String {
        let group = tree.nodes[node]
        var out = "OVERVIEW: \(group.summary)\n"
        out += "\nUSAGE: hooray \(group.path.joined(separator: " ")) <subcommand>\n"
        out += "\nOPTIONS:\n" + row("-h, --help", "Show help information.")
        out += "\nSUBCOMMANDS:\n"
        for child in group.children where !tree.nodes[child].isHidden {
            let marker = group.defaultChild == child ? " (default)" : ""
            out += row(tree.nodes[child].word + marker, tree.nodes[child].summary)
        }
        out += "\n  See 'hooray help \(group.path.joined(separator: " ")) <subcommand>' for detailed help.\n"
        return out
    }

    /// The width help is wrapped to.
    static let width = 80
    /// The width of the label column, as swift-argument-parser's.
    static let labelWidth = 26

    static func row(_ label: String, _ help: String) -> String {
        let lead = "  " + label
        let helpLines = wrapLines(help, width: width - labelWidth - 2)
        var out: String
        if lead.count + 2 > labelWidth {
            out = lead + "\n"
            out += helpLines.map { String(repeating: " ", count: labelWidth + 2) + $0 }.joined(separator: "\n")
        } else {
            out = lead.padding(toLength: labelWidth + 2, withPad: " ", startingAt: 0) + (helpLines.first ?? "")
            for line in helpLines.dropFirst() { out += "\n" + String(repeating: " ", count: labelWidth + 2) + line }
        }
        return out + "\n"
    }

    static func wrap(_ text: String, indent: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { paragraph -> String in
            // Lines that are indented (examples) are kept as they are.
            if paragraph.hasPrefix(" ") { return String(paragraph) }
            return wrapLines(String(paragraph), width: width - indent).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    static func wrapLines(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(word)
            } else {
                line += (line.isEmpty ? "" : " ") + word
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
