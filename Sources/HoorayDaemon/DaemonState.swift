import Foundation
import HoorayCommands
import HoorayEngine
import HoorayExternalPlugins
import HoorayKit

/// The configuration in force, shared by the reload paths.
final class DaemonState: @unchecked Sendable {
    // @unchecked: `configuration` and the cached command tree are guarded by `lock`; the rest is set once.
    private let lock = NSLock()
    private var current: DaemonConfiguration
    private var cachedTree: (key: [PluginManifest], tree: CommandTree)?
    /// The plugins, built-in and found.
    let catalog: PluginCatalog
    /// The file of `--config`.
    let extraFile: String?
    /// Reloads and changes to the configuration files, one at a time and in the order they come:
    /// a change is written, applied and read back before the next is looked at.
    let configurationGate = SerialGate()

    init(configuration: DaemonConfiguration, catalog: PluginCatalog, extraFile: String?) {
        current = configuration
        self.catalog = catalog
        self.extraFile = extraFile
    }

    /// The environment the configuration and the plugin folders are found from.
    var environment: [String: String] { catalog.environment }

    /// Told of each configuration put in force, after it is (set once, at start).
    private var watchers: [@Sendable (DaemonConfiguration) -> Void] = []

    var configuration: DaemonConfiguration {
        get { lock.withLock { current } }
        set {
            let watchers = lock.withLock {
                current = newValue
                return self.watchers
            }
            for watcher in watchers { watcher(newValue) }
        }
    }

    /// Calls `watcher` with each configuration put in force from now on (a reload), once it is in force.
    func watchConfiguration(_ watcher: @escaping @Sendable (DaemonConfiguration) -> Void) {
        lock.withLock { watchers.append(watcher) }
    }

    /// The plugins' commands, for the `hooray` front door; made again only when the plugins in other
    /// languages found change. `nil` when they cannot be offered together.
    var commandTree: CommandTree? {
        let external = catalog.external
        let key = external.map(\.manifest)
        if let cached = lock.withLock({ cachedTree }), cached.key == key { return cached.tree }
        guard let tree = try? CommandTree(plugins: catalog.builtIns + external.map { $0 as any HoorayPlugin }) else {
            return nil
        }
        lock.withLock { cachedTree = (key, tree) }
        return tree
    }
}
