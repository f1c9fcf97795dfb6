import HoorayExternalPlugins
import HoorayKit

extension Engine {
    /// Plans again the reminders of the plugins whose records another computer changed (sync): a
    /// habit ticked there holds its reminder here, a habit added there is reminded here too.
    ///
    /// Each plugin is activated again, as a reload of the configuration does, which plans its
    /// reminders from its records. A plugin in another language is left as it is: its program
    /// plans its own.
    public func recordsChangedElsewhere(plugins names: Set<String>) async {
        for name in names.sorted() {
            guard let plugin = plugins[name], !(plugin is ExternalPlugin),
                let setup = lastSetups.first(where: { $0.plugin.name == name })
            else { continue }
            let context = makeContext(for: name)
            do {
                try await withTimeLimit(settings.activationTimeLimit) {
                    try await setup.plugin.activate(context: context, erasedConfiguration: setup.configuration)
                }
            } catch {
                logger.error("plugin \(name) could not plan again after a change from another computer: \(error)")
            }
        }
        await reloadRules()
        changes.publish()
    }

    /// Whether a plugin's stored value is this computer's own cache, which sync leaves out
    /// (``HoorayKit/HoorayPlugin/isDeviceCache(valueKey:)``), for the plugins as configured now.
    public func deviceCaches() -> @Sendable (_ plugin: String, _ key: String) -> Bool {
        let setups = lastSetups
        return { plugin, key in
            setups.first { $0.plugin.name == plugin }?.plugin.isDeviceCache(valueKey: key) ?? false
        }
    }
}
