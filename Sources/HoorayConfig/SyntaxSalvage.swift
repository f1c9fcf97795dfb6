import Foundation

/// A part of the configuration left out so that a command could run: a file's broken sections, or
/// a setting with a wrong value that fell back to its default.
public struct IgnoredPart: Sendable, Hashable {
    /// The first error found in it, with its file, line and column.
    public var diagnostic: ConfigDiagnostic
    /// What was left out, in words: `the reminders section`, `the [delivery] section`, `the file`.
    public var part: String

    /// Creates a note of a part left out.
    ///
    /// - Parameters:
    ///   - diagnostic: The error found in it.
    ///   - part: What was left out, in words.
    public init(diagnostic: ConfigDiagnostic, part: String) {
        self.diagnostic = diagnostic
        self.part = part
    }

    /// Whether the part left out is the top-level section `[name]`, such as `[ai]`.
    ///
    /// - Parameter name: The section's name.
    public func isSection(_ name: String) -> Bool {
        part == Self.part(ofHeader: [name])
    }

    /// The part a key path belongs to: `plugins.NAME…` is the NAME section, `KEY…` the `[KEY]` section.
    static func part(of path: ConfigKeyPath?) -> String {
        let keys = (path?.components ?? []).compactMap { component -> String? in
            if case .key(let key) = component { return key }
            return nil
        }
        return part(ofHeader: keys)
    }

    static func part(ofHeader keys: [String]) -> String {
        if keys.count >= 2 && keys[0] == "plugins" { return "the \(keys[1]) section" }
        if let first = keys.first { return "the [\(first)] section" }
        return "the top of the file (before any [section])"
    }
}

/// A configuration loaded leniently, for a command that must not be stopped by a mistake in a part
/// of the configuration it does not need (``ConfigLoader/loadLeniently(for:)``).
public struct LenientConfiguration: Sendable {
    /// What could be loaded.
    public var loaded: LoadedConfiguration
    /// The parts left out, each with its first error.
    public var ignored: [IgnoredPart]
}

extension ConfigDiagnostic {
    /// Whether the problem is in the section of this plugin, `[plugins.NAME…]`.
    func concerns(plugin: String) -> Bool {
        guard let components = path?.components, components.count >= 2 else { return false }
        return components[0] == .key("plugins") && components[1] == .key(plugin)
    }
}

/// Reads what can be read of a file that is not valid TOML: the sections a syntax error is in are
/// blanked out (their lines kept as empty lines, so that later errors keep their line numbers) and
/// the file is read again.
enum SyntaxSalvage {
    /// How many broken sections one file may have before it is left out whole.
    static let attempts = 8

    /// Parses `text`, leaving out the sections with syntax errors.
    ///
    /// - Returns: What was read (`nil` when nothing could be), and the parts left out.
    static func parse(_ text: String, file: String) -> (ConfigNode?, [IgnoredPart]) {
        var lines = text.components(separatedBy: "\n")
        var ignored: [IgnoredPart] = []
        for _ in 0..<attempts {
            do {
                return (try ConfigFileParser.parse(lines.joined(separator: "\n"), file: file), ignored)
            } catch {
                guard let first = error.errors.first ?? error.diagnostics.first else { return (nil, ignored) }
                guard let line = first.location?.line, line > 0, line <= lines.count,
                    let keys = blankSection(around: line - 1, in: &lines)
                else {
                    ignored.append(IgnoredPart(diagnostic: first, part: "the file"))
                    return (nil, ignored)
                }
                ignored.append(IgnoredPart(diagnostic: first, part: IgnoredPart.part(ofHeader: keys)))
            }
        }
        return (nil, ignored)
    }

    /// Blanks out every table of the section the line is in: for `[plugins.reminders]` and
    /// `[[plugins.reminders.reminder]]`, every table of the reminders plugin in the file.
    ///
    /// - Returns: The keys naming the section (empty for the top of the file), or `nil` when
    ///   nothing could be blanked.
    static func blankSection(around index: Int, in lines: inout [String]) -> [String]? {
        let headers = lines.indices.compactMap { position in header(lines[position]).map { (position, $0) } }
        let owner = headers.last { $0.0 <= index }
        let keys = owner.map { Array($0.1.prefix($0.1.first == "plugins" ? 2 : 1)) } ?? []
        var blanked = false
        var inside = owner == nil
        for position in lines.indices {
            if let found = header(lines[position]) {
                inside = !keys.isEmpty && Array(found.prefix(keys.count)) == keys
            }
            if inside || position == index {
                blanked = blanked || !lines[position].isEmpty
                lines[position] = ""
            }
        }
        return blanked ? keys : nil
    }

    /// The keys of a table header line, such as `["plugins", "reminders", "reminder"]` for
    /// `[[plugins.reminders.reminder]]`; `nil` for other lines.
    static func header(_ line: String) -> [String]? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("[") else { return nil }
        var name = trimmed.drop { $0 == "[" }
        if let end = name.firstIndex(of: "]") { name = name[..<end] }
        let keys = name.split(separator: ".").map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }
        return keys.isEmpty || keys.contains(where: \.isEmpty) ? nil : keys
    }
}
