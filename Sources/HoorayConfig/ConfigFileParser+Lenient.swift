import Foundation
import HoorayTOML

extension ConfigFileParser {
    /// Reads what can be read of a file with mistakes: each section holding one is left out whole
    /// (for `[plugins.NAME…]`, every table of that plugin in the file; for a mistake above the first
    /// header, the keys there), and the rest is kept.
    ///
    /// - Returns: What was read (`nil` when nothing could be), and the parts left out, each with its
    ///   first mistake.
    static func readLeniently(_ text: String, file: String) -> (ConfigNode?, [IgnoredPart]) {
        let reading = read(text, file: file)
        guard !reading.errors.isEmpty else { return (reading.root, []) }
        let headers = headers(in: text)
        var root = reading.root.table ?? ConfigTable()
        var ignored: [IgnoredPart] = []
        var leftOut: Set<[String]> = []
        for error in reading.errors {
            guard let line = error.location?.line, line > 0 else {
                return (nil, ignored + [IgnoredPart(diagnostic: error, part: "the file")])
            }
            let owner = headers.last { $0.line <= line }
            let keys = owner.map { Array($0.keys.prefix($0.keys.first == "plugins" ? 2 : 1)) } ?? []
            guard leftOut.insert(keys).inserted else { continue }
            ignored.append(IgnoredPart(diagnostic: error, part: IgnoredPart.part(ofHeader: keys)))
            if keys.isEmpty {
                let firstHeader = headers.first?.line ?? Int.max
                for key in root.keys where (root.keyLocation(of: key)?.line ?? 0) < firstHeader { root[key] = nil }
            } else {
                remove(keys[...], from: &root)
            }
        }
        return (ConfigNode(.table(root), location: reading.root.location), ignored)
    }

    private static func remove(_ keys: ArraySlice<String>, from table: inout ConfigTable) {
        guard let key = keys.first else { return }
        guard keys.count > 1 else {
            table[key] = nil
            return
        }
        guard var node = table[key], var inner = node.table else { return }
        remove(keys.dropFirst(), from: &inner)
        node.value = .table(inner)
        table[key] = node
    }

    /// The table headers of a file and their lines, read off its syntax tree (so a line of a
    /// multi-line string or list that starts with `[` is no header); a header that could not be read
    /// is read off its text.
    static func headers(in text: String) -> [(line: Int, keys: [String])] {
        var headers: [(line: Int, keys: [String])] = []
        var line = 1
        for child in TOMLDocument(parsing: text).syntax.children {
            for part in child.kind == .section ? child.children : [child] {
                switch part.kind {
                case .tableHeader, .arrayTableHeader:
                    headers.append((line, part.keyParts))
                case .invalid:
                    if let keys = header(part.text.prefix { $0 != "\n" }) { headers.append((line, keys)) }
                default:
                    break
                }
                line += part.description.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            }
        }
        return headers
    }

    /// The keys of a table header line, such as `["plugins", "reminders", "reminder"]` for
    /// `[[plugins.reminders.reminder]]`; `nil` for other lines. Lenient: the header may be broken.
    static func header(_ line: Substring) -> [String]? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("[") else { return nil }
        var name = trimmed.drop { $0 == "[" }
        if let end = name.firstIndex(of: "]") { name = name[..<end] }
        let keys = name.split(separator: ".").map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }
        return keys.isEmpty || keys.contains(where: \.isEmpty) ? nil : keys
    }
}
