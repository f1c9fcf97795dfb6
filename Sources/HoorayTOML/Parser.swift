/// Reads a document in one pass over its UTF-8 bytes, building the syntax tree and the values
/// together. A line that cannot be read becomes an ``TOMLSyntaxKind/invalid`` token and a
/// diagnostic, and reading goes on at the next line. Nothing here recurses deeper than
/// ``maximumDepth`` (nested lists and inline tables, parts of a key).
struct Parser {
    static let maximumDepth = 128
    static let maximumDiagnostics = 100

    struct SyntaxError: Error {
        var offset: Int
        var message: String
        var hint: String?
    }

    /// The text; it outlives the parser (see ``parse(_:version:buildsSyntax:_:)``).
    let bytes: UnsafeBufferPointer<UInt8>
    let count: Int
    let version: TOMLVersion
    /// False when only the values are wanted: no syntax tree is built (the tokens are empty).
    let buildsSyntax: Bool
    var index = 0
    /// The lists and inline tables open where reading stopped; recovery skips to where they close.
    var nesting = 0
    var tracker: PositionTracker
    var builder = SemanticBuilder()
    /// The parts of the keys being read, innermost last, in `keyParts[..<keyPartCount]`: a key's parts
    /// stay here until its value is read and set (see ``key(atLineStart:)``), so that no key needs an
    /// array of its own. The places above are kept for the next keys.
    var keyParts: [KeyPart] = []
    var keyPartCount = 0
    /// The text of the last `[[name]]` header read, from `[[` to `]]`, while its section is open.
    var lastArrayHeader: Range<Int>?
    var diagnostics: [TOMLDiagnostic] = []
    var omittedDiagnostics = 0
    /// Keys and short strings, each made once (see ``string(_:_:)``).
    var interner: StringInterner

    /// - Parameters:
    ///   - bytes: The text, or a part of it that starts a line (``ListSplit``).
    ///   - line: The line the bytes start on.
    ///   - base: Where the bytes start in the whole text: places are given in the whole text's terms.
    init(
        bytes: UnsafeBufferPointer<UInt8>, version: TOMLVersion, buildsSyntax: Bool = true, line: Int = 1, base: Int = 0
    ) {
        self.bytes = bytes
        self.count = bytes.count
        self.version = version
        self.buildsSyntax = buildsSyntax
        self.tracker = PositionTracker(bytes: bytes, line: line, base: base)
        self.interner = StringInterner(textSize: bytes.count)
    }

    /// Runs `body` on a parser of `bytes`, which are not copied.
    static func parse<Result>(
        _ bytes: [UInt8], version: TOMLVersion, buildsSyntax: Bool = true, _ body: (inout Parser) -> Result
    ) -> Result {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer, version: version, buildsSyntax: buildsSyntax)
            return body(&parser)
        }
    }

    // MARK: Reporting

    mutating func report(at position: TOMLPosition, _ message: String, hint: String?) {
        guard diagnostics.count < Self.maximumDiagnostics else {
            omittedDiagnostics += 1
            return
        }
        diagnostics.append(TOMLDiagnostic(at: position, message, hint: hint))
    }

    mutating func report(_ error: SyntaxError) {
        report(at: tracker.position(at: error.offset), error.message, hint: error.hint)
    }

    mutating func report(_ failure: SemanticBuilder.Failure?) {
        guard let failure else { return }
        report(at: failure.position, failure.message, hint: failure.hint)
    }

    /// The diagnostics in file order, with a last one when there were too many to list.
    mutating func finishedDiagnostics() -> [TOMLDiagnostic] {
        var sorted = diagnostics.enumerated().sorted {
            ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset)
        }.map(\.element)
        if omittedDiagnostics > 0, let last = sorted.last {
            sorted.append(
                TOMLDiagnostic(
                    at: last.position, "\(omittedDiagnostics) more mistakes follow that are not listed",
                    hint: "fix the ones above and check the file again"))
        }
        return sorted
    }

    // MARK: Bytes

    func peek(_ ahead: Int = 0) -> UInt8? {
        let position = index + ahead
        return position < count ? bytes[position] : nil
    }

    func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// The text of a key or a string value: a string that was read before is not made again.
    mutating func string(_ start: Int, _ end: Int) -> String {
        interner.string(bytes, start, end)
    }

    /// A token of the text from `start` to the current place.
    func token(_ kind: TOMLSyntaxKind, from start: Int) -> TOMLSyntaxNode {
        TOMLSyntaxNode(token: kind, text: buildsSyntax ? text(start, index) : "")
    }

    /// Adds a node to the syntax tree, when one is built.
    mutating func keep(in list: inout [TOMLSyntaxNode], _ node: TOMLSyntaxNode) {
        if buildsSyntax { list.append(node) }
    }

    /// Moves past `length` bytes, returning them as a token.
    mutating func take(_ kind: TOMLSyntaxKind, length: Int = 1) -> TOMLSyntaxNode {
        let start = index
        index = min(index + length, count)
        return token(kind, from: start)
    }

    mutating func skipSpaces() {
        while index < count, bytes[index] == Byte.space || bytes[index] == Byte.tab { index += 1 }
    }

    /// Spaces and tabs, as a token added to `children` when there are any.
    mutating func spaces(_ children: inout [TOMLSyntaxNode]) {
        let start = index
        skipSpaces()
        if index > start { keep(in: &children, token(.whitespace, from: start)) }
    }

    /// `\n` or `\r\n`, when one is here.
    mutating func newline() -> TOMLSyntaxNode? {
        guard index < count else { return nil }
        if bytes[index] == Byte.lineFeed { return take(.newline) }
        if bytes[index] == Byte.carriageReturn && peek(1) == Byte.lineFeed { return take(.newline, length: 2) }
        return nil
    }

    /// A `#` comment, up to the end of its line; a control character in it is reported.
    mutating func comment() -> TOMLSyntaxNode {
        let start = index
        index += 1
        while index < count {
            let byte = bytes[index]
            if byte == Byte.lineFeed { break }
            if byte == Byte.carriageReturn && peek(1) == Byte.lineFeed { break }
            if (byte < 0x20 && byte != Byte.tab) || byte == 0x7F {
                report(
                    at: tracker.position(at: index), "the comment holds a control character (\(Byte.name(byte)))",
                    hint: "remove it; a comment is plain text up to the end of its line")
            }
            index += 1
        }
        return token(.comment, from: start)
    }

    /// How to name the character at `offset` in a message.
    func describe(at offset: Int) -> String {
        guard offset < count else { return "the end of the file" }
        let byte = bytes[offset]
        switch byte {
        case Byte.lineFeed: return "the end of the line"
        case Byte.carriageReturn:
            return offset + 1 < count && bytes[offset + 1] == Byte.lineFeed
                ? "the end of the line" : "a carriage return (CR) without a line feed"
        case Byte.space: return "a space"
        case Byte.tab: return "a tab"
        case ..<0x20, 0x7F: return "a control character (\(Byte.name(byte)))"
        default:
            var end = offset + 1
            while end < count && bytes[end] & 0xC0 == 0x80 { end += 1 }
            return "`" + text(offset, end) + "`"
        }
    }

    // MARK: The document

    mutating func parseDocument() -> TOMLSyntaxNode {
        var document: [TOMLSyntaxNode] = []
        if count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            keep(in: &document, take(.byteOrderMark, length: 3))
        }
        var section: [TOMLSyntaxNode] = []
        while index < count {
            let lineStart = index
            skipSpaces()
            let indentation = index > lineStart ? token(.whitespace, from: lineStart) : nil
            guard index < count else {
                if let indentation { keep(in: &section, indentation) }
                break
            }
            switch bytes[index] {
            case Byte.lineFeed, Byte.carriageReturn:
                if !buildsSyntax && bytes[index] == Byte.lineFeed {
                    // A blank line: only spaces and tabs before its line feed.
                    tracker.lineEnds(from: lineStart, at: index)
                    index += 1
                    continue
                }
                if let indentation { keep(in: &section, indentation) }
                if let newline = newline() {
                    keep(in: &section, newline)
                } else {
                    report(
                        at: tracker.position(at: index),
                        "a carriage return (CR) must be followed by a line feed (LF)",
                        hint: "save the file with Unix (LF) or Windows (CR LF) line ends")
                    keep(in: &section, take(.invalid))
                }
            case Byte.hash:
                if let indentation { keep(in: &section, indentation) }
                keep(in: &section, comment())
            case Byte.openBracket:
                let header = header(lineStart: lineStart, indentation: indentation)
                if buildsSyntax {
                    document.append(TOMLSyntaxNode(.section, children: section))
                    section = [header]
                }
            default:
                if !buildsSyntax && plainKeyValueLine() { continue }
                keep(in: &section, keyValueLine(lineStart: lineStart, indentation: indentation))
            }
        }
        keep(in: &document, TOMLSyntaxNode(.section, children: section))
        return TOMLSyntaxNode(.document, children: document)
    }

    /// After a mistake: the rest of the line where reading stopped, from the start of the statement,
    /// as an invalid token. When the mistake is inside a list or inline table, the lines up to its
    /// closing bracket go too, unless one of them starts a new statement.
    mutating func recover(from lineStart: Int) -> TOMLSyntaxNode {
        var end = lineEnd(from: max(index, lineStart))
        if nesting > 0 {
            var open = nesting + brackets(from: min(index + 1, end), to: end)
            while open > 0 && end < count {
                let next = end + (bytes[end] == Byte.carriageReturn ? 2 : 1)
                guard next < count, !startsStatement(at: next) else { break }
                let nextEnd = lineEnd(from: next)
                open += brackets(from: next, to: nextEnd)
                end = nextEnd
            }
        }
        if end <= lineStart { end = min(lineStart + 1, count) }
        nesting = 0
        index = end
        return token(.invalid, from: lineStart)
    }

    /// Where the line holding `offset` ends: its line feed, or the carriage return before it.
    private func lineEnd(from offset: Int) -> Int {
        var end = offset
        while end < count && bytes[end] != Byte.lineFeed { end += 1 }
        if end < count && end > offset && bytes[end - 1] == Byte.carriageReturn { end -= 1 }
        return end
    }

    /// Brackets opened minus brackets closed, outside strings and comments, in a line.
    private func brackets(from start: Int, to end: Int) -> Int {
        var balance = 0
        var quote: UInt8?
        var position = start
        while position < end {
            let byte = bytes[position]
            if let open = quote {
                if byte == Byte.backslash && open == Byte.quote {
                    position += 1
                } else if byte == open {
                    quote = nil
                }
            } else {
                switch byte {
                case Byte.quote, Byte.apostrophe: quote = byte
                case Byte.openBracket, Byte.openBrace: balance += 1
                case Byte.closeBracket, Byte.closeBrace: balance -= 1
                case Byte.hash: return balance
                default: break
                }
            }
            position += 1
        }
        return balance
    }

    /// Whether the line starting at `offset` holds `key = ...` or a `[table]` header.
    private mutating func startsStatement(at offset: Int) -> Bool {
        let saved = index
        defer { index = saved }
        index = offset
        skipSpaces()
        if looksLikeKeyValue() { return true }
        guard peek() == Byte.openBracket else { return false }
        while let byte = peek(), byte == Byte.openBracket || byte == Byte.space || byte == Byte.tab { index += 1 }
        var sawName = false
        while let byte = peek(), byte != Byte.closeBracket {
            guard
                Byte.isBareKey(byte) || byte == Byte.dot || byte == Byte.space || byte == Byte.quote
                    || byte == Byte.apostrophe || byte == Byte.tab
            else { return false }
            sawName = sawName || Byte.isLetter(byte)
            index += 1
        }
        return sawName
    }

    mutating func keyValueLine(lineStart: Int, indentation: TOMLSyntaxNode?) -> TOMLSyntaxNode {
        keyPartCount = 0
        do throws(SyntaxError) {
            var children: [TOMLSyntaxNode] = []
            if let indentation { keep(in: &children, indentation) }
            let pair = try keyValue(depth: 0, atLineStart: true)
            if buildsSyntax { children += pair.children }
            try finishLine(&children, after: "value")
            report(builder.setValue(keyParts[pair.keys], pair.item))
            keyPartCount = pair.keys.lowerBound
            return TOMLSyntaxNode(.keyValue, children: children)
        } catch {
            report(error)
            return recover(from: lineStart)
        }
    }

    /// Whitespace, a comment and the line's end after a statement.
    mutating func finishLine(_ children: inout [TOMLSyntaxNode], after what: String) throws(SyntaxError) {
        spaces(&children)
        if peek() == Byte.hash { keep(in: &children, comment()) }
        guard index < count else { return }
        if let newline = newline() {
            keep(in: &children, newline)
            return
        }
        throw SyntaxError(
            offset: index, message: "unexpected \(describe(at: index)) after the \(what)",
            hint: what == "value"
                ? "put each key = value on a line of its own, and text with spaces in double quotes"
                : "only a # comment may follow a table header on its line")
    }

    mutating func header(lineStart: Int, indentation: TOMLSyntaxNode?) -> TOMLSyntaxNode {
        keyPartCount = 0
        do throws(SyntaxError) {
            var children: [TOMLSyntaxNode] = []
            if let indentation { keep(in: &children, indentation) }
            let isArray = peek(1) == Byte.openBracket
            let position = tracker.position(at: index)
            let start = index
            if isArray, !buildsSyntax, builder.addsElement, let previous = lastArrayHeader, repeats(previous) {
                // The same `[[name]]` as the last header, as in a long list of tables: one more element.
                index += previous.count
                try finishLine(&children, after: "table header")
                builder.addElement(position: position)
                // The header holds no line feed: its parts are on one line, and so is a comment after it.
                if bytes[index - 1] == Byte.lineFeed { tracker.lineEnds(from: start, at: index - 1) }
                return TOMLSyntaxNode(.arrayTableHeader, children: children)
            }
            lastArrayHeader = nil
            keep(in: &children, take(isArray ? .doubleBracketOpen : .bracketOpen, length: isArray ? 2 : 1))
            spaces(&children)
            guard let first = peek(), Byte.startsKey(first) else {
                let found = describe(at: index)
                throw SyntaxError(
                    offset: index,
                    message: index >= count
                        ? "the table header is not complete: the file ends after `[`"
                        : peek() == Byte.lineFeed || peek() == Byte.carriageReturn
                            ? "the table header has no name: the line ends after `[`"
                            : "the table header has no name: \(found) cannot start one",
                    hint: "name the section, as in [plugins.reminders], or remove the `[` until you have finished it")
            }
            let key = try key(atLineStart: false)
            keep(in: &children, key.node)
            spaces(&children)
            let closed =
                isArray ? peek() == Byte.closeBracket && peek(1) == Byte.closeBracket : peek() == Byte.closeBracket
            guard closed else {
                let atEnd = peek().map { $0 == Byte.lineFeed || $0 == Byte.carriageReturn || $0 == Byte.hash } ?? true
                throw SyntaxError(
                    offset: index,
                    message: atEnd || (isArray && peek() == Byte.closeBracket)
                        ? "the table header is not closed" : "unexpected \(describe(at: index)) in the table header",
                    hint: atEnd || (isArray && peek() == Byte.closeBracket)
                        ? "end it with ] (or ]] for [[arrays of tables]]) on the same line"
                        : "join the parts of a name with dots, and quote a part that has other characters than"
                            + " letters, digits, _ and -, as in [plugins.\"my plugin\"]")
            }
            keep(in: &children, take(isArray ? .doubleBracketClose : .bracketClose, length: isArray ? 2 : 1))
            let end = index
            try finishLine(&children, after: "table header")
            let failure = builder.openTable(keyParts[key.parts], isArray: isArray, position: position)
            report(failure)
            if isArray && failure == nil { lastArrayHeader = start..<end }
            return TOMLSyntaxNode(isArray ? .arrayTableHeader : .tableHeader, children: children)
        } catch {
            report(error)
            builder.sectionFailed()
            lastArrayHeader = nil
            return recover(from: lineStart)
        }
    }

    /// Whether the text here starts with the same bytes as `previous`.
    private func repeats(_ previous: Range<Int>) -> Bool {
        guard index + previous.count <= count, let base = bytes.baseAddress else { return false }
        var offset = 0
        // Eight bytes at a time, then one at a time.
        while previous.count - offset >= 8 {
            let here = UnsafeRawPointer(base + index + offset).loadUnaligned(as: UInt64.self)
            let there = UnsafeRawPointer(base + previous.lowerBound + offset).loadUnaligned(as: UInt64.self)
            guard here == there else { return false }
            offset += 8
        }
        while offset < previous.count {
            guard bytes[index + offset] == bytes[previous.lowerBound + offset] else { return false }
            offset += 1
        }
        return true
    }

    // MARK: Keys

    struct KeyValue {
        var children: [TOMLSyntaxNode]
        /// Where the key's parts are in ``keyParts``.
        var keys: Range<Int>
        var item: TOMLItem
    }

    /// `key = value`, without what surrounds it.
    mutating func keyValue(depth: Int, atLineStart: Bool) throws(SyntaxError) -> KeyValue {
        var children: [TOMLSyntaxNode] = []
        let key = try key(atLineStart: atLineStart)
        keep(in: &children, key.node)
        spaces(&children)
        guard peek() == Byte.equals else {
            throw SyntaxError(
                offset: index, message: "expected `=` after the key, found \(describe(at: index))",
                hint: "write each setting as key = value")
        }
        keep(in: &children, take(.equals))
        spaces(&children)
        // Each further part of a dotted key is one more table around the value: counted with the
        // lists and inline tables, so that no file builds a tree deeper than the limit allows.
        let value = try value(depth: depth + key.parts.count - 1)
        keep(in: &children, value.node)
        return KeyValue(children: children, keys: key.parts, item: value.item)
    }

    /// A key, its parts pushed on ``keyParts``; the caller takes them off once they are used.
    mutating func key(atLineStart: Bool) throws(SyntaxError) -> (node: TOMLSyntaxNode, parts: Range<Int>) {
        var children: [TOMLSyntaxNode] = []
        let first = keyPartCount
        while true {
            let start = index
            let position = tracker.position(at: start)
            let name: String
            let kind: TOMLSyntaxKind
            switch peek() {
            case Byte.quote?:
                if peek(1) == Byte.quote && peek(2) == Byte.quote { throw multilineKey() }
                name = try basicString()
                kind = .basicString
            case Byte.apostrophe?:
                if peek(1) == Byte.apostrophe && peek(2) == Byte.apostrophe { throw multilineKey() }
                name = try literalString()
                kind = .literalString
            case let byte? where Byte.isBareKey(byte):
                var end = index
                while end < count && Byte.isBareKey(bytes[end]) { end += 1 }
                index = end
                name = string(start, end)
                kind = .bareKey
            default:
                throw keyProblem(first: keyPartCount == first && atLineStart)
            }
            keep(in: &children, token(kind, from: start))
            let part = KeyPart(name: name, position: position)
            if keyPartCount < keyParts.count {
                keyParts[keyPartCount] = part
            } else {
                keyParts.append(part)
            }
            keyPartCount += 1
            if keyPartCount - first > Self.maximumDepth {
                throw SyntaxError(
                    offset: start, message: "the key has more than \(Self.maximumDepth) parts",
                    hint: "use a shorter dotted key")
            }
            let beforeSpace = index
            skipSpaces()
            guard peek() == Byte.dot else {
                index = beforeSpace
                break
            }
            if index > beforeSpace { keep(in: &children, token(.whitespace, from: beforeSpace)) }
            keep(in: &children, take(.dot))
            spaces(&children)
        }
        return (TOMLSyntaxNode(.key, children: children), first..<keyPartCount)
    }

    private func multilineKey() -> SyntaxError {
        SyntaxError(
            offset: index, message: "a key cannot be a multi-line string",
            hint: "quote the key with one \" or ' on each side")
    }

    private func keyProblem(first: Bool) -> SyntaxError {
        if peek() == Byte.equals {
            return SyntaxError(
                offset: index, message: "a key is missing before `=`", hint: "write each setting as key = value")
        }
        if first {
            return SyntaxError(
                offset: index, message: "unexpected \(describe(at: index)) at the start of a line",
                hint: "a line holds key = value, a [table] header or a # comment; "
                    + "quote a key that has other characters than letters, digits, _ and -")
        }
        return SyntaxError(
            offset: index, message: "a key is missing or malformed",
            hint: "keys are made of letters, digits, _ and -, or are quoted; a dotted key must not end with a dot")
    }

    /// The name a quoted key token stands for.
    static func decodeKeyToken(_ text: String) -> String {
        let name = parse(Array(text.utf8), version: .v1_1) { parser in
            text.hasPrefix("'") ? try? parser.literalString() : try? parser.basicString()
        }
        return name ?? text
    }
}

/// The bytes TOML gives a meaning.
enum Byte {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote = UInt8(ascii: "\"")
    static let hash = UInt8(ascii: "#")
    static let apostrophe = UInt8(ascii: "'")
    static let plus = UInt8(ascii: "+")
    static let comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-")
    static let dot = UInt8(ascii: ".")
    static let colon = UInt8(ascii: ":")
    static let equals = UInt8(ascii: "=")
    static let openBracket = UInt8(ascii: "[")
    static let backslash = UInt8(ascii: "\\")
    static let closeBracket = UInt8(ascii: "]")
    static let underscore = UInt8(ascii: "_")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    static func isBareKey(_ byte: UInt8) -> Bool {
        // A bit for each byte that may stand in a bare key: `-` and `0`-`9` below 64, `A`-`Z`, `_`
        // and `a`-`z` from 64 to 127.
        switch byte >> 6 {
        case 0: (0x03FF_2000_0000_0000 as UInt64) >> byte & 1 != 0
        case 1: (0x07FF_FFFE_87FF_FFFE as UInt64) >> (byte & 63) & 1 != 0
        default: false
        }
    }
    static func startsKey(_ byte: UInt8) -> Bool { isBareKey(byte) || byte == quote || byte == apostrophe }
    /// The characters of numbers, booleans, dates and times.
    static func isBareValue(_ byte: UInt8) -> Bool {
        isBareKey(byte) || byte == plus || byte == dot || byte == colon
    }

    static func name(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "U+00" + String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
