import Foundation
import HoorayClient

/// `--config FILE`, `--json`, `--no-color` and `--no-pager`: the options every command takes, before or after
/// its name (`hooray --config x.toml next` is `hooray next --config x.toml`).
///
/// They are taken out of the words before anything else reads them, so that `hooray`'s own
/// commands and the plugins' read them alike — in `hooray`, and in `hoorayd` for a command line
/// the `hooray` front door hands it (``FrontDoor``).
public struct GlobalArguments: Sendable {
    /// `--config FILE`: a configuration file read after all others, made absolute.
    public var config: String?
    /// `--json`: print JSON, for a command that offers it.
    public var json = false
    /// `--no-color`: no terminal colours, as `NO_COLOR=1`.
    public var noColor = false
    /// `--no-pager`: a listing prints all of itself rather than opening a pager on a terminal.
    public var noPager = false
    /// The words left for the command.
    public var remaining: [String] = []
    /// What was wrong with the global options, when something was.
    public var problem: String?

    /// The process's own.
    public static let current = GlobalArguments(parsing: ProcessArguments.current())

    /// Takes the global options out of the words, up to `--`.
    public init(
        parsing words: [String], workingDirectory: String = FileManager.default.currentDirectoryPath,
        home: String = NSHomeDirectory()
    ) {
        // The words swift-argument-parser's own machinery sends (completion scripts, the man page's
        // dump) are left as they are.
        if words.contains("---completion")
            || words.first.map({ $0.hasPrefix("--generate-completion-script") || $0 == "--experimental-dump-help" })
                == true
        {
            remaining = words
            return
        }
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "--" {
                remaining += words[index...]
                break
            }
            switch word {
            case "--json": json = true
            case "--no-color": noColor = true
            case "--no-pager": noPager = true
            case "--config":
                if index + 1 < words.count, !words[index + 1].hasPrefix("-") {
                    index += 1
                    config = Self.absolute(words[index], workingDirectory: workingDirectory, home: home)
                } else {
                    problem = "--config needs a file, such as --config ./extra.toml"
                }
            default:
                if word.hasPrefix("--config=") {
                    let file = String(word.dropFirst("--config=".count))
                    if file.isEmpty {
                        problem = "--config needs a file, such as --config=./extra.toml"
                    } else {
                        config = Self.absolute(file, workingDirectory: workingDirectory, home: home)
                    }
                } else if word.hasPrefix("--json=") || word.hasPrefix("--no-color=") || word.hasPrefix("--no-pager=") {
                    let name = word.prefix { $0 != "=" }
                    problem = "\(name) is a flag and takes no value; leave out \"\(word.dropFirst(name.count + 1))\""
                } else if index + 1 < words.count, Self.isNegativeNumber(words[index + 1]),
                    word.hasPrefix("--") && !word.contains("=") || Self.isShortOption(word)
                {
                    // `--days -1`, `-l -1`: a negative number after an option is its value, to be
                    // refused as negative by the command rather than read as an unknown option.
                    remaining.append(word + "=" + words[index + 1])
                    index += 1
                } else {
                    remaining.append(word)
                }
            }
            index += 1
        }
    }

    /// Whether a word is a short option, such as `-l`.
    public static func isShortOption(_ word: String) -> Bool {
        word.count == 2 && word.hasPrefix("-") && word.last?.isLetter == true
    }

    /// Whether a word is a negative number, such as `-1` or `-2.5`.
    public static func isNegativeNumber(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        return Double(word.dropFirst()) != nil && word.dropFirst().allSatisfy { $0.isNumber || $0 == "." }
    }

    /// A path made absolute: `~/` is the home folder, relative paths start at the working folder.
    public static func absolute(_ path: String, workingDirectory: String, home: String) -> String {
        let expanded = path == "~" ? home : path.hasPrefix("~/") ? home + path.dropFirst(1) : path
        let full = expanded.hasPrefix("/") ? expanded : (workingDirectory as NSString).appendingPathComponent(expanded)
        return (full as NSString).standardizingPath
    }
}
