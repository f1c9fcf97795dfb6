/// Edits that change only the text they concern: a value's bytes, a key's line, a table's lines.
/// Everything else — comments, blank lines, quoting, indentation, line ends — stays as it was.
extension TOMLDocument {
    /// Sets the value at a key path, such as `["plugins", "swaps", "night_prep"]`.
    ///
    /// When the key is there, only the value's bytes are replaced (a comment on its line stays; an
    /// equal value, however it is quoted, is left as written). Otherwise `key = value` is added as
    /// the last key of its table, with the file's own indentation and line ends; a table written
    /// with dotted keys gets one more dotted key beside them; a table the file does not have gets
    /// a `[table]` header at the end of the file.
    ///
    /// - Throws: ``TOMLEditError`` when the document has mistakes, when the path runs through a
    ///   value that is not a table, names a table, or is inside an array of tables; the document is
    ///   then unchanged.
    public mutating func set(_ path: [String], to value: TOMLLiteral) throws(TOMLEditError) {
        try checkEditable(path)
        let layout = TOMLEditLayout(syntax)
        var editor = TextSplice(text)
        let name = TOMLEditError.name(path)
        if layout.sections.contains(where: { $0.header.map { $0.starts(with: path) } ?? false }) {
            throw TOMLEditError("\(name) is a table, not a value", hint: "set one of its keys, such as \(name).enabled")
        }
        switch try Self.find(path, in: layout) {
        case .value(let range, let node):
            if let current = Self.literal(of: node), current == value { return }
            editor.replace(range, with: value.text)
        case .inline(let offset, let prefix, let suffix, let keys):
            let entry = keys.map(TOMLLiteral.key).joined(separator: ".") + " = " + value.text
            editor.replace(offset..<offset, with: prefix + entry + suffix)
        case .absent:
            Self.insert(path, value: value, layout: layout, into: &editor)
        }
        try replaceText(editor.text, after: "setting \(name)")
    }

    /// Removes a key — its whole line — or a whole table: its header, the comment lines right above
    /// it, its lines and its sub-tables.
    ///
    /// A `[table]` left with no keys and no comments goes too, with the blank line before it when
    /// it ends the file, so that removing a key ``set(_:to:)`` added gives the file back byte for byte.
    ///
    /// - Throws: ``TOMLEditError`` when the document does not have the path, has mistakes, or the
    ///   path is inside an array of tables.
    public mutating func remove(_ path: [String]) throws(TOMLEditError) {
        try checkEditable(path)
        let layout = TOMLEditLayout(syntax)
        var editor = TextSplice(text)
        let name = TOMLEditError.name(path)
        var ranges: [Range<Int>] = []
        func removed(_ index: Int) -> Bool { layout.sections[index].header?.starts(with: path) ?? false }
        // The comment lines right above a header (no blank line between) are that header's: they go
        // with its table, as they do in toml_edit, and stay when only the table before it goes.
        func start(of index: Int) -> Int {
            index > 0
                ? layout.sections[index - 1].closingComments ?? layout.sections[index].start
                : layout.sections[index].start
        }
        for (index, section) in layout.sections.enumerated() {
            let end =
                index + 1 < layout.sections.count && !removed(index + 1)
                ? section.closingComments ?? section.end : section.end
            if removed(index) {
                ranges.append(start(of: index)..<end)
                continue
            }
            let lines = section.keyLines.filter { $0.path.starts(with: path) }
            guard !lines.isEmpty else { continue }
            let emptied =
                section.header != nil && !section.isArrayTable && lines.count == section.keyLines.count
                && !section.hasOtherLines
            guard !emptied else {
                // Nothing is left of the table: its header goes too, and the blank line `set` put before it.
                let isLast = index == layout.sections.count - 1
                var start = start(of: index)
                if isLast {
                    start = editor.droppingBlankLine(
                        before: start, endedWithLineEnd: editor.endsWithLineEnd(section.end))
                }
                ranges.append(start..<end)
                continue
            }
            for line in lines {
                // The last line of a file without a final line end takes the line end before it.
                let start = line.endsWithNewline ? line.start : editor.droppingLineEnd(before: line.start)
                ranges.append(start..<line.end)
            }
        }
        if ranges.isEmpty {
            guard case .value(_, _) = try Self.find(path, in: layout), let range = Self.inlineEntryRange(path, layout)
            else {
                throw TOMLEditError("\(name) is not in the file", hint: "nothing to remove")
            }
            ranges.append(range)
        }
        editor.remove(ranges)
        try replaceText(editor.text, after: "removing \(name)")
    }

    /// Appends a `[[path]]` table with these keys: after the last `[[path]]` and its sub-tables, or
    /// at the end of the file, with the file's indentation and line ends.
    ///
    /// - Throws: ``TOMLEditError`` when the document has mistakes or `path` is already something
    ///   other than an array of tables.
    public mutating func appendArrayTable(_ path: [String], entries: [(String, TOMLLiteral)])
        throws(TOMLEditError)
    {
        try checkEditable([])
        guard !path.isEmpty else { throw TOMLEditError("an array of tables needs a name") }
        let layout = TOMLEditLayout(syntax)
        var editor = TextSplice(text)
        let last = layout.sections.lastIndex { $0.isArrayTable && $0.header == path }
        let model = last.map { layout.sections[$0].keyLines }?.last
        let indentation = model?.indentation ?? layout.keyIndentation
        let assignment = model.map { TOMLEditLayout.sane($0.assignment) } ?? layout.assignment
        let lines =
            ["[[" + path.map(TOMLLiteral.key).joined(separator: ".") + "]]"]
            + entries.map { indentation + TOMLLiteral.key($0.0) + assignment + $0.1.text }
        let name = "[[\(TOMLEditError.name(path))]]"
        guard var end = last else {
            editor.appendBlock(lines, newline: layout.newline, contentStart: layout.contentStart)
            try replaceText(editor.text, after: "adding \(name)")
            return
        }
        while end + 1 < layout.sections.count, let header = layout.sections[end + 1].header,
            header.count > path.count, header.starts(with: path)
        {
            end += 1
        }
        if end == layout.sections.count - 1 {
            editor.appendBlock(lines, newline: layout.newline, contentStart: layout.contentStart)
        } else {
            // After the last line of the last entry, a blank line before: the blank lines and the
            // comments above the next header stay above it.
            let block = layout.newline + lines.joined(separator: layout.newline) + layout.newline
            let offset = layout.sections[end].contentEnd
            editor.replace(offset..<offset, with: block)
        }
        try replaceText(editor.text, after: "adding \(name)")
    }

    // MARK: - Finding

    enum Found {
        /// The value's bytes, and its node.
        case value(Range<Int>, TOMLSyntaxNode)
        /// Not there, but its table is an inline table: where a new entry goes, the text around it
        /// (`, ` after another entry; spaces inside `{}`), and the keys it takes.
        case inline(Int, prefix: String, suffix: String, keys: [String])
        case absent
    }

    static func find(_ path: [String], in layout: TOMLEditLayout) throws(TOMLEditError) -> Found {
        for section in layout.sections {
            for line in section.keyLines {
                if line.path == path, let range = line.valueRange, let node = line.node.value {
                    return .value(range, node)
                }
                if path.starts(with: line.path), let range = line.valueRange, let node = line.node.value {
                    return try findInline(
                        Array(path[line.path.count...]), in: node, at: range.lowerBound, written: line.path, full: path)
                }
                if line.path.starts(with: path) {
                    let name = TOMLEditError.name(path)
                    throw TOMLEditError(
                        "\(name) is a table, not a value", hint: "set one of its keys, such as \(name).enabled")
                }
            }
        }
        return .absent
    }

    static func findInline(_ rest: [String], in node: TOMLSyntaxNode, at start: Int, written: [String], full: [String])
        throws(TOMLEditError) -> Found
    {
        guard node.kind == .inlineTable else {
            throw TOMLEditError(
                "\(TOMLEditError.name(written)) is a value, not a table, so it has no key \(TOMLLiteral.key(rest[0]))",
                hint: "remove \(TOMLEditError.name(written)) first, or set another key")
        }
        let entries = node.inlineEntries(at: start)
        for entry in entries {
            let parts = entry.node.keyParts
            guard let valueIndex = entry.node.valueIndex, let value = entry.node.value else { continue }
            let valueStart = entry.start + entry.node.children[..<valueIndex].reduce(0) { $0 + $1.utf8Count }
            if parts == rest { return .value(valueStart..<(valueStart + value.utf8Count), value) }
            if rest.starts(with: parts) {
                return try findInline(
                    Array(rest[parts.count...]), in: value, at: valueStart, written: written + parts, full: full)
            }
            if parts.starts(with: rest) {
                throw TOMLEditError("\(TOMLEditError.name(full)) is a table, not a value")
            }
        }
        if let last = entries.last {
            return .inline(last.start + last.node.utf8Count, prefix: ", ", suffix: "", keys: rest)
        }
        // `{ }` or `{}`: the entry goes after the `{` and its space, as in `{ a = 1 }`.
        let open = node.children.firstIndex { $0.kind == .braceOpen } ?? 0
        let offset = start + node.children[...open].reduce(0) { $0 + $1.utf8Count }
        if node.children.indices.contains(open + 1), node.children[open + 1].kind == .whitespace {
            return .inline(offset + node.children[open + 1].utf8Count, prefix: "", suffix: " ", keys: rest)
        }
        return .inline(offset, prefix: " ", suffix: " ", keys: rest)
    }

    /// The bytes of an entry of an inline table to remove, with the comma that joins it to the others.
    static func inlineEntryRange(_ path: [String], _ layout: TOMLEditLayout) -> Range<Int>? {
        for section in layout.sections {
            for line in section.keyLines where path.starts(with: line.path) && path.count > line.path.count {
                guard let range = line.valueRange, let node = line.node.value else { continue }
                return inlineEntryRange(Array(path[line.path.count...]), in: node, at: range.lowerBound)
            }
        }
        return nil
    }

    static func inlineEntryRange(_ rest: [String], in node: TOMLSyntaxNode, at start: Int) -> Range<Int>? {
        guard node.kind == .inlineTable else { return nil }
        var offsets: [Int] = []
        var offset = start
        for child in node.children {
            offsets.append(offset)
            offset += child.utf8Count
        }
        offsets.append(offset)
        for (index, child) in node.children.enumerated() where child.kind == .keyValue {
            let parts = child.keyParts
            if parts == rest {
                // `a = 1, b = 2`: removing `a` takes `a = 1, `; removing `b` takes `, b = 2`.
                if let comma = node.children[(index + 1)...].firstIndex(where: { $0.kind != .whitespace }),
                    node.children[comma].kind == .comma
                {
                    var end = comma + 1
                    while end < node.children.count, node.children[end].kind == .whitespace { end += 1 }
                    return offsets[index]..<offsets[end]
                }
                if let comma = node.children[..<index].lastIndex(where: { $0.kind != .whitespace }),
                    node.children[comma].kind == .comma
                {
                    return offsets[comma]..<offsets[index + 1]
                }
                return offsets[index]..<offsets[index + 1]
            }
            if rest.starts(with: parts), let valueIndex = child.valueIndex, let value = child.value {
                let valueStart = offsets[index] + child.children[..<valueIndex].reduce(0) { $0 + $1.utf8Count }
                return inlineEntryRange(Array(rest[parts.count...]), in: value, at: valueStart)
            }
        }
        return nil
    }

    static func literal(of node: TOMLSyntaxNode) -> TOMLLiteral? {
        let document = TOMLDocument(parsing: "v = " + node.description + "\n")
        return document.diagnostics.isEmpty ? document.root["v"].map { TOMLLiteral($0.value) } : nil
    }

    // MARK: - Adding a key

    /// Adds `key = value` where the key's table is: after its last key, beside its dotted keys, or
    /// under a new header at the end.
    static func insert(_ path: [String], value: TOMLLiteral, layout: TOMLEditLayout, into editor: inout TextSplice) {
        let table = Array(path.dropLast())
        let newline = layout.newline
        func line(_ keys: [String], like model: TOMLEditLayout.KeyLine?, indentation: String) -> String {
            let assignment = model.map { TOMLEditLayout.sane($0.assignment) } ?? layout.assignment
            return (model?.indentation ?? indentation) + keys.map(TOMLLiteral.key).joined(separator: ".")
                + assignment + value.text
        }
        // The table's own header, or the section whose dotted keys write the table.
        let home =
            table.isEmpty
            ? layout.sections.firstIndex { $0.header == nil }
            : layout.sections.lastIndex { !$0.isArrayTable && $0.header == table }
                ?? layout.sections.lastIndex { section in
                    !section.isArrayTable && table.starts(with: section.header ?? [])
                        && section.keyLines.contains { $0.path.count > table.count && $0.path.starts(with: table) }
                }
        guard let home else {
            let header = "[" + table.map(TOMLLiteral.key).joined(separator: ".") + "]"
            editor.appendBlock(
                [header, line([path.last!], like: nil, indentation: layout.keyIndentation)], newline: newline,
                contentStart: layout.contentStart)
            return
        }
        let section = layout.sections[home]
        let headerLength = section.header?.count ?? 0
        let siblings = section.keyLines.filter { $0.path.count > table.count && $0.path.starts(with: table) }
        let after = siblings.last ?? section.keyLines.last
        let text = line(Array(path[headerLength...]), like: after, indentation: layout.keyIndentation)
        if let after {
            editor.insertLine(text, at: after.end, afterLineEnd: after.endsWithNewline, newline: newline)
        } else if section.header != nil {
            editor.insertLine(
                text, at: section.bodyStart, afterLineEnd: section.headerEndsWithNewline, newline: newline)
        } else {
            editor.insertLine(text, at: layout.contentStart, afterLineEnd: true, newline: newline)
        }
    }

    // MARK: - Checks

    func checkEditable(_ path: [String]) throws(TOMLEditError) {
        if let first = diagnostics.first {
            throw TOMLEditError(
                "the file has a mistake at \(first.line):\(first.column): \(first.message)",
                hint: "fix it first, then edit again")
        }
        let layout = TOMLEditLayout(syntax)
        if let array = layout.arrayTable(containing: path), path.count > array.count {
            throw TOMLEditError(
                "\(TOMLEditError.name(path)) is inside a [[\(TOMLEditError.name(array))]] entry, which has no name "
                    + "to pick it by",
                hint: "edit that entry in the file by hand")
        }
    }

    /// Takes the edited text, when it reads without mistakes.
    mutating func replaceText(_ edited: String, after what: String) throws(TOMLEditError) {
        let document = TOMLDocument(parsing: edited, version: version)
        if let first = document.diagnostics.first {
            throw TOMLEditError(
                "\(what) would leave the file unreadable (\(first.line):\(first.column): \(first.message))",
                hint: "change the file by hand")
        }
        self = document
    }
}

extension TOMLEditError {
    /// A key path as a message names it: `plugins.swaps.night_prep`.
    static func name(_ path: [String]) -> String {
        path.map(TOMLLiteral.key).joined(separator: ".")
    }
}
