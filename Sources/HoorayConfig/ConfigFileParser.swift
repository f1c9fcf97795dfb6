import Foundation
import HoorayKit
import TOMLKit

/// Reads TOML configuration files into ``ConfigNode`` trees whose nodes know their `file:line:column`.
public enum ConfigFileParser {
    /// Parses TOML text.
    ///
    /// - Parameters:
    ///   - text: The TOML document.
    ///   - file: The path to name in locations and diagnostics.
    /// - Returns: The root table; its location is the start of the file.
    /// - Throws: ``ConfigDiagnostics`` with one error at the place the syntax goes wrong.
    public static func parse(_ text: String, file: String) throws(ConfigDiagnostics) -> ConfigNode {
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        // toml++ skips a byte-order mark of its own, so a second one would pass unnoticed.
        if text.unicodeScalars.first == "\u{FEFF}" {
            throw [
                .error(
                    at: SourceLocation(file: file, line: 1, column: 1),
                    "the file starts with two byte-order marks (U+FEFF); only one may stand at the very start",
                    hint: "save the file again as UTF-8, with or without a byte-order mark")
            ]
        }
        // TOMLKit hands the text to C++ as a C string, which would end silently at a NUL.
        if let nul = position(of: "\u{0}", in: text) {
            throw [
                .error(
                    at: SourceLocation(file: file, line: nul.line, column: nul.column),
                    "the file contains a NUL character, so it is not a text file",
                    hint: "save it as UTF-8 text")
            ]
        }
        let scanned = TOMLLocator.hazardOrLocations(in: text, file: file)
        if case .failure(let found) = scanned {
            let hazard = found.hazard
            // toml++ would abort the process here (see `firstHazard`). What it finds wrong before
            // this place comes first, as it would in a file without it.
            var before = ""
            before.unicodeScalars.append(contentsOf: text.unicodeScalars.prefix(hazard.offset))
            let here = SourceLocation(file: file, line: hazard.location.line, column: hazard.location.column)
            // Cutting the text short can make a hazard of its own; then only this one is reported.
            if TOMLLocator.firstHazard(in: before) == nil {
                do {
                    _ = try parseWithTOMLKit(before, file: file)
                } catch let earlier where earlier.errors.contains(where: { $0.location.map { $0 < here } == true }) {
                    throw earlier
                } catch {}
            }
            throw [hazardError(hazard, at: here)]
        }
        let table = try parseWithTOMLKit(text, file: file)
        let locations = (try? scanned.get()) ?? [:]
        let converter = Converter(locations: locations)
        let root = converter.table(table, path: ConfigKeyPath())
        return ConfigNode(.table(root), location: SourceLocation(file: file, line: 1, column: 1))
    }

    /// Parses text that holds no header toml++ cannot cope with.
    private static func parseWithTOMLKit(_ text: String, file: String) throws(ConfigDiagnostics) -> TOMLTable {
        do {
            return try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let location = SourceLocation(file: file, line: error.source.begin.line, column: error.source.begin.column)
            let (message, hint) = TOMLErrorTranslation.translate(error.description)
            throw [.error(at: location, message, hint: hint)]
        } catch {
            throw [.error(at: .wholeFile(file), "the file could not be read as TOML: \(error)")]
        }
    }

    private static func hazardError(_ hazard: TOMLLocator.Hazard, at location: SourceLocation) -> ConfigDiagnostic {
        let found = hazard.found.map { "`\($0.escaped(asASCII: false))`" } ?? "the end of the file"
        let message: String
        let hint: String
        switch (hazard.kind, hazard.found) {
        case (.headerName, "\n"), (.headerName, "\r"), (.headerName, nil):
            message = "the table header has no name: the line ends after `[`"
            hint = "name the section, as in [plugins.reminders], or remove the `[` until you have finished it"
        case (.headerName, _):
            message = "the table header has no name: \(found) cannot start one"
            hint = "name the section, as in [plugins.reminders], or remove the `[` until you have finished it"
        case (.dateTime, _):
            message = "the time of this date-time is not complete"
            hint = "write a date-time as 2026-11-24 08:30:00 (or 2026-11-24T08:30:00), or only the date"
        case (.underscoreInDate, _):
            message = "a date cannot hold `_`"
            hint =
                "write dates as 2026-11-24, date-times as 2026-11-24 08:30:00; underscores only group digits of numbers"
        case (.listItem, _):
            message = "\(found) cannot stand in a list here"
            hint = "separate the values of a list with commas and end it with ], as in days = [\"mon\", \"fri\"]"
        }
        return .error(at: location, message, hint: hint)
    }

    /// Reads and parses a file.
    ///
    /// - Parameter path: The file's path.
    /// - Returns: The root table, or `nil` when the file does not exist.
    /// - Throws: ``ConfigDiagnostics`` with one error when the file exists but cannot be read, is not
    ///   UTF-8 text, or is not valid TOML.
    public static func parseFile(atPath path: String) throws(ConfigDiagnostics) -> ConfigNode? {
        guard let text = try FileReader.readText(atPath: path) else { return nil }
        return try parse(text, file: path)
    }

    private static func position(of target: Unicode.Scalar, in text: String) -> (line: Int, column: Int)? {
        var line = 1
        var column = 1
        for scalar in text.unicodeScalars {
            if scalar == target { return (line, column) }
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return nil
    }

    /// Turns TOMLKit values into nodes, attaching the locations the locator found.
    private struct Converter {
        let locations: [ConfigKeyPath: TOMLLocator.Entry]

        func table(_ table: TOMLTable, path: ConfigKeyPath) -> ConfigTable {
            // Each key's path and locations are looked up once, not at every comparison of the sort.
            var children = table.keys.map { key in
                let childPath = path.appending(key: key)
                return (key: key, path: childPath, entry: locations[childPath])
            }
            // toml++ keeps keys sorted; the file's order is what a reader expects.
            children.sort { left, right in
                switch (left.entry?.keyLocation, right.entry?.keyLocation) {
                case (let l?, let r?) where l != r: return l < r
                case (.some, nil): return true
                case (nil, .some): return false
                default: return left.key < right.key
                }
            }
            var result = ConfigTable()
            for child in children {
                guard let value = table[child.key] else { continue }
                result.set(
                    node(value, path: child.path, location: child.entry?.valueLocation), forKey: child.key,
                    keyLocation: child.entry?.keyLocation)
            }
            return result
        }

        func node(_ value: any TOMLValueConvertible, path: ConfigKeyPath, location: SourceLocation?) -> ConfigNode {
            switch value.type {
            case .table:
                return ConfigNode(
                    .table(value.table.map { table($0, path: path) } ?? ConfigTable()), location: location)
            case .array:
                var elements: [ConfigNode] = []
                if let array = value.array {
                    for (index, element) in array.enumerated() {
                        let elementPath = path.appending(index: index)
                        elements.append(
                            node(element, path: elementPath, location: locations[elementPath]?.valueLocation))
                    }
                }
                return ConfigNode(.array(elements), location: location)
            case .string:
                return ConfigNode(.string(value.string ?? ""), location: location)
            case .int:
                return ConfigNode(.integer(value.int ?? 0), location: location)
            case .double:
                return ConfigNode(.float(value.double ?? 0), location: location)
            case .bool:
                return ConfigNode(.boolean(value.bool ?? false), location: location)
            case .date:
                let date = value.date ?? TOMLDate(year: 1970, month: 1, day: 1)
                return ConfigNode(.dateTime(ConfigDateTime(kind: .localDate, text: text(date))), location: location)
            case .time:
                let time = value.time ?? TOMLTime(hour: 0, minute: 0, second: 0, nanoSecond: 0)
                return ConfigNode(.dateTime(ConfigDateTime(kind: .localTime, text: text(time))), location: location)
            case .dateTime:
                guard let dateTime = value.dateTime else {
                    return ConfigNode(
                        .dateTime(ConfigDateTime(kind: .localDate, text: "1970-01-01")), location: location)
                }
                var written = text(dateTime.date) + "T" + text(dateTime.time)
                let kind: ConfigDateTime.Kind
                if let offset = dateTime.offset {
                    kind = .offsetDateTime
                    written += offsetText(offset.offset)
                } else {
                    kind = .localDateTime
                }
                return ConfigNode(.dateTime(ConfigDateTime(kind: kind, text: written)), location: location)
            }
        }

        private func text(_ date: TOMLDate) -> String {
            "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))"
        }

        private func text(_ time: TOMLTime) -> String {
            var text = "\(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2))"
            if time.nanoSecond > 0 {
                var fraction = pad(time.nanoSecond, 9)
                while fraction.hasSuffix("0") { fraction.removeLast() }
                text += "." + fraction
            }
            return text
        }

        private func offsetText(_ minutes: Int) -> String {
            guard minutes != 0 else { return "Z" }
            let sign = minutes < 0 ? "-" : "+"
            return "\(sign)\(pad(abs(minutes) / 60, 2)):\(pad(abs(minutes) % 60, 2))"
        }

        private func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
    }
}
