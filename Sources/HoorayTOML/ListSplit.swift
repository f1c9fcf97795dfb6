import Foundation

/// A long list of tables read in two halves at once, one on a thread of its own: a file of 100,000
/// `[[plugins.reminders.reminder]]` tables is read in about half the time on two cores.
///
/// The text is cut at a line near its middle that is the file's first `[[name]]` header again. Each
/// half is read on its own (the second with its places in the whole text's terms), and the second
/// half's tables are added to the first's list. That is the whole text's reading only when the
/// second half holds nothing but elements of that list and both halves read without a mistake: a cut
/// inside a multi-line string, list or inline table leaves the first half unclosed, a mistake. In any
/// other case the text is read whole, as it would have been, so every message stays the same.
enum ListSplit {
    /// Below this many bytes a text is read whole.
    static let smallest = 1 << 20

    /// The values and mistakes of `bytes`, read in two halves at once when they are a long list of
    /// tables; `nil` when they must be read whole.
    static func values(
        of bytes: UnsafeBufferPointer<UInt8>, version: TOMLVersion
    ) -> (root: TOMLTable, diagnostics: [TOMLDiagnostic])? {
        guard bytes.count >= smallest, let cut = cut(in: bytes) else { return nil }
        let line = 1 + lineFeeds(in: UnsafeBufferPointer(rebasing: bytes[..<cut]))
        let first = Half()
        let firstBytes = UnsafeBufferPointer(rebasing: bytes[..<cut])
        // The bytes outlive the thread: `first.wait()` returns only once it is done with them.
        nonisolated(unsafe) let shared = firstBytes
        Thread.detachNewThread {
            var parser = Parser(bytes: shared, version: version, buildsSyntax: false)
            _ = parser.parseDocument()
            first.finish(root: parser.builder.finishedRoot(), diagnostics: parser.finishedDiagnostics())
        }
        var parser = Parser(
            bytes: UnsafeBufferPointer(rebasing: bytes[cut...]), version: version, buildsSyntax: false, line: line,
            base: cut)
        _ = parser.parseDocument()
        let second = parser.builder.finishedRoot()
        let secondDiagnostics = parser.finishedDiagnostics()
        var (root, diagnostics) = first.wait()
        guard diagnostics.isEmpty, secondDiagnostics.isEmpty, append(second, to: &root) else { return nil }
        return (root, [])
    }

    /// The offset of a line near the middle that is the same `[[name]]` header as the first line of the
    /// text that starts with `[[`.
    static func cut(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let header = firstHeader(in: bytes) else { return nil }
        let headerBytes = UnsafeBufferPointer(rebasing: bytes[header])
        // Looked for from the middle on, for at most a tenth of the text.
        var index = bytes.count / 2
        let end = min(bytes.count - header.count - 1, index + bytes.count / 10)
        while index < end {
            if bytes[index] == Byte.lineFeed, bytes[index + 1] == Byte.openBracket,
                UnsafeBufferPointer(rebasing: bytes[(index + 1)..<(index + 1 + header.count)]).elementsEqual(
                    headerBytes)
            {
                let after = index + 1 + header.count
                if after == bytes.count || bytes[after] == Byte.lineFeed || bytes[after] == Byte.carriageReturn {
                    return index + 1
                }
            }
            index += 1
        }
        return nil
    }

    /// The first line that starts with `[[`, without its line end.
    private static func firstHeader(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != Byte.lineFeed { end += 1 }
            if end - start > 4, bytes[start] == Byte.openBracket, bytes[start + 1] == Byte.openBracket {
                return start..<(bytes[end - 1] == Byte.carriageReturn ? end - 1 : end)
            }
            start = end + 1
        }
        return nil
    }

    private static func lineFeeds(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte == Byte.lineFeed { count += 1 }
        return count
    }

    /// Adds the elements of the one list of tables `second` holds to the same list in `first`; false,
    /// with `first` unchanged, when `second` holds anything else, or `first` could not have taken
    /// them as the whole text's reading would have.
    static func append(_ second: TOMLTable, to first: inout TOMLTable) -> Bool {
        // The second half: tables made by its first header alone, down to the list.
        var path: [String] = []
        var table = second
        var elements: [TOMLItem] = []
        while elements.isEmpty {
            guard table.count == 1, let entry = table.entries.first else { return false }
            path.append(entry.key)
            switch entry.item.value {
            case .table(let child) where child.origin == .implicit:
                table = child
            case .array(let items) where isListOfTables(items):
                elements = items
            default:
                return false
            }
        }
        return append(elements, at: path[...], to: &first)
    }

    private static func append(_ elements: [TOMLItem], at path: ArraySlice<String>, to table: inout TOMLTable) -> Bool {
        guard let key = path.first, let found = table.entryIndex(of: key) else { return false }
        let value = table.entries[found].item.value
        if path.count == 1 {
            guard let items = value.array, isListOfTables(items) else { return false }
            table.modifyValue(at: found) { item in
                guard var items = item.value.takeArray() else { return }
                items.append(contentsOf: elements)
                item.value = .array(items)
            }
            return true
        }
        // A table a longer header may go into (not an inline one, nor a list, whose last element a
        // header would go into).
        guard let child = value.table, child.origin != .inline else { return false }
        return table.modifyChild(at: found) { append(elements, at: path.dropFirst(), to: &$0) }
    }

    private static func isListOfTables(_ items: [TOMLItem]) -> Bool {
        guard case .table(let first)? = items.first?.value else { return false }
        return first.origin == .arrayElement
    }

    /// The first half's reading, handed from its thread.
    private final class Half: @unchecked Sendable {
        private let condition = NSCondition()
        private var reading: (root: TOMLTable, diagnostics: [TOMLDiagnostic])?

        func finish(root: TOMLTable, diagnostics: [TOMLDiagnostic]) {
            condition.lock()
            reading = (root, diagnostics)
            condition.broadcast()
            condition.unlock()
        }

        func wait() -> (root: TOMLTable, diagnostics: [TOMLDiagnostic]) {
            condition.lock()
            defer { condition.unlock() }
            while reading == nil { condition.wait() }
            return reading.take()!
        }
    }
}
