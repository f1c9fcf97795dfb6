/// Where things are in a document's text, as the edits need them: each section with its header and
/// its key lines, by UTF-8 byte offset, read off the concrete syntax tree.
struct TOMLEditLayout {
    /// A `key = value` node and where it is.
    struct KeyLine {
        var node: TOMLSyntaxNode
        /// The node's first byte and the byte after it (its line end included, at the top level).
        var start: Int
        var end: Int
        /// The full key path: the section's header, then the key's parts.
        var path: [String]
        /// The spaces and tabs before the key.
        var indentation: String
        /// The text from the end of the key to the value (`" = "` as written).
        var assignment: String
        /// Whether the node ends with its line end (not at the end of a file without one).
        var endsWithNewline: Bool

        /// The value node's first byte and the byte after it.
        var valueRange: Range<Int>? {
            guard let index = node.valueIndex else { return nil }
            let offset = start + node.children[..<index].reduce(0) { $0 + $1.utf8Count }
            return offset..<(offset + node.children[index].utf8Count)
        }
    }

    /// A header and the lines below it, up to the next header.
    struct Section {
        /// The header's key parts; `nil` for the lines above the first header.
        var header: [String]?
        /// Whether the header is `[[name]]`.
        var isArrayTable: Bool
        var start: Int
        var end: Int
        /// The byte after the header's line.
        var bodyStart: Int
        /// Whether the header's line ends with a line end.
        var headerEndsWithNewline: Bool
        var keyLines: [KeyLine]
        /// Whether a comment or a line that could not be read is among the lines.
        var hasOtherLines: Bool
    }

    var sections: [Section] = []
    /// `"\r\n"` when the file's first line end is one, else `"\n"`.
    var newline = "\n"
    /// The byte after the byte-order mark, if any.
    var contentStart = 0

    init(_ document: TOMLSyntaxNode) {
        var offset = 0
        var sawNewline = false
        for child in document.children {
            defer { offset += child.utf8Count }
            if child.kind == .byteOrderMark {
                contentStart = child.utf8Count
                continue
            }
            guard child.kind == .section else { continue }
            var section = Section(
                header: nil, isArrayTable: false, start: offset, end: offset + child.utf8Count, bodyStart: offset,
                headerEndsWithNewline: true, keyLines: [], hasOtherLines: false)
            var position = offset
            for part in child.children {
                defer { position += part.utf8Count }
                switch part.kind {
                case .tableHeader, .arrayTableHeader:
                    section.header = part.keyParts
                    section.isArrayTable = part.kind == .arrayTableHeader
                    section.bodyStart = position + part.utf8Count
                    section.headerEndsWithNewline = part.children.last?.kind == .newline
                    if !sawNewline, let newline = part.children.last, newline.kind == .newline {
                        self.newline = newline.text
                        sawNewline = true
                    }
                case .keyValue:
                    let keyIndex = part.children.firstIndex { $0.kind == .key } ?? 0
                    let valueIndex = part.valueIndex ?? part.children.count
                    let line = KeyLine(
                        node: part, start: position, end: position + part.utf8Count,
                        path: (section.header ?? []) + part.keyParts,
                        indentation: part.children[..<keyIndex].map(\.description).joined(),
                        assignment: part.children[(keyIndex + 1)..<max(keyIndex + 1, valueIndex)].map(\.description)
                            .joined(),
                        endsWithNewline: part.children.last?.kind == .newline)
                    if !sawNewline, let newline = part.children.last, newline.kind == .newline {
                        self.newline = newline.text
                        sawNewline = true
                    }
                    section.keyLines.append(line)
                case .comment, .invalid:
                    section.hasOtherLines = true
                case .newline:
                    if !sawNewline {
                        newline = part.text
                        sawNewline = true
                    }
                default:
                    break
                }
            }
            sections.append(section)
        }
    }

    /// The indentation of keys below headers as the file writes them: that of the last such key,
    /// else none.
    var keyIndentation: String {
        sections.last { $0.header != nil && !$0.keyLines.isEmpty }?.keyLines.last?.indentation ?? ""
    }

    /// How the file writes ` = `: as its last key line does, else `" = "`.
    var assignment: String {
        Self.sane(sections.last { !$0.keyLines.isEmpty }?.keyLines.last?.assignment ?? " = ")
    }

    /// ` = ` as a key line writes it (spaces and tabs only), else `" = "`.
    static func sane(_ written: String) -> String {
        written.contains("=") && written.allSatisfy { $0 == " " || $0 == "\t" || $0 == "=" } ? written : " = "
    }

    /// The header of an array of tables that `path` runs through, such as `plugins.reminders.reminder`
    /// for `plugins.reminders.reminder.title`.
    func arrayTable(containing path: [String]) -> [String]? {
        sections.lazy.compactMap { section -> [String]? in
            guard section.isArrayTable, let header = section.header, path.starts(with: header) else { return nil }
            return header
        }.first
    }
}

extension TOMLSyntaxNode {
    /// The `key = value` nodes of an inline table, each with its first byte, given the table's own.
    func inlineEntries(at start: Int) -> [(node: TOMLSyntaxNode, index: Int, start: Int)] {
        var result: [(node: TOMLSyntaxNode, index: Int, start: Int)] = []
        var offset = start
        for (index, child) in children.enumerated() {
            if child.kind == .keyValue { result.append((child, index, offset)) }
            offset += child.utf8Count
        }
        return result
    }
}
