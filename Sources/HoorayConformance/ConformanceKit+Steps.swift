import Foundation
import HoorayCommandLine
import HoorayEngine
import HoorayExternalPlugins
import HoorayKit
import HoorayScheduling
import HoorayStorage
import HoorayThreads
import Logging

#if canImport(Glibc)
    import Glibc
#endif

// The steps of `hooray plugin test`, one function each.
extension ConformanceRun {
    // MARK: Steps

    func handshake() async -> Verdict {
        await supervisor.prepareForConformance(options)
        let started = ContinuousClock.now
        await engine.apply(
            settings: Self.settings(options),
            plugins: [PluginSetup(plugin: plugin, enabled: true, configuration: ExternalPluginConfiguration())])
        let ready = await supervisor.waitUntilReady(timeout: options.initializeTimeout + 2)
        let took = started.duration(to: .now)
        guard ready else { return .stopped("during the handshake") }
        let version = await supervisor.status().apiVersion.map(String.init) ?? "?"
        return .passed("answered initialize in \(Self.seconds(took)) with plugin API \(version)")
    }

    func command(_ spec: CommandSpec, json: Bool) async -> Verdict {
        let invocation = Self.placeholderInvocation(spec, json: json)
        let given = Self.describe(invocation)
        let rulesBefore = await dueRules().count
        let answer: JSONValue
        let took: Duration
        do {
            let started = ContinuousClock.now
            answer = try await supervisor.call("command", try await supervisor.commandParams(invocation))
            took = started.duration(to: .now)
            // An answer that came after the limit is late, even when it reached this process before the
            // limit's timer did (a loaded machine runs both late).
            if took > .seconds(options.callTimeout) { throw CallTimedOut() }
        } catch is CallTimedOut {
            return .failed(
                "did not answer within \(Self.seconds(options.callTimeout))\(given); answer every `command` request in time, with a non-zero exit_code and a text saying why when it cannot do it"
            )
        } catch let error as RPCError {
            return .failed(
                "answered with error \(error.code) “\(Self.short(error.message))”\(given); answer a command with {\"text\": …, \"exit_code\": …} — a non-zero exit_code and a text saying why when it fails"
            )
        } catch {
            return .stopped("while it ran the command\(given)")
        }
        guard case .object(let reply) = answer else {
            return .failed(
                "answered \(Self.short(answer.text()))\(given), which is not an object; answer {\"text\": \"…\", \"exit_code\": 0}"
            )
        }
        guard case .string(let text)? = reply["text"] else {
            return .failed("the answer has no `text` string\(given); answer {\"text\": \"…\", \"exit_code\": 0}")
        }
        guard case .number(let code)? = reply["exit_code"], code.rounded() == code, (0...255).contains(code) else {
            let said = reply["exit_code"].map { " (it says \(Self.short($0.text())))" } ?? ""
            return .failed(
                "the answer has no `exit_code` from 0 to 255\(said)\(given); answer {\"text\": \"…\", \"exit_code\": 0}, or a non-zero exit_code when the command fails"
            )
        }
        let exitCode = Int(code)
        if exitCode != 0 {
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                return .failed(
                    "ended with exit_code \(exitCode) and an empty text\(given); when a command fails, its text says why"
                )
            }
            await answered(invocation, writes: spec.writes, rulesBefore: rulesBefore)
            return .passed(
                "exit \(exitCode) in \(Self.seconds(took))\(given), saying “\(Self.short(text))” (a failure the placeholder values may well call for)"
            )
        }
        if json, reply["json"] == nil || reply["json"] == .null {
            return .failed(
                "the answer has no `json`, though plugin.toml says json = true; answer {\"text\": \"\", \"json\": …, \"exit_code\": 0}"
            )
        }
        await answered(invocation, writes: spec.writes, rulesBefore: rulesBefore)
        return .passed("exit 0 in \(Self.seconds(took))\(given)")
    }

    /// Notes a command that was answered, and whether it scheduled a reminder.
    func answered(_ invocation: CommandInvocation, writes: Bool, rulesBefore: Int) async {
        answeredCommands.append((invocation, writes))
        if schedulingCommand == nil, await dueRules().count > rulesBefore { schedulingCommand = invocation }
    }

    /// The plugin's reminders that will come due, soonest first.
    func dueRules() async -> [StoredRule] {
        ((try? await database.rules(plugin: manifest.name)) ?? [])
            .filter { Snooze.snoozedID(of: $0.reminder.id) == nil && $0.nextDue != nil }
            .sorted { ($0.nextDue ?? .distantFuture) < ($1.nextDue ?? .distantFuture) }
    }

    func dueReminder() async -> Verdict {
        var rules = await dueRules()
        var again = ""
        if rules.isEmpty, let invocation = schedulingCommand {
            // A later command (such as a `stop`) cancelled what an earlier one scheduled.
            do {
                _ = try await supervisor.call("command", try await supervisor.commandParams(invocation))
            } catch is CallTimedOut, is RPCError {
                // Whether it schedules again is all that matters here.
            } catch {
                return .stopped("when `command \(invocation.command)` ran again to schedule a reminder")
            }
            rules = await dueRules()
            again = " (scheduled by running `\(invocation.command)` again)"
        }
        let what: String
        if let soonest = rules.first, let due = soonest.nextDue {
            // As the scheduler does when the instant comes: the notice is queued, the plugin is told.
            await engine.fire(RuleKey(plugin: manifest.name, reminder: soonest.reminder.id), now: due)
            what = "its reminder “\(Self.short(soonest.reminder.id))”\(again) came due"
        } else {
            let now = Date()
            await supervisor.reminderDue(
                DueReminder(
                    reminder: Reminder(
                        id: "hooray-test-reminder", schedule: .once(at: now),
                        notice: Notice(title: "A reminder from hooray plugin test")),
                    dueAt: now))
            what = "it scheduled no reminder, so a made-up one came due"
        }
        return await stillAnswers(after: "reminderDue", passed: "\(what); it still answers")
    }

    func action() async -> Verdict {
        guard let (stored, button) = await noticeWithButton() else {
            return .skipped(
                "skipped: the plugin posted no notice with a button of its own, and none of its reminders has one")
        }
        let started = ContinuousClock.now
        let outcome = await engine.press(action: button.id, on: stored.id)
        let took = started.duration(to: .now)
        let pressed = "pressed “\(Self.short(button.label))” on “\(Self.short(stored.notice.title))”"
        switch outcome {
        case .handled:
            return .passed("\(pressed); answered in \(Self.seconds(took))")
        case .declined(let reason):
            return .passed(
                "\(pressed); it answered in \(Self.seconds(took)) that it does nothing now: “\(Self.short(reason))”")
        case .failed(let message):
            if await supervisor.hasStopped { return .stopped("when \(pressed)") }
            let hint =
                message.contains("did not answer")
                ? "; answer actionInvoked within \(Self.seconds(options.callTimeout)) with {} (or {\"message\": \"…\"} when the button does nothing now)"
                : "; answer actionInvoked with {} (or {\"message\": \"…\"} when the button does nothing now)"
            return .failed("\(pressed): \(message)\(hint)")
        case .refused(let message), .answerRefused(let message):
            return .failed("\(pressed): the host refused it: \(message)")
        case .snoozed, .alreadySnoozed:
            return .failed("\(pressed): the host snoozed the notice instead of asking the plugin")
        }
    }

    /// The first notice of the plugin with a button of its own (not the host's snooze): one it
    /// posted, or else one of its reminders', which is made to come due to show it.
    func noticeWithButton() async -> (StoredNotice, NoticeAction)? {
        func own(_ notice: Notice) -> NoticeAction? {
            notice.actions.first { Snooze.delay(ofAction: $0.id) == nil }
        }
        func posted() async -> (StoredNotice, NoticeAction)? {
            let notices = ((try? await database.inbox(includeDelivered: true, limit: 500)) ?? [])
                .filter { $0.plugin == manifest.name }.sorted { $0.id.rawValue < $1.id.rawValue }
            for stored in notices {
                if let button = own(stored.notice) { return (stored, button) }
            }
            return nil
        }
        if let found = await posted() { return found }
        let rules = (try? await database.rules(plugin: manifest.name)) ?? []
        guard let rule = rules.first(where: { own($0.reminder.notice) != nil && $0.nextDue != nil }),
            let due = rule.nextDue
        else { return nil }
        await engine.fire(RuleKey(plugin: manifest.name, reminder: rule.reminder.id), now: due)
        return await posted()
    }

    func unknownMethod() async -> Verdict {
        do {
            let answer = try await supervisor.call(Self.unknownMethod, [:], timeout: options.callTimeout)
            answersUnknownMethods = true
            return .failed(
                "answered a request for an unknown method with the result \(Self.short(answer.text())); answer it with error -32601 (no such method)"
            )
        } catch is CallTimedOut {
            answersUnknownMethods = false
            return .failed(
                "did not answer a request for an unknown method within \(Self.seconds(options.callTimeout)); answer every request, with error -32601 when it does not know the method"
            )
        } catch let error as RPCError {
            answersUnknownMethods = true
            guard error.code == -32601 else {
                return .failed(
                    "answered a request for an unknown method with error \(error.code); the code for an unknown method is -32601"
                )
            }
            return .passed("answered a request for an unknown method with error -32601")
        } catch {
            return .stopped("on a request for an unknown method", fix: "answer it with error -32601 instead")
        }
    }

    func wrongParams() async -> Verdict {
        let name = manifest.commands.first?.name ?? "hooray-test"
        var params = (try? await supervisor.commandParams(CommandInvocation(command: name))) ?? [:]
        params["values"] = .string("not an object")
        do {
            let answer = try await supervisor.call("command", params, timeout: options.callTimeout)
            if case .number(let code)? = answer["exit_code"], code != 0 {
                return .passed(
                    "answered a `command` whose `values` is not an object with exit_code \(Self.short(answer["exit_code"]?.text() ?? ""))"
                )
            }
            return .failed(
                "answered a `command` whose `values` is not an object as a success; answer it with error -32602 (wrong params) or a non-zero exit_code"
            )
        } catch is CallTimedOut {
            return .failed(
                "did not answer a `command` whose `values` is not an object within \(Self.seconds(options.callTimeout)); answer it with error -32602 (wrong params)"
            )
        } catch let error as RPCError {
            return .passed("answered a `command` whose `values` is not an object with error \(error.code)")
        } catch {
            return .stopped(
                "on a `command` whose `values` is not an object",
                fix: "answer it with error -32602 (wrong params) instead")
        }
    }

    func shutdown() async -> Verdict {
        guard let observed = await supervisor.observeShutdown(options) else {
            return .stopped("before shutdown")
        }
        var problems: [String] = []
        var said: String
        switch observed.answer {
        case .answered(let took):
            said = "answered shutdown in \(Self.seconds(took))"
        case .timedOut:
            said = "did not answer shutdown within \(Self.seconds(options.shutdownTimeout))"
            problems.append("answer shutdown with {}")
        case .error(let error):
            said = "answered shutdown with error \(error.code) “\(Self.short(error.message))”"
            problems.append("answer shutdown with {}")
        case .stopped:
            said = "exited before it answered shutdown"
            problems.append("answer shutdown with {} before it exits")
        }
        if let exited = observed.exitedAfter {
            let status = observed.status.map { $0 == 0 ? "" : " with status \($0)" } ?? ""
            if case .stopped = observed.answer {
                said += status
            } else {
                said += "; exited\(status) \(Self.seconds(exited)) after its standard input closed"
            }
        } else {
            said +=
                "; it had not exited \(Self.seconds(options.exitTimeout)) after its standard input closed, so it was killed"
            problems.append("exit when its standard input closes")
        }
        guard problems.isEmpty else {
            let lines = await stderrLines()
            return .failed(said + "; " + problems.joined(separator: ", and ") + lines)
        }
        return .passed(said)
    }

    /// Lets the plugin finish what it started before it is stopped — such as scheduling its
    /// reminders, which on a busy machine takes a while: waits until it has made no call for two
    /// seconds while it waited for input, none of them waiting its turn, at most 30 s.
    func waitForCallsToSettle() async {
        var last = await supervisor.callsServed
        var quiet = 0
        for _ in 0..<150 {
            try? await TaskTimer.sleep(for: .milliseconds(200))
            let now = await supervisor.callsServed
            // Calls waiting their turn (the host serves 500 a second) or read and not yet answered
            // are not quiet; nor is a plugin that is running or waiting for the processor, which a
            // loaded computer may keep off it for seconds.
            let paused = await supervisor.callsPausedUntil.map { ContinuousClock.now < $0 } ?? false
            let inHand = await supervisor.messagesInHand > 0
            let busy = await supervisor.status().pid.map(Self.isRunnable) ?? false
            quiet = now == last && !paused && !inHand && !busy ? quiet + 1 : 0
            last = now
            if quiet >= 10 { return }
        }
    }

    /// Whether a process, or one it started (bubblewrap starts the plugin), is running or waiting
    /// for the processor (state `R` in `/proc/PID/stat`).
    static func isRunnable(_ pid: Int32) -> Bool {
        var seen: Set<Int32> = []
        var left = [pid]
        while let next = left.popLast() {
            guard seen.insert(next).inserted else { continue }
            let stat = String(
                decoding: FileManager.default.contents(atPath: "/proc/\(next)/stat") ?? Data(), as: UTF8.self)
            // The state follows the command's name, in parentheses that the name itself may hold.
            if let close = stat.lastIndex(of: ")"), stat[close...].dropFirst().trimmingPrefix(" ").first == "R" {
                return true
            }
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(next)/task")) ?? []
            for task in tasks {
                let children = FileManager.default.contents(atPath: "/proc/\(next)/task/\(task)/children") ?? Data()
                left += String(decoding: children, as: UTF8.self).split(separator: " ").compactMap { Int32($0) }
            }
        }
        return false
    }

    /// Whether the host refused any of the plugin's calls as its own fault, over the whole run.
    func hostCalls() async -> Verdict {
        let refused = await supervisor.refusedCalls
        guard refused.count > 0, let first = refused.first else {
            return .passed("the host refused none of its calls")
        }
        let how = refused.count == 1 ? "1 of its calls was" : "\(refused.count) of its calls were"
        return .failed(
            "\(how) refused as its own fault; the first: it \(first); make only calls the protocol allows, within its limits and permissions"
        )
    }
}
