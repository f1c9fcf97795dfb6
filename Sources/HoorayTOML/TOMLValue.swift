/// A place in a TOML document.
public struct TOMLPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, counting Unicode scalars.
    public var column: Int
    /// The UTF-8 byte offset from the start of the document (a byte-order mark included).
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// The first character of a document.
    public static let start = TOMLPosition(line: 1, column: 1, offset: 0)

    public static func < (left: TOMLPosition, right: TOMLPosition) -> Bool { left.offset < right.offset }

    public var description: String { "\(line):\(column)" }
}

/// A value read from a document.
public enum TOMLValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    case dateTime(TOMLDateTime)
    /// A list, `[1, 2]`, or the tables of an array of tables, `[[name]]`.
    case array([TOMLItem])
    case table(TOMLTable)

    /// The table, when the value is one.
    public var table: TOMLTable? {
        if case .table(let table) = self { return table }
        return nil
    }

    /// The value, leaving a placeholder in its place.
    mutating func take() -> TOMLValue {
        let value = self
        self = .boolean(false)
        return value
    }

    /// The table, leaving a placeholder in its place; nothing changes when the value is no table.
    mutating func takeTable() -> TOMLTable? {
        guard case .table(let table) = self else { return nil }
        self = .boolean(false)
        return table
    }

    /// The elements, leaving a placeholder in their place; nothing changes when the value is no array.
    mutating func takeArray() -> [TOMLItem]? {
        guard case .array(let items) = self else { return nil }
        self = .boolean(false)
        return items
    }

    /// The elements, when the value is an array.
    public var array: [TOMLItem]? {
        if case .array(let items) = self { return items }
        return nil
    }
}

/// A value and the place it starts: its first character, the `{` of an inline table, the `[` of a
/// list or of a `[table]` header, or the key of a table made by dotted keys or by a longer header.
public struct TOMLItem: Sendable, Hashable {
    public var value: TOMLValue
    public var position: TOMLPosition

    public init(value: TOMLValue, position: TOMLPosition) {
        self.value = value
        self.position = position
    }
}

/// A date, a time or both, as TOML writes them.
public struct TOMLDateTime: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case offsetDateTime, localDateTime, localDate, localTime
    }

    public var kind: Kind
    /// Normalised: `2026-11-24T08:30:00Z`, `2026-11-24T08:30:00.5+01:00`, `2026-11-24T08:30:00`,
    /// `2026-11-24`, `08:30:00`. A `T` between date and time, seconds always (TOML 1.1 lets them
    /// out), a fraction without trailing zeros (nanoseconds at most), `Z` for an offset of zero.
    public var text: String

    public init(kind: Kind, text: String) {
        self.kind = kind
        self.text = text
    }

    public var description: String { text }
}

/// A table, its keys in the order the file gives them.
public struct TOMLTable: Sendable, Hashable {
    /// A key of the table and its value.
    public struct Entry: Sendable, Hashable {
        public var key: String
        /// Where the key is written (for a table made by a header, the key's last part in the header).
        public var keyPosition: TOMLPosition
        public var item: TOMLItem

        public init(key: String, keyPosition: TOMLPosition, item: TOMLItem) {
            self.key = key
            self.keyPosition = keyPosition
            self.item = item
        }
    }

    /// How a table came to be; the TOML rules on defining tables depend on it.
    enum Origin: UInt8, Sendable {
        case root, implicit, header, dotted, arrayElement, inline
    }

    /// The keys and values, in file order.
    public private(set) var entries: [Entry] = []
    /// Whether the table is written `{ ... }`.
    public internal(set) var isInline: Bool
    /// Where the table starts (see ``TOMLItem``); the start of the file for the root.
    public internal(set) var position: TOMLPosition
    var origin: Origin
    /// Built once a table has more keys than a look along the list is worth.
    private var index: [String: Int]?

    /// An empty table.
    public init(isInline: Bool = false, position: TOMLPosition = .start) {
        self.isInline = isInline
        self.position = position
        self.origin = isInline ? .inline : .root
    }

    init(origin: Origin, position: TOMLPosition) {
        self.isInline = origin == .inline
        self.position = position
        self.origin = origin
    }

    /// The value of a key.
    public subscript(key: String) -> TOMLItem? {
        entryIndex(of: key).map { entries[$0].item }
    }

    /// The keys, in file order.
    public var keys: [String] { entries.map(\.key) }
    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    /// Where a key is in ``entries``.
    public func entryIndex(of key: String) -> Int? {
        if let index { return index[key] }
        return entries.firstIndex { $0.key == key }
    }

    /// Room for `count` keys, so that a table whose keys are known to come grows once.
    mutating func reserveCapacity(_ count: Int) {
        entries.reserveCapacity(count)
    }

    /// Adds a key the table does not hold yet (the parser checks that).
    mutating func append(_ entry: consuming Entry) {
        // Tables are small: room for four keys at once, not one, then two, then four.
        if entries.capacity == 0 { entries.reserveCapacity(4) }
        entries.append(entry)
        if index != nil {
            index?[entries[entries.count - 1].key] = entries.count - 1
        } else if entries.count > 12 {
            var built: [String: Int] = [:]
            built.reserveCapacity(entries.count * 2)
            for (offset, entry) in entries.enumerated() where built[entry.key] == nil { built[entry.key] = offset }
            index = built
        }
    }

    /// Runs `body` on the table held at `entries[position]`: that table itself, or the last table of an
    /// array of tables. Each value is taken out of its place while `body` runs (and put back after), so
    /// that it has no other owner and is changed in place, not copied.
    mutating func modifyChild<Result>(at position: Int, _ body: (inout TOMLTable) -> Result) -> Result {
        var value = entries[position].item.value.take()
        defer { entries[position].item.value = value }
        if var table = value.takeTable() {
            defer { value = .table(table) }
            return body(&table)
        }
        if var items = value.takeArray() {
            defer { value = .array(items) }
            if let last = items.indices.last, var table = items[last].value.takeTable() {
                defer { items[last].value = .table(table) }
                return body(&table)
            }
        }
        var scratch = TOMLTable()
        return body(&scratch)
    }

    mutating func modifyValue(at position: Int, _ body: (inout TOMLItem) -> Void) {
        body(&entries[position].item)
    }

    public static func == (left: TOMLTable, right: TOMLTable) -> Bool {
        left.isInline == right.isInline && left.entries == right.entries
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(isInline)
        hasher.combine(entries)
    }
}

/// A mistake in a document, and where it is.
public struct TOMLDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// From 1.
    public var line: Int
    /// From 1, counting Unicode scalars.
    public var column: Int
    /// The UTF-8 byte offset.
    public var offset: Int
    /// What is wrong, in plain words.
    public var message: String
    /// How to fix it.
    public var hint: String?

    public init(line: Int, column: Int, offset: Int, message: String, hint: String? = nil) {
        self.line = line
        self.column = column
        self.offset = offset
        self.message = message
        self.hint = hint
    }

    init(at position: TOMLPosition, _ message: String, hint: String?) {
        self.init(line: position.line, column: position.column, offset: position.offset, message: message, hint: hint)
    }

    public var position: TOMLPosition { TOMLPosition(line: line, column: column, offset: offset) }

    public var description: String {
        "\(line):\(column): \(message)" + (hint.map { " (\($0))" } ?? "")
    }
}

/// The TOML version a document is read as.
public enum TOMLVersion: Sendable, Hashable {
    /// TOML 1.0.0.
    case v1_0
    /// TOML 1.1.0: times without seconds, newlines, comments and a trailing comma in inline tables,
    /// `\e` and `\xHH` escapes.
    case v1_1
}
