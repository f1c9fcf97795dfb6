import Foundation
import HoorayTOML

/// One value of a parsed configuration, with the place in a file it came from.
///
/// The engine parses TOML files into trees of nodes, merges the layers (system, drop-ins, user,
/// `--config`) and hands each plugin its `[plugins.NAME]` node. ``ConfigDecoder`` turns a node into
/// a plugin's `Configuration`, and uses the locations to report problems as `file:line:column`.
///
/// A node read from a file is a view of the TOML reader's own tree: nothing is copied, and a
/// location is made only when something asks for one (a message, mostly).
public struct ConfigNode: Sendable, Hashable {
    /// The kinds of value TOML has.
    public enum Value: Sendable, Hashable {
        /// A string.
        case string(String)
        /// A 64-bit integer.
        case integer(Int)
        /// A floating-point number.
        case float(Double)
        /// `true` or `false`.
        case boolean(Bool)
        /// A TOML date, time or date-time, kept in its text form.
        case dateTime(ConfigDateTime)
        /// An array, including an array of tables (`[[name]]`).
        case array([ConfigNode])
        /// A table, including an inline table.
        case table(ConfigTable)
    }

    /// Where a node's value is kept.
    enum Storage: Sendable {
        /// A value as the TOML reader read it, in the file with that number (see ``SourceFiles``).
        case read(TOMLItem, file: Int32)
        /// A value made or changed in code, such as a merged table.
        case made(Value, location: SourceLocation?)
    }

    var storage: Storage

    init(read item: TOMLItem, file: Int32) {
        storage = .read(item, file: file)
    }

    /// The value.
    public var value: Value {
        get {
            switch storage {
            case .made(let value, _): return value
            case .read(let item, let file):
                switch item.value {
                case .string(let text): return .string(text)
                case .integer(let number): return .integer(Int(number))
                case .float(let number): return .float(number)
                case .boolean(let flag): return .boolean(flag)
                case .dateTime(let dateTime): return .dateTime(ConfigDateTime(dateTime))
                case .array(let items): return .array(items.map { ConfigNode(read: $0, file: file) })
                case .table(let table): return .table(ConfigTable(read: table, file: file))
                }
            }
        }
        set { storage = .made(newValue, location: location) }
    }

    /// Where the value is written, or `nil` for values that come from no file, such as an empty
    /// table standing in for a missing section.
    public var location: SourceLocation? {
        get {
            switch storage {
            case .made(_, let location): location
            case .read(let item, let file): SourceFiles.location(item.position, file: file)
            }
        }
        set { storage = .made(value, location: newValue) }
    }

    /// Creates a node.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - location: Where the value is written, if it comes from a file.
    public init(_ value: Value, location: SourceLocation? = nil) {
        storage = .made(value, location: location)
    }

    /// An empty table, for a section that is not in any file.
    ///
    /// - Parameter location: Where the table would be, if known.
    public static func emptyTable(location: SourceLocation? = nil) -> ConfigNode {
        ConfigNode(.table(ConfigTable()), location: location)
    }

    /// The table, when the node is one.
    public var table: ConfigTable? {
        switch storage {
        case .read(let item, let file):
            if case .table(let table) = item.value { return ConfigTable(read: table, file: file) }
            return nil
        case .made(let value, _):
            if case .table(let table) = value { return table }
            return nil
        }
    }

    /// The elements, when the node is an array.
    public var array: [ConfigNode]? {
        switch storage {
        case .read(let item, let file):
            if case .array(let items) = item.value { return items.map { ConfigNode(read: $0, file: file) } }
            return nil
        case .made(let value, _):
            if case .array(let elements) = value { return elements }
            return nil
        }
    }

    /// The number of elements when the node is an array, without making a node for each.
    var elementCount: Int? {
        switch storage {
        case .read(let item, _):
            if case .array(let items) = item.value { return items.count }
            return nil
        case .made(let value, _):
            if case .array(let elements) = value { return elements.count }
            return nil
        }
    }

    /// The element at `index` of an array node; `elementCount` says how many there are.
    func element(at index: Int) -> ConfigNode {
        switch storage {
        case .read(let item, let file):
            guard case .array(let items) = item.value else { preconditionFailure("not an array") }
            return ConfigNode(read: items[index], file: file)
        case .made(let value, _):
            guard case .array(let elements) = value else { preconditionFailure("not an array") }
            return elements[index]
        }
    }

    /// `true` when the node is a table, without making a view of it.
    var isTable: Bool {
        switch storage {
        case .read(let item, _):
            if case .table = item.value { return true }
        case .made(let value, _):
            if case .table = value { return true }
        }
        return false
    }

    /// `true` for a non-empty array whose elements are all tables, such as `[[plugins.reminders.reminder]]`.
    ///
    /// Arrays of tables are concatenated when configuration layers are merged; other arrays are replaced.
    public var isArrayOfTables: Bool {
        switch storage {
        case .read(let item, _):
            // Looked at in place: 100,000 elements are not each made a node.
            guard case .array(let items) = item.value, !items.isEmpty else { return false }
            return items.allSatisfy {
                if case .table = $0.value { true } else { false }
            }
        case .made(let value, _):
            guard case .array(let elements) = value, !elements.isEmpty else { return false }
            return elements.allSatisfy(\.isTable)
        }
    }

    /// The node under `key` when this node is a table; `nil` otherwise.
    public subscript(key: String) -> ConfigNode? {
        table?[key]
    }

    /// The node at `path` below this one, or `nil` when there is none.
    ///
    /// - Parameter path: Keys and indices relative to this node.
    public func node(at path: ConfigKeyPath) -> ConfigNode? {
        var current = self
        for component in path.components {
            switch component {
            case .key(let key):
                guard let next = current[key] else { return nil }
                current = next
            case .index(let index):
                guard let count = current.elementCount, (0..<count).contains(index) else { return nil }
                current = current.element(at: index)
            }
        }
        return current
    }

    /// The kind of value and, for scalars, the value itself, as messages show it: `integer 1500`,
    /// `string "15:00"`, `a table`.
    public var kindDescription: String {
        switch value {
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(37)) + "..." : text
            return "string \"\(shown)\""
        case .integer(let number): return "integer \(number)"
        case .float(let number): return "float \(number)"
        case .boolean(let flag): return "boolean \(flag)"
        case .dateTime(let dateTime): return "\(dateTime.kind.name) \(dateTime.text)"
        case .array(let elements): return elements.isEmpty ? "an empty array" : "an array"
        case .table: return "a table"
        }
    }

    /// Nodes are equal when their values and locations are.
    public static func == (lhs: ConfigNode, rhs: ConfigNode) -> Bool {
        lhs.location == rhs.location && lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
        hasher.combine(location)
    }
}

/// A TOML date, time or date-time, in its text form.
///
/// TOML has four of these: offset date-times (`2026-01-05T08:00:00Z`), local date-times
/// (`2026-01-05T08:00:00`), local dates (`2026-01-05`) and local times (`08:00:00`). Hooray keeps
/// the RFC 3339 text; ``ConfigDecoder`` decodes it as a `String` (so `LocalDate` accepts an unquoted
/// date) or as a `Date`.
public struct ConfigDateTime: Sendable, Hashable, CustomStringConvertible {
    /// Which of TOML's four date and time forms a value has.
    public enum Kind: Sendable, Hashable {
        /// A date and time with a UTC offset: an exact instant.
        case offsetDateTime
        /// A date and time without an offset: read in a time zone.
        case localDateTime
        /// A date alone.
        case localDate
        /// A time of day alone.
        case localTime

        /// The name used in messages, such as `local date`.
        public var name: String {
            switch self {
            case .offsetDateTime: "date-time"
            case .localDateTime: "local date-time"
            case .localDate: "date"
            case .localTime: "local time"
            }
        }
    }

    /// The form of the value.
    public var kind: Kind
    /// The value in RFC 3339 form, such as `2026-01-05T08:00:00+01:00`, `2026-01-05` or `08:00:00`.
    public var text: String

    init(_ dateTime: TOMLDateTime) {
        let kind: Kind =
            switch dateTime.kind {
            case .offsetDateTime: .offsetDateTime
            case .localDateTime: .localDateTime
            case .localDate: .localDate
            case .localTime: .localTime
            }
        self.init(kind: kind, text: dateTime.text)
    }

    /// Creates a date-time value.
    ///
    /// - Parameters:
    ///   - kind: The form of the value.
    ///   - text: The value in RFC 3339 form.
    public init(kind: Kind, text: String) {
        self.kind = kind
        self.text = text
    }

    /// The text form.
    public var description: String { text }

    /// The instant this value names.
    ///
    /// Local date-times are read in `timeZone`; a local date is its midnight there.
    /// - Parameter timeZone: The zone for values without an offset.
    /// - Returns: `nil` for a local time, which names no day, or for text that is not RFC 3339.
    public func date(in timeZone: TimeZone) -> Date? {
        guard kind != .localTime, let parts = ConfigDateTime.parse(text) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = parts.offsetMinutes.flatMap { TimeZone(secondsFromGMT: $0 * 60) } ?? timeZone
        let components = DateComponents(
            year: parts.year, month: parts.month, day: parts.day,
            hour: parts.hour, minute: parts.minute, second: parts.second, nanosecond: parts.nanosecond)
        return calendar.date(from: components)
    }

    /// Reads RFC 3339 text as TOML writes it: a date, a date and time (`T` or a space between), or
    /// a time, with optional fractional seconds and `Z` or `±HH:MM`.
    ///
    /// - Parameter text: Text such as `2026-01-05T08:00:00Z`.
    /// - Returns: `nil` when the text is not in that form.
    public init?(parsing text: String) {
        guard let parts = ConfigDateTime.parse(text) else { return nil }
        self.text = text
        switch (parts.hasDate, parts.hasTime, parts.offsetMinutes != nil) {
        case (true, true, true): self.kind = .offsetDateTime
        case (true, true, false): self.kind = .localDateTime
        case (true, false, false): self.kind = .localDate
        case (false, true, false): self.kind = .localTime
        default: return nil
        }
    }

    private struct Parts {
        var hasDate = false
        var hasTime = false
        var year = 1970
        var month = 1
        var day = 1
        var hour = 0
        var minute = 0
        var second = 0
        var nanosecond = 0
        var offsetMinutes: Int?
    }

    private static func parse(_ text: String) -> Parts? {
        var rest = Substring(text)
        var parts = Parts()

        func number(_ digits: Int) -> Int? {
            let prefix = rest.prefix(digits)
            guard prefix.count == digits, prefix.allSatisfy(\.isASCIIDigit), let value = Int(prefix) else {
                return nil
            }
            rest = rest.dropFirst(digits)
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard rest.first == character else { return false }
            rest = rest.dropFirst()
            return true
        }

        if rest.count >= 10, rest.dropFirst(4).first == "-" {
            guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
                (1...12).contains(month), (1...31).contains(day)
            else { return nil }
            parts.hasDate = true
            (parts.year, parts.month, parts.day) = (year, month, day)
            guard let separator = rest.first else { return parts }
            guard separator == "T" || separator == "t" || separator == " " else { return nil }
            rest = rest.dropFirst()
        }
        guard let hour = number(2), expect(":"), let minute = number(2), expect(":"), let second = number(2),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        parts.hasTime = true
        (parts.hour, parts.minute, parts.second) = (hour, minute, second)
        if expect(".") {
            let digits = rest.prefix(while: \.isASCIIDigit)
            guard !digits.isEmpty else { return nil }
            let nine = String(digits.prefix(9)).padding(toLength: 9, withPad: "0", startingAt: 0)
            parts.nanosecond = Int(nine) ?? 0
            rest = rest.dropFirst(digits.count)
        }
        if expect("Z") || expect("z") {
            parts.offsetMinutes = 0
        } else if let sign = rest.first, sign == "+" || sign == "-" {
            rest = rest.dropFirst()
            guard parts.hasDate, let hours = number(2), expect(":"), let minutes = number(2) else { return nil }
            parts.offsetMinutes = (sign == "-" ? -1 : 1) * (hours * 60 + minutes)
        }
        guard rest.isEmpty else { return nil }
        if parts.offsetMinutes != nil, !parts.hasDate { return nil }
        return parts
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
