import Foundation
import HoorayBasics
import HoorayKit
import HoorayText

/// Why an import file cannot be read; the description names the file, the line or field, and the fix.
public struct ImportFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Hashable {
        /// The file holds nothing.
        case empty
        /// The file is not JSON at all.
        case notJSON
        /// The file is Hooray's CSV export, which is for spreadsheets and is not read back.
        case hoorayCSV
        /// The JSON stops before it is complete; holds the last line.
        case truncated(line: Int)
        /// The JSON has a syntax error; holds the parser's words.
        case malformed(detail: String)
        /// The JSON is not a Hooray export.
        case otherProgram
        /// The export is of a newer version than this Hooray reads.
        case newerVersion(Int)
        /// A field is wrong: its path and what is wrong with it.
        case field(String, String)
        /// A record or value appears twice: the second one's path, the first one's, what it is,
        /// and the line of the second when it could be found.
        case duplicate(String, earlier: String, what: String, line: Int?)
        /// A field of a record is wrong: its path, what is wrong (a sentence of its own), and the
        /// line of the record when it could be found.
        case value(String, String, line: Int?)
        /// The file is a zip, which `hooray import` does not read.
        case zip
        /// A record's value does not read as its kind: the value's path, the kind, what is wrong
        /// with it, and the line of the record when it could be found.
        case record(String, kind: String, problem: String, line: Int?)
    }

    /// The file.
    public let file: String
    /// What is wrong.
    public let problem: Problem
    /// The names of the importers installed plugins offer (`hooray import --from NAME`), for the
    /// hint of a file that is not JSON; none by default.
    public var importers: [String] = []

    /// Creates an error.
    public init(file: String, problem: Problem) {
        self.file = file
        self.problem = problem
    }

    /// The fix that ends most messages.
    static let exportAgain = "Export it again with `hooray export -o FILE`, then import that file."

    public var description: String {
        let name = TerminalText.safe(file)
        let nothing = " Nothing was imported."
        switch problem {
        case .empty:
            return "\(name) is empty. \(Self.exportAgain)" + nothing
        case .notJSON:
            let hint =
                importers.contains("loop")
                ? " For Loop Habit Tracker's Habits.csv, use `hooray import --from loop FILE`."
                : importers.isEmpty
                    ? ""
                    : " For another program's export, `hooray import --from NAME FILE` reads it when NAME is one of: "
                        + importers.sorted().joined(separator: ", ") + "."
            return "\(name) is not a Hooray export: `hooray import` reads the JSON file `hooray export` writes."
                + hint + nothing
        case .hoorayCSV:
            return "\(name) is Hooray's CSV export, which is made for spreadsheets: `hooray import` reads the JSON "
                + "export. Export it as JSON with `hooray export -o FILE`, then import that file." + nothing
        case .truncated(let line):
            return "\(name) ends at line \(line) before its JSON does: the file was cut short, perhaps by a copy "
                + "that did not finish. \(Self.exportAgain)" + nothing
        case .malformed(let detail):
            return "\(name) is not valid JSON (\(detail)). Undo the edit that broke it, or "
                + Self.exportAgain.prefix(1).lowercased() + Self.exportAgain.dropFirst() + nothing
        case .otherProgram:
            return "\(name) is JSON from another program, not a Hooray export: it lacks \"format\": "
                + "\"\(ExportDocument.format)\". Give `hooray import` a file written by `hooray export`." + nothing
        case .newerVersion(let version):
            return "\(name) is a Hooray export of version \(version), newer than this Hooray "
                + "(\(HoorayVersion.current)) reads: version \(ExportDocument.version). Update Hooray, then import "
                + "it again." + nothing
        case .field(let path, let what):
            return "\(name): \(path) \(what). Correct it, or "
                + Self.exportAgain.prefix(1).lowercased() + Self.exportAgain.dropFirst() + nothing
        case .duplicate(let path, let earlier, let what, let line):
            let whereItIs = line.map { "line \($0), " } ?? ""
            return "\(name): \(whereItIs)\(path) repeats the id of \(earlier) (\(TerminalText.safe(what))); each "
                + "record appears once. Remove one of the two, then import again." + nothing
        case .value(let path, let problem, let line):
            let whereItIs = line.map { "line \($0), " } ?? ""
            return "\(name): \(whereItIs)\(path): \(TerminalText.safe(problem)). Correct it, or "
                + Self.exportAgain.prefix(1).lowercased() + Self.exportAgain.dropFirst() + nothing
        case .zip:
            return "\(name) is a zip file: `hooray import` reads the JSON file `hooray export` writes, not the CSV "
                + "export's zip. Export it as JSON with `hooray export -o FILE`, then import that file. For Loop "
                + "Habit Tracker's zip, unzip it and use `hooray import --from loop FOLDER`." + nothing
        case .record(let path, let kind, let problem, let line):
            let whereItIs = line.map { "line \($0), " } ?? ""
            return "\(name): \(whereItIs)\(path) is not a \(TerminalText.safe(kind)) Hooray can read: "
                + "\(TerminalText.safe(problem)). Undo the edit that changed it, or "
                + Self.exportAgain.prefix(1).lowercased() + Self.exportAgain.dropFirst() + nothing
        }
    }
}

/// A small look at JSON text, for messages: where it stops, and which line holds what.
enum JSONScan {
    /// The last line, when the text ends inside a string, an object or an array; `nil` when every
    /// bracket is closed.
    static func endsInside(_ text: String) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        var line = 1
        for character in text {
            if character == "\n" { line += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{", "[": depth += 1
            case "}", "]": depth -= 1
            default: break
            }
        }
        if text.last == "\n" { line -= 1 }
        return inString || depth > 0 ? max(line, 1) : nil
    }

    /// One step of a path into JSON: an object's member or an array's element.
    enum Step: Equatable {
        case key(String)
        case index(Int)
    }

    /// The line on which the value at `path` starts, such as the `{` of one record; `nil` when the
    /// text has no such value. Strings are skipped whole, so a value that holds the same words
    /// elsewhere is not mistaken for it.
    static func line(of path: [Step], in text: String) -> Int? {
        struct Frame {
            var isArray: Bool
            var index = 0
            var key = ""
            var expectingKey = true
        }
        let scalars = Array(text.unicodeScalars)
        var frames: [Frame] = []
        var line = 1
        var position = 0
        /// Moves past a string that starts at `position`, returning its text.
        func readString() -> String {
            var value = String.UnicodeScalarView()
            position += 1
            while position < scalars.count {
                let scalar = scalars[position]
                position += 1
                if scalar == "\n" { line += 1 }
                if scalar == "\\", position < scalars.count {
                    value.append(scalar)
                    value.append(scalars[position])
                    position += 1
                } else if scalar == "\"" {
                    break
                } else {
                    value.append(scalar)
                }
            }
            let raw = "\"" + String(value) + "\""
            return (try? JSONDecoder().decode(String.self, from: Data(raw.utf8))) ?? String(value)
        }
        while position < scalars.count {
            let scalar = scalars[position]
            switch scalar {
            case "\n":
                line += 1
                position += 1
                continue
            case " ", "\t", "\r":
                position += 1
                continue
            case ",":
                if let last = frames.indices.last {
                    if frames[last].isArray { frames[last].index += 1 } else { frames[last].expectingKey = true }
                }
                position += 1
                continue
            case ":":
                if let last = frames.indices.last { frames[last].expectingKey = false }
                position += 1
                continue
            case "}", "]":
                _ = frames.popLast()
                position += 1
                continue
            default: break
            }
            if let last = frames.indices.last, !frames[last].isArray, frames[last].expectingKey {
                frames[last].key = scalar == "\"" ? readString() : ""
                if scalar != "\"" { position += 1 }
                continue
            }
            // The start of a value.
            let here: [Step] = frames.map { $0.isArray ? .index($0.index) : .key($0.key) }
            if here == path { return line }
            switch scalar {
            case "{":
                frames.append(Frame(isArray: false))
                position += 1
            case "[":
                frames.append(Frame(isArray: true))
                position += 1
            case "\"":
                _ = readString()
            default:
                while position < scalars.count, !",}] \t\r\n".unicodeScalars.contains(scalars[position]) {
                    position += 1
                }
            }
        }
        return nil
    }

    /// The parser's words about a syntax error, without Foundation's framing.
    static func describe(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            if let underlying = context.underlyingError as NSError?,
                let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String
            {
                return detail
            }
            return context.debugDescription
        }
        return "\(error)"
    }
}
