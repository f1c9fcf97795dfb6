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
        /// Comments (on the header's line too) and lines that could not be read, counted.
        var otherLineCount = 0
        /// How many of those are the closing comments.
        var closingCommentCount = 0

        /// Whether a comment or a line that could not be read is the section's own: among its lines,
        /// not counting the closing comments, or on the header's line.
        var hasOtherLines: Bool {
            otherLineCount > (closingComments == nil ? 0 : closingCommentCount)
        }
        /// Where the comment lines that end the section start, when they run up to the next header
        /// with no blank line: they belong to that header, so removing this section leaves them.
        var closingComments: Int?
        /// The end of the section's last line that is not blank and not one of the closing comments:
        /// where a table added after this one goes.
        var contentEnd: Int
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
                headerEndsWithNewline: true, keyLines: [], closingComments: nil,
                contentEnd: offset)
            var position = offset
            // The run of comment lines since the last key, header or blank line; the end of the last
            // line before it; and the line being read.
            var commentsStart: Int?
            var endBeforeComments = offset
            var lineStart = offset
            var lineHasComment = false
            for part in child.children {
                defer { position += part.utf8Count }
                switch part.kind {
                case .comment:
                    lineHasComment = true
                    section.closingCommentCount += 1
                case .newline:
                    if lineHasComment {
                        if commentsStart == nil {
                            commentsStart = lineStart
                            endBeforeComments = section.contentEnd
                        }
                        section.contentEnd = position + part.utf8Count
                    } else {
                        commentsStart = nil
                        section.closingCommentCount = 0
                    }
                    lineStart = position + part.utf8Count
                    lineHasComment = false
                case .whitespace:
                    break
                default:
                    commentsStart = nil
                    section.closingCommentCount = 0
                    section.contentEnd = position + part.utf8Count
                    lineStart = section.contentEnd
                    lineHasComment = false
                }
                switch part.kind {
                case .tableHeader, .arrayTableHeader:
                    if part.children.contains(where: { $0.kind == .comment }) { section.otherLineCount += 1 }
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
                    section.otherLineCount += 1
                case .newline:
                    if !sawNewline {
                        newline = part.text
                        sawNewline = true
                    }
                default:
                    break
                }
            }
            if lineHasComment {
                // A last comment line without a line end, at the end of the file.
                section.contentEnd = section.end
            } else if let commentsStart {
                section.closingComments = commentsStart
                section.contentEnd = endBeforeComments
            }
            sections.append(section)
        }
        // Comments at the end of the file stand above no header: they stay with the last section.
        if let last = sections.indices.last, sections[last].closingComments != nil {
            sections[last].closingComments = nil
            sections[last].contentEnd = sections[last].end
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
