extension Parser {
    /// `"text"`, starting at its quote; the index ends after the closing quote.
    mutating func basicString() throws(SyntaxError) -> String {
        index += 1
        let segment = index
        // Most strings are plain text up to their closing quote.
        var end = index
        if let base = bytes.baseAddress {
            while count - end >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + end).loadUnaligned(as: UInt64.self))
                let special = Self.specialBytes(word)
                if special != 0 {
                    // The lowest byte marked is the first that is not plain (see ``specialBytes(_:)``).
                    end += special.trailingZeroBitCount / 8
                    break
                }
                end += 8
            }
        }
        while end < count, Self.isPlainInString(bytes[end]) { end += 1 }
        if end < count && bytes[end] == Byte.quote {
            index = end + 1
            return string(segment, end)
        }
        index = end
        return try escapedString(from: segment)
    }

    /// The rest of a `"text"` from the first byte that is not plain text.
    private mutating func escapedString(from start: Int) throws(SyntaxError) -> String {
        var decoded: [UInt8] = []
        var segment = start
        var escaped = false
        while true {
            guard index < count else { throw notClosed("\"") }
            let byte = bytes[index]
            if byte == Byte.quote { break }
            if byte == Byte.backslash {
                decoded.append(contentsOf: bytes[segment..<index])
                try escape(into: &decoded)
                escaped = true
                segment = index
                continue
            }
            if byte == Byte.lineFeed || byte == Byte.carriageReturn { throw notClosedOnLine("double quote") }
            if Self.isControl(byte) { throw control(byte) }
            index += 1
        }
        let result: String
        if escaped {
            decoded.append(contentsOf: bytes[segment..<index])
            result = String(decoding: decoded, as: UTF8.self)
        } else {
            result = string(segment, index)
        }
        index += 1
        return result
    }

    /// `'text'`, starting at its quote.
    mutating func literalString() throws(SyntaxError) -> String {
        index += 1
        let start = index
        while index < count, bytes[index] != Byte.apostrophe, Self.isPlainInString(bytes[index]) { index += 1 }
        while true {
            guard index < count else { throw notClosed("'") }
            let byte = bytes[index]
            if byte == Byte.apostrophe { break }
            if byte == Byte.lineFeed || byte == Byte.carriageReturn { throw notClosedOnLine("single quote") }
            if Self.isControl(byte) { throw control(byte) }
            index += 1
        }
        let result = string(start, index)
        index += 1
        return result
    }

    /// `"""text"""` (escapes read) or `'''text'''` (taken as written), starting at its first quote.
    mutating func multilineString(quote: UInt8) throws(SyntaxError) -> String {
        let escapes = quote == Byte.quote
        index += 3
        skipFirstNewline()
        var decoded: [UInt8] = []
        var segment = index
        while true {
            guard index < count else { throw notClosed(escapes ? "\"\"\"" : "'''") }
            let byte = bytes[index]
            switch byte {
            case quote:
                if try closesMultiline(quote, into: &decoded, segment: segment) {
                    return String(decoding: decoded, as: UTF8.self)
                }
                continue
            case Byte.backslash where escapes:
                decoded.append(contentsOf: bytes[segment..<index])
                if let next = peek(1),
                    next == Byte.space || next == Byte.tab || next == Byte.lineFeed
                        || next == Byte.carriageReturn
                {
                    try lineEndingBackslash()
                } else {
                    try escape(into: &decoded)
                }
                segment = index
                continue
            case Byte.lineFeed:
                break
            case Byte.carriageReturn:
                guard peek(1) == Byte.lineFeed else { throw control(byte) }
                index += 1
            default:
                if Self.isControl(byte) { throw control(byte) }
            }
            index += 1
        }
    }

    /// A newline right after the opening quotes is not part of the string.
    private mutating func skipFirstNewline() {
        if peek() == Byte.lineFeed {
            index += 1
        } else if peek() == Byte.carriageReturn && peek(1) == Byte.lineFeed {
            index += 2
        }
    }

    /// At a quote in a multi-line string: up to two quotes before the closing three belong to the
    /// text. Returns whether the string ends here (the text then in `decoded`).
    private mutating func closesMultiline(
        _ quote: UInt8, into decoded: inout [UInt8], segment: Int
    ) throws(SyntaxError) -> Bool {
        var run = 0
        while index + run < count && bytes[index + run] == quote { run += 1 }
        if run < 3 {
            index += run
            return false
        }
        guard run <= 5 else {
            throw SyntaxError(
                offset: index + 5, message: "a multi-line string cannot hold three quotes in a row",
                hint: quote == Byte.quote
                    ? "escape one of them, as in \\\"" : "use a \"\"\"multi-line basic string\"\"\" and escape a quote")
        }
        decoded.append(contentsOf: bytes[segment..<index + run - 3])
        index += run
        return true
    }

    /// A backslash at the end of a line joins it to the next: it, the line end and the spaces and
    /// line ends after it are left out.
    private mutating func lineEndingBackslash() throws(SyntaxError) {
        let backslash = index
        index += 1
        skipSpaces()
        guard newline() != nil else {
            throw SyntaxError(
                offset: backslash, message: "unknown escape sequence `\\ ` in a string",
                hint: "a backslash that joins lines must be the last thing on its line; write a backslash as \\\\")
        }
        while index < count {
            let byte = bytes[index]
            if byte == Byte.space || byte == Byte.tab || byte == Byte.lineFeed {
                index += 1
            } else if byte == Byte.carriageReturn && peek(1) == Byte.lineFeed {
                index += 2
            } else {
                break
            }
        }
    }

    /// An escape sequence, starting at its backslash.
    private mutating func escape(into decoded: inout [UInt8]) throws(SyntaxError) {
        let start = index
        guard let code = peek(1) else { throw notClosed("\"") }
        index += 2
        switch code {
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "e") where version == .v1_1: decoded.append(0x1B)
        case Byte.quote: decoded.append(Byte.quote)
        case Byte.backslash: decoded.append(Byte.backslash)
        case UInt8(ascii: "x") where version == .v1_1: try unicodeEscape(digits: 2, start: start, into: &decoded)
        case UInt8(ascii: "u"): try unicodeEscape(digits: 4, start: start, into: &decoded)
        case UInt8(ascii: "U"): try unicodeEscape(digits: 8, start: start, into: &decoded)
        default:
            index = start
            throw SyntaxError(
                offset: start, message: "unknown escape sequence \(sequence(at: start, length: 2)) in a string",
                hint: "write a backslash as \\\\, or use a 'literal string' in single quotes")
        }
    }

    private mutating func unicodeEscape(digits: Int, start: Int, into decoded: inout [UInt8]) throws(SyntaxError) {
        var code: UInt32 = 0
        for _ in 0..<digits {
            guard let byte = peek(), let digit = Self.hexDigit(byte) else {
                throw SyntaxError(
                    offset: start,
                    message: "the escape \(sequence(at: start, length: 2)) needs \(digits) hexadecimal digits",
                    hint: "write it as \\u00E9 (4 digits) or \\U0001F389 (8 digits)")
            }
            code = code << 4 | UInt32(digit)
            index += 1
        }
        guard let scalar = Unicode.Scalar(code) else {
            throw SyntaxError(
                offset: start, message: "\(sequence(at: start, length: 2 + digits)) is not a Unicode character",
                hint: "escape a character from U+0000 to U+10FFFF, but not a surrogate (U+D800 to U+DFFF)")
        }
        UTF8.encode(scalar) { decoded.append($0) }
    }

    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    private func sequence(at start: Int, length: Int) -> String {
        var end = min(start + length, count)
        while end < count && bytes[end] & 0xC0 == 0x80 { end += 1 }
        // A line break or tab shows as its escape, so the message stays on one line.
        let shown = text(start, end).unicodeScalars.map { scalar in
            switch scalar {
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            default: String(scalar)
            }
        }
        return "`" + shown.joined() + "`"
    }

    /// Whether a string must not hold the byte as it is.
    private static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != Byte.tab) || byte == 0x7F
    }

    /// Whether the byte stands for itself in any string: not a quote, a backslash or a control
    /// character (tabs included, which the slower loop reads).
    private static func isPlainInString(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != Byte.quote && byte != Byte.backslash && byte != 0x7F
    }

    /// The high bit of the first byte of `word` (in little-endian order) that is not plain in any
    /// string, and maybe of bytes after it; zero when all eight bytes are plain. A borrow in the
    /// subtractions below only runs from a marked byte to the bytes after it, so the first mark is exact.
    private static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func below(_ word: UInt64, _ n: UInt64) -> UInt64 { (word &- ones &* n) & ~word & highs }
        return below(word, 0x20) | below(word ^ (ones &* UInt64(Byte.quote)), 1)
            | below(word ^ (ones &* UInt64(Byte.backslash)), 1) | below(word ^ (ones &* 0x7F), 1)
    }

    private func control(_ byte: UInt8) -> SyntaxError {
        SyntaxError(
            offset: index, message: "the string holds a control character (\(Byte.name(byte)))",
            hint: "write it as an escape, such as \\u\(Byte.name(byte).dropFirst(2)), in a \"basic string\"")
    }

    private func notClosed(_ quote: String) -> SyntaxError {
        SyntaxError(
            offset: index, message: "the string is not closed",
            hint: "end it with the same quote it starts with (\(quote))")
    }

    private func notClosedOnLine(_ quote: String) -> SyntaxError {
        SyntaxError(
            offset: index, message: "the string is not closed on this line",
            hint: quote == "double quote"
                ? "end it with a double quote on the same line, or use \"\"\"triple quotes\"\"\" for text over several lines"
                : "end it with a single quote on the same line, or use '''triple quotes''' for text over several lines")
    }
}
