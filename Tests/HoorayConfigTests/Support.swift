import Foundation
import HoorayCalendar
import HoorayConfig
import HoorayKit
import Testing

/// A temporary directory that is removed when the value goes away.
final class TemporaryDirectory {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/hooray-config-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes a file below the directory, creating the directories on the way, and returns its path.
    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> String {
        let full = path + "/" + relativePath
        let directory = (full as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
        return full
    }

    /// Paths whose system directory is `etc/hooray` and whose XDG_CONFIG_HOME is `config` below this directory.
    var paths: ConfigPaths {
        ConfigPaths(environment: ["HOORAY_SYSCONFDIR": path + "/etc/hooray", "XDG_CONFIG_HOME": path + "/config"])
    }
}

/// Parses TOML written to a real file and returns the root and the file's path.
func parseFile(_ text: String, in directory: TemporaryDirectory, name: String = "hooray.toml") throws -> (
    ConfigNode, String
) {
    let file = try directory.write(name, text)
    guard let root = try ConfigFileParser.parseFile(atPath: file) else { throw MissingFile() }
    return (root, file)
}

struct MissingFile: Error {}

/// Runs a throwing configuration step and returns its diagnostics, or an empty list when it succeeded.
func diagnostics<T>(of body: () throws -> T, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    -> ConfigDiagnostics
{
    do {
        _ = try body()
        return []
    } catch let diagnostics as ConfigDiagnostics {
        return diagnostics
    } catch {
        Issue.record("expected ConfigDiagnostics, got \(error)", sourceLocation: sourceLocation)
        return []
    }
}

/// HoorayKit's location in a file; Swift Testing has a `SourceLocation` of its own.
typealias Location = HoorayConfig.SourceLocation

// MARK: Small plugins for the tests

enum TestUrgency: String, Decodable, Sendable, CaseIterable {
    case low, normal, critical
}

struct TestReminder: Decodable, Sendable, Equatable {
    var title: String
    var body: String?
    var at: TimeOfDay
    var days: String?
    var urgency: TestUrgency?
}

struct TestRemindersConfiguration: Decodable, Sendable {
    var reminder: [TestReminder]?
}

struct TestRemindersPlugin: HoorayPlugin {
    typealias Configuration = TestRemindersConfiguration
    var name: String { "reminders" }
    var summary: String { "Reminders for the tests." }
    func activate(context: PluginContext, configuration: TestRemindersConfiguration) async throws {}
}

struct QuietPlugin: HoorayPlugin {
    var name: String { "quiet" }
    var summary: String { "A plugin without settings." }
    func activate(context: PluginContext, configuration: NoConfiguration) async throws {}
}

/// A plugin that runs only once its section says `enabled = true`.
struct ExamplePlugin: HoorayPlugin {
    var name: String { "example" }
    var summary: String { "An example, off by default." }
    var isEnabledByDefault: Bool { false }
    func activate(context: PluginContext, configuration: NoConfiguration) async throws {}
}
