/// Turns byte offsets into lines and columns, walking the text once as the parser asks for places
/// further on (and back a little for the rare place behind).
struct PositionTracker {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where `bytes` start in the whole text, when they are a part of it (``ListSplit``): added to
    /// each offset given out.
    let base: Int
    private var offset = 0
    private var line = 1
    private var column = 1

    /// - Parameters:
    ///   - bytes: The text, or a part of it that starts a line.
    ///   - line: The line the bytes start on.
    ///   - base: Where the bytes start in the whole text.
    init(bytes: UnsafeBufferPointer<UInt8>, line: Int = 1, base: Int = 0) {
        self.bytes = bytes
        self.line = line
        self.base = base
    }

    mutating func position(at wanted: Int) -> TOMLPosition {
        let target = min(max(wanted, 0), bytes.count)
        if target < offset {
            var lineStart = target
            while lineStart > 0 && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
            var walk = offset
            while walk > target {
                walk -= 1
                if bytes[walk] == 0x0A { line -= 1 }
            }
            offset = lineStart
            column = 1
        }
        guard offset < target, let start = bytes.baseAddress else {
            return TOMLPosition(line: line, column: column, offset: base + target)
        }
        var offset = self.offset
        var line = self.line
        var column = self.column
        while offset < target {
            // Eight bytes at a time while they hold no line feed and no byte of a longer character.
            if target - offset >= 8, Self.isPlain(UnsafeRawPointer(start + offset).loadUnaligned(as: UInt64.self)) {
                offset += 8
                column += 8
                continue
            }
            let byte = start[offset]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            offset += 1
        }
        self.offset = offset
        self.line = line
        self.column = column
        return TOMLPosition(line: line, column: column, offset: base + target)
    }

    /// Told by the parser that the text from `start`, where the tracker is, to the line feed at
    /// `lineFeed` holds no other line feed: the tracker moves to the next line without reading it.
    /// Nothing changes unless the tracker is at `start` and a line feed is at `lineFeed`.
    mutating func lineEnds(from start: Int, at lineFeed: Int) {
        guard offset == start, start <= lineFeed, lineFeed < bytes.count, bytes[lineFeed] == Byte.lineFeed else {
            return
        }
        offset = lineFeed + 1
        line += 1
        column = 1
    }

    /// Whether eight bytes are all ASCII and none is a line feed.
    private static func isPlain(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let feeds = word ^ (ones &* 0x0A)
        return (word & highs) | ((feeds &- ones) & ~feeds & highs) == 0
    }
}

enum UTF8Check {
    /// The offsets of the bytes that do not belong to well-formed UTF-8, with what is wrong there.
    static func problems(in bytes: [UInt8], limit: Int) -> [(offset: Int, message: String)] {
        var found: [(Int, String)] = []
        var index = 0
        let count = bytes.count
        while index < count && found.count < limit {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch byte {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default:
                found.append((index, "byte 0x\(hex(byte)) cannot appear in UTF-8 text"))
                index += 1
                continue
            }
            var good = index + length <= count
            if good {
                for next in 1..<length {
                    let continuation = bytes[index + next]
                    let (minimum, maximum) = next == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
                    if continuation < minimum || continuation > maximum {
                        good = false
                        break
                    }
                }
            }
            if good {
                index += length
            } else {
                found.append((index, "the bytes starting 0x\(hex(byte)) are not a UTF-8 character"))
                index += 1
            }
        }
        return found
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
