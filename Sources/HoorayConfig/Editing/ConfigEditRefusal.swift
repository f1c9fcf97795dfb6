/// Why `hooray config set`, `unset` or a plugin's write to the configuration file did nothing:
/// what is wrong, and the fix. The file is untouched whenever one is thrown.
public struct ConfigEditRefusal: Error, Sendable, CustomStringConvertible {
    /// What kind of refusal, for the command's exit status.
    public enum Kind: Sendable, Hashable {
        /// The command line itself is wrong, such as a key path that is not one (exit 64).
        case usage
        /// The file, once changed, would not be a valid configuration (exit 78).
        case configuration
        /// Someone else changed the file while it was being edited (exit 75: try again).
        case changed
        /// The file cannot be read or written (exit 1).
        case io
    }

    /// What kind of refusal.
    public var kind: Kind
    /// What is wrong, in a sentence without a full stop.
    public var message: String
    /// How to fix it.
    public var hint: String?
    /// The problems the configuration would have, each naming its key path (for ``Kind/configuration``).
    public var diagnostics: [ConfigDiagnostic]

    /// Creates a refusal.
    public init(_ kind: Kind, _ message: String, hint: String? = nil, diagnostics: [ConfigDiagnostic] = []) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.diagnostics = diagnostics
    }

    /// The message, each problem on a line of its own with its hint, and the refusal's hint.
    public var description: String {
        var lines = [message]
        for diagnostic in diagnostics {
            // The edited text was never written: its line numbers would name lines the file does not have.
            var line = "  \(diagnostic.severity.rawValue): \(diagnostic.message)"
            if let hint = diagnostic.hint { line += "\n    hint: \(hint)" }
            lines.append(line)
        }
        if let hint { lines.append("hint: \(hint)") }
        return lines.joined(separator: "\n")
    }
}
