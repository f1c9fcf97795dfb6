import BuiltInPlugins
import Foundation
import HoorayBasics
import HoorayClient
import HoorayEngine
import HoorayExternalPlugins
import HoorayKit

/// The built-in plugins, registered explicitly, and the plugins in other languages found in the
/// plugin folders (their commands come from their plugin.toml; they start only to run one).
public let pluginCatalog = PluginCatalog(
    builtIns: BuiltInPlugins.all, environment: HoorayPaths.withAbsoluteHome(ProcessInfo.processInfo.environment),
    hostVersion: HoorayVersion.current)

/// Every plugin `hooray` knows.
public let installedPlugins = pluginCatalog.plugins

/// Prints a line to standard error.
public func warn(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Fails the command with a message and exit code 1.
public struct CommandFailure: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    /// A failure that says `message`.
    public init(message: String) {
        self.message = message
    }
}

extension String {
    /// The string with its first letter in upper case, for a message that starts a sentence.
    public var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}

/// JSON as `--json` prints it: pretty, keys sorted, slashes as they are, instants in ISO 8601.
public enum TerminalJSON {
    /// `value` as `--json` prints it.
    public static func text<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
