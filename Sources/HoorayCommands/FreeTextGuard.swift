import Foundation
import HoorayKit
import HoorayText

/// Keeps a mistyped command from being saved as free text: `hooray swap histroy` is not a swap named
/// "histroy", `hooray win list` is not a moment named "list".
///
/// A command that saves what its first argument takes, every remaining word (a swap, a moment, a
/// reminder's title; a command with a ``CommandSpec/noun``), would take any word that follows it. When it is reached by a short alias (`swap`, `win`, `remind`)
/// and the first of those words is a command word of the same plugin, or one of the words people
/// type to manage what they saved (``commandVerbs``), it is refused, as git refuses a mistyped
/// command: with the near match and the way to say the words are meant, `--` before them. A single
/// word of four letters or more that is one typo away from a command word is refused too; longer text
/// only when its first word asks to see or change what was saved (``managingVerbs``) or is a command
/// right here, so that "Walked the dog" and "home cooked dinner" are never taken for anything else.
///
/// Words the user evidently quoted, one argument holding spaces, are taken as text; so are words
/// after `--`, and every word given to a command's full name (`hooray reminders add list`).
public enum FreeTextGuard {
    /// Words that ask to see or change what was saved, refused as the start of free text even where
    /// the plugin has no command by that name.
    public static let commandVerbs: Set<String> = [
        "list", "ls", "show", "delete", "remove", "rm", "edit", "undo", "help", "history",
    ]

    /// The ``commandVerbs`` that refuse longer text too: the ones that ask to see or change what was
    /// saved ("show" and "help" start ordinary sentences).
    public static let managingVerbs: Set<String> = [
        "list", "ls", "delete", "remove", "rm", "edit", "undo", "history",
    ]

    /// Why the words given to the command at `node` are not taken as its text, with the fix; `nil`
    /// when they are.
    ///
    /// - Parameters:
    ///   - words: The words after the command, as given.
    ///   - node: The command's node in `tree`.
    ///   - tree: Every plugin command.
    /// - Returns: The lines of the refusal: the problem with the near match, then the fix.
    public static func refusal(_ words: [String], node: Int, tree: CommandTree) -> [String]? {
        let current = tree.nodes[node]
        // Free text is the words a command saves (it has a noun), all of them in its first argument.
        guard let target = current.command, target.spec.noun != nil, let argument = target.spec.arguments.first,
            argument.isRepeating, !argument.isPath, current.path != [target.plugin, target.spec.name]
        else { return nil }
        let spec = target.spec
        var options: [String] = []
        var positionals: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "--" {
                // Words after `--` are the user's, as meant.
                guard !positionals.isEmpty else { return nil }
                positionals += words[(index + 1)...]
                break
            }
            if word.hasPrefix("--") {
                options.append(word)
                let name = String(word.dropFirst(2).prefix { $0 != "=" })
                if !word.contains("="), spec.options.contains(where: { $0.name == name }) || name == "config",
                    index + 1 < words.count
                {
                    index += 1
                    options.append(words[index])
                }
            } else {
                positionals.append(word)
            }
            index += 1
        }
        guard let first = positionals.first, !first.contains(where: \.isWhitespace) else { return nil }
        let candidates = commandWords(near: node, except: target, tree: tree)
        let lowered = first.lowercased()
        let meant: String
        let exact: Bool
        // Longer text starts with a command word only when it asks to see or change what was saved,
        // or names a command right here: "home cooked dinner" and "show mum the garden" are moments.
        let startsText =
            positionals.count == 1 ? candidates : managingVerbs.union(tree.visibleChildren(of: node).map(\.word))
        if startsText.contains(lowered) {
            (meant, exact) = (lowered, true)
        } else if positionals.count == 1, lowered.count >= 4,
            let near = NameSuggestion.closest(to: lowered, among: candidates.sorted())
        {
            (meant, exact) = (near, false)
        } else {
            return nil
        }
        let label = "hooray " + current.path.joined(separator: " ")
        let noun = spec.noun ?? "its text"
        let text = positionals.joined(separator: " ")
        var problem =
            exact
            ? "\"\(first)\" is a command word, so \"\(text)\" was not taken as \(noun)"
            : "\"\(first)\" looks like a mistyped command, not \(noun)"
        if let path = suggestion(for: meant, near: node, plugin: target.plugin, tree: tree) {
            problem += "; did you mean `\(path)`?"
        } else {
            problem +=
                "; `\(label)` has no command \"\(meant)\" (see `hooray help \(current.path.joined(separator: " "))`)"
        }
        let fixed = ([label] + options + ["--"] + positionals.map(quoted)).joined(separator: " ")
        return [problem, "Nothing was saved. To keep the words as they are, put -- before them: \(fixed)"]
    }

    /// The words that may have been meant at `node`: its commands, the plugin's other commands
    /// wherever they are, and ``commandVerbs``; not the names of the command itself (`log`, `win`),
    /// so that "jog" is a moment, not a typo of `log`.
    static func commandWords(near node: Int, except target: CommandTree.Target, tree: CommandTree) -> Set<String> {
        var words = commandVerbs
        for child in tree.visibleChildren(of: node) { words.insert(child.word) }
        for other in tree.nodes
        where !other.isHidden && other.command?.plugin == target.plugin && other.command != target {
            words.insert(other.word)
        }
        return words
    }

    /// The command line the user probably meant by `word`: a command under `node`, else the
    /// plugin's shortest command of that name, else `hooray help` for `help`.
    static func suggestion(for word: String, near node: Int, plugin: String, tree: CommandTree) -> String? {
        if let child = tree.visibleChildren(of: node).first(where: { $0.word == word }) {
            return "hooray " + child.path.joined(separator: " ")
        }
        // The shortest; among those the one under the same first word (`swap list`, not `swaps list`),
        // then an alias rather than the plugin's own name (`moments delete`, not `wins delete`).
        let first = tree.nodes[node].path.first
        let named = tree.nodes.filter { !$0.isHidden && $0.command?.plugin == plugin && $0.word == word }
        func rank(_ candidate: CommandTree.Node) -> (Int, Int, Int) {
            (candidate.path.count, candidate.path.first == first ? 0 : 1, candidate.path.first == plugin ? 1 : 0)
        }
        if let shortest = named.min(by: { rank($0) < rank($1) }) {
            return "hooray " + shortest.path.joined(separator: " ")
        }
        if word == "help" { return "hooray help " + tree.nodes[node].path.joined(separator: " ") }
        return nil
    }

    /// A word as the shell reads it back: as it is when plain, otherwise in double quotes.
    static func quoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) || "/._-+,:@%".unicodeScalars.contains($0)
            }
        if plain { return word }
        let escaped = word.reduce(into: "") { result, character in
            if "\"\\$`".contains(character) { result.append("\\") }
            result.append(character)
        }
        return "\"\(escaped)\""
    }
}
