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

    /// With `stoppingAtHazards`, the first place toml++ cannot cope with; see ``firstHazard(in:)``.
    private var hazard: Hazard?
    private var stoppingAtHazards = false

    private init(text: String, file: String) {
        self.scalars = Array(text.unicodeScalars)
        self.file = file
        // Each key of a document mostly stands on a line of its own: sized once, the table of
        // locations is not built again and again as a large file is read.
        entries.reserveCapacity(scalars.count(where: { $0 == "\n" }) + 1)
    }

    /// A place in a document that toml++ 3.4.0 cannot report as an error: it would abort instead.
    struct Hazard: Equatable {
        /// What was expected there.
        enum Kind: Equatable {
            /// The start of a table header's name, after `[` or `[[`.
            case headerName
            /// A value in a list, after `[` or `,`.
            case listItem
            /// The time of a date-time, after its date and `T` or a space.
            case dateTime
            /// An underscore in a date, which no date may hold.
            case underscoreInDate
        }

        var kind: Kind
        /// Where it is; for ``Kind/headerName``, where the name should start.
        var location: SourceLocation
        /// The character found there, or `nil` at the end of the file.
        var found: Unicode.Scalar?
        /// How many scalars of the document come before it.
        var offset: Int
    }

    /// Finds the first place where toml++ would abort the process instead of reporting an error.
    ///
    /// toml++ 3.4.0 (bundled with TOMLKit 0.6.0) checks some of its expectations with assertions,
    /// which stop the process in release builds too, where it should report an error:
    /// - a table header's name starts with a key character or a quote — a lone `[`, which an
    ///   editor saves while someone is typing a new section, does not;
    /// - a list item does not start with `}` or a Unicode line separator;
    /// - the time of a date-time starts with a digit after `T` (`2026-11-24T=`), and after a space
    ///   is longer than one digit (`2026-11-24 1`);
    /// - toml++ never steps back further than the 127 characters it keeps, which a date padded with
    ///   underscores and followed by a space makes it do.
    ///
    /// ``ConfigFileParser`` looks for them first and never hands such text to toml++. The fuzz
    /// tests (`TOMLFuzzTests`) found the last two; run them with more iterations after updating
    /// TOMLKit.
    ///
    /// - Parameter text: The TOML text, valid or not.
    /// - Returns: The first such place, or `nil` when toml++ can read the text safely.
    static func firstHazard(in text: String) -> Hazard? {
        var locator = TOMLLocator(text: text, file: "")
        locator.stoppingAtHazards = true
        locator.scanDocument()
        return locator.hazard
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

    /// Looks for the first hazard (``firstHazard(in:)``) and, when there is none, the locations of
    /// every key path (``locate(in:file:)``), in one pass over the text: a document without a hazard
    /// is scanned exactly as `locate` scans it.
    ///
    /// - Parameters:
    ///   - text: The TOML text, valid or not.
    ///   - file: The path to put in the locations.
    /// - Returns: The first hazard, or the locations of every key path when there is none.
    static func hazardOrLocations(in text: String, file: String) -> Result<[ConfigKeyPath: Entry], HazardFound> {
        var locator = TOMLLocator(text: text, file: file)
        locator.stoppingAtHazards = true
        locator.scanDocument()
        if let hazard = locator.hazard { return .failure(HazardFound(hazard: hazard)) }
        return .success(locator.entries)
    }

    /// The hazard ``hazardOrLocations(in:file:)`` found.
    struct HazardFound: Error {
        var hazard: Hazard
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
        let entry = Entry(keyLocation: key, valueLocation: value)
        if replace {
            entries[path] = entry
        } else if entries.index(forKey: path) == nil {
            entries[path] = entry
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
            guard let scalar = peek(), hazard == nil else { return }
            let start = index
            if scalar == "[" {
                if stoppingAtHazards, let found = checkHeaderName() {
                    hazard = found
                    return
                }
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

    /// Looks at the header starting here the way toml++ reads it, without moving: after `[` (or
    /// `[[`, whose brackets touch) and spaces, a key must start, the header must close, or the
    /// file must end — toml++ reports those; anything else is returned as a problem.
    private func checkHeaderName() -> Hazard? {
        var offset = 1
        var column = self.column + 1
        func skipBlanks() -> Bool {
            var skipped = false
            while let scalar = peek(offset), scalar == " " || scalar == "\t" {
                offset += 1
                column += 1
                skipped = true
            }
            return skipped
        }
        let spaced = skipBlanks()
        if peek(offset) == "[" {
            // `[ [`: toml++ reports that the brackets of `[[` must touch.
            if spaced { return nil }
            offset += 1
            column += 1
            _ = skipBlanks()
        }
        guard let found = peek(offset) else { return nil }
        switch found {
        case "]", "\"", "'": return nil
        case _ where TOMLLocator.isBareKeyScalar(found): return nil
        default:
            return Hazard(
                kind: .headerName, location: SourceLocation(file: file, line: line, column: column), found: found,
                offset: index + offset)
        }
    }

    /// Looks at a bare value starting here the way toml++ reads it, without moving: a date, a
    /// space and a single digit (`2026-11-24 1`, a date-time half typed) make it assert.
    private func checkDateWithOneDigitTime() -> Hazard? {
        // toml++ first reads up to the next value terminator, leaving out underscores.
        var offset = 0
        var characters: [Unicode.Scalar] = []
        while let scalar = peek(offset), !TOMLLocator.isValueTerminator(scalar), characters.count <= 10 {
            if scalar != "_" { characters.append(scalar) }
            offset += 1
        }
        guard characters.count == 10, characters.allSatisfy({ ("0"..."9").contains($0) || $0 == "-" }),
            ("0"..."9").contains(characters[0]),
            characters[4] == "-", characters[7] == "-", peek(offset) == " ",
            let digit = peek(offset + 1), ("0"..."9").contains(digit),
            let after = peek(offset + 2), TOMLLocator.isValueTerminator(after)
        else { return nil }
        var location = here
        location.column += offset + 2
        return Hazard(kind: .dateTime, location: location, found: after, offset: index + offset + 2)
    }

    /// Looks at a bare value starting here: a date with underscores in it (`2026-11-24___`) makes
    /// toml++ step back further than it keeps, when enough of them are followed by a space. No
    /// date may hold an underscore, so any is refused.
    private func checkDateWithUnderscores() -> Hazard? {
        var offset = 0
        var characters: [Unicode.Scalar] = []
        var firstUnderscore: Int?
        while let scalar = peek(offset), !TOMLLocator.isValueTerminator(scalar) {
            if scalar == "_" {
                if firstUnderscore == nil { firstUnderscore = offset }
            } else if characters.count < 10 {
                characters.append(scalar)
            }
            offset += 1
        }
        guard let firstUnderscore, characters.count == 10, ("0"..."9").contains(characters[0]),
            characters.allSatisfy({ ("0"..."9").contains($0) || $0 == "-" }), characters[4] == "-",
            characters[7] == "-"
        else { return nil }
        var location = here
        location.column += firstUnderscore
        return Hazard(kind: .underscoreInDate, location: location, found: "_", offset: index + firstUnderscore)
    }

    /// Looks at a bare value starting here: a date, `T` and no digit after it (`2026-11-24T=`)
    /// make toml++ assert.
    private func checkDateWithoutTime() -> Hazard? {
        let digits: Set<Int> = [0, 1, 2, 3, 5, 6, 8, 9]
        for offset in 0..<10 {
            guard let scalar = peek(offset) else { return nil }
            let expected = digits.contains(offset) ? ("0"..."9").contains(scalar) : scalar == "-"
            guard expected else { return nil }
        }
        guard peek(10) == "T" || peek(10) == "t", let after = peek(11), !("0"..."9").contains(after) else {
            return nil
        }
        var location = here
        location.column += 11
        return Hazard(kind: .dateTime, location: location, found: after, offset: index + 11)
    }

    /// What toml++ takes as the end of a bare value: whitespace of any kind, `]`, `}`, `,` and `#`.
    private static func isValueTerminator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case " ", "\t", "\n"..."\r", "]", "}", ",", "#", "\u{85}", "\u{A0}", "\u{1680}", "\u{180E}",
            "\u{2000}"..."\u{200B}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{2060}", "\u{3000}",
            "\u{FEFF}":
            true
        default: false
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
            if stoppingAtHazards,
                let found = checkDateWithUnderscores() ?? checkDateWithOneDigitTime() ?? checkDateWithoutTime()
            {
                hazard = found
                return
            }
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
            guard let scalar = peek(), hazard == nil else { return }
            if scalar == "]" {
                advance()
                return
            }
            if stoppingAtHazards && ["}", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar) {
                hazard = Hazard(kind: .listItem, location: here, found: scalar, offset: index)
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
            guard let scalar = peek(), scalar != "\n", hazard == nil else { return }
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
