import Foundation
import HoorayKit
import HoorayTOML

/// Reads TOML configuration files into ``ConfigNode`` trees whose nodes know their `file:line:column`.
///
/// The TOML reader is HoorayTOML (TOML 1.1.0, which reads every TOML 1.0.0 file): it reports every
/// mistake of a file in one pass, and reads what it can of a broken one.
public enum ConfigFileParser {
    /// Parses TOML text.
    ///
    /// - Parameters:
    ///   - text: The TOML document.
    ///   - file: The path to name in locations and diagnostics.
    /// - Returns: The root table; its location is the start of the file.
    /// - Throws: ``ConfigDiagnostics`` with every mistake of the file, in file order.
    public static func parse(_ text: String, file: String) throws(ConfigDiagnostics) -> ConfigNode {
        let reading = read(text, file: file)
        guard reading.errors.isEmpty else { throw ConfigDiagnostics(reading.errors) }
        return reading.root
    }

    /// Reads and parses a file.
    ///
    /// - Parameter path: The file's path.
    /// - Returns: The root table, or `nil` when the file does not exist.
    /// - Throws: ``ConfigDiagnostics`` when the file exists but cannot be read, is not UTF-8 text,
    ///   or is not valid TOML.
    public static func parseFile(atPath path: String) throws(ConfigDiagnostics) -> ConfigNode? {
        guard let text = try FileReader.readText(atPath: path) else { return nil }
        return try parse(text, file: path)
    }

    /// What could be read of a file, and its mistakes.
    struct Reading {
        var root: ConfigNode
        var errors: [ConfigDiagnostic]
    }

    static func read(_ text: String, file: String) -> Reading {
        let start = ConfigNode.emptyTable(location: SourceLocation(file: file, line: 1, column: 1))
        if let problem = secondByteOrderMark(text, file: file) { return Reading(root: start, errors: [problem]) }
        let (root, diagnostics) = TOMLDocument.values(parsing: text)
        let errors = diagnostics.map { diagnostic in
            ConfigDiagnostic.error(
                at: SourceLocation(file: file, line: diagnostic.line, column: diagnostic.column), diagnostic.message,
                hint: diagnostic.hint)
        }
        // The nodes are views of HoorayTOML's tree: no second tree, and no location until one is asked for.
        let number = SourceFiles.number(of: file)
        return Reading(
            root: ConfigNode(read: TOMLItem(value: .table(root), position: .start), file: number), errors: errors)
    }

    /// A second byte-order mark: a file saved twice by a confused editor.
    private static func secondByteOrderMark(_ text: String, file: String) -> ConfigDiagnostic? {
        var scalars = text.unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        if scalars.first == "\u{FEFF}" {
            return .error(
                at: SourceLocation(file: file, line: 1, column: 1),
                "the file starts with two byte-order marks (U+FEFF); only one may stand at the very start",
                hint: "save the file again as UTF-8, with or without a byte-order mark")
        }
        return nil
    }
}
