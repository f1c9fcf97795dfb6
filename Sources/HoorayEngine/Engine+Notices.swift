import Foundation
import HoorayDelivery
import HoorayExternalPlugins
import HoorayKit
import HoorayMessages
import HoorayScheduling
import HoorayStorage
import HoorayThreads
import Logging

// Notices: showing them, their buttons and the notification server.
extension Engine {
    // MARK: Notices

    func post(
        _ notice: Notice, plugin: String, storing values: [String: Data] = [:], inserting records: [StoredRecord] = []
    ) async throws -> NoticeID {
        let id = try await database.insertNotice(
            notice, plugin: plugin, now: clock.now, storing: values, inserting: records)
        deliveryContinuation.yield()
        changes.publish()
        return id
    }

    func update(_ id: NoticeID, to notice: Notice, plugin: String) async throws {
        try await database.updateNotice(id, plugin: plugin, to: notice)
        deliveryContinuation.yield()
        // What changed with it (AI praise arriving for a moment) shows in an open window at once.
        changes.publish()
    }

    func deliveryLoop() async {
        do {
            let interrupted = try await database.settleInterruptedDeliveries()
            if interrupted > 0 {
                logger.warning("\(interrupted) notice(s) were being shown when hoorayd stopped; see `hooray inbox`")
            }
        } catch {
            logger.error("cannot read the notice queue: \(error)")
        }
        await refreshServerStatus()
        for await _ in deliveryEvents {
            await deliverPending()
        }
    }

    /// Hands every pending notice to the sink, stopping at the first that cannot be delivered.
    ///
    /// A notice updated while it was being handed over is handed over again, so the update
    /// replaces it on screen before this returns.
    ///
    /// - Parameter plugin: Deliver only this plugin's notices; all by default.
    public func deliverPending(plugin: String? = nil) async {
        var again = true
        while again {
            again = await deliverPendingOnce(plugin: plugin)
        }
    }

    /// One pass over the queue.
    ///
    /// - Returns: Whether a notice went back to the queue because it was updated while being sent.
    func deliverPendingOnce(plugin: String?) async -> Bool {
        let pending: [StoredNotice]
        do {
            pending = try await database.pendingNotices().filter { plugin == nil || $0.plugin == plugin }
        } catch {
            logger.error("cannot read the notice queue: \(error)")
            scheduleRetry()
            return false
        }
        // A pass of the scheduler is firing reminders: it asks for delivery once it is done.
        if firing { return false }
        if server.info == nil, server != Self.serverNotChecked, !pending.isEmpty,
            await !serverIsBack(waiting: pending)
        {
            scheduleRetry()
            return false
        }
        let ready: [StoredNotice]
        do {
            // A command run while hoorayd is stopped shows only its own plugin's notices: it gathers
            // nothing into a digest it would not show.
            guard let calm = try await calmDelivery(pending, gathering: plugin == nil) else { return true }
            ready = calm
        } catch {
            logger.error("cannot hold or gather notices: \(error)")
            ready = pending
        }
        var updatedWhileSending = false
        for item in ready {
            do {
                guard let current = try await database.markSending(item.id) else { continue }
                let outcome = await channels.deliver(
                    current.notice, id: current.id, handles: current.handles, skipping: settings.channelsTurnedOff)
                switch outcome {
                case .delivered(let handles):
                    let done = try await database.markDelivered(
                        item.id, handles: handles, now: clock.now, revision: current.revision)
                    if !done { updatedWhileSending = true }
                    if server.info == nil { await refreshServerStatus() }
                    changes.publish()
                case .notShown(.unavailable(let reason), let handles):
                    try await database.markUndelivered(item.id, reason: reason, handles: handles)
                    if server != .unavailable(reason: reason) {
                        logger.warning("no notification server (\(reason)); notices wait in `hooray inbox`")
                        server = .unavailable(reason: reason)
                    }
                    scheduleRetry()
                    return false
                case .notShown(.timedOut, let handles):
                    let reason = "the notification server did not answer in time"
                    try await database.markUndelivered(item.id, reason: reason, handles: handles)
                    logger.warning("\(reason); notice \(item.id) waits in `hooray inbox`")
                    server = .timedOut
                    scheduleRetry()
                    return false
                }
            } catch {
                logger.error("cannot deliver notice \(item.id): \(error)")
                scheduleRetry()
                return false
            }
        }
        return updatedWhileSending
    }

    /// While no notification server was reachable: asks the bus whether one is there now, before
    /// any notice is handed over.
    ///
    /// Handing each waiting notice over only to hear "no server" again would write its attempt
    /// and reason to the database on every retry; asking first writes nothing while nothing changes.
    /// Notices that do not carry the current reason yet get it, so `hooray inbox` says why they wait.
    ///
    /// - Returns: Whether a server answered, so that the notices are handed over now.
    func serverIsBack(waiting pending: [StoredNotice]) async -> Bool {
        await refreshServerStatus()
        let reason: String
        switch server {
        case .available: return true
        case .unavailable(let why): reason = why
        case .timedOut: reason = "the notification server did not answer in time"
        }
        let unexplained = pending.filter { $0.lastError != reason }.map(\.id)
        if !unexplained.isEmpty {
            do {
                try await database.noteWaiting(unexplained, reason: reason)
            } catch {
                logger.error("cannot note why notices wait: \(error)")
            }
        }
        logger.debug("still no notification server (\(reason)); \(pending.count) notice(s) wait in `hooray inbox`")
        return false
    }

    /// Tries undelivered notices again after `retryEvery`; a timer runs only while something waits.
    func scheduleRetry() {
        retryTask?.cancel()
        let delay = settings.retryEvery
        retryTask = Task { [deliveryContinuation] in
            try? await TaskTimer.sleep(for: delay)
            if !Task.isCancelled { deliveryContinuation.yield() }
        }
    }

    func refreshServerStatus() async {
        server = await channels.status()
    }

    /// Handles what happened on a channel: a press goes to the plugin that posted the notice.
    func handle(_ event: ChannelEvent, from channel: String) async {
        switch event {
        case .serverAppeared:
            logger.info("a notification server appeared; delivering waiting notices")
            await refreshServerStatus()
            deliveryContinuation.yield()
        case .action(let id, let action):
            logger.debug("\(channel): button \(action) pressed on notice \(id)")
            let outcome = await press(action: action, on: id)
            if case .refused(let why) = outcome { logger.info("button \(action) on notice \(id) did nothing: \(why)") }
        case .reply(let id, let action, let text):
            logger.debug("\(channel): a reply typed into notice \(id), for \(action)")
            // A pasted line break or tab is a space in a one-line reply.
            let typed = String(
                String.UnicodeScalarView(text.unicodeScalars.map { ["\n", "\r", "\t"].contains($0) ? " " : $0 }))
            let outcome = await press(action: action, on: id, answer: typed)
            guard !outcome.didSomething else { return }
            logger.info("the reply to notice \(id) did nothing: \(outcome.message)")
            // The notification has closed with the reply: what became of it is said in a new one.
            let said = Notice(title: "Your reply was not saved", body: outcome.message, category: "hooray.reply")
            do {
                _ = try await post(said, plugin: Self.hostPlugin)
            } catch {
                logger.warning("could not say that the reply to notice \(id) was not saved: \(error)")
            }
        case .doNotDisturbChanged(let state):
            guard state != doNotDisturbState else { return }
            logger.info("do not disturb: \(state)")
            doNotDisturbState = state
            deliveryContinuation.yield()
            changes.publish()
        }
    }

    /// Presses a notice's button: hands the action to the plugin that posted the notice.
    ///
    /// - Parameters:
    ///   - action: The button's id.
    ///   - id: The notice.
    ///   - answer: The user's answer to the button's question, if any.
    /// - Returns: A message for the user when the press did nothing; `nil` when it did something.
    public func invoke(action: String, on id: NoticeID, answer: String? = nil) async -> String? {
        let outcome = await press(action: action, on: id, answer: answer)
        return outcome.didSomething ? nil : outcome.message
    }

    /// Presses a notice's button: the engine's snooze, or the plugin that posted the notice handles it.
    ///
    /// - Parameters:
    ///   - action: The button's id; `default` is the click on the notification itself.
    ///   - id: The notice.
    ///   - declaredOnly: Whether only the notice's own buttons may be pressed, as for `hooray act`;
    ///     otherwise a click on the notification (`default`) is handed to the plugin too.
    ///   - answer: The user's answer to the button's question (``NoticeAction/prompt``), handed to
    ///     the plugin; a button without a question refuses one and is not pressed.
    /// - Returns: What the press did, or why it did nothing.
    public func press(action: String, on id: NoticeID, declaredOnly: Bool = false, answer: String? = nil) async
        -> ActionOutcome
    {
        do {
            guard let stored = try await database.notice(id) else {
                return .refused("there is no notice \(id); `hooray inbox --all` lists the notices and their buttons")
            }
            guard (action == "default" && !declaredOnly) || stored.notice.actions.contains(where: { $0.id == action })
            else {
                let known = stored.notice.actions.map(\.id).joined(separator: ", ")
                return .refused(
                    "notice \(id) has no action \"\(action)\""
                        + (known.isEmpty ? "; it has no buttons" : "; its actions: \(known)"))
            }
            let button = stored.notice.actions.first { $0.id == action }
            if answer != nil, button?.prompt == nil {
                return .answerRefused(
                    "“\(button?.label ?? action)” asks no question, so it takes no answer; press it without --answer: "
                        + "hooray act \(id) \(action)")
            }
            if let answer, let problem = ButtonAnswer.problem(answer) {
                return .answerRefused("nothing was pressed: " + problem)
            }
            if action == "default", button == nil, let place = stored.notice.opens {
                // A click on the notification opens the app there; the plugin writes no code for it.
                guard channels.openApp(at: place) else {
                    return .refused("the desktop app cannot be asked to open \(place.rawValue) here")
                }
                logger.info("a click on notice \(id) opens \(place.rawValue) in the app")
                return .handled(button: "Open", plugin: stored.plugin)
            }
            if let button, button.answerOnly, answer == nil, !declaredOnly {
                // Nothing could be typed into the notification: the app takes the answer.
                guard let place = stored.notice.opens, channels.openApp(at: place) else {
                    return .refused("“\(button.label)” needs an answer: hooray act \(id) \(action) --answer TEXT")
                }
                return .handled(button: button.label, plugin: stored.plugin)
            }
            if stored.plugin == Self.hostPlugin {
                return .refused(
                    "notice \(id) is Hooray's own summary; the buttons of the notices it lists are in `hooray inbox`")
            }
            guard let plugin = plugins[stored.plugin] else {
                return .refused(
                    "the \(stored.plugin) plugin that posted notice \(id) is not enabled, so its buttons do nothing")
            }
            if let delay = Snooze.delay(ofAction: action) {
                // The engine's own button: the plugin writes no code for it.
                let key = try await snoozeKey(of: stored)
                if let pending = try await database.rule(
                    plugin: stored.plugin, reminderID: Snooze.reminderID(snoozing: key)),
                    let until = pending.nextDue, until > clock.now, pending.snoozedDueAt == stored.dueAt
                {
                    return .alreadySnoozed(until: until)
                }
                let until = clock.now.addingTimeInterval(delay.timeInterval)
                try await snooze(key, plugin: stored.plugin, until: until, shown: (stored.notice, dueAt: stored.dueAt))
                if stored.state == .digested { try await database.settleDigested(id) }
                return .snoozed(until: until)
            }
            let context = makeContext(for: stored.plugin)
            // A snoozed notice's buttons belong to the reminder it came from, and to the occurrence
            // that was snoozed: the notice keeps that occurrence's due instant.
            let reminderID = stored.reminderID.map { Snooze.snoozedID(of: $0) ?? $0 }
                .flatMap { $0.hasPrefix(Snooze.noticeKeyPrefix) ? nil : $0 }
            let invoked = InvokedAction(
                notice: id, actionID: action, reminderID: reminderID, dueAt: reminderID == nil ? nil : stored.dueAt,
                payload: stored.notice.payload, answer: answer)
            try await withTimeLimit(plugin is ExternalPlugin ? 60 : settings.pluginTimeLimit) {
                try await plugin.actionInvoked(invoked, context: context)
            }
            logger.info("\(stored.plugin): action \(action) on notice \(id)")
            if stored.state == .digested { try await database.settleDigested(id) }
            changes.publish()
            return .handled(button: button?.label ?? action, plugin: stored.plugin)
        } catch let declined as ActionDeclined {
            logger.info("action \(action) on notice \(id) did nothing: \(declined.reason)")
            return .declined(declined.reason)
        } catch {
            logger.error("action \(action) on notice \(id) failed: \(error)")
            return .failed("the button could not be handled: \(error)")
        }
    }

    /// The notification server as last seen.
    public var serverStatus: ServerStatus { server }
}
