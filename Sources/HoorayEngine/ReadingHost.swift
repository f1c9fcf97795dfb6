import Foundation
import HoorayKit
import HoorayStorage
import Logging

extension Engine {
    /// Takes the enabled plugins' configuration without activating them: for a command that only
    /// reads, run in `hooray` while `hoorayd` may run on the same database. Nothing is planned,
    /// posted or written; a plugin's commands run as ``run(_:plugin:)`` runs them.
    func attachForReading(settings: EngineSettings, plugins setups: [PluginSetup]) {
        self.settings = settings
        lastSetups = setups
        plugins = [:]
        for setup in setups where setup.enabled { plugins[setup.plugin.name] = setup.plugin }
    }

    /// Runs a command of a plugin taken by ``attachForReading(settings:plugins:)``, with no time
    /// limit: a listing written to a pager waits for as long as the user reads.
    func runReading(_ command: CommandInvocation, plugin name: String) async throws -> CommandReply {
        guard let plugin = plugins[name], let setup = lastSetups.first(where: { $0.plugin.name == name }) else {
            throw PluginCommandError(
                "the \(name) plugin is not enabled; enable it with `[plugins.\(name)] enabled = true` in "
                    + (settings.userConfigurationFile ?? "your hooray.toml"))
        }
        let context = makeContext(for: name, timeZone: command.environment.timeZone)
        return try await plugin.run(command, context: context, erasedConfiguration: setup.configuration)
    }
}

extension PluginCommandRunner {
    /// Runs a listing (``CommandSpec/streams``) in this process, whether or not `hoorayd` runs: it
    /// reads the database itself (for reading only when it cannot be written), activates nothing
    /// and waits on no daemon, so a listing of any length is not cut short by a deadline and its
    /// output is written as it is read (``CommandStream``).
    ///
    /// - Throws: ``PluginCommandFailed`` with the plugin's message or what kept the database from
    ///   being read.
    public func runReading(_ command: CommandInvocation, plugin: String) async throws -> CommandReply {
        let (loaded, ignored) = try LocalHostBox.configuration(for: plugin, session: session, plugins: plugins)
        // With nothing logged yet, an empty database in a private temporary folder: reading makes
        // no data folder.
        var cleanUp: @Sendable () -> Void = {}
        defer { cleanUp() }
        let database: HoorayDatabase
        if let existing = try session.existingDatabase() {
            database = existing
        } else {
            (database, cleanUp) = try session.databaseForPlanning()
        }
        let engine = Engine(
            database: database, sink: OfflineSink(), settings: loaded.settings,
            timeZone: SystemTimeZone(environment: session.environment).current(), makeLogger: LocalHostBox.quietLogger)
        await engine.attachForReading(
            settings: loaded.settings, plugins: loaded.setups.filter { $0.plugin.name == plugin })
        do {
            var reply = try await engine.runReading(command, plugin: plugin)
            reply.warnings = ignored + reply.warnings
            return reply
        } catch let error as PluginCommandError {
            throw PluginCommandFailed(message: error.message, invalidValue: error.invalidOption)
        } catch let error as PluginCommandFailed {
            throw error
        } catch {
            throw PluginCommandFailed(message: "\(error)")
        }
    }
}
