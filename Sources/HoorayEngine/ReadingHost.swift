import Foundation
import HoorayCommandLine
import HoorayKit
import HoorayStorage
import Logging

extension Engine {
    /// Takes the enabled plugins' configuration without activating them: for a command that only
    /// reads, run in `hooray` while `hoorayd` may run on the same database. Nothing is planned,
    /// posted or written; a plugin's commands run as ``run(_:plugin:)`` runs them.
    package func attachForReading(settings: EngineSettings, plugins setups: [PluginSetup]) {
        self.settings = settings
        lastSetups = setups
        plugins = [:]
        for setup in setups where setup.enabled { plugins[setup.plugin.name] = setup.plugin }
    }

    /// Runs a command of a plugin taken by ``attachForReading(settings:plugins:)``, with no time
    /// limit: a listing written to a pager waits for as long as the user reads.
    package func runReading(_ command: CommandInvocation, plugin name: String) async throws -> CommandReply {
        guard let plugin = plugins[name], let setup = lastSetups.first(where: { $0.plugin.name == name }) else {
            throw PluginCommandError(
                "the \(name) plugin is not enabled; enable it with `[plugins.\(name)] enabled = true` in "
                    + (settings.userConfigurationFile ?? "your hooray.toml"))
        }
        let context = makeContext(for: name, timeZone: command.environment.timeZone)
        return try await plugin.run(command, context: context, erasedConfiguration: setup.configuration)
    }
}
