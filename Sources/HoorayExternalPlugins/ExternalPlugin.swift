import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit

/// The `[plugins.NAME]` section of an external plugin: the host reads `call_timeout` and
/// `notices_per_minute`; every other key is the plugin's, handed to it as JSON.
public struct ExternalPluginConfiguration: Decodable, Sendable, Hashable {
    /// The section without the host's keys, as the plugin gets it in `initialize` and `configChanged`.
    public var section: JSONValue
    /// `call_timeout`: how long each call may take, in seconds.
    public var callTimeout: Double?
    /// `notices_per_minute`: how many notices a minute the plugin may post.
    public var noticesPerMinute: Int?
    /// `[plugins] allow_unsandboxed` of `hooray.toml`, the same for every plugin: where no sandbox
    /// can be had, the plugin runs without one (saying so) instead of not at all.
    public var allowUnsandboxed = false

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// An empty section.
    public init() {
        section = .object([:])
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        var members: [String: JSONValue] = [:]
        for key in container.allKeys {
            switch key.stringValue {
            case "call_timeout":
                let duration = try container.decode(ConfigDuration.self, forKey: key)
                guard (1...10).contains(duration.seconds) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container,
                        debugDescription: "call_timeout must be from 1s to 10s (hooray waits 15 s for a command)")
                }
                callTimeout = Double(duration.seconds)
            case "notices_per_minute":
                let count = try container.decode(Int.self, forKey: key)
                guard (1...120).contains(count) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container, debugDescription: "notices_per_minute must be from 1 to 120")
                }
                noticesPerMinute = count
            case "enabled", "celebrations":
                continue
            default:
                members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
        }
        section = .object(members)
    }
}

/// A plugin in another language, as the engine sees it: a ``HoorayPlugin`` whose calls travel over
/// JSON-RPC to the program its ``PluginManifest`` names, run by a ``PluginSupervisor``.
public struct ExternalPlugin: CommandPlugin {
    /// The checked `plugin.toml`.
    public let manifest: PluginManifest
    /// Runs the program.
    public let supervisor: PluginSupervisor
    /// Whether it waits for the user to allow new permissions (``PluginCatalog`` decides): while it
    /// does, the engine does not start it and its commands say why.
    public let hold: PluginHold

    /// Creates the plugin; its program starts when the engine activates it.
    ///
    /// - Parameters:
    ///   - manifest: The checked `plugin.toml`.
    ///   - hostVersion: Hooray's version.
    ///   - environment: The host's environment (the plugin gets a clean one made from it).
    ///   - dataDirectory: Hooray's data folder.
    public init(manifest: PluginManifest, hostVersion: String, environment: [String: String], dataDirectory: String) {
        self.manifest = manifest
        hold = PluginHold()
        supervisor = PluginSupervisor(
            manifest: manifest, hostVersion: hostVersion, environment: environment, dataDirectory: dataDirectory)
    }

    public var name: String { manifest.name }
    public var summary: String { manifest.description }
    public var commands: [CommandSpec] { manifest.commands }

    public func activate(context: PluginContext, configuration: ExternalPluginConfiguration) async throws {
        await supervisor.activate(context: context, configuration: configuration)
    }

    public func reminderDue(_ due: DueReminder, context: PluginContext) async throws -> Notice? {
        // The notice is shown at once; the plugin hears of it without holding up the schedule. Its
        // reminders' notices count against its allowance like those it posts.
        await supervisor.reminderDue(due)
        return await supervisor.admitsReminderNotice() ? due.reminder.notice : nil
    }

    public func reminderSkipped(_ skipped: SkippedReminder, context: PluginContext) async throws {
        await supervisor.reminderSkipped(skipped)
    }

    public func actionInvoked(_ action: InvokedAction, context: PluginContext) async throws {
        try await supervisor.actionInvoked(action)
    }

    public func run(_ command: CommandInvocation, context: PluginContext, configuration: ExternalPluginConfiguration)
        async throws -> CommandReply
    {
        try await supervisor.command(command)
    }
}
