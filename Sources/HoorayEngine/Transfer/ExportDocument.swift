import Foundation
import HoorayKit
import HoorayStorage

/// The file `hooray export` writes and `hooray import` reads: the user's data in a documented,
/// versioned form (docs/export.md).
///
/// The same data always gives the same bytes: no time of export, plugins, records and keys in a
/// fixed order, JSON with sorted keys. So `export → delete-my-data → import → export` gives the
/// file it started with.
public enum ExportDocument {
    /// The value of `format` that marks a Hooray export.
    public static let format = "hooray-export"
    /// The version this Hooray writes, and the newest it reads.
    public static let version = 1

    // MARK: JSON

    /// The data as the JSON export: pretty-printed, keys sorted, ending with a newline.
    public static func json(_ data: UserData) -> String {
        var plugins: [String: JSONValue] = [:]
        for (name, content) in data.plugins {
            let records: [JSONValue] = content.records.map { record in
                var fields: [String: JSONValue] = ["kind": .string(record.kind), "id": .string(record.id)]
                switch record.date {
                case .day(let day): fields["day"] = .string(day.description)
                case .instant(let instant): fields["instant"] = .number(instant.timeIntervalSince1970)
                }
                embed(record.data, into: &fields)
                return .object(fields)
            }
            let values: [JSONValue] = content.values.map { value in
                var fields: [String: JSONValue] = ["key": .string(value.key)]
                embed(value.data, into: &fields)
                return .object(fields)
            }
            plugins[name] = .object(["records": .array(records), "values": .array(values)])
        }
        let document: JSONValue = .object([
            "format": .string(format), "version": .number(Double(version)), "plugins": .object(plugins),
        ])
        return document.text(pretty: true) + "\n"
    }

    /// `value` holds the stored bytes as JSON when they are JSON, `base64` holds them otherwise.
    static func embed(_ data: Data, into fields: inout [String: JSONValue]) {
        if let value = try? JSONDecoder().decode(JSONValue.self, from: data) {
            fields["value"] = value
        } else {
            fields["base64"] = .string(data.base64EncodedString())
        }
    }

    /// Reads a JSON export.
    ///
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - file: The file's name, for messages.
    ///   - check: Why a record's stored value cannot be one of its plugin's records, given the
    ///     plugin's name, the record's kind and the value; `nil` to accept it (the default, for
    ///     every record).
    /// - Returns: The data it holds.
    /// - Throws: ``ImportFileError`` naming the line or field that is wrong and the fix.
    public static func read(
        _ bytes: Data, file: String,
        check: (_ plugin: String, _ kind: String, _ value: Data) -> String? = { _, _, _ in nil }
    ) throws(ImportFileError) -> UserData {
        let text = String(decoding: bytes, as: UTF8.self)
        guard !text.allSatisfy(\.isWhitespace) else { throw ImportFileError(file: file, problem: .empty) }
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: bytes)
        } catch {
            let first = text.first { !$0.isWhitespace }
            if text.hasPrefix("version,plugin,table,") || text.hasPrefix("plugin,table,kind,") {
                throw ImportFileError(file: file, problem: .hoorayCSV)
            }
            if first != "{" && first != "[" { throw ImportFileError(file: file, problem: .notJSON) }
            if let line = JSONScan.endsInside(text) {
                throw ImportFileError(file: file, problem: .truncated(line: line))
            }
            throw ImportFileError(file: file, problem: .malformed(detail: JSONScan.describe(error)))
        }
        guard case .object(let top) = document, top["format"]?.stringValue == format else {
            throw ImportFileError(file: file, problem: .otherProgram)
        }
        guard case .number(let number)? = top["version"], number.rounded() == number, number >= 1 else {
            throw ImportFileError(file: file, problem: .field("version", "is not a whole number of 1 or more"))
        }
        guard number <= Double(version) else {
            throw ImportFileError(file: file, problem: .newerVersion(Int(exactly: number) ?? Int.max))
        }
        guard case .object(let plugins)? = top["plugins"] else {
            throw ImportFileError(file: file, problem: .field("plugins", "is missing or not an object of plugins"))
        }
        var data = UserData()
        for (name, content) in plugins.sorted(by: { $0.key < $1.key }) {
            let path = "plugins.\(name)"
            guard isPluginName(name) else {
                throw ImportFileError(
                    file: file,
                    problem: .field(path, "is not a plugin's name (lowercase letters, digits and dashes)"))
            }
            guard case .object(let fields) = content else {
                throw ImportFileError(file: file, problem: .field(path, "is not an object with records and values"))
            }
            let records = try list(fields["records"], at: path + ".records", file: file)
            let values = try list(fields["values"], at: path + ".values", file: file)
            var plugin = UserData.Plugin()
            var seen: [String: Int] = [:]
            for (index, entry) in records.enumerated() {
                let at = "\(path).records[\(index)]"
                let record = try self.record(entry, at: at, file: file)
                let key = record.kind + "\u{0}" + record.id
                if let earlier = seen[key] {
                    throw ImportFileError(
                        file: file,
                        problem: .duplicate(
                            at, earlier: "\(path).records[\(earlier)]", what: "\(record.kind) \(record.id)",
                            line: JSONScan.line(
                                of: [.key("plugins"), .key(name), .key("records"), .index(index)], in: text)))
                }
                if let problem = check(name, record.kind, record.data) {
                    let field = entry["value"] == nil ? "base64" : "value"
                    throw ImportFileError(
                        file: file,
                        problem: .record(
                            "\(at).\(field)", kind: record.kind, problem: problem,
                            line: JSONScan.line(
                                of: [.key("plugins"), .key(name), .key("records"), .index(index)], in: text)))
                }
                seen[key] = index
                plugin.records.append(record)
            }
            seen = [:]
            for (index, entry) in values.enumerated() {
                let at = "\(path).values[\(index)]"
                guard case .object(let fields) = entry, let key = fields["key"]?.stringValue else {
                    throw ImportFileError(file: file, problem: .field(at, "has no \"key\" string"))
                }
                if let earlier = seen[key] {
                    throw ImportFileError(
                        file: file,
                        problem: .duplicate(
                            at, earlier: "\(path).values[\(earlier)]", what: "key \(key)",
                            line: JSONScan.line(
                                of: [.key("plugins"), .key(name), .key("values"), .index(index)], in: text)))
                }
                seen[key] = index
                plugin.values.append(StoredValue(key: key, data: try Self.bytes(of: fields, at: at, file: file)))
            }
            data.plugins[name] = UserData.Plugin(records: plugin.records, values: plugin.values)
        }
        return data
    }

    /// Whether a name can be a plugin's: lowercase letters, digits and dashes.
    static func isPluginName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    static func list(_ value: JSONValue?, at path: String, file: String) throws(ImportFileError) -> [JSONValue] {
        switch value {
        case nil: return []
        case .array(let items)?: return items
        default: throw ImportFileError(file: file, problem: .field(path, "is not an array"))
        }
    }

    static func record(_ entry: JSONValue, at path: String, file: String) throws(ImportFileError) -> StoredRecord {
        guard case .object(let fields) = entry else {
            throw ImportFileError(file: file, problem: .field(path, "is not an object"))
        }
        guard let kind = fields["kind"]?.stringValue, !kind.isEmpty else {
            throw ImportFileError(file: file, problem: .field(path + ".kind", "is missing or not a string"))
        }
        guard let id = fields["id"]?.stringValue, !id.isEmpty else {
            throw ImportFileError(file: file, problem: .field(path + ".id", "is missing or not a string"))
        }
        let date: RecordDate
        switch (fields["day"], fields["instant"]) {
        case (.string(let text)?, nil):
            guard let day = LocalDate(parsing: text) else {
                throw ImportFileError(file: file, problem: .field(path + ".day", "is not a date written YYYY-MM-DD"))
            }
            date = .day(day)
        case (nil, .number(let seconds)?):
            date = .instant(Date(timeIntervalSince1970: seconds))
        default:
            throw ImportFileError(
                file: file,
                problem: .field(path, "needs either \"day\" (YYYY-MM-DD) or \"instant\" (seconds since 1970)"))
        }
        return StoredRecord(kind: kind, id: id, date: date, data: try Self.bytes(of: fields, at: path, file: file))
    }

    static func bytes(of fields: [String: JSONValue], at path: String, file: String) throws(ImportFileError) -> Data {
        switch (fields["value"], fields["base64"]) {
        case (let value?, nil):
            return Data(value.text().utf8)
        case (nil, .string(let text)?):
            guard let data = Data(base64Encoded: text) else {
                throw ImportFileError(file: file, problem: .field(path + ".base64", "is not base64"))
            }
            return data
        default:
            throw ImportFileError(file: file, problem: .field(path, "needs either \"value\" or \"base64\""))
        }
    }

    // MARK: CSV

    /// The version of the CSV layout this Hooray writes, in the `version` column of every row.
    /// Version 1 had no such column (its header began `plugin,table`).
    public static let csvVersion = 2

    /// The header of the CSV export.
    public static let csvHeader = ["version", "plugin", "table", "kind", "id", "day", "instant", "value"]

    /// The data as the CSV export: a header, then one row per record and one per key-value pair,
    /// by plugin; values as compact JSON (`base64:` and the bytes when they are not JSON).
    ///
    /// The layout's version is a column of its own rather than a line before the header, so that a
    /// spreadsheet still reads the first line as the header and each row says which layout it is.
    public static func csv(_ data: UserData) -> String {
        let version = String(csvVersion)
        var rows = [csvHeader]
        for (name, content) in data.plugins.sorted(by: { $0.key < $1.key }) {
            for record in content.records {
                let (day, instant): (String, String) =
                    switch record.date {
                    case .day(let day): (day.description, "")
                    case .instant(let instant): ("", JSONValue.number(instant.timeIntervalSince1970).text())
                    }
                rows.append([version, name, "record", record.kind, record.id, day, instant, cell(record.data)])
            }
            for value in content.values {
                rows.append([version, name, "value", "", value.key, "", "", cell(value.data)])
            }
        }
        return rows.map { $0.map(quoted).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    static func cell(_ data: Data) -> String {
        if let value = try? JSONDecoder().decode(JSONValue.self, from: data) { return value.text() }
        return "base64:" + data.base64EncodedString()
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

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
