import Foundation
import HoorayKit
import HoorayTOML

/// A table read from a file, as a ``HoorayKit/ConfigTableDecodable`` type reads it: straight from
/// the TOML reader's entries, with no node, path or location made.
struct ReadTableReader: ConfigTableReader {
    let entries: [TOMLTable.Entry]

    var count: Int { entries.count }

    func key(at index: Int) -> String { entries[index].key }

    func string(at index: Int) -> String? {
        switch entries[index].item.value {
        case .string(let text): text
        case .dateTime(let dateTime):
            ConfigDateTime.decodedString(isLocalTime: dateTime.kind == .localTime, text: dateTime.text)
        default: nil
        }
    }
}

/// A table made or changed in code (a merged one), as a ``HoorayKit/ConfigTableDecodable`` type reads it.
struct MadeTableReader: ConfigTableReader {
    let table: ConfigTable

    var count: Int { table.count }

    func key(at index: Int) -> String { table.key(at: index) }

    func string(at index: Int) -> String? {
        switch table.node(at: index).value {
        case .string(let text): text
        case .dateTime(let dateTime):
            ConfigDateTime.decodedString(isLocalTime: dateTime.kind == .localTime, text: dateTime.text)
        default: nil
        }
    }
}

extension ConfigDateTime {
    /// The `String` that a TOML date or time decodes to: its text, but `15:00` for `15:00` or
    /// `15:00:00` (TOML 1.1 lets a time leave out its seconds; the reader writes them), the time of
    /// day on the minute that `at = 15:00` means.
    static func decodedString(isLocalTime: Bool, text: String) -> String {
        if isLocalTime && text.utf8.count == 8 && text.hasSuffix(":00") { return String(text.prefix(5)) }
        return text
    }
}

/// An array whose elements can be read straight from their tables, such as the reminders
/// plugin's `[Entry]`: the loader reads the whole array at once.
protocol TableDecodableArray {
    /// The array, when every element is a table and a good one; `nil` otherwise.
    static func readGood(from node: ConfigNode) -> Self?
}

extension Array: TableDecodableArray where Element: ConfigTableDecodable {
    static func readGood(from node: ConfigNode) -> [Element]? {
        switch node.storage {
        case .read(let item, _):
            guard case .array(let items) = item.value else { return nil }
            guard items.count >= halvesFrom else { return readGood(items[...]) }
            // A long list is read in two halves at once, the first on a thread of its own.
            let middle = items.count / 2
            let first = HalfReading<Element>()
            Thread.detachNewThread { first.finish(readGood(items[..<middle])) }
            let second = readGood(items[middle...])
            guard var elements = first.wait(), let second else { return nil }
            elements.append(contentsOf: second)
            return elements
        case .made:
            guard let count = node.elementCount else { return nil }
            var elements: [Element] = []
            elements.reserveCapacity(count)
            for index in 0..<count {
                guard let element = readGoodTable(Element.self, from: node.element(at: index)) else { return nil }
                elements.append(element)
            }
            return elements
        }
    }
}

extension Array where Element: ConfigTableDecodable {
    /// From this many elements on, a list is read in two halves at once.
    static var halvesFrom: Int { 20_000 }

    /// The elements, when every one is a table and a good one; `nil` otherwise.
    static func readGood(_ items: ArraySlice<TOMLItem>) -> [Element]? {
        var elements: [Element] = []
        elements.reserveCapacity(items.count)
        for item in items {
            guard case .table(let table) = item.value,
                let element = Element(readingGood: ReadTableReader(entries: table.entries))
            else { return nil }
            elements.append(element)
        }
        return elements
    }
}

/// The first half of a list read on a thread of its own, handed back.
private final class HalfReading<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var done = false
    private var elements: [Element]?

    func finish(_ elements: [Element]?) {
        condition.lock()
        (self.elements, done) = (elements, true)
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        while !done { condition.wait() }
        return elements.take()
    }
}

/// A value of a ``HoorayKit/ConfigTableDecodable`` type read from a table node, when the node is
/// a table and a good one.
func readGoodTable<Value: ConfigTableDecodable>(_ type: Value.Type, from node: ConfigNode) -> Value? {
    switch node.storage {
    case .read(let item, _):
        guard case .table(let table) = item.value else { return nil }
        return Value(readingGood: ReadTableReader(entries: table.entries))
    case .made(let value, _):
        guard case .table(let table) = value else { return nil }
        if case .read(let table, _) = table.storage {
            return Value(readingGood: ReadTableReader(entries: table.entries))
        }
        return Value(readingGood: MadeTableReader(table: table))
    }
}

/// How a type can be read without `Decoder`, if it can: worked out once per type.
enum TableReading {
    /// The type reads its value from a table (``HoorayKit/ConfigTableDecodable``).
    case value(any ConfigTableDecodable.Type)
    /// The type is an array of such values.
    case array(any TableDecodableArray.Type)

    init?<T>(_ type: T.Type) {
        if let readable = type as? any ConfigTableDecodable.Type {
            self = .value(readable)
        } else if let array = type as? any TableDecodableArray.Type {
            self = .array(array)
        } else {
            return nil
        }
    }

    /// The value read straight from `node`, or `nil` when it must be decoded (and its problems reported).
    func readGood<T>(_ type: T.Type, from node: ConfigNode) -> T? {
        switch self {
        case .value(let readable):
            func open<Value: ConfigTableDecodable>(_ readable: Value.Type) -> T? {
                readGoodTable(readable, from: node).flatMap { $0 as? T }
            }
            return open(readable)
        case .array(let array):
            func open<Value: TableDecodableArray>(_ array: Value.Type) -> T? {
                array.readGood(from: node).flatMap { $0 as? T }
            }
            return open(array)
        }
    }
}
