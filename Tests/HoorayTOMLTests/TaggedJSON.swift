import Foundation
import HoorayTOML

/// Compares values read by HoorayTOML with toml-test's expectations: JSON in which every value is
/// tagged, `{"type": "integer", "value": "42"}`, tables are objects and arrays are arrays.
enum TaggedJSON {
    /// The differences between `table` and the expectation, as `path: what` lines; empty when equal.
    static func differences(_ table: TOMLTable, expected: Any) -> [String] {
        var found: [String] = []
        compare(.table(table), expected, path: "", into: &found)
        return found
    }

    private static func compare(_ value: TOMLValue, _ expected: Any, path: String, into found: inout [String]) {
        let here = path.isEmpty ? "(root)" : path
        switch value {
        case .table(let table):
            guard let object = expected as? [String: Any], !isTagged(object) else {
                return found.append("\(here): a table where the corpus expects \(expected)")
            }
            if Set(table.keys) != Set(object.keys) || table.keys.count != object.count {
                found.append("\(here): keys \(table.keys.sorted()) where the corpus expects \(object.keys.sorted())")
            }
            for entry in table.entries {
                guard let other = object[entry.key] else { continue }
                compare(entry.item.value, other, path: path + "." + entry.key, into: &found)
            }
        case .array(let items):
            guard let list = expected as? [Any] else {
                return found.append("\(here): an array where the corpus expects \(expected)")
            }
            guard list.count == items.count else {
                return found.append("\(here): \(items.count) elements where the corpus expects \(list.count)")
            }
            for (offset, item) in items.enumerated() {
                compare(item.value, list[offset], path: path + "[\(offset)]", into: &found)
            }
        default:
            guard let object = expected as? [String: Any], isTagged(object), let type = object["type"] as? String,
                let text = object["value"] as? String
            else { return found.append("\(here): \(value) where the corpus expects \(expected)") }
            if !matches(value, type: type, text: text) {
                found.append("\(here): \(value) where the corpus expects \(type) \(text.debugDescription)")
            }
        }
    }

    private static func isTagged(_ object: [String: Any]) -> Bool {
        object.count == 2 && object["type"] is String && object["value"] is String
    }

    private static func matches(_ value: TOMLValue, type: String, text: String) -> Bool {
        switch (value, type) {
        case (.string(let string), "string"): return string == text
        case (.integer(let integer), "integer"): return Int64(text) == integer
        case (.boolean(let bool), "bool"): return String(bool) == text
        case (.float(let float), "float"):
            switch text {
            case "nan", "+nan", "-nan": return float.isNaN
            case "inf", "+inf": return float == .infinity
            case "-inf": return float == -.infinity
            default: return Double(text) == float
            }
        case (.dateTime(let dateTime), _):
            let kinds: [String: TOMLDateTime.Kind] = [
                "datetime": .offsetDateTime, "datetime-local": .localDateTime, "date-local": .localDate,
                "time-local": .localTime,
            ]
            return kinds[type] == dateTime.kind && normalised(text) == dateTime.text
        default: return false
        }
    }

    /// `1979-05-27 07:32:00.500+00:00` → `1979-05-27T07:32:00.5Z`: what a date-time's text is compared as.
    static func normalised(_ dateTime: String) -> String {
        var text = Array(dateTime.uppercased())
        if text.count > 10 && text[10] == " " { text[10] = "T" }
        var result = String(text)
        if result.hasSuffix("+00:00") || result.hasSuffix("-00:00") { result = String(result.dropLast(6)) + "Z" }
        // The time: seconds added, the fraction's trailing zeros removed.
        let timeStart = result.count > 10 && text[10] == "T" ? 11 : (result.count >= 5 && text[2] == ":" ? 0 : -1)
        guard timeStart >= 0 else { return result }
        let chars = Array(result)
        var time = ""
        var index = timeStart
        while index < chars.count && (chars[index].isNumber || chars[index] == ":") {
            time.append(chars[index])
            index += 1
        }
        if time.count == 5 { time += ":00" }
        var fraction = ""
        if index < chars.count && chars[index] == "." {
            index += 1
            while index < chars.count && chars[index].isNumber {
                fraction.append(chars[index])
                index += 1
            }
            fraction = String(fraction.prefix(9))
            while fraction.hasSuffix("0") { fraction.removeLast() }
        }
        return String(chars[..<timeStart]) + time + (fraction.isEmpty ? "" : "." + fraction) + String(chars[index...])
    }
}

/// A file of the toml-test corpus in `Tests/Fixtures/toml-test`.
struct CorpusFile: CustomStringConvertible, Sendable {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/toml-test")

    /// `valid/array/array.toml`.
    let name: String

    var path: String { Self.root.appendingPathComponent(name).path }
    var bytes: [UInt8] { (try? Data(contentsOf: URL(fileURLWithPath: path))).map { Array($0) } ?? [] }
    var description: String { name }

    /// The expected values of a valid file.
    func expectation() throws -> Any {
        let json = Self.root.appendingPathComponent(String(name.dropLast(".toml".count)) + ".json")
        return try JSONSerialization.jsonObject(with: Data(contentsOf: json), options: [.fragmentsAllowed])
    }

    /// The `.toml` files toml-test lists for a TOML version.
    static func listed(for version: TOMLVersion) throws -> [CorpusFile] {
        let list = version == .v1_0 ? "files-toml-1.0.0" : "files-toml-1.1.0"
        let text = try String(contentsOf: root.appendingPathComponent(list), encoding: .utf8)
        return text.split(separator: "\n").filter { $0.hasSuffix(".toml") }.map { CorpusFile(name: String($0)) }
    }
}
