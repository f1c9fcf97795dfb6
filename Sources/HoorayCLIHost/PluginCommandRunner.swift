import Foundation
import HoorayClient
import HoorayCommandLine
import HoorayDelivery
import HoorayEngine
import HoorayKit
import HoorayStorage
import Logging

/// Runs a plugin's command for the `hooray` CLI: in the running `hoorayd` when there is one,
/// otherwise in this process, with the same plugin code and the same kind of context.
///
/// While `hoorayd` runs it is the one writer of the database: a command that writes is kept in the
/// spool (``RequestSpool``) and sent to it, and is never run here while it answers — when it is
/// stopped or busy, the command waits in the spool for it, to run once (docs/protocol.md, "One
/// writer").
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
    }

    /// How long `hooray` waits for the answer of a frozen daemon (stopped by SIGSTOP or a debugger)
    /// before it says the command waits for it; a daemon that runs but is slow is waited for up to
    /// ``longestWait``.
    public static let answerWait: Double = 2
    /// How long it waits in all for a daemon that runs.
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
    /// A command that writes is kept in the spool under a new request id before it is sent, and
    /// `hoorayd` runs it only once it has taken it from there. When `hoorayd` does not answer —
    /// within ``answerWait`` seconds when it is frozen, ``longestWait`` when it is slow — the command
    /// stays in the spool for it, and this says so. A command that only reads is sent as it is, and
    /// runs here only when no daemon is left to answer.
    ///
    /// - Parameters:
    ///   - command: The command, parsed.
    ///   - plugin: The plugin's name.
    ///   - noun: What the command saves, such as `your moment` (``CommandSpec/noun``), for the
    ///     messages about a daemon that does not answer; `nil` says "what you asked".
    ///   - writes: Whether the command may change what is stored (``CommandSpec/writes(_:)``).
    /// - Throws: ``PluginCommandFailed`` with the plugin's or the daemon's message, or saying that
    ///   the command waits for a daemon that has not answered yet (status ``ExitStatus/busy``).
    public func run(_ command: CommandInvocation, plugin: String, noun: String? = nil, writes: Bool = true)
        async throws -> (reply: CommandReply, venue: Venue)
    {
        let words = Words(noun: noun)
        let requestID = writes ? UUID().uuidString.lowercased() : nil
        guard let connection = try connect() else { return try await runHere(command, plugin: plugin, writes: writes) }
        let request = ControlRequest.command(plugin: plugin, invocation: command, requestID: requestID)
        if let requestID {
            do {
                try spool.keep(try ControlCoding.encode(request), id: requestID)
            } catch {
                throw PluginCommandFailed(message: "\(error), so nothing was done.", status: .unavailable)
            }
        }
        switch try await exchange(request, on: connection, words: words) {
        case .answered(var reply):
            reply.followUp = nil
            return (reply, .daemon)
        case .runHere(let note):
            var (reply, _) = try await runHere(command, plugin: plugin, writes: writes)
            if let note { reply.warnings.insert(note, at: 0) }
            return (reply, .here)
        }
    }

    /// The spool of this session's data folder.
    var spool: RequestSpool { RequestSpool(paths: session.paths) }

    /// A connection to the running `hoorayd`; `nil` when none listens.
    func connect() throws -> ControlConnection? {
        do {
            return try ControlConnection(socketPath: session.paths.controlSocket)
        } catch {
            throw PluginCommandFailed(message: error.message, status: error.isBusy ? .busy : .configuration)
        }
    }

    /// What became of a request sent to the daemon.
    enum Exchange {
        /// The daemon ran it and answered.
        case answered(CommandReply)
        /// No daemon is left to run it, and it is this process's to run; the note says why, when
        /// the command writes.
        case runHere(note: String?)
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

    /// Sends the request and waits for the answer: ``answerWait`` for a daemon that is stopped,
    /// ``longestWait`` in all for one that runs.
    func exchange(_ request: ControlRequest, on connection: ControlConnection, words: Words) async throws
        -> Exchange
    {
        var answer: ControlConnection.Answer
        do {
            try connection.send(request)
            answer = try connection.receive(within: Self.answerWait)
        } catch let error as ControlError where error.requestWasRefused {
            _ = try? request.requestID.map { try spool.take($0) }
            throw PluginCommandFailed(message: error.message)
        } catch {
            answer = .closed
        }
        // A daemon that runs but is slow (busy, or the computer is) is waited for, and so is any
        // daemon by a command that reads, which nothing keeps for later.
        if answer == .notYet, !connection.peerIsStopped || request.requestID == nil {
            answer = (try? connection.receive(within: Self.longestWait - Self.answerWait)) ?? .closed
        }
        if case .answered(let response) = answer {
            // Answered, the request is done with: a daemon too busy to read it never took it, and
            // one of an earlier version ran it without taking it (by its own claim), so the file
            // is taken back here, never left for a later start to run again.
            if let id = request.requestID { _ = try? spool.take(id) }
            return try reply(from: response)
        }
        guard let id = request.requestID else { return try waitedForReading(answer) }
        let stopped = connection.peerIsStopped
        let waited = Int(stopped || answer == .closed ? Self.answerWait : Self.longestWait)
        if answer == .notYet {
            let does = words.done == "saved" ? "saves" : "does"
            // Still in the spool, it runs once when hoorayd goes on; taken, hoorayd is running it.
            throw PluginCommandFailed(
                message: spool.holds(id)
                    ? "hoorayd did not answer in \(waited) s\(stopped ? " (it is stopped)" : ""); \(words.thing) is kept, and hoorayd \(does) it once when it goes on."
                    : "hoorayd took \(words.thing) but has not answered in \(waited) s\(stopped ? " (it is stopped)" : ""); it \(does) it once. Check (`hooray status`) before trying again.",
                status: .busy, mayHaveRun: true)
        }
        // The daemon closed the connection without answering. A request it did not take is this
        // process's once no daemon listens any more; one it took may have run.
        let listening: Bool
        do {
            listening = try connect() != nil
        } catch {
            listening = true
        }
        if spool.holds(id), !listening, (try? spool.take(id)) == true {
            return .runHere(note: "hoorayd stopped without answering, so \(words.thing) was \(words.done) here.")
        }
        if spool.holds(id) {
            throw PluginCommandFailed(
                message:
                    "hoorayd closed the connection without answering; \(words.thing) is kept, and hoorayd \(words.done == "saved" ? "saves" : "does") it once it gets to it (after its next connection, or when it starts again).",
                status: .busy, mayHaveRun: true)
        }
        throw PluginCommandFailed(
            message:
                "hoorayd stopped while it was running this, so \(words.thing) may or may not be \(words.done). Check before trying again.",
            status: .failed, mayHaveRun: true)
    }

    /// For a command that only reads, which is kept nowhere: a daemon that went away left it to this
    /// process; one that has not answered in ``longestWait`` (or is stopped) leaves nothing to show.
    func waitedForReading(_ answer: ControlConnection.Answer) throws -> Exchange {
        if answer == .closed { return .runHere(note: nil) }
        throw PluginCommandFailed(
            message:
                "hoorayd did not answer in \(Int(Self.longestWait)) s, so there is nothing to show yet; try again in a moment.",
            status: .busy, mayHaveRun: true)
    }

    /// The plugin's reply in an answer, or its failure.
    func reply(from response: ControlResponse) throws -> Exchange {
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
