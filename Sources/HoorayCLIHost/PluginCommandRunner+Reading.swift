import Foundation
import HoorayCommandLine
import HoorayDelivery
import HoorayEngine
import HoorayKit
import HoorayStorage

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
            database: database, channels: DeliveryChannels([OfflineChannel()]), settings: loaded.settings,
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
