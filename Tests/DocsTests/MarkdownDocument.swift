import Foundation

/// A Markdown file of the repository, read as far as the documentation checks need: its links, the
/// anchors its headings make, and the `hooray` commands its code blocks show.
///
/// The rules, kept simple on purpose:
///
/// - **Links** are `[text](target)`, `![alt](target)`, `<https://…>` and reference definitions
///   (`[name]: target`) outside code blocks and code spans. A relative target must name a file or
///   folder that exists (from the file's folder; a leading `/` from the repository's root); its
///   `#anchor`, when the target is a Markdown file (or the same file), must be a heading's anchor
///   there. `http`, `https` and `mailto` links are not fetched, only checked to be well formed. DocC's
///   own links (`<doc:…>`, ``` ``Symbol`` ```) are DocC's to check: `make docs DOCS_FLAGS=--warnings-as-errors`.
/// - **Anchors** follow GitHub's rule: the heading's text as shown (code and emphasis marks and a
///   link's target left out), lowercased, every character that is not a letter, a digit, a space, `-`
///   or `_` removed, spaces made `-`; a repeated heading gets `-1`, `-2`, … An `<a id="…">` or
///   `<a name="…">` is an anchor too.
/// - **Commands** are lines of fenced code blocks. In a block with a prompt (a line starting `$ `),
///   only the prompted lines `$ hooray …` are commands, and the lines after each are its output. In a
///   block without one, every line starting `hooray ` (or that is `hooray`) is a command. Words are
///   split as a POSIX shell splits them (quotes, backslashes); the command ends at an unquoted `|`,
///   `;`, `&`, `<`, `>` or a `#` that starts a word (a comment). A line with an unquoted `[` is a
///   syntax summary (`hooray export [--format json|csv]`), not a command, and is not checked. A
///   command whose output shown in the block has a `Usage: hooray` line is shown being refused on
///   purpose, and is not checked either. Placeholders such as `NAME`, `ID` or `"…"` need no rule:
///   the parser takes any word where a word is expected; where it wants a number, the docs show one.
struct MarkdownDocument {
    /// The file's path, relative to the repository's root, as messages name it.
    var path: String
    /// Its lines.
    var lines: [String]

    /// A link and the line it is on (1-based).
    struct Link: Equatable {
        var target: String
        var line: Int
    }

    /// A command shown in a code block, and its line (1-based).
    struct Command: Equatable {
        var text: String
        var words: [String]
        var line: Int
    }

    init(path: String, text: String) {
        self.path = path
        self.lines = text.components(separatedBy: "\n")
    }

    /// What a line is: text, a code block's fence, or a line inside a code block.
    enum LineKind { case text, fence, code }

    /// The kind of each line.
    var lineKinds: [LineKind] {
        var kinds: [LineKind] = []
        var open: (character: Character, count: Int)?
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let run = trimmed.first.map { first in trimmed.prefix { $0 == first } } ?? ""
            if let fence = open {
                let closes =
                    run.first == fence.character && run.count >= fence.count
                    && trimmed.dropFirst(run.count).allSatisfy(\.isWhitespace)
                kinds.append(closes ? .fence : .code)
                if closes { open = nil }
            } else if let first = run.first, first == "`" || first == "~", run.count >= 3 {
                open = (first, run.count)
                kinds.append(.fence)
            } else {
                kinds.append(.text)
            }
        }
        return kinds
    }

    /// Each line, and whether it is part of a fenced code block (its fences included).
    var classifiedLines: [(text: String, inCode: Bool)] {
        zip(lines, lineKinds).map { ($0, $1 != .text) }
    }

    /// The lines of each fenced code block, with their line numbers (fences left out).
    var codeBlocks: [[(text: String, line: Int)]] {
        var blocks: [[(text: String, line: Int)]] = []
        var current: [(text: String, line: Int)]?
        for (index, kind) in lineKinds.enumerated() {
            switch kind {
            case .text: continue
            case .code: current?.append((lines[index], index + 1))
            case .fence:
                if let block = current {
                    blocks.append(block)
                    current = nil
                } else {
                    current = []
                }
            }
        }
        if let block = current { blocks.append(block) }
        return blocks
    }

    /// The links outside code.
    var links: [Link] {
        var found: [Link] = []
        for (index, entry) in classifiedLines.enumerated() where !entry.inCode {
            let text = Self.withoutCodeSpans(entry.text)
            for match in text.matches(of: /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/) {
                found.append(Link(target: String(match.1), line: index + 1))
            }
            for match in text.matches(of: /<((?:https?|mailto):[^>\s]+)>/) {
                found.append(Link(target: String(match.1), line: index + 1))
            }
            if let match = text.wholeMatch(of: /\s{0,3}\[[^\]]+\]:\s+<?([^\s>]+)>?.*/) {
                found.append(Link(target: String(match.1), line: index + 1))
            }
        }
        return found
    }

    /// The anchors the headings (and `<a id>`/`<a name>` tags) make, as GitHub makes them.
    var anchors: Set<String> {
        var seen: [String: Int] = [:]
        var result: Set<String> = []
        for entry in classifiedLines where !entry.inCode {
            if let match = entry.text.wholeMatch(of: /\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*/) {
                let base = Self.slug(String(match.1))
                let count = seen[base, default: 0]
                seen[base] = count + 1
                result.insert(count == 0 ? base : "\(base)-\(count)")
            }
            for match in entry.text.matches(of: /<a\s+(?:id|name)="([^"]+)"/) {
                result.insert(String(match.1))
            }
        }
        return result
    }

    /// GitHub's anchor for a heading's text.
    static func slug(_ heading: String) -> String {
        // As shown: a link's text without its target.
        let shown = heading.replacing(/!?\[([^\]]*)\]\([^)]*\)/) { String($0.1) }
        var slug = ""
        for character in shown.lowercased() {
            if character == " " {
                slug.append("-")
            } else if character == "-" || character == "_" || character.isLetter || character.isNumber {
                slug.append(character)
            }
        }
        return slug
    }

    /// A line with its code spans blanked out, so a link written inside one is not read as a link.
    static func withoutCodeSpans(_ line: String) -> String {
        line.replacing(/(`+)(?:(?!\1).)+?\1/) { String(repeating: " ", count: $0.output.0.count) }
    }

    /// The `hooray` commands shown in code blocks; see the type's discussion for the rules.
    var commands: [Command] {
        var found: [Command] = []
        for block in codeBlocks {
            let prompted = block.contains { $0.text.trimmingCharacters(in: .whitespaces).hasPrefix("$ ") }
            for (position, entry) in block.enumerated() {
                var text = entry.text.trimmingCharacters(in: .whitespaces)
                if prompted {
                    guard text.hasPrefix("$ ") else { continue }
                    text = String(text.dropFirst(2)).trimmingCharacters(in: .whitespaces)
                }
                guard text == "hooray" || text.hasPrefix("hooray ") else { continue }
                if prompted {
                    let output = block[(position + 1)...].prefix {
                        !$0.text.trimmingCharacters(in: .whitespaces).hasPrefix("$ ")
                    }
                    if output.contains(where: { $0.text.hasPrefix("Usage: hooray") }) { continue }
                }
                guard let words = Self.shellWords(text) else { continue }  // a syntax summary
                found.append(Command(text: text, words: words, line: entry.line))
            }
        }
        return found
    }

    /// Splits a command line into words as a POSIX shell does, up to where the command ends.
    ///
    /// - Returns: The words, or `nil` for a syntax summary (an unquoted `[`).
    static func shellWords(_ line: String) -> [String]? {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                word.append(character)
                escaped = false
                continue
            }
            if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    word.append(character)
                }
                continue
            }
            switch character {
            case "\\":
                escaped = true
                inWord = true
            case "'", "\"":
                quote = character
                inWord = true
            case " ", "\t":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "[":
                return nil
            case "|", ";", "&", "<", ">":
                if inWord { words.append(word) }
                return words
            case "#" where !inWord:
                return words
            default:
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
