/// A value to write into a TOML document, printed the way TOML writes it: strings quoted and
/// escaped, arrays as `[a, b]`, tables inline as `{ a = 1 }`.
public enum TOMLLiteral: Sendable, Hashable {
    /// A string, printed as a basic string with escapes.
    case string(String)
    /// An integer.
    case integer(Int64)
    /// A float; `inf`, `-inf` and `nan` as TOML writes them.
    case float(Double)
    /// `true` or `false`.
    case boolean(Bool)
    /// A date, time or date-time, written as given, such as `2026-11-24` or `2026-11-24T08:30:00Z`.
    case dateTime(String)
    /// An array.
    case array([TOMLLiteral])
    /// An inline table, its keys in this order.
    case inlineTable([(String, TOMLLiteral)])

    /// Reads a value as TOML writes it: `true`, `3`, `"text"`, `[1, 2]`, `{ a = 1 }`, `2026-11-24`.
    ///
    /// Words that are not a TOML value give `nil`, and so does a time without seconds (`21:00`,
    /// TOML 1.1's only): a command line reads those as a string instead.
    ///
    /// - Parameter valueText: The value's text, without a key.
    public init?(parsing valueText: String) {
        let trimmed = valueText.trimmingTOMLWhitespace
        guard !trimmed.isEmpty else { return nil }
        let document = TOMLDocument(parsing: "v = " + trimmed + "\n")
        guard document.diagnostics.isEmpty, document.root.entries.count == 1, let item = document.root["v"] else {
            return nil
        }
        if case .dateTime(let dateTime) = item.value, dateTime.kind == .localTime,
            trimmed.filter({ $0 == ":" }).count < 2
        {
            return nil
        }
        self.init(item.value)
    }

    /// The literal of a value read from a document.
    public init(_ value: TOMLValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let number): self = .integer(number)
        case .float(let number): self = .float(number)
        case .boolean(let flag): self = .boolean(flag)
        case .dateTime(let dateTime): self = .dateTime(dateTime.text)
        case .array(let items): self = .array(items.map { TOMLLiteral($0.value) })
        case .table(let table): self = .inlineTable(table.entries.map { ($0.key, TOMLLiteral($0.item.value)) })
        }
    }

    /// The value as TOML text, on one line.
    public var text: String {
        switch self {
        case .string(let text): return TOMLLiteral.quoted(text)
        case .integer(let number): return String(number)
        case .float(let number):
            if number.isNaN { return "nan" }
            if number.isInfinite { return number < 0 ? "-inf" : "inf" }
            return "\(number)"
        case .boolean(let flag): return flag ? "true" : "false"
        case .dateTime(let text): return text
        case .array(let elements): return "[" + elements.map(\.text).joined(separator: ", ") + "]"
        case .inlineTable(let entries):
            guard !entries.isEmpty else { return "{}" }
            return "{ " + entries.map { TOMLLiteral.key($0.0) + " = " + $0.1.text }.joined(separator: ", ") + " }"
        }
    }

    /// A key as TOML writes it: bare when it can be (`night_prep`), else quoted (`"my key"`).
    public static func key(_ key: String) -> String {
        let isBare =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy { scalar in
                switch scalar {
                case "A"..."Z", "a"..."z", "0"..."9", "_", "-": true
                default: false
                }
            }
        return isBare ? key : quoted(key)
    }

    /// A basic string: `"` and `\` escaped, control characters as TOML 1.0 escapes.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\u{8}": result += "\\b"
            case "\u{C}": result += "\\f"
            case "\u{0}"..."\u{1F}", "\u{7F}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    public static func == (lhs: TOMLLiteral, rhs: TOMLLiteral) -> Bool {
        switch (lhs, rhs) {
        case (.string(let l), .string(let r)): l == r
        case (.integer(let l), .integer(let r)): l == r
        case (.float(let l), .float(let r)): l == r || (l.isNaN && r.isNaN)
        case (.boolean(let l), .boolean(let r)): l == r
        case (.dateTime(let l), .dateTime(let r)): l == r
        case (.array(let l), .array(let r)): l == r
        case (.inlineTable(let l), .inlineTable(let r)):
            l.count == r.count && zip(l, r).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let text): hasher.combine(0); hasher.combine(text)
        case .integer(let number): hasher.combine(1); hasher.combine(number)
        case .float(let number): hasher.combine(2); hasher.combine(number.isNaN ? .nan : number)
        case .boolean(let flag): hasher.combine(3); hasher.combine(flag)
        case .dateTime(let text): hasher.combine(4); hasher.combine(text)
        case .array(let elements): hasher.combine(5); hasher.combine(elements)
        case .inlineTable(let entries):
            hasher.combine(6)
            for (key, value) in entries {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }
}

/// Why an edit of a TOML document could not be made; the document is then unchanged.
public struct TOMLEditError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the key path.
    public var message: String
    /// How to fix it.
    public var hint: String?

    /// Creates an error.
    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    public var description: String { hint.map { "\(message) (\($0))" } ?? message }
}

extension String {
    /// The text without TOML's whitespace (spaces and tabs) and line ends around it.
    var trimmingTOMLWhitespace: Substring {
        var text = self[...]
        while let first = text.first, first == " " || first == "\t" || first == "\n" || first == "\r\n" {
            text.removeFirst()
        }
        while let last = text.last, last == " " || last == "\t" || last == "\n" || last == "\r\n" {
            text.removeLast()
        }
        return text
    }
}
