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
