/// A document's text as UTF-8 bytes, cut and joined at byte offsets read off the syntax tree.
struct TextSplice {
    var bytes: [UInt8]

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func replace(_ range: Range<Int>, with text: String) {
        bytes.replaceSubrange(range, with: Array(text.utf8))
    }

    /// Removes ranges, which may touch or overlap.
    mutating func remove(_ ranges: [Range<Int>]) {
        var merged: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        for range in merged.reversed() { bytes.removeSubrange(range) }
    }

    /// Whether the text before `offset` ends with a line end.
    func endsWithLineEnd(_ offset: Int) -> Bool {
        offset > 0 && bytes[offset - 1] == UInt8(ascii: "\n")
    }

    /// Where the line end just before `offset` starts (`offset` when there is none).
    func droppingLineEnd(before offset: Int) -> Int {
        guard endsWithLineEnd(offset) else { return offset }
        return offset >= 2 && bytes[offset - 2] == UInt8(ascii: "\r") ? offset - 2 : offset - 1
    }

    /// Where to start removing a table that ends the file so that the text before it ends as it did
    /// before `appendBlock` added it: one line end fewer when a blank line is before it, and for a
    /// table without a final line end, the line end before it too.
    func droppingBlankLine(before offset: Int, endedWithLineEnd: Bool) -> Int {
        let once = droppingLineEnd(before: offset)
        guard once != offset else { return offset }
        let twice = droppingLineEnd(before: once)
        if endedWithLineEnd { return twice == once ? offset : once }
        return twice
    }

    /// Inserts a line at `offset`: at the start of a line (`afterLineEnd`), or after the last line of
    /// a file without a final line end, which then keeps having none.
    mutating func insertLine(_ line: String, at offset: Int, afterLineEnd: Bool, newline: String) {
        replace(offset..<offset, with: afterLineEnd ? line + newline : newline + line)
    }

    /// Adds lines at the end of the file, after a blank line; a file without a final line end keeps
    /// having none.
    mutating func appendBlock(_ lines: [String], newline: String, contentStart: Int) {
        let block = lines.joined(separator: newline)
        let end = bytes.count..<bytes.count
        if bytes.count <= contentStart {
            replace(end, with: block + newline)
        } else if endsWithLineEnd(bytes.count) {
            replace(end, with: newline + block + newline)
        } else {
            replace(end, with: newline + newline + block)
        }
    }
}
