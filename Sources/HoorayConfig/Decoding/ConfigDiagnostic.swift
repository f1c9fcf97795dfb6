/// One problem found in the configuration, reported the way a compiler reports one:
/// `hooray.toml:12:7: error: plugins.reminders.reminder[1].at: expected a string such as "15:00", found integer 1500`.
public struct ConfigDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a problem is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// Something is probably not what the user meant, such as a misspelt key, but the
        /// configuration can be used.
        case warning
        /// The configuration cannot be used: the daemon keeps its last good configuration.
        case error

        /// Orders warnings before errors.
        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs == .warning && rhs == .error
        }
    }

    /// How serious the problem is.
    public var severity: Severity
    /// Where the problem is, when it is in a file.
    public var location: SourceLocation?
    /// The path of the value concerned, such as `plugins.reminders.reminder[1].at`, when there is one.
    public var path: ConfigKeyPath?
    /// What is wrong, for a person. It starts with the key path when there is one.
    public var message: String
    /// How to fix it, or what was probably meant, such as "did you mean `title`?".
    public var hint: String?

    /// Creates a diagnostic.
    ///
    /// - Parameters:
    ///   - severity: How serious the problem is.
    ///   - location: Where the problem is, when it is in a file.
    ///   - path: The path of the value concerned, when there is one.
    ///   - message: What is wrong, for a person.
    ///   - hint: How to fix it, if there is something useful to say.
    public init(
        _ severity: Severity, at location: SourceLocation?, path: ConfigKeyPath? = nil, message: String,
        hint: String? = nil
    ) {
        self.severity = severity
        self.location = location
        self.path = path
        self.message = message
        self.hint = hint
    }

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - location: Where the problem is, when it is in a file.
    ///   - path: The path of the value concerned, when there is one.
    ///   - message: What is wrong, for a person.
    ///   - hint: How to fix it.
    public static func error(
        at location: SourceLocation?, path: ConfigKeyPath? = nil, _ message: String, hint: String? = nil
    ) -> ConfigDiagnostic {
        ConfigDiagnostic(.error, at: location, path: path, message: message, hint: hint)
    }

    /// Creates a warning.
    ///
    /// - Parameters:
    ///   - location: Where the problem is, when it is in a file.
    ///   - path: The path of the value concerned, when there is one.
    ///   - message: What is probably wrong, for a person.
    ///   - hint: What was probably meant.
    public static func warning(
        at location: SourceLocation?, path: ConfigKeyPath? = nil, _ message: String, hint: String? = nil
    ) -> ConfigDiagnostic {
        ConfigDiagnostic(.warning, at: location, path: path, message: message, hint: hint)
    }

    /// `true` for errors.
    public var isError: Bool { severity == .error }

    /// The diagnostic as one line `file:line:column: error: message`, and the hint on a second,
    /// indented line when there is one.
    public var description: String {
        var text = ""
        if let location { text += "\(location): " }
        text += "\(severity.rawValue): \(message)"
        if let hint { text += "\n    hint: \(hint)" }
        return text
    }
}

/// Several diagnostics, such as everything `hooray config check` found; thrown when a
/// configuration has errors.
///
/// Its description lists every diagnostic, one per line (hints indented below), in file and
/// line order, ready to print.
public struct ConfigDiagnostics: Error, Sendable, Hashable, CustomStringConvertible, RandomAccessCollection,
    ExpressibleByArrayLiteral
{
    /// The diagnostics, in the order they are shown.
    public var diagnostics: [ConfigDiagnostic]

    /// Creates a list of diagnostics.
    ///
    /// - Parameter diagnostics: The diagnostics, in the order they are shown.
    public init(_ diagnostics: [ConfigDiagnostic] = []) {
        self.diagnostics = diagnostics
    }

    /// Creates a list from an array literal.
    public init(arrayLiteral elements: ConfigDiagnostic...) {
        self.diagnostics = elements
    }

    /// The position of the first diagnostic.
    public var startIndex: Int { diagnostics.startIndex }
    /// The position after the last diagnostic.
    public var endIndex: Int { diagnostics.endIndex }
    /// The diagnostic at a position.
    public subscript(position: Int) -> ConfigDiagnostic { diagnostics[position] }

    /// The errors alone.
    public var errors: [ConfigDiagnostic] { diagnostics.filter(\.isError) }
    /// The warnings alone.
    public var warnings: [ConfigDiagnostic] { diagnostics.filter { !$0.isError } }
    /// `true` when at least one diagnostic is an error.
    public var containsErrors: Bool { diagnostics.contains(where: \.isError) }

    /// Adds diagnostics at the end.
    ///
    /// - Parameter other: The diagnostics to add.
    public mutating func append(contentsOf other: some Sequence<ConfigDiagnostic>) {
        diagnostics.append(contentsOf: other)
    }

    /// Adds one diagnostic at the end.
    ///
    /// - Parameter diagnostic: The diagnostic to add.
    public mutating func append(_ diagnostic: ConfigDiagnostic) {
        diagnostics.append(diagnostic)
    }

    /// The diagnostics sorted by place: files in `fileOrder` first (then in order of first
    /// appearance), lines and columns in order within a file; diagnostics without a location first.
    ///
    /// The sort is stable, so diagnostics at the same place keep their order.
    /// - Parameter fileOrder: Files in the order they should be shown, such as the order they were read.
    public func sortedByLocation(fileOrder: [String] = []) -> ConfigDiagnostics {
        var rank: [String: Int] = [:]
        for file in fileOrder where rank[file] == nil { rank[file] = rank.count }
        for diagnostic in diagnostics {
            if let file = diagnostic.location?.file, rank[file] == nil { rank[file] = rank.count }
        }
        let sorted = diagnostics.enumerated().sorted { left, right in
            func key(_ item: (offset: Int, element: ConfigDiagnostic)) -> (Int, Int, Int, Int) {
                guard let location = item.element.location else { return (-1, 0, 0, item.offset) }
                return (rank[location.file] ?? Int.max, location.line, location.column, item.offset)
            }
            return key(left) < key(right)
        }
        return ConfigDiagnostics(sorted.map(\.element))
    }

    /// Every diagnostic, one per line, hints indented below their diagnostic.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
