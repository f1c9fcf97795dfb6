extension Parser {
    /// When only the values are read: a line of the shape most lines of a configuration have,
    /// `key = value` with a key of one part and a string, number, boolean, date or time, maybe a
    /// comment after it, read straight into the current section's table, without the steps the
    /// syntax tree needs. Returns false, having read nothing, for any other line, for a line with a
    /// mistake and for a key the table has already: ``keyValueLine(lineStart:indentation:)`` then
    /// reads the line (and reports what is wrong with it).
    mutating func plainKeyValueLine() -> Bool {
        let start = index
        var end = start
        while end < count && Byte.isBareKey(bytes[end]) { end += 1 }
        guard end > start else { return false }
        index = end
        skipSpaces()
        guard peek() == Byte.equals else {
            index = start
            return false
        }
        index += 1
        skipSpaces()
        let valueStart = index
        let multiline = index + 2 < count && bytes[index + 1] == bytes[index] && bytes[index + 2] == bytes[index]
        guard let value = plainValue(), plainLineEnd() else {
            index = start
            return false
        }
        // Keys under a header that could not be read go nowhere (see ``SemanticBuilder/setValue(_:_:)``).
        guard builder.acceptsKeys else { return true }
        let key = string(start, end)
        guard !builder.currentTableHas(key) else {
            index = start
            return false
        }
        let keyPosition = tracker.position(at: start)
        // Only ASCII (the key, spaces and `=`) stands between the key and the value, on one line.
        var valuePosition = keyPosition
        valuePosition.column += valueStart - start
        valuePosition.offset += valueStart - start
        let item = TOMLItem(value: value, position: valuePosition)
        builder.addToCurrentTable(TOMLTable.Entry(key: key, keyPosition: keyPosition, item: item))
        // Only a multi-line string holds a line feed before the one that ends the line.
        if !multiline && bytes[index - 1] == Byte.lineFeed { tracker.lineEnds(from: start, at: index - 1) }
        return true
    }

    /// A value that is not a list nor an inline table, or nil when there is none here or it has a mistake.
    private mutating func plainValue() -> TOMLValue? {
        guard let first = peek() else { return nil }
        do throws(SyntaxError) {
            switch first {
            case Byte.quote:
                if peek(1) == Byte.quote && peek(2) == Byte.quote {
                    return .string(try multilineString(quote: Byte.quote))
                }
                return .string(try basicString())
            case Byte.apostrophe:
                if peek(1) == Byte.apostrophe && peek(2) == Byte.apostrophe {
                    return .string(try multilineString(quote: Byte.apostrophe))
                }
                return .string(try literalString())
            case Byte.openBracket, Byte.openBrace, Byte.lineFeed, Byte.carriageReturn, Byte.hash:
                return nil
            default:
                return try bareScalar().1
            }
        } catch {
            return nil
        }
    }

    /// Spaces, a comment without control characters, and the line's end (or the file's); false when
    /// something else follows the value.
    private mutating func plainLineEnd() -> Bool {
        skipSpaces()
        if peek() == Byte.hash {
            index += 1
            while index < count {
                let byte = bytes[index]
                if byte == Byte.lineFeed || (byte == Byte.carriageReturn && peek(1) == Byte.lineFeed) { break }
                if (byte < 0x20 && byte != Byte.tab) || byte == 0x7F { return false }
                index += 1
            }
        }
        guard index < count else { return true }
        if bytes[index] == Byte.lineFeed {
            index += 1
            return true
        }
        if bytes[index] == Byte.carriageReturn && peek(1) == Byte.lineFeed {
            index += 2
            return true
        }
        return false
    }
}
