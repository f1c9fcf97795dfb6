import HoorayKit

/// Finds where each key and value of a TOML document is written.
///
/// TOMLKit gives the parsed values but no positions, so this scanner walks the text again and
/// records, for every key path (`plugins.reminders.reminder[1].at`), the line and column of the key
/// and of its value. It runs only on text toml++ has accepted, so it can rely on the syntax being
/// valid; on anything else it still ends, recording what it understood.
struct TOMLLocator {
    /// Where one key and its value are written.
    struct Entry: Equatable {
        /// The key; for a table header, its last key; for an array element, the element itself.
        var keyLocation: SourceLocation
        /// The value; for a table header, the opening bracket.
        var valueLocation: SourceLocation
    }

    private let scalars: [Unicode.Scalar]
    private let file: String
    private var index = 0
    private var line = 1
    private var column = 1
    private var entries: [ConfigKeyPath: Entry] = [:]
    /// How many elements each array of tables has so far, by its resolved path.
    private var arrayOfTablesCounts: [ConfigKeyPath: Int] = [:]

    private init(text: String, file: String) {
        self.scalars = Array(text.unicodeScalars)
        self.file = file
    }

    /// Scans a document.
    ///
    /// - Parameters:
    ///   - text: The TOML text.
    ///   - file: The path to put in the locations.
    /// - Returns: The locations of every key path found.
    static func locate(in text: String, file: String) -> [ConfigKeyPath: Entry] {
        var locator = TOMLLocator(text: text, file: file)
        locator.scanDocument()
        return locator.entries
    }

    // MARK: Reading characters

    private var here: SourceLocation { SourceLocation(file: file, line: line, column: column) }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let position = index + offset
        return position < scalars.count ? scalars[position] : nil
    }

    private mutating func advance() {
        guard index < scalars.count else { return }
        let scalar = scalars[index]
        index += 1
        if scalar == "\n" {
            line += 1
            column = 1
        } else if scalar == "\r" && peek() == "\n" {
            // The column of a CRLF's LF does not matter: the line ends there.
        } else {
            column += 1
        }
    }

    private mutating func advance(_ count: Int) {
        for _ in 0..<count { advance() }
    }

    private func lookingAt(_ text: String) -> Bool {
        for (offset, scalar) in text.unicodeScalars.enumerated() where peek(offset) != scalar {
            return false
        }
        return true
    }

    private mutating func skipSpaces() {
        while let scalar = peek(), scalar == " " || scalar == "\t" { advance() }
    }

    private mutating func skipComment() {
        guard peek() == "#" else { return }
        while let scalar = peek(), scalar != "\n" { advance() }
    }

    private mutating func skipSpacesCommentsAndNewlines() {
        while let scalar = peek() {
            switch scalar {
            case " ", "\t", "\r", "\n": advance()
            case "#": skipComment()
            default: return
            }
        }
    }

    private mutating func skipRestOfLine() {
        while let scalar = peek(), scalar != "\n" { advance() }
    }

    // MARK: Recording

    private mutating func record(_ path: ConfigKeyPath, key: SourceLocation, value: SourceLocation, replace: Bool) {
        if replace || entries[path] == nil {
            entries[path] = Entry(keyLocation: key, valueLocation: value)
        }
    }

    /// Resolves the keys of a header or a dotted key: a key that names an array of tables refers to
    /// its last element, the way TOML reads `[a.b]` after `[[a]]`.
    private func resolve(_ keys: [String], from base: ConfigKeyPath = ConfigKeyPath()) -> ConfigKeyPath {
        var path = base
        for key in keys {
            path = path.appending(key: key)
            if let count = arrayOfTablesCounts[path], count > 0 { path = path.appending(index: count - 1) }
        }
        return path
    }

    /// Records the tables a dotted key or header creates on its way, keeping an earlier record.
    ///
    /// - Parameter header: The header's opening bracket, which stands for the tables a header
    ///   creates; the tables of a dotted key are where their key is.
    private mutating func recordIntermediate(
        _ keys: [(name: String, location: SourceLocation)], from base: ConfigKeyPath, header: SourceLocation?
    ) {
        var path = base
        for key in keys {
            path = resolve([key.name], from: path)
            record(path, key: key.location, value: header ?? key.location, replace: false)
        }
    }

    // MARK: Grammar

    private mutating func scanDocument() {
        var table = ConfigKeyPath()
        while true {
            skipSpacesCommentsAndNewlines()
            guard let scalar = peek() else { return }
            let start = index
            if scalar == "[" {
                table = scanHeader()
            } else {
                scanKeyValue(in: table)
            }
            skipSpaces()
            skipComment()
            if peek() != nil && peek() != "\n" && peek() != "\r" { skipRestOfLine() }
            if index == start { advance() }
        }
    }

    /// Scans `[a.b]` or `[[a.b]]` and returns the path of the table it opens.
    private mutating func scanHeader() -> ConfigKeyPath {
        let headerLocation = here
        let isArray = peek(1) == "["
        advance(isArray ? 2 : 1)
        skipSpaces()
        let keys = scanKey()
        skipSpaces()
        advance(isArray ? 2 : 1)
        guard let last = keys.last else { return ConfigKeyPath() }
        recordIntermediate(Array(keys.dropLast()), from: ConfigKeyPath(), header: headerLocation)
        let parent = resolve(keys.dropLast().map(\.name))
        if isArray {
            let arrayPath = parent.appending(key: last.name)
            let count = arrayOfTablesCounts[arrayPath, default: 0]
            arrayOfTablesCounts[arrayPath] = count + 1
            record(arrayPath, key: last.location, value: headerLocation, replace: false)
            let element = arrayPath.appending(index: count)
            record(element, key: headerLocation, value: headerLocation, replace: true)
            return element
        }
        let path = parent.appending(key: last.name)
        record(path, key: last.location, value: headerLocation, replace: true)
        return path
    }

    private mutating func scanKeyValue(in table: ConfigKeyPath) {
        let keys = scanKey()
        guard let last = keys.last else { return }
        skipSpaces()
        if peek() == "=" { advance() }
        skipSpaces()
        let valueLocation = here
        recordIntermediate(Array(keys.dropLast()), from: table, header: nil)
        let path = resolve(keys.dropLast().map(\.name), from: table).appending(key: last.name)
        record(path, key: last.location, value: valueLocation, replace: true)
        scanValue(at: path)
    }

    /// Scans a possibly dotted key: `a`, `a.b`, `"quoted key".c`, `'literal'`.
    private mutating func scanKey() -> [(name: String, location: SourceLocation)] {
        var keys: [(name: String, location: SourceLocation)] = []
        while true {
            skipSpaces()
            let location = here
            guard let scalar = peek() else { break }
            let name: String
            if scalar == "\"" {
                name = scanBasicString()
            } else if scalar == "'" {
                name = scanLiteralString()
            } else {
                var bare = ""
                while let next = peek(), TOMLLocator.isBareKeyScalar(next) {
                    bare.unicodeScalars.append(next)
                    advance()
                }
                guard !bare.isEmpty else { break }
                name = bare
            }
            keys.append((name, location))
            skipSpaces()
            guard peek() == "." else { break }
            advance()
        }
        return keys
    }

    private static func isBareKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "-": true
        default: false
        }
    }

    private mutating func scanValue(at path: ConfigKeyPath) {
        guard let scalar = peek() else { return }
        switch scalar {
        case "\"":
            if lookingAt("\"\"\"") { scanMultilineString(quote: "\"") } else { _ = scanBasicString() }
        case "'":
            if lookingAt("'''") { scanMultilineString(quote: "'") } else { _ = scanLiteralString() }
        case "[":
            scanArray(at: path)
        case "{":
            scanInlineTable(at: path)
        default:
            let start = index
            while let next = peek(), !",]}#\r\n".unicodeScalars.contains(next) { advance() }
            if index == start { advance() }
        }
    }

    private mutating func scanArray(at path: ConfigKeyPath) {
        advance()
        var count = 0
        while true {
            skipSpacesCommentsAndNewlines()
            guard let scalar = peek() else { return }
            if scalar == "]" {
                advance()
                return
            }
            let start = index
            let element = path.appending(index: count)
            record(element, key: here, value: here, replace: true)
            scanValue(at: element)
            count += 1
            skipSpacesCommentsAndNewlines()
            if peek() == "," { advance() }
            if index == start { advance() }
        }
    }

    private mutating func scanInlineTable(at path: ConfigKeyPath) {
        advance()
        while true {
            skipSpaces()
            guard let scalar = peek(), scalar != "\n" else { return }
            if scalar == "}" {
                advance()
                return
            }
            let start = index
            scanKeyValue(in: path)
            skipSpaces()
            if peek() == "," { advance() }
            if index == start { advance() }
        }
    }

    /// Scans `"..."` and returns its content with escapes read.
    private mutating func scanBasicString() -> String {
        advance()
        var text = ""
        while let scalar = peek(), scalar != "\n" {
            advance()
            if scalar == "\"" { return text }
            if scalar == "\\", let escaped = peek() {
                advance()
                text += readEscape(escaped)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    private mutating func readEscape(_ escaped: Unicode.Scalar) -> String {
        switch escaped {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "e": return "\u{1B}"
        case "u", "U":
            let length = escaped == "u" ? 4 : 8
            var hex = ""
            for _ in 0..<length {
                guard let digit = peek(), digit.properties.isASCIIHexDigit else { break }
                hex.unicodeScalars.append(digit)
                advance()
            }
            return UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init).map { String($0) } ?? ""
        default: return String(escaped)
        }
    }

    /// Scans `'...'` and returns its content.
    private mutating func scanLiteralString() -> String {
        advance()
        var text = ""
        while let scalar = peek(), scalar != "\n" {
            advance()
            if scalar == "'" { return text }
            text.unicodeScalars.append(scalar)
        }
        return text
    }

    /// Scans `"""..."""` or `'''...'''`, which may span lines and end with up to two extra quotes.
    private mutating func scanMultilineString(quote: Unicode.Scalar) {
        advance(3)
        let closing = String(repeating: String(quote), count: 3)
        while peek() != nil {
            if quote == "\"" && peek() == "\\" {
                advance(2)
            } else if lookingAt(closing) {
                advance(3)
                var extra = 0
                while extra < 2 && peek() == quote {
                    advance()
                    extra += 1
                }
                return
            } else {
                advance()
            }
        }
    }
}
