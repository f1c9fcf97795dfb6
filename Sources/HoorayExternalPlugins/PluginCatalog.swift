import Foundation
import HoorayClient
import HoorayKit

/// The plugins a host runs: the built-in ones, then the plugins in other languages found in the
/// plugin folders (see ``PluginDiscovery``).
///
/// Looking again (``refresh()``, on `hooray reload`) keeps the same ``ExternalPlugin`` — and so its
/// running program — for a plugin whose `plugin.toml` did not change.
public final class PluginCatalog: @unchecked Sendable {
    // @unchecked: `adapters` and `refusedPlugins` are guarded by `lock`.
    private let lock = NSLock()
    /// The built-in plugins.
    public let builtIns: [any HoorayPlugin]
    package let environment: [String: String]
    let hostVersion: String
    let dataDirectory: String
    private var adapters: [String: ExternalPlugin] = [:]
    private var refusedPlugins: [RefusedPlugin] = []

    /// Creates a catalog and looks in the plugin folders.
    ///
    /// - Parameters:
    ///   - builtIns: The built-in plugins.
    ///   - environment: The environment the plugin folders are found from.
    ///   - hostVersion: Hooray's version, told to plugins.
    public init(builtIns: [any HoorayPlugin], environment: [String: String], hostVersion: String) {
        self.builtIns = builtIns
        self.environment = environment
        self.hostVersion = hostVersion
        dataDirectory = (try? HoorayPaths(environment: environment).dataDirectory) ?? "/tmp"
        refresh()
    }

    /// Looks in the plugin folders again.
    public func refresh() {
        let result = PluginDiscovery.discover(
            folders: PluginDiscovery.folders(environment: environment), builtIns: builtIns)
        lock.withLock {
            var fresh: [String: ExternalPlugin] = [:]
            for manifest in result.found {
                if let kept = adapters[manifest.name], kept.manifest == manifest {
                    fresh[manifest.name] = kept
                } else {
                    fresh[manifest.name] = ExternalPlugin(
                        manifest: manifest, hostVersion: hostVersion, environment: environment,
                        dataDirectory: dataDirectory)
                }
            }
            adapters = fresh
            refusedPlugins = result.refused
        }
        settlePermissions()
    }

    /// A plugin's own data folder: `plugin-data/NAME` in Hooray's data folder.
    public func dataFolder(of plugin: String) -> String {
        dataDirectory + "/plugin-data/" + plugin
    }

    /// Holds each plugin that asks for a permission the user has not allowed (see
    /// ``PluginPermissionRecord``): a plugin seen for the first time has what it asks for allowed,
    /// since the user installed it; a permission a plugin no longer asks for is forgotten, so that
    /// asking again holds it again.
    func settlePermissions() {
        let plugins = external
        PluginPermissionRecord.locked(dataDirectory: dataDirectory) {
            guard var record = PluginPermissionRecord.read(dataDirectory: dataDirectory) else {
                // A damaged record allows nothing: every plugin that asks for anything is held until
                // `hooray plugins allow NAME`, which writes the record anew.
                for plugin in plugins { plugin.hold.notAllowed = plugin.manifest.permissions }
                return
            }
            let before = record
            for plugin in plugins {
                let asked = plugin.manifest.permissions
                let allowed = record.allowed[plugin.name].map { $0.intersection(asked) } ?? asked
                record.allowed[plugin.name] = allowed
                plugin.hold.notAllowed = asked.subtracting(allowed)
            }
            // Best effort: a data folder that cannot be written (read-only, not made yet) is written
            // the next time; meanwhile a plugin already recorded keeps its record, so it is held all
            // the same, and one seen for the first time is allowed what it asks for, as it would be.
            if record != before { try? record.write(dataDirectory: dataDirectory) }
        }
    }

    /// Allows a plugin what its `plugin.toml` asks for, and records it.
    ///
    /// - Parameter plugin: The plugin's name.
    /// - Returns: The permissions newly allowed.
    /// - Throws: When the record cannot be written; the plugin stays held.
    @discardableResult
    public func allow(_ plugin: String) throws -> Set<PluginPermission> {
        guard let found = external.first(where: { $0.name == plugin }) else { return [] }
        let asked = found.manifest.permissions
        return try PluginPermissionRecord.locked(dataDirectory: dataDirectory) {
            // Over a damaged record, the other plugins are recorded as allowed nothing, so they stay held.
            var record =
                PluginPermissionRecord.read(dataDirectory: dataDirectory)
                ?? PluginPermissionRecord(allowed: Dictionary(uniqueKeysWithValues: external.map { ($0.name, []) }))
            let new = asked.subtracting(record.allowed[plugin] ?? [])
            record.allowed[plugin] = asked
            try record.write(dataDirectory: dataDirectory)
            found.hold.notAllowed = []
            return new
        }
    }

    /// The plugins in other languages found, by name.
    public var external: [ExternalPlugin] {
        lock.withLock { adapters.values.sorted { $0.name < $1.name } }
    }

    /// The plugin folders found and refused, each with its reason.
    public var refused: [RefusedPlugin] {
        lock.withLock { refusedPlugins }
    }

    /// Every plugin to run: the built-in ones, then the others by name.
    public var plugins: [any HoorayPlugin] {
        builtIns + external.map { $0 as any HoorayPlugin }
    }
}

// `PluginReport` is a wire type (HoorayClient's, in `plugins`); how reports are made is here.
extension PluginReport {
    /// The range a manifest gives, as `hooray plugins` shows it: `1`, or `1-2`.
    package static func range(_ versions: ClosedRange<Int>) -> String {
        versions.lowerBound == versions.upperBound
            ? "\(versions.lowerBound)" : "\(versions.lowerBound)-\(versions.upperBound)"
    }

    /// The plugins a running engine has: those in other languages by name, and the names of the
    /// active ones.
    public typealias Live = (external: [String: ExternalPlugin], active: Set<String>)

    /// The reports of a set of plugins: live ones from an engine, or from the configuration alone.
    ///
    /// - Parameters:
    ///   - catalog: The plugins.
    ///   - enabled: The names of the enabled plugins.
    ///   - running: What the running engine has; `nil` in a `hooray` without a daemon.
    public static func reports(catalog: PluginCatalog, enabled: Set<String>, running: Live?) async -> [PluginReport] {
        let live = running?.external ?? [:]
        let active = running?.active ?? []
        var reports: [PluginReport] = []
        for plugin in catalog.builtIns {
            let state =
                !enabled.contains(plugin.name)
                ? "disabled" : running == nil ? "enabled" : active.contains(plugin.name) ? "running" : "stopped"
            let settings = (plugin as? any DeclaresSettings)?.settingDeclarations.map {
                PluginSetting(
                    key: $0.key, title: $0.title, hint: $0.hint, kind: $0.kind.rawValue, defaultValue: $0.defaultValue)
            }
            reports.append(
                PluginReport(
                    name: plugin.name, kind: "built-in", state: state, summary: plugin.summary, settings: settings))
        }
        for plugin in catalog.external {
            var report = PluginReport(
                name: plugin.name, kind: "external", state: enabled.contains(plugin.name) ? "enabled" : "disabled",
                summary: plugin.summary, version: plugin.manifest.version,
                apiVersion: range(plugin.manifest.apiVersions), folder: plugin.manifest.folder,
                permissions: plugin.manifest.permissionWords, card: plugin.manifest.card)
            let notAllowed = plugin.hold.notAllowed
            if !notAllowed.isEmpty {
                report.notAllowed = notAllowed.sorted().map { plugin.manifest.plainWords(for: $0) }
            }
            if !notAllowed.isEmpty, enabled.contains(plugin.name) {
                report.state = "held"
                report.lastError = plugin.manifest.heldReason(notAllowed: notAllowed)
            } else if let running = live[plugin.name] {
                let status = await running.supervisor.status()
                report.state = status.state
                report.pid = status.pid
                report.restarts = status.restarts
                report.lastError = status.lastError
                if let version = status.apiVersion { report.apiVersion = "\(version)" }
            } else if running != nil, enabled.contains(plugin.name) {
                report.state = "stopped"
            }
            reports.append(report)
        }
        for refused in catalog.refused {
            reports.append(
                PluginReport(
                    name: refused.name, kind: "external", state: "refused", summary: "", lastError: refused.reason,
                    folder: refused.folder))
        }
        return reports
    }
}
