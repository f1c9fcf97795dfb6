import Foundation
import HoorayClient
import HoorayDelivery
import HoorayEngine
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
    /// The CLI session the commands run in.
    public let session: CLISession
    let plugins: [any HoorayPlugin]
    let host = LocalHostBox()

    /// Where the last command ran.
    public enum Venue: Sendable, Equatable {
        /// In the running `hoorayd`.
        case daemon
        /// In this process, because no `hoorayd` is running.
        case here
        /// In this process, because `hoorayd` did not answer in time and this process claimed the
        /// request first: the daemon will not run it when it gets to it.
        case hereInstead
    }

    /// How long `hooray` waits for the answer of a frozen daemon (stopped by SIGSTOP or a debugger)
    /// before it tries to run the command itself; a daemon that runs but is slow is waited for up to
    /// ``longestWait``.
    public static let answerWait: Double = 2
    /// How long it waits in all for a daemon that claimed the command and is running it.
    public static let longestWait: Double = 15

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
    /// A command that writes carries a request id, which whoever runs it claims first in the
    /// database: the daemon, or this process when the daemon does not answer within ``answerWait``
    /// seconds because it is frozen, or within ``longestWait`` when it is slow. So a command runs once, and what is printed says where, or that it is queued. A
    /// command that only reads carries none and claims nothing: it waits for the daemon's answer
    /// (``longestWait`` in all), and runs here only when no daemon is left to answer.
    ///
    /// - Parameters:
    ///   - command: The command, parsed.
    ///   - plugin: The plugin's name.
    ///   - noun: What the command saves, such as `your moment` (``CommandSpec/noun``), for the
    ///     messages about a daemon that does not answer; `nil` says "what you asked".
    ///   - writes: Whether the command may change what is stored (``CommandSpec/writes``).
    /// - Throws: ``PluginCommandFailed`` with the plugin's or the daemon's message, or saying that
    ///   the command is queued in a daemon that has not answered yet (status ``ExitStatus/busy``).
    ///   - handover: Where the `hooray` front door left the same command, sent to the daemon with a
    ///     request id, when it handed the command line over to this process: a command that writes
    ///     goes on from there, on that request, so that it runs once.
    public func run(
        _ command: CommandInvocation, plugin: String, noun: String? = nil, writes: Bool = true,
        handover: FrontDoorHandover? = nil
    )
        async throws -> (reply: CommandReply, venue: Venue)
    {
        let words = Words(noun: noun)
        if writes, let handover {
            let request = ControlRequest.command(plugin: plugin, invocation: command, requestID: handover.requestID)
            let outcome: Exchange
            switch handover.state {
            case .answered(let line):
                outcome = try reply(from: try ControlClient.decodeAnswer(Data(line.utf8)))
            case .waiting(let fd, let waited):
                outcome = try await settle(
                    .notYet, waited: waited, request, on: ControlConnection(adopting: fd), words: words)
            case .closed(let fd, let waited):
                outcome = try await settle(
                    .closed, waited: waited, request, on: ControlConnection(adopting: fd), words: words)
            }
            return try await finishExchange(outcome, command: command, plugin: plugin, noun: noun)
        }
        let requestID = writes ? UUID().uuidString.lowercased() : nil
        let connection: ControlConnection?
        do {
            connection = try ControlConnection(socketPath: session.paths.controlSocket)
        } catch {
            throw PluginCommandFailed(message: error.message, status: .configuration)
        }
        if let connection {
            let request = ControlRequest.command(plugin: plugin, invocation: command, requestID: requestID)
            return try await finishExchange(
                try await exchange(request, on: connection, words: words), command: command, plugin: plugin,
                noun: noun)
        }
        return try await runHere(command, plugin: plugin, writes: writes)
    }

    func finishExchange(_ outcome: Exchange, command: CommandInvocation, plugin: String, noun: String?)
        async throws -> (reply: CommandReply, venue: Venue)
    {
        switch outcome {
        case .answered(var reply):
            reply.followUp = nil
            return (reply, .daemon)
        case .runHere(let note):
            var (reply, _) = try await runHere(command, plugin: plugin)
            if let note { reply.warnings.insert(note, at: 0) }
            return (reply, .hereInstead)
        case .handedBack:
            // The daemon did not take the front door's request: this process sends its own.
            return try await run(command, plugin: plugin, noun: noun, writes: true)
        }
    }

    /// What became of a request sent to the daemon.
    enum Exchange {
        /// The daemon ran it and answered.
        case answered(CommandReply)
        /// The daemon did not run it and will not: it is this process's to run; the note says why,
        /// when the command writes.
        case runHere(note: String?)
        /// The daemon handed the front door's command line back unrun (``ControlResponse/handOver``).
        case handedBack
    }

    /// The wording of the messages about one command.
    struct Words {
        /// `your moment`, or `what you asked`.
        let thing: String
        /// `saved`, or `done`.
        let done: String

        init(noun: String?) {
            thing = noun ?? "what you asked"
            done = noun == nil ? "done" : "saved"
        }
    }

    /// Sends the request and waits for the answer; when none comes in time, claims the request so
    /// that it runs here, or — when the daemon claimed it first — waits on for it.
    func exchange(_ request: ControlRequest, on connection: ControlConnection, words: Words) async throws
        -> Exchange
    {
        let wait = Self.answerWait
        let answer: ControlConnection.Answer
        do {
            try connection.send(request)
            answer = try connection.receive(within: wait)
        } catch let error as ControlError where error.requestWasRefused {
            throw PluginCommandFailed(message: error.message)
        } catch {
            answer = .closed
        }
        if case .answered(let response) = answer { return try reply(from: response) }
        guard request.requestID != nil else { return try await waitForReading(answer, on: connection) }
        return try await settle(answer, waited: wait, request, on: connection, words: words)
    }

    /// Goes on with a request that has not been answered within `waited` seconds: waits on for a
    /// daemon that runs, or claims the request to run it here.
    func settle(
        _ answer: ControlConnection.Answer, waited wait: Double, _ request: ControlRequest,
        on connection: ControlConnection, words: Words
    ) async throws -> Exchange {
        var answer = answer
        // A daemon that runs but is slow (busy, or the computer is) is waited for: only one that is
        // frozen or gone hands the command over before ``longestWait``.
        var waited = wait
        if answer == .notYet, !connection.peerIsStopped {
            answer = (try? connection.receive(within: Self.longestWait - wait)) ?? .closed
            if case .answered(let response) = answer { return try reply(from: response) }
            waited = Self.longestWait
        }
        let stopped = answer == .closed
        // Not answered in time, or the daemon went away: whoever claims the request id runs it.
        let claim: RequestClaim
        do {
            claim = try await session.database().claimRequest(
                request.requestID ?? "", by: RequestClaimant.cli, now: Date())
        } catch {
            // The database is held by the daemon, which has the request and runs it once it can.
            throw PluginCommandFailed(
                message: stopped
                    ? "hoorayd stopped without answering, and the database cannot be read to find out whether \(words.thing) was \(words.done) (\(error)). Check before trying again."
                    : "hoorayd did not answer in \(Int(waited)) s; \(words.thing) is queued and will be \(words.done) once.",
                status: stopped ? .failed : .busy, mayHaveRun: true)
        }
        switch claim {
        case .won:
            return .runHere(
                note: stopped
                    ? "hoorayd stopped without answering, so \(words.thing) was \(words.done) here instead."
                    : "hoorayd did not answer in \(Int(waited)) s, so \(words.thing) was \(words.done) here instead.")
        case .taken:
            // The daemon has it and is running it: its answer may still come.
            if !stopped, waited < Self.longestWait,
                case .answered(let response)? = try? connection.receive(within: Self.longestWait - waited)
            {
                return try reply(from: response)
            }
            throw PluginCommandFailed(
                message: stopped
                    ? "hoorayd stopped while it was running this, so \(words.thing) may or may not be \(words.done). Check before trying again."
                    : "hoorayd did not answer in \(Int(Self.longestWait)) s; it has \(words.thing) and it will be \(words.done) once.",
                status: stopped ? .failed : .busy, mayHaveRun: true)
        }
    }

    /// For a command that only reads, which has no request id to claim: a daemon that went away
    /// left it to this process; one that is slow is waited for up to ``longestWait`` in all.
    func waitForReading(_ answer: ControlConnection.Answer, on connection: ControlConnection) async throws
        -> Exchange
    {
        var answer = answer
        if answer != .closed {
            answer = (try? connection.receive(within: Self.longestWait - Self.answerWait)) ?? .closed
        }
        switch answer {
        case .answered(let response): return try reply(from: response)
        case .closed: return .runHere(note: nil)
        case .notYet: break
        }
        throw PluginCommandFailed(
            message:
                "hoorayd did not answer in \(Int(Self.longestWait)) s, so there is nothing to show yet; try again in a moment.",
            status: .busy, mayHaveRun: true)
    }

    /// The plugin's reply in an answer, or its failure.
    func reply(from response: ControlResponse) throws -> Exchange {
        if response.handOver == true, response.reply == nil, response.ok { return .handedBack }
        guard response.ok, let reply = response.reply else {
            throw PluginCommandFailed(
                message: response.message ?? "hoorayd could not run the command",
                status: response.busy == true ? .busy : .failed,
                invalidValue: response.ok ? nil : response.invalidValue, exitCode: response.exitCode)
        }
        return .answered(reply)
    }

    /// Runs the command in this process.
    func runHere(_ command: CommandInvocation, plugin: String, writes: Bool = true) async throws -> (
        reply: CommandReply, venue: Venue
    ) {
        let engine = try await host.engine(session: session, plugins: plugins, plugin: plugin, writes: writes)
        // Notices already waiting are not this command's: only its own are reported as waiting.
        host.waitingBefore = Set(((try? await engine.database.pendingNotices()) ?? []).map(\.id))
        do {
            var reply = try await engine.run(command, plugin: plugin)
            await engine.deliverPending(plugin: plugin)
            reply.warnings = host.configurationWarnings + reply.warnings
            return (reply, .here)
        } catch let error as PluginCommandError {
            throw PluginCommandFailed(
                message: error.message, invalidValue: error.invalidOption,
                exitCode: error.exitCode == 1 || error.invalidOption != nil ? nil : error.exitCode)
        } catch {
            throw PluginCommandFailed(message: "\(error)")
        }
    }

    /// When the command ran here and failed: stops the programs of plugins in other languages it
    /// started, which ``finish(after:)`` does after a command that succeeded.
    public func stopHostedPlugins() async {
        guard let (engine, _) = host.current else { return }
        await engine.stopExternalPlugins()
    }

    /// When the command ran here: waits for the plugin's background work, shows what it changed,
    /// runs the reply's follow-up, and lets go of the notification server. Does nothing when the
    /// daemon ran it.
    ///
    /// - Parameter reply: The command's reply, whose ``CommandReply/followUp`` runs now.
    /// - Returns: The follow-up's reply, and whether notices of the plugin still wait for a
    ///   notification server; `nil` when the daemon ran the command.
    public func finish(after reply: CommandReply? = nil) async -> (followUp: CommandReply?, undelivered: Bool)? {
        guard let (engine, channels) = host.current, let plugin = host.plugin else { return nil }
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
        await engine.stopExternalPlugins()
        await channels.shutdown()
        return (followUp, undelivered)
    }
}

/// A plugin command failed, or is not done yet; the message is for the user.
public struct PluginCommandFailed: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for a person.
    public let message: String
    /// The exit status it calls for: ``ExitStatus/failed``, ``ExitStatus/busy`` for a command
    /// queued in a daemon that has not answered, ``ExitStatus/configuration`` for a configuration
    /// the command cannot run without.
    public let status: ExitStatus
    /// Whether the command may have run, or may still run: then the message says so, and nothing
    /// may be added about nothing being saved.
    public let mayHaveRun: Bool
    /// The option or argument whose value the plugin refused, when that was the failure: a usage
    /// error, for which `hooray` shows the command's usage line and exits 64.
    public let invalidValue: String?
    /// The status a plugin in another language chose for its failed command, other than 1.
    public let exitCode: Int32?
    public var description: String { message }

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - message: What went wrong, for a person.
    ///   - status: The exit status it calls for.
    ///   - mayHaveRun: Whether the command may have run all the same.
    ///   - invalidValue: The option or argument whose value was refused, if that was the failure.
    ///   - exitCode: The status a plugin in another language chose, other than 1.
    public init(
        message: String, status: ExitStatus = .failed, mayHaveRun: Bool = false, invalidValue: String? = nil,
        exitCode: Int32? = nil
    ) {
        self.exitCode = exitCode
        self.message = message
        self.status = status
        self.mayHaveRun = mayHaveRun
        self.invalidValue = invalidValue
    }
}

/// The engine hosting a plugin in the CLI process, made on first use.
final class LocalHostBox: @unchecked Sendable {
    /// Loggers that say nothing below critical: a command's own messages are what the user reads.
    static let quietLogger: @Sendable (String) -> Logger = { label in
        var logger = Logger(label: label)
        logger.logLevel = .critical
        return logger
    }

    /// The configuration a command of `plugin` runs with: a mistake in a part it does not need must
    /// not stop it (those parts are listed as ignored); one in its own section does.
    ///
    /// - Parameter failure: Words after "has errors" in the refusal, such as ", so nothing was done".
    static func configuration(
        for plugin: String, session: CLISession, plugins: [any HoorayPlugin], failure: String = ""
    ) throws -> (DaemonConfiguration, ignored: [String]) {
        do {
            return try ConfigurationLoader(
                environment: session.environment, extraFile: session.configFile, plugins: plugins
            ).loadLeniently(for: plugin)
        } catch {
            throw PluginCommandFailed(
                message:
                    "the \(plugin) section of the configuration has errors\(failure):\n\(error)\nFix them (see `hooray config check`) and try again.",
                status: .configuration)
        }
    }

    // @unchecked: the fields are only touched while holding `lock`.
    private let lock = NSLock()
    private var made: (Engine, DeliveryChannels)?
    private var madeReadOnly: StorageError?
    private(set) var plugin: String?
    private var _waitingBefore: Set<NoticeID> = []
    private var _configurationWarnings: [String] = []

    /// One line per broken part of the configuration left out to run the command.
    var configurationWarnings: [String] { lock.withLock { _configurationWarnings } }

    /// The notices that waited for a notification server before the command ran.
    var waitingBefore: Set<NoticeID> {
        get { lock.withLock { _waitingBefore } }
        set { lock.withLock { _waitingBefore = newValue } }
    }

    var current: (Engine, DeliveryChannels)? { lock.withLock { made } }

    func engine(session: CLISession, plugins: [any HoorayPlugin], plugin: String, writes: Bool = true) async throws
        -> Engine
    {
        if let made = current {
            // Made to read a database that cannot be written: a command that writes is refused
            // here too, rather than run on a plugin that was never activated.
            if writes, let reason = lock.withLock({ madeReadOnly }) {
                throw PluginCommandFailed(message: reason.description)
            }
            return made.0
        }
        let database = try session.database()
        // A database that cannot be written: a command that writes says so before it starts, and
        // one that reads runs without activating the plugin, which would plan and save.
        if writes, let reason = database.readOnlyBecause { throw PluginCommandFailed(message: reason.description) }
        let (loaded, ignored) = try Self.configuration(
            for: plugin, session: session, plugins: plugins, failure: ", so nothing was done")
        let quiet = Self.quietLogger
        // With hoorayd stopped a milestone is a notification only: the command never waits for an
        // auxiliary channel such as the celebration window's app to start.
        let channels = DeliveryChannels.standard(
            icon: loaded.icon, serverTimeout: loaded.serverTimeout, logger: quiet("delivery")
        ).withoutAuxiliary
        let engine = Engine(
            database: database, channels: channels, settings: loaded.settings,
            timeZone: SystemTimeZone(environment: session.environment).current(), makeLogger: quiet)
        await engine.setPraiseProvider(loaded.commandPraiseProvider(paths: session.paths, logger: quiet("ai")))
        let setups = loaded.setups.filter { $0.plugin.name == plugin }
        if database.readOnlyBecause != nil {
            await engine.attachForReading(settings: loaded.settings, plugins: setups)
        } else {
            await engine.apply(settings: loaded.settings, plugins: setups)
        }
        lock.withLock {
            made = (engine, channels)
            madeReadOnly = database.readOnlyBecause
            self.plugin = plugin
            _configurationWarnings = ignored
        }
        return engine
    }
}
