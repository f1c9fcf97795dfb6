import Foundation
import HoorayCommandLine
import HoorayKit
import HoorayText
import HoorayThreads
import Logging

#if canImport(Glibc)
    import Glibc
#endif

// The calls between a plugin and the host, both ways, and their pace.
extension PluginSupervisor {
    // MARK: Calls to the plugin

    package enum CallPhase { case any, stopping }

    /// Calls the plugin and waits for its answer, at most `timeout` seconds.
    package func call(_ method: String, _ params: [String: JSONValue], timeout: Double? = nil, during: CallPhase = .any)
        async throws -> JSONValue
    {
        let process: PluginProcess
        switch phase {
        case .starting(let running) where method == "initialize": process = running
        case .running(let running): process = running
        case .stopping(let running) where during == .stopping: process = running
        default: throw PluginStopped(plugin: manifest.name)
        }
        // A caller that gave up must not have its call sent after all.
        try Task.checkCancellation()
        let id = RPCID.number(nextID)
        nextID += 1
        let run = generation
        let limit = timeout ?? limits.callTimeout
        let timer = Task { [weak self] in
            try await TaskTimer.sleep(for: .seconds(limit))
            await self?.timedOut(id)
        }
        callBegins(id, process: process)
        defer {
            timer.cancel()
            // After the answer is handed on: the caller does not wait for the look at /proc. A call
            // that timed out is looked at when the plugin answers it after all.
            if !sandbox.lateCalls.contains(id) { Task { self.callEnds(id, process: process, run: run) } }
        }
        return try await withCheckedThrowingContinuation { continuation in
            pending[id] = continuation
            if !process.send(RPCMessage.request(id: id, method: method, params: params).frame) {
                fail("is not reading its standard input (8 MiB of messages wait)", run: run)
            }
        }
    }

    func timedOut(_ id: RPCID) {
        guard let waiter = pending.removeValue(forKey: id) else { return }
        callTimedOut(id)
        waiter.resume(throwing: CallTimedOut())
    }

    package func notify(_ method: String, _ params: [String: JSONValue]) {
        send(.notification(method: method, params: params))
    }

    package func send(_ message: RPCMessage) {
        switch phase {
        case .starting(let process), .running(let process), .stopping(let process):
            if !process.send(message.frame) {
                fail("is not reading its standard input (8 MiB of messages wait)", run: generation)
            }
        default:
            break
        }
    }

    /// Tells the plugin that one of its reminders came due; its notice is shown already.
    package func reminderDue(_ due: DueReminder) {
        guard isRunning else { return }
        notify(
            "reminderDue",
            [
                "reminder": .string(due.reminder.id), "due_at": WireInstant.json(due.dueAt),
                "payload": due.reminder.payload ?? .null, "catch_up": .bool(due.isCatchUp),
                "now": WireInstant.json(context?.now ?? Date()),
            ])
    }

    /// Tells the plugin that a one-off reminder came due too long ago to be shown (it was not running,
    /// or the computer was off, beyond the reminder's catch-up limit).
    func reminderSkipped(_ skipped: SkippedReminder) {
        guard isRunning else { return }
        notify(
            "reminderSkipped",
            [
                "reminder": .string(skipped.reminder.id), "due_at": WireInstant.json(skipped.dueAt),
                "payload": skipped.reminder.payload ?? .null, "now": WireInstant.json(context?.now ?? Date()),
            ])
    }

    /// Hands a pressed button to the plugin.
    func actionInvoked(_ action: InvokedAction) async throws {
        guard await waitUntilReady(timeout: limits.readyForCall) else { throw unavailable() }
        var params: [String: JSONValue] = [
            "notice": .number(Double(action.notice.rawValue)), "action": .string(action.actionID),
            "reminder": action.reminderID.map { .string($0) } ?? .null, "due_at": WireInstant.json(action.dueAt),
            "payload": action.payload ?? .null, "now": WireInstant.json(context?.now ?? Date()),
        ]
        // Only when the user answered the button's question: plugins that ask none never see it.
        if let answer = action.answer { params["answer"] = .string(answer) }
        let answer = try await callForUser("actionInvoked", params)
        if case .string(let message)? = answer["message"] { throw ActionDeclined(message) }
    }

    /// Runs a command of the plugin.
    func command(_ invocation: CommandInvocation) async throws -> CommandReply {
        guard await waitUntilReady(timeout: limits.readyForCall) else { throw unavailable() }
        let answer = try await callForUser("command", try commandParams(invocation))
        guard case .object(let reply) = answer else {
            throw PluginCommandError(
                "the \(manifest.name) plugin answered the command with something that is not an object")
        }
        let text = reply["text"]?.stringValue ?? ""
        var warnings: [String] = []
        if case .array(let lines)? = reply["warnings"] { warnings = lines.compactMap(\.stringValue) }
        var code = 0
        if case .number(let number)? = reply["exit_code"], number.rounded() == number, (0...255).contains(number) {
            code = Int(number)
        }
        guard code == 0 else {
            throw PluginCommandError(
                text.isEmpty ? "the \(manifest.name) plugin's command ended with status \(code)" : text,
                exitCode: Int32(code))
        }
        return CommandReply(text: text, json: invocation.json ? (reply["json"] ?? .null) : nil, warnings: warnings)
    }

    /// The `params` of a `command` request.
    package func commandParams(_ invocation: CommandInvocation) throws -> [String: JSONValue] {
        var params: [String: JSONValue] = [:]
        if case .object(let members) = try JSONValue(encoding: invocation) { params = members }
        params["now"] = WireInstant.json(context?.now ?? Date())
        return params
    }

    /// A call a person waits for: its failures are sentences for them.
    func callForUser(_ method: String, _ params: [String: JSONValue]) async throws -> JSONValue {
        do {
            return try await call(method, params)
        } catch is CallTimedOut {
            let message = "did not answer \(method) within \(Self.seconds(limits.callTimeout))"
            logger.warning("\(message)")
            // A plugin that keeps running but is too slow shows it in `hooray plugins`, not only in the log;
            // one stopped meanwhile (its CPU time ran out) keeps that reason.
            if lastErrorRun != generation { lastError = message }
            throw PluginCommandError(
                "the \(manifest.name) plugin \(message); nothing else was changed. Try again, or see `hooray plugins`.")
        } catch let error as RPCError {
            throw PluginCommandError("the \(manifest.name) plugin could not do it: \(error.message)")
        } catch is PluginStopped {
            throw PluginCommandError(
                "the \(manifest.name) plugin stopped while it was working on this\(lastError.map { " (it \($0))" } ?? ""); `hooray plugins` says more"
            )
        }
    }

    static func seconds(_ value: Double) -> String {
        value.rounded() == value ? "\(Int(value)) s" : "\(value) s"
    }

    func unavailable() -> PluginCommandError {
        let name = manifest.name
        switch phase {
        case .gaveUp:
            return PluginCommandError(
                "the \(name) plugin has stopped after exiting \(limits.crashLimit) times\(lastError.map { " (last: it \($0))" } ?? ""); `hooray plugins restart \(name)` starts it again"
            )
        default:
            return PluginCommandError(
                "the \(name) plugin is not running\(lastError.map { " (it \($0))" } ?? ""); `hooray plugins` says more")
        }
    }

    // MARK: Calls from the plugin

    /// The plugin's messages read and not yet answered: queued, or being served.
    package var messagesInHand: Int { incomingCount + callsBeingServed }

    func serve(_ message: RPCMessage, run: Int) async {
        // Calls queued by a run that ended (killed, turned off, removed) are not performed.
        guard run == generation, hasProcess, !deliberateStop else { return }
        incomingCount -= 1
        callsServed += 1
        callsBeingServed += 1
        defer { callsBeingServed -= 1 }
        await pace()
        guard run == generation, hasProcess, !deliberateStop else { return }
        switch message {
        case .request(let id, let method, let params):
            let result: RPCMessage
            do {
                result = .result(id: id, try await perform(method, params))
            } catch let error as RPCError {
                noteRefusal(of: method, error)
                result = .error(id: id, error)
            } catch {
                result = .error(id: id, .internalError("\(error)"))
            }
            guard run == generation else { return }
            send(result)
        case .notification(let method, let params):
            do {
                _ = try await perform(method, params)
            } catch {
                if let error = error as? RPCError { noteRefusal(of: method, error) }
                logger.notice("its \(TerminalText.safe(String(method.prefix(40)))) notification did nothing: \(error)")
            }
        default:
            break
        }
    }
}

extension PluginSupervisor {
    /// The codes of the refusals that are the plugin's own doing: a call that is no call, an unknown
    /// method, wrong `params` (such as naming another plugin), a missing permission, a limit reached.
    static let pluginFaults: Set<Int> = [-32600, -32601, -32602, -32001, -32002]

    /// Keeps a refusal of the plugin's own doing as its last error, so that `hooray plugins` says why
    /// a plugin that runs on gets less than it asked for (its 1001st reminder, another plugin's data).
    ///
    /// It is not the reason of this run: when the plugin exits afterwards, the exit is the news.
    func noteRefusal(of method: String, _ error: RPCError) {
        guard Self.pluginFaults.contains(error.code) else { return }
        let name = TerminalText.safe(String(method.prefix(40)))
        var message = error.message
        if message.hasPrefix(name + ": ") { message.removeFirst(name.count + 2) }
        lastError = "called \(name) and was refused: \(message)"
        refusedCalls.count += 1
        if refusedCalls.first == nil, let lastError { refusedCalls.first = lastError }
    }
}

extension PluginSupervisor {
    /// The most calls of a plugin served in a second; more wait their turn, so that a plugin that
    /// calls in a loop costs the host a bounded share of a core.
    static let callsPerSecond = 500

    /// Waits, when the plugin has had its calls for this second, until the next second begins.
    func pace() async {
        let now = ContinuousClock.now
        if now - callWindow.start >= .seconds(1) {
            callWindow = (now, 0)
        }
        callWindow.calls += 1
        guard callWindow.calls > Self.callsPerSecond else { return }
        callsPausedUntil = callWindow.start + .seconds(1)
        try? await TaskTimer.sleep(for: ContinuousClock.now.duration(to: callWindow.start + .seconds(1)))
        callWindow = (ContinuousClock.now, 1)
    }
}
