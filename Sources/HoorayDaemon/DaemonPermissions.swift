import Foundation
import HoorayClient
import HoorayEngine
import HoorayExternalPlugins
import HoorayKit
import HoorayText
import Logging

extension Daemon {
    /// `hooray plugins allow NAME`: allows a plugin in another language what its `plugin.toml` asks
    /// for, records it, and starts the plugin when it is turned on.
    ///
    /// - Returns: The answer: what was allowed and whether the plugin runs, or why nothing was done.
    static func allow(_ name: String, engine: Engine, state: DaemonState, logger: Logger) async -> ControlResponse {
        guard let plugin = state.catalog.external.first(where: { $0.name == name }) else {
            return ControlResponse(ok: false, message: PluginCatalog.unknownPluginMessage(name, in: state.catalog))
        }
        let newly: Set<PluginPermission>
        do {
            newly = try state.catalog.allow(name)
        } catch {
            return ControlResponse(ok: false, message: "\(error); nothing was allowed")
        }
        let words = newly.sorted().map { plugin.manifest.plainWords(for: $0) }
        if !words.isEmpty {
            logger.notice("plugin \(name) is allowed to \(PluginManifest.joined(words)) (hooray plugins allow)")
        }
        let configuration = state.configuration
        guard configuration.enabledPlugins.contains(name) else {
            return ControlResponse(
                ok: true,
                message: "allowed; the \(name) plugin is turned off, and `[plugins.\(name)] enabled = true` turns it on"
            )
        }
        if await engine.externalPlugins[name] == nil {
            await engine.apply(settings: configuration.settings, plugins: configuration.setups)
        }
        return await plugin.supervisor.readiness(
            running: { "allowed; \(name) is running (pid \($0))" },
            notRunning: { "allowed, and \(name) was started but is not running: \($0)" })
    }
}

extension PluginSupervisor {
    /// Waits until the plugin just started answers `initialize` — a second longer than that may take,
    /// so that one that does not answer says so — and says how it went.
    ///
    /// - Parameters:
    ///   - running: The message when it runs, given its pid.
    ///   - notRunning: The message when it does not, given its last error or state.
    func readiness(running: @Sendable (String) -> String, notRunning: @Sendable (String) -> String) async
        -> ControlResponse
    {
        let ready = await waitUntilReady(timeout: limits.initializeTimeout + 1)
        let status = status()
        return ControlResponse(
            ok: ready,
            message: ready
                ? running(status.pid.map(String.init) ?? "?") : notRunning(status.lastError ?? status.state))
    }
}

extension PluginCatalog {
    /// What to say of a name that is no plugin: the near match, or where the plugins are listed.
    public static func unknownPluginMessage(_ name: String, in catalog: PluginCatalog) -> String {
        let names = catalog.builtIns.map(\.name) + catalog.external.map(\.name) + catalog.refused.map(\.name)
        var message = "there is no plugin \"\(name)\""
        if let near = NameSuggestion.closest(to: name, among: names) {
            message += "; did you mean \(near)?"
        } else {
            message += "; `hooray plugins` lists them"
        }
        return message
    }
}
