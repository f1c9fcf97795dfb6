/// Turns toml++'s parse error messages into messages and hints for people who are not TOML experts.
///
/// toml++ says `Error while parsing value: could not determine value type` where a user wrote
/// `title = Stretch`; Hooray says the text needs quotes. Messages it has no translation for keep
/// toml++'s detail, without its prefix.
enum TOMLErrorTranslation {
    static func translate(_ raw: String) -> (message: String, hint: String?) {
        var context = ""
        var detail = raw
        if raw.hasPrefix("Error while parsing "), let colon = raw.firstIndex(of: ":") {
            context = String(raw[raw.index(raw.startIndex, offsetBy: 20)..<colon])
            detail = String(raw[raw.index(after: colon)...]).trimmingCharacters(in: " ")
        }

        if detail.contains("encountered end-of-file") {
            return endOfFile(in: context)
        }
        if ["date", "time", "date-time"].contains(context) {
            if detail.hasPrefix("expected") && !detail.contains("between") {
                return endOfFile(in: context)
            }
            return ("invalid \(context): \(detail)", "write dates as YYYY-MM-DD and times as HH:MM:SS")
        }
        if detail.hasPrefix("expected value") {
            return endOfFile(in: "key-value pair")
        }
        if context == "key" {
            return (
                "a key is missing or malformed",
                "keys are made of letters, digits, _ and -, or are quoted; a dotted key must not end with a dot"
            )
        }
        if detail.contains("could not determine value type") {
            return (
                "this is not a TOML value",
                "put text in double quotes, such as title = \"Stretch\"; numbers, true and false stay bare"
            )
        }
        if detail.hasPrefix("unescaped control characters") {
            return (
                "the string is not closed on this line",
                "end it with a double quote on the same line, or use \"\"\"triple quotes\"\"\" for text over several lines"
            )
        }
        if detail.hasPrefix("cannot redefine existing") {
            return redefinition(detail, in: context)
        }
        if detail.hasPrefix("expected '=', saw") {
            let seen = quoted(in: detail, after: "saw ") ?? "something else"
            return ("expected `=` after the key, found \(describe(seen))", "write each setting as key = value")
        }
        if detail.hasPrefix("expected a comment or whitespace, saw") {
            let seen = quoted(in: detail, after: "saw ") ?? "more text"
            return (
                "unexpected \(describe(seen)) after the value",
                "put each key = value on a line of its own, and text with spaces in double quotes"
            )
        }
        if detail.hasPrefix("expected ']'") || detail.hasPrefix("expected ']]'") {
            return ("the table header is not closed", "end it with ] (or ]] for [[arrays of tables]]) on the same line")
        }
        if detail.contains("leading zeroes are prohibited") {
            return ("a number must not start with 0", "write 5, not 05; for a time of day write \"08:30\" in quotes")
        }
        if detail.hasPrefix("expected keys, tables, whitespace or comments") {
            let seen = quoted(in: detail, after: "saw ") ?? "character"
            return (
                "unexpected \(describe(seen)) at the start of a line",
                "a line holds key = value, a [table] header or a # comment; "
                    + "quote a key that has other characters than letters, digits, _ and -"
            )
        }
        if detail.contains("dangling comma") {
            return ("an inline table must not end with a comma", "remove the comma before }")
        }
        if detail.hasPrefix("unknown escape sequence") {
            let sequence = quoted(in: detail, after: "sequence ") ?? "\\?"
            return (
                "unknown escape sequence `\(sequence)` in a string",
                "write a backslash as \\\\, or use a 'literal string' in single quotes"
            )
        }
        if detail.contains("is not representable in 64 bits") {
            return ("the number is too large", "whole numbers must lie between -2^63 and 2^63-1")
        }
        let article = context.first.map { "aeiou".contains($0) } == true ? "an" : "a"
        let what = context.isEmpty ? "" : " in \(article) \(context)"
        return ("invalid TOML\(what): \(detail)", nil)
    }

    private static func endOfFile(in context: String) -> (String, String?) {
        switch context {
        case "key-value pair":
            return ("the value is missing after `=`", "write a value, such as a \"string\", a number, true or false")
        case "array":
            return ("the array is not closed", "end it with ]")
        case "inline table":
            return ("the inline table is not closed", "end it with } on the same line")
        case "date", "time", "date-time":
            return (
                "this is not a complete TOML date or time",
                "TOML times need seconds (15:00:00); to give a time of day as text, quote it: \"15:00\""
            )
        case "boolean":
            return ("expected true or false", "write true or false in lowercase, or put text in double quotes")
        case let context where context.hasSuffix("string"):
            return ("the string is not closed", "end it with the same quote it starts with")
        case "floating-point":
            return ("the number is not complete", "write digits after the decimal point, such as 1.0")
        case "":
            return ("the file ends too early", nil)
        default:
            return ("the \(context) is not complete", nil)
        }
    }

    private static func redefinition(_ detail: String, in context: String) -> (String, String?) {
        if detail.hasSuffix("as dotted key-value pair") {
            return (
                "a key here is already set to a value, so it cannot also have keys below it",
                "rename one of the two"
            )
        }
        let name = quoted(in: detail, after: "existing ") ?? "this key"
        if detail.hasPrefix("cannot redefine existing array") && detail.hasSuffix("as table") {
            return (
                "`\(name)` is already a list of tables ([[\(name)]]), so it cannot also be a [\(name)] table",
                "write [[\(name)]] to add another element"
            )
        }
        if detail.hasSuffix("as array-of-tables") || detail.hasSuffix("as table") {
            return ("`\(name)` is already set to a value, so it cannot also be a table", "rename one of the two")
        }
        if context == "table header" {
            return (
                "the table [\(name)] is defined twice",
                "put all its keys under one [\(name)] header; write [[\(name)]] for a list of tables"
            )
        }
        return (
            "`\(name)` is set twice",
            "a key may appear once in each table; to override a value, put it in a later file such as conf.d/"
        )
    }

    /// The first `'quoted'` text after a marker, such as `1` in `expected '=', saw '1'`.
    private static func quoted(in text: String, after marker: String) -> String? {
        guard let range = text.range(of: marker) else { return nil }
        let rest = text[range.upperBound...]
        guard let open = rest.firstIndex(of: "'") else { return nil }
        let afterOpen = rest.index(after: open)
        guard let close = rest[afterOpen...].lastIndex(of: "'") else { return nil }
        return String(rest[afterOpen..<close])
    }

    private static func describe(_ seen: String) -> String {
        switch seen {
        case "\\n", "\n": "the end of the line"
        case " ": "a space"
        default: "`\(seen)`"
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var view = Substring(self)
        while view.first == set { view.removeFirst() }
        while view.last == set { view.removeLast() }
        return String(view)
    }
}
