import HoorayTOML

/// A key path as the user types it on the command line: `plugins.swaps.night_prep`, with TOML's
/// quoting for a key that is not bare, as in `plugins.reminders."my key"`.
public enum ConfigKeyText {
    /// Splits a dotted key into its keys.
    ///
    /// - Parameter text: The key path, such as `plugins.swaps.night_prep`.
    /// - Returns: The keys, unquoted.
    /// - Throws: ``ConfigEditRefusal`` (a usage mistake) for an empty key, a stray dot or an unclosed quote.
    public static func keys(_ text: String) throws(ConfigEditRefusal) -> [String] {
        var keys: [String] = []
        var scalars = Array(text.unicodeScalars)[...]
        func refuse(_ what: String) -> ConfigEditRefusal {
            ConfigEditRefusal(
                .usage, "`\(text)` is not a key path: \(what)",
                hint: "write the keys joined by dots, as in plugins.swaps.night_prep; quote a key with other "
                    + "characters, as in 'plugins.\"my plugin\".enabled'")
        }
        while true {
            while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() }
            var key = ""
            switch scalars.first {
            case "\"", "'":
                let quote = scalars.removeFirst()
                var closed = false
                var written = String(Character(quote))
                while let scalar = scalars.popFirst() {
                    written.unicodeScalars.append(scalar)
                    if scalar == quote {
                        closed = true
                        break
                    }
                    if scalar == "\\" && quote == "\"", let next = scalars.popFirst() {
                        written.unicodeScalars.append(next)
                        continue
                    }
                    key.unicodeScalars.append(scalar)
                }
                guard closed else { throw refuse("a quote is not closed") }
                if quote == "\"" {
                    // Escapes mean what they mean in the file: TOML's own reader reads them.
                    let read = TOMLDocument.values(parsing: "k = " + written + "\n")
                    guard read.diagnostics.isEmpty, case .string(let unescaped)? = read.root["k"]?.value else {
                        throw refuse(
                            "\(written) is not a valid quoted key: \(read.diagnostics.first?.message ?? "not a string")"
                        )
                    }
                    key = unescaped
                }
            default:
                while let scalar = scalars.first, isBare(scalar) {
                    key.unicodeScalars.append(scalar)
                    scalars.removeFirst()
                }
                guard !key.isEmpty else {
                    if let scalar = scalars.first, scalar != "." {
                        throw refuse("`\(scalar)` cannot stand in a key without quotes")
                    }
                    throw refuse(keys.isEmpty ? "it starts with a dot or is empty" : "it has an empty key")
                }
            }
            keys.append(key)
            while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() }
            guard let next = scalars.popFirst() else { return keys }
            guard next == "." else { throw refuse("`\(next)` cannot stand in a key without quotes") }
        }
    }

    /// The keys written back as a dotted path, quoted where TOML needs it.
    public static func text(_ keys: [String]) -> String {
        ConfigKeyPath(keys: keys).description
    }

    static func isBare(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "-": true
        default: false
        }
    }
}
