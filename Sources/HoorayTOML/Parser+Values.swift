extension Parser {
    /// A value, starting here. `depth` counts the lists and inline tables around it.
    mutating func value(depth: Int) throws(SyntaxError) -> (node: TOMLSyntaxNode, item: TOMLItem) {
        let start = index
        let position = tracker.position(at: start)
        guard let first = peek(), first != Byte.lineFeed, first != Byte.carriageReturn, first != Byte.hash else {
            throw SyntaxError(
                offset: index, message: "the value is missing after `=`",
                hint: "write a value, such as a \"string\", a number, true or false")
        }
        switch first {
        case Byte.quote:
            if peek(1) == Byte.quote && peek(2) == Byte.quote {
                let string = try multilineString(quote: Byte.quote)
                return (token(.multilineBasicString, from: start), TOMLItem(value: .string(string), position: position))
            }
            let string = try basicString()
            return (token(.basicString, from: start), TOMLItem(value: .string(string), position: position))
        case Byte.apostrophe:
            if peek(1) == Byte.apostrophe && peek(2) == Byte.apostrophe {
                let string = try multilineString(quote: Byte.apostrophe)
                return (
                    token(.multilineLiteralString, from: start), TOMLItem(value: .string(string), position: position)
                )
            }
            let string = try literalString()
            return (token(.literalString, from: start), TOMLItem(value: .string(string), position: position))
        case Byte.openBracket:
            try checkDepth(depth)
            return try array(depth: depth + 1, position: position)
        case Byte.openBrace:
            try checkDepth(depth)
            return try inlineTable(depth: depth + 1, position: position)
        default:
            return try bareValue(position: position)
        }
    }

    private func checkDepth(_ depth: Int) throws(SyntaxError) {
        guard depth < Self.maximumDepth else {
            throw SyntaxError(
                offset: index,
                message: "lists, inline tables and dotted keys are nested more than \(Self.maximumDepth) deep here",
                hint: "nest fewer lists and { } tables inside each other, or use shorter dotted keys")
        }
    }

    /// A number, boolean, date or time: a run of the characters they are made of.
    private mutating func bareValue(position: TOMLPosition) throws(SyntaxError) -> (TOMLSyntaxNode, TOMLItem) {
        let start = index
        let (kind, value) = try bareScalar()
        return (token(kind, from: start), TOMLItem(value: value, position: position))
    }

    /// A number, boolean, date or time, starting here.
    mutating func bareScalar() throws(SyntaxError) -> (TOMLSyntaxKind, TOMLValue) {
        let start = index
        while index < count && Byte.isBareValue(bytes[index]) { index += 1 }
        // `1979-05-27 07:32:00`: a date, a space and a time are one value.
        if index - start == 10 && DateTimeReader.isDate(bytes, at: start) && peek() == Byte.space,
            let hour = peek(1), Byte.isDigit(hour), let next = peek(2), Byte.isDigit(next), peek(3) == Byte.colon
        {
            index += 1
            while index < count && Byte.isBareValue(bytes[index]) { index += 1 }
        }
        guard index > start else { throw Self.notAValue(at: start) }
        return try scalar(from: start, to: index)
    }

    static func notAValue(at offset: Int) -> SyntaxError {
        SyntaxError(
            offset: offset, message: "this is not a TOML value",
            hint: "put text in double quotes, such as title = \"Stretch\"; numbers, true and false stay bare")
    }

    private func scalar(from start: Int, to end: Int) throws(SyntaxError) -> (TOMLSyntaxKind, TOMLValue) {
        let run = bytes[start..<end]
        // Only a word can be one of these, and only one of up to five bytes: numbers are not made into text.
        let letter =
            end - start > 1 && (bytes[start] == Byte.plus || bytes[start] == Byte.minus)
            ? bytes[start + 1] : bytes[start]
        if end - start <= 5 && Byte.isLetter(letter) {
            switch text(start, end) {
            case "true": return (.boolean, .boolean(true))
            case "false": return (.boolean, .boolean(false))
            case "inf", "+inf": return (.float, .float(.infinity))
            case "-inf": return (.float, .float(-.infinity))
            case "nan", "+nan": return (.float, .float(.nan))
            case "-nan": return (.float, .float(-Double.nan))
            default: break
            }
        }
        if run.contains(Byte.colon) || DateTimeReader.isDate(bytes, at: start) {
            var reader = DateTimeReader(bytes: bytes, start: start, end: end, version: version)
            return (.dateTime, .dateTime(try reader.read()))
        }
        return try NumberReader.read(bytes, from: start, to: end)
    }

    /// Spaces, line ends and comments inside a list; returns where the first line end is.
    private mutating func arrayTrivia(_ children: inout [TOMLSyntaxNode]) -> Int? {
        var lineEnd: Int?
        while index < count {
            switch bytes[index] {
            case Byte.space, Byte.tab: spaces(&children)
            case Byte.hash: keep(in: &children, comment())
            case Byte.lineFeed, Byte.carriageReturn:
                if lineEnd == nil { lineEnd = index }
                guard let newline = newline() else { return lineEnd }
                keep(in: &children, newline)
            default: return lineEnd
            }
        }
        return lineEnd
    }

    /// Whether a `key =` starts here: after a line break in a list or inline table, the sign that
    /// its closing bracket was forgotten.
    func looksLikeKeyValue() -> Bool {
        var position = index
        var sawKey = false
        while position < count {
            let byte = bytes[position]
            if byte == Byte.quote || byte == Byte.apostrophe {
                // A quoted key part ends at its own closing quote on this line: an `=` inside it,
                // as in "Less screen = more sleep", is text, not the sign of a key.
                position += 1
                while position < count, bytes[position] != byte {
                    if bytes[position] == Byte.lineFeed || bytes[position] == Byte.carriageReturn { return false }
                    if byte == Byte.quote, bytes[position] == Byte.backslash { position += 1 }
                    position += 1
                }
                guard position < count else { return false }
                sawKey = true
            } else if Byte.isBareKey(byte) {
                sawKey = true
            } else if byte == Byte.equals {
                return sawKey
            } else if byte != Byte.dot && byte != Byte.space && byte != Byte.tab {
                return false
            }
            position += 1
        }
        return false
    }

    /// A list or inline table left open on an earlier line: reading stops at that line's end.
    mutating func leftOpen(_ what: String, lineEnd: Int?) -> SyntaxError? {
        guard let lineEnd, looksLikeKeyValue() else { return nil }
        index = lineEnd
        return SyntaxError(
            offset: lineEnd, message: "the \(what) is not closed",
            hint: what == "array"
                ? "end it with ]; a list may run over several lines, with a comma after each value"
                : "end it with }")
    }

    private mutating func array(depth: Int, position: TOMLPosition) throws(SyntaxError) -> (TOMLSyntaxNode, TOMLItem) {
        let open = index
        nesting += 1
        var children = [take(.bracketOpen)]
        var items: [TOMLItem] = []
        while true {
            let lineEnd = arrayTrivia(&children)
            guard let next = peek() else { throw notClosedArray(open) }
            if let error = leftOpen("array", lineEnd: lineEnd) { throw error }
            if next == Byte.closeBracket {
                keep(in: &children, take(.bracketClose))
                nesting -= 1
                break
            }
            if !Self.startsValue(next) {
                throw cannotStandInList()
            }
            if next == Byte.comma {
                throw SyntaxError(
                    offset: index, message: "a value is missing before this comma",
                    hint: "separate the values of a list with single commas, as in days = [\"mon\", \"fri\"]")
            }
            let element = try value(depth: depth)
            keep(in: &children, element.node)
            items.append(element.item)
            let lineEndAfter = arrayTrivia(&children)
            guard let after = peek() else { throw notClosedArray(open) }
            if let error = leftOpen("array", lineEnd: lineEndAfter) { throw error }
            if after == Byte.comma {
                keep(in: &children, take(.comma))
            } else if after == Byte.closeBracket {
                keep(in: &children, take(.bracketClose))
                nesting -= 1
                break
            } else {
                throw SyntaxError(
                    offset: index, message: "\(describe(at: index)) cannot stand in a list here",
                    hint: "separate the values of a list with commas and end it with ], as in days = [\"mon\", \"fri\"]"
                )
            }
        }
        return (TOMLSyntaxNode(.array, children: children), TOMLItem(value: .array(items), position: position))
    }

    private func cannotStandInList() -> SyntaxError {
        SyntaxError(
            offset: index, message: "\(describe(at: index)) cannot stand in a list here",
            hint: "separate the values of a list with commas and end it with ], as in days = [\"mon\", \"fri\"]")
    }

    /// Whether a value (or a comma, reported on its own) can start with this byte.
    static func startsValue(_ byte: UInt8) -> Bool {
        Byte.isBareValue(byte) || byte == Byte.quote || byte == Byte.apostrophe || byte == Byte.openBracket
            || byte == Byte.openBrace || byte == Byte.comma
    }

    private func notClosedArray(_ open: Int) -> SyntaxError {
        SyntaxError(offset: index, message: "the array is not closed", hint: "end it with ]")
    }

    /// Spaces inside an inline table; in TOML 1.1 line ends and comments too. Returns where the
    /// first line end is.
    private mutating func inlineTrivia(_ children: inout [TOMLSyntaxNode]) throws(SyntaxError) -> Int? {
        var lineEnd: Int?
        while index < count {
            switch bytes[index] {
            case Byte.space, Byte.tab: spaces(&children)
            case Byte.hash, Byte.lineFeed, Byte.carriageReturn:
                guard version == .v1_1 else {
                    throw SyntaxError(
                        offset: index, message: "the inline table is not closed on its line",
                        hint: "end it with } on the same line (TOML 1.0 keeps { } tables on one line)")
                }
                if bytes[index] == Byte.hash {
                    keep(in: &children, comment())
                } else {
                    if lineEnd == nil { lineEnd = index }
                    guard let newline = newline() else { return lineEnd }
                    keep(in: &children, newline)
                }
            default: return lineEnd
            }
        }
        return lineEnd
    }

    private mutating func inlineTable(depth: Int, position: TOMLPosition) throws(SyntaxError) -> (
        TOMLSyntaxNode, TOMLItem
    ) {
        nesting += 1
        var children = [take(.braceOpen)]
        var table = TOMLTable(origin: .inline, position: position)
        var afterComma = false
        while true {
            _ = try inlineTrivia(&children)
            guard let next = peek() else { throw notClosedInline() }
            if next == Byte.closeBrace {
                if afterComma && version == .v1_0 {
                    throw SyntaxError(
                        offset: index, message: "an inline table must not end with a comma",
                        hint: "remove the comma before }")
                }
                keep(in: &children, take(.braceClose))
                nesting -= 1
                break
            }
            if next == Byte.comma {
                throw SyntaxError(
                    offset: index, message: "a key is missing before this comma",
                    hint: "separate the keys of an inline table with single commas, as in { a = 1, b = 2 }")
            }
            let pair = try keyValue(depth: depth, atLineStart: false)
            keep(in: &children, TOMLSyntaxNode(.keyValue, children: pair.children))
            report(SemanticBuilder.insert(&table, keyParts[pair.keys], pair.item, prefix: [], all: keyParts[pair.keys]))
            keyPartCount = pair.keys.lowerBound
            let lineEnd = try inlineTrivia(&children)
            guard let after = peek() else { throw notClosedInline() }
            if after == Byte.comma {
                keep(in: &children, take(.comma))
                afterComma = true
            } else if after == Byte.closeBrace {
                keep(in: &children, take(.braceClose))
                nesting -= 1
                break
            } else if let lineEnd {
                index = lineEnd
                throw notClosedInline()
            } else {
                throw SyntaxError(
                    offset: index, message: "unexpected \(describe(at: index)) in the inline table",
                    hint: "separate the keys of an inline table with commas and end it with }, as in { a = 1, b = 2 }")
            }
        }
        return (
            TOMLSyntaxNode(.inlineTable, children: children), TOMLItem(value: .table(table), position: position)
        )
    }

    private func notClosedInline() -> SyntaxError {
        SyntaxError(offset: index, message: "the inline table is not closed", hint: "end it with }")
    }
}
