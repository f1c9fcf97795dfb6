import Foundation
import HoorayKit
import HoorayStorage
import Logging

/// Runs a plugin's command for the `hooray` CLI: in the running `hoorayd` when there is one,
/// otherwise in this process, with the same plugin code and the same kind of context.
///
/// Hosting a plugin here is for one command: the notices it posts are shown from this process,
/// and ``finish()`` waits for its background work (such as an AI request) so that its result is
/// stored and shown before the process exits. Work the plugin schedules for later waits for the
/// daemon.
public final class PluginCommandRunner: Sendable {
    let session: CLISession
    let plugins: [any HoorayPlugin]
    let host = LocalHostBox()

    /// Where the last command ran.
    public enum Venue: Sendable, Equatable {
        /// In the running `hoorayd`.
        case daemon
        /// In this process, because no `hoorayd` is running.
        case here
    }

    /// Creates a runner.
    ///
    /// - Parameters:
    ///   - session: The CLI session.
    ///   - plugins: The plugins the configuration knows, to host one here when needed.
    public init(session: CLISession, plugins: [any HoorayPlugin]) {
        self.session = session
        self.plugins = plugins
    }

    /// Runs a command and returns the plugin's reply.
    ///
    /// - Throws: ``PluginCommandFailed`` with the plugin's or the daemon's message.
    public func run(_ command: CommandInvocation, plugin: String) async throws -> (reply: CommandReply, venue: Venue) {
        do {
            if let response = try ControlClient.send(
                .command(plugin: plugin, invocation: command), socketPath: session.paths.controlSocket, timeout: 15)
            {
                guard response.ok, var reply = response.reply else {
                    throw PluginCommandFailed(
                        message: response.message ?? "hoorayd could not run the command",
                        invalidValue: response.ok ? nil : response.invalidValue)
                }
                reply.followUp = nil
                return (reply, .daemon)
            }
        } catch let error as ControlError where error.requestWasRefused {
            throw PluginCommandFailed(message: error.message)
        } catch let error as ControlError {
            // The request may have reached the daemon and run there: running it again here could
            // do it twice.
            throw PluginCommandFailed(message: "hoorayd did not answer: \(error)", mayHaveRun: true)
        }
        let engine = try await host.engine(session: session, plugins: plugins, plugin: plugin)
        // Notices already waiting are not this command's: only its own are reported as waiting.
        host.waitingBefore = Set(((try? await engine.database.pendingNotices()) ?? []).map(\.id))
        do {
            let reply = try await engine.run(command, plugin: plugin)
            await engine.deliverPending(plugin: plugin)
            return (reply, .here)
        } catch let error as PluginCommandError {
            throw PluginCommandFailed(message: error.message, invalidValue: error.invalidOption)
        } catch {
            throw PluginCommandFailed(message: "\(error)")
        }
    }

    /// When the command ran here: waits for the plugin's background work, shows what it changed,
    /// runs the reply's follow-up, and lets go of the notification server. Does nothing when the
    /// daemon ran it.
    ///
    /// - Parameter reply: The command's reply, whose ``CommandReply/followUp`` runs now.
    /// - Returns: The follow-up's reply, and whether notices of the plugin still wait for a
    ///   notification server; `nil` when the daemon ran the command.
    public func finish(after reply: CommandReply? = nil) async -> (followUp: CommandReply?, undelivered: Bool)? {
        guard let (engine, sink) = host.current, let plugin = host.plugin else { return nil }
        await engine.waitForBackgroundWork()
        await engine.deliverPending(plugin: plugin)
        var followUp: CommandReply?
        if let next = reply?.followUp {
            followUp = try? await engine.run(next, plugin: plugin)
        }
        let waitingBefore = host.waitingBefore
        let undelivered = ((try? await engine.database.pendingNotices()) ?? []).contains {
            $0.plugin == plugin && !waitingBefore.contains($0.id)
        }
        await sink.shutdown()
        return (followUp, undelivered)
    }
}

/// A plugin command failed; the message is for the user.
public struct PluginCommandFailed: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for a person.
    public let message: String
    /// Whether the command may have run all the same: the daemon got it but stopped before answering.
    public let mayHaveRun: Bool
    /// The option or argument whose value the plugin refused, when that was the failure: a usage
    /// error, for which `hooray` shows the command's usage line and exits 64.
    public let invalidValue: String?
    public var description: String { message }

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - message: What went wrong, for a person.
    ///   - mayHaveRun: Whether the command may have run all the same.
    ///   - invalidValue: The option or argument whose value was refused, if that was the failure.
    public init(message: String, mayHaveRun: Bool = false, invalidValue: String? = nil) {
        self.message = message
        self.mayHaveRun = mayHaveRun
        self.invalidValue = invalidValue
    }
}

/// The engine hosting a plugin in the CLI process, made on first use.
final class LocalHostBox: @unchecked Sendable {
    // @unchecked: the fields are only touched while holding `lock`.
    private let lock = NSLock()
    private var made: (Engine, LibNotifySink)?
    private(set) var plugin: String?
    private var _waitingBefore: Set<NoticeID> = []

    /// The notices that waited for a notification server before the command ran.
    var waitingBefore: Set<NoticeID> {
        get { lock.withLock { _waitingBefore } }
        set { lock.withLock { _waitingBefore = newValue } }
    }

    var current: (Engine, LibNotifySink)? { lock.withLock { made } }

    func engine(session: CLISession, plugins: [any HoorayPlugin], plugin: String) async throws -> Engine {
        if let made = current { return made.0 }
        let loaded: DaemonConfiguration
        do {
            loaded = try session.loadConfiguration(plugins: plugins)
        } catch {
            throw PluginCommandFailed(
                message:
                    "the configuration has errors, so nothing was done:\n\(error)\nFix them (see `hooray config check`) and try again."
            )
        }
        let quiet: @Sendable (String) -> Logger = { label in
            var logger = Logger(label: label)
            logger.logLevel = .critical
            return logger
        }
        let sink = LibNotifySink(icon: loaded.icon, serverTimeout: loaded.serverTimeout, logger: quiet("delivery"))
        let engine = Engine(
            database: try session.database(), sink: sink, settings: loaded.settings,
            timeZone: SystemTimeZone(environment: session.environment).current(), makeLogger: quiet)
        await engine.setPraiseProvider(
            Daemon.makePraiseProvider(
                loaded.ai, identity: loaded.identityStore, paths: session.paths, logger: quiet("ai")))
        await engine.apply(settings: loaded.settings, plugins: loaded.setups.filter { $0.plugin.name == plugin })
        lock.withLock {
            made = (engine, sink)
            self.plugin = plugin
        }
        return engine
    }
}
