import HoorayClient
import HoorayExternalPlugins
import HoorayKit

// Plugins in another language, as the engine sees them: held while their program is not running.
extension Engine {
    /// Whether a plugin's reminders are kept but do not come due: a plugin in another language
    /// whose program is not running (starting, restarting or given up).
    func isHeld(_ plugin: String) -> Bool {
        guard let external = plugins[plugin] as? ExternalPlugin else { return false }
        return !external.supervisor.running.value
    }

    /// A plugin's program started or stopped: its reminders come due again (those due meanwhile as
    /// after a restart), or wait.
    func pluginRunningChanged() async {
        await reloadRules()
        // Started, stopped or given up: what a client shows of it (Today's cards) follows.
        changes.publish()
    }

    /// The plugins in other languages that are running or trying to, by name.
    public var externalPlugins: [String: ExternalPlugin] {
        plugins.compactMapValues { $0 as? ExternalPlugin }
    }

    /// Stops every plugin in another language: `shutdown`, then signals.
    public func stopExternalPlugins() async {
        await withTaskGroup(of: Void.self) { group in
            for external in externalPlugins.values {
                group.addTask { await external.supervisor.deactivate() }
            }
        }
    }
}

extension PluginReport {
    /// The reports of a set of plugins: live ones from an engine, or from the configuration alone.
    ///
    /// - Parameters:
    ///   - catalog: The plugins.
    ///   - enabled: The names of the enabled plugins.
    ///   - engine: The running engine; `nil` in a `hooray` without a daemon.
    public static func reports(catalog: PluginCatalog, enabled: Set<String>, engine: Engine?) async -> [PluginReport] {
        var running: Live?
        if let engine { running = (await engine.externalPlugins, Set(await engine.activePlugins)) }
        return await reports(catalog: catalog, enabled: enabled, running: running)
    }
}

extension PluginSetup {
    /// Why the engine does not start this plugin: it is held for new permissions; `nil` otherwise.
    var heldReason: String? {
        (plugin as? ExternalPlugin)?.heldReason
    }
}
