import Foundation
import HoorayClient
import HoorayCommandLine
import HoorayKit

/// What a plugin in another language asks of the host: one of the `permissions` of its `plugin.toml`.
public enum PluginPermission: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Post and update notices, and celebrate.
    case notify
    /// Schedule and cancel its reminders.
    case schedule
    /// Keep values in its own storage.
    case storage
    /// Ask the AI service for praise.
    case ai
    /// Reach the network as the computer can: without it, the plugin has no network at all.
    ///
    /// Written `network`, or `network:HOST` to name the hosts it uses (``PluginManifest/networkHosts``);
    /// Hooray cannot hold a plugin to the hosts it names.
    case network

    public static func < (lhs: PluginPermission, rhs: PluginPermission) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A plugin's `plugin.toml`, read and checked: everything the host knows about an external
/// plugin before it starts it (see the plugin protocol in `docs/protocol.md`).
public struct PluginManifest: Sendable, Hashable {
    /// The plugin's name, such as `pomodoro`.
    public var name: String
    /// The plugin's own version, such as `1.0.0`.
    public var version: String
    /// The plugin API versions it speaks.
    public var apiVersions: ClosedRange<Int>
    /// One line for `hooray plugins`.
    public var description: String
    /// The program, as an absolute path inside ``folder``, then its arguments.
    public var exec: [String]
    /// The folder the plugin lives in, absolute, without a trailing slash.
    public var folder: String
    /// Its commands, as `hooray NAME COMMAND` offers them.
    public var commands: [CommandSpec]
    /// What it may do.
    public var permissions: Set<PluginPermission>
    /// The hosts it names with `network:HOST`, in the order written, such as `api.example.org` or
    /// `127.0.0.1:8080`; empty for a plain `network`. Shown to the user, not enforced: with
    /// ``PluginPermission/network`` the plugin reaches the network as the computer can.
    public var networkHosts: [String]
    /// What its sandbox allows it to use: the `[limits]` table.
    public var limits: PluginLimits
    /// What the desktop app's Today view shows of it: the `[card]` table; `nil` for none.
    public var card: PluginCard?

    /// Creates a manifest.
    public init(
        name: String, version: String, apiVersions: ClosedRange<Int>, description: String, exec: [String],
        folder: String, commands: [CommandSpec] = [], permissions: Set<PluginPermission> = [],
        networkHosts: [String] = [],
        limits: PluginLimits = .standard, card: PluginCard? = nil
    ) {
        self.card = card
        self.name = name
        self.version = version
        self.apiVersions = apiVersions
        self.description = description
        self.exec = exec
        self.folder = folder
        self.commands = commands
        self.permissions = permissions
        self.networkHosts = networkHosts
        self.limits = limits
    }

    /// The plugin API versions this host speaks.
    public static let hostAPIVersions: ClosedRange<Int> = 1...1
}

/// A plugin folder the host found and will not run, and why.
public struct RefusedPlugin: Sendable, Hashable {
    /// The folder.
    public var folder: String
    /// The plugin's name when it could be read, else the folder's name.
    public var name: String
    /// Why, as a sentence that names the fix, such as
    /// `plugin.toml:3:15: api_version 99 is not one this Hooray speaks (it speaks 1); …`.
    public var reason: String

    /// Creates a refusal.
    public init(folder: String, name: String, reason: String) {
        self.folder = folder
        self.name = name
        self.reason = reason
    }
}
