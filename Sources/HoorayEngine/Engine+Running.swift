import Foundation
import HoorayDelivery
import HoorayExternalPlugins
import HoorayKit
import HoorayMessages
import HoorayScheduling
import HoorayStorage
import HoorayThreads
import Logging

// How the engine runs: its scheduler loop, reminders coming due or caught up, a changed time zone.
extension Engine {
    // MARK: Running

    /// Runs the scheduler and delivery loops until the task is cancelled.
    public func run(alarm: WallClockAlarm) async {
        startChannels()
        let forward = Task { [loopContinuation] in
            for await event in alarm.stream { loopContinuation.yield(.alarm(event)) }
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.schedulerLoop(alarm: alarm) }
            group.addTask { await self.deliveryLoop() }
            await group.waitForAll()
        }
        forward.cancel()
        retryTask?.cancel()
        background.cancelAll()
    }

    /// Starts the delivery channels: what happens on each (a button pressed) reaches the engine.
    public func startChannels() {
        // Once: a channel's events are one stream, read by one task.
        guard !channelsStarted else { return }
        channelsStarted = true
        channels.start { [weak self] channel, event in
            guard let self else { return }
            Task { await self.handle(event, from: channel) }
        }
    }

    /// Asks the loops to finish; `run` returns soon after.
    public func stop() {
        loopContinuation.finish()
        deliveryContinuation.finish()
    }

    func schedulerLoop(alarm: WallClockAlarm) async {
        var events = loopEvents.makeAsyncIterator()
        var caughtUp = false
        while !Task.isCancelled {
            let action = await processDue()
            // Besides the next reminder: the end of quiet hours, when held notices go out, and the
            // daily pruning of delivery records.
            let calmDeadlines = [deliveryWake, nextPruning].compactMap { $0 }
            switch action {
            case .sleep(let until):
                alarm.set(deadline: ([until] + calmDeadlines).min())
            case .idle, .fire:
                alarm.set(deadline: calmDeadlines.min())
            }
            if !caughtUp {
                // What came due while hoorayd was stopped has now been shown, skipped or queued.
                logCaughtUp(action)
                caughtUp = true
            }
            guard let event = await events.next() else { return }
            switch event {
            case .alarm(.clockChanged):
                logger.notice("the wall clock was set; checking what is due")
            case .alarm(.timeZoneChanged):
                await timeZoneMayHaveChanged()
            case .alarm(.deadline), .changed:
                break
            }
        }
    }

    /// Says, once at the start, that everything due while hoorayd was not running has been handled,
    /// and what is due next: from here on, a reminder is shown only when it comes due.
    func logCaughtUp(_ action: SchedulerAction) {
        guard case .sleep(let until) = action else {
            logger.info("caught up; no reminders are planned")
            return
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "EEE d MMM HH:mm"
        logger.info("caught up; \(state.count) reminder(s) planned, the next at \(formatter.string(from: until))")
    }

    /// Handles every rule due at the clock's current time, and says what to wait for next.
    ///
    /// - Returns: `.sleep(until:)` the next due instant, or `.idle` when nothing will be due.
    @discardableResult
    public func processDue() async -> SchedulerAction {
        await housekeeping()
        defer { deliveryContinuation.yield() }
        while true {
            let now = clock.now
            let action = state.nextAction(now: now)
            guard case .fire(let keys) = action else {
                await tellMissed(now: now)
                return action
            }
            // Built-in plugins' reminders first, delivered together once all of them are queued (so
            // that a burst becomes one digest): a plugin in another language with many reminders due
            // at once never holds them up. Its notices come later anyway, when it posts them.
            let external = Set(plugins.filter { $0.value is ExternalPlugin }.keys)
            firing = true
            await fireTogether(keys.filter { !external.contains($0.plugin) }, now: now)
            firing = false
            deliveryContinuation.yield()
            for key in keys where external.contains(key.plugin) {
                await fire(key, now: now)
            }
            // Whatever came due, shown or not, moved its reminder on: a status bar shows the next one.
            changes.publish()
        }
    }

    /// Fires reminders due together with three database round trips in all (their rules read at
    /// once, their occurrences looked up at once, recorded in one transaction) rather than four each,
    /// so that a burst of reminders reaches the screen without waiting on the database. Each comes out
    /// as ``fire(_:now:)`` would make it; a rule in an uncommon state (a one-off past its limit, a
    /// catch-up that shows nothing, a read that failed) goes through ``fire(_:now:)`` itself.
    func fireTogether(_ keys: [RuleKey], now: Date) async {
        guard keys.count > 1 else {
            for key in keys { await fire(key, now: now) }
            return
        }
        let rules: [StoredRule?]
        do {
            rules = try await database.rules(keys.map { ($0.plugin, $0.reminder) })
        } catch {
            logger.error("cannot read the due reminders at once: \(error); reading them one by one")
            for key in keys { await fire(key, now: now) }
            return
        }
        struct Firing {
            var key: RuleKey
            var rule: StoredRule
            var plugin: any HoorayPlugin
            var plan: CatchUpPlan
            var dueAt: Date
        }
        var firings: [Firing] = []
        var oneByOne: [RuleKey] = []
        for (key, rule) in zip(keys, rules) {
            guard let plugin = plugins[key.plugin], !isHeld(key.plugin), let rule, let due = rule.nextDue else {
                // Left out of the plan while still stored, maybe: the plugin's rules are read again.
                state.remove(key)
                plannedAsStored.remove(key.plugin)
                continue
            }
            let reminder = rule.reminder
            let plan = catchUpPlan(for: reminder, nextDue: due, now: now)
            guard plan.skipped == 0, let dueAt = plan.fire else {
                oneByOne.append(key)
                continue
            }
            firings.append(Firing(key: key, rule: rule, plugin: plugin, plan: plan, dueAt: dueAt))
        }
        for key in oneByOne { await fire(key, now: now) }
        guard !firings.isEmpty else { return }
        let handled: [Bool]
        do {
            handled = try await database.hasOccurrences(firings.map { ($0.key.plugin, $0.key.reminder, $0.dueAt) })
        } catch {
            logger.error("cannot look up the due reminders at once: \(error); handling them one by one")
            for firing in firings { await fire(firing.key, now: now) }
            return
        }
        var occurrences: [HandledOccurrence] = []
        var recorded: [Firing] = []
        for (firing, isHandled) in zip(firings, handled) {
            guard !isHandled else {
                // Shown before a restart or a clock rewind: only the rule moves on, as fire(_:now:) does.
                await fire(firing.key, now: now)
                continue
            }
            let reminder = firing.rule.reminder
            let notice: Notice?
            do {
                notice = try await noticeCarryingPayload(
                    DueReminder(reminder: reminder, dueAt: firing.dueAt, isCatchUp: firing.plan.isCatchUp),
                    rule: firing.rule, plugin: firing.plugin)
            } catch {
                logger.error(
                    "cannot handle \(firing.key.plugin)/\(firing.key.reminder): \(error); retrying in 1 minute")
                state.upsert(firing.key, nextDue: now.addingTimeInterval(60))
                continue
            }
            occurrences.append(
                HandledOccurrence(
                    plugin: firing.key.plugin, reminderID: firing.key.reminder, dueAt: firing.dueAt,
                    snoozedDueAt: firing.rule.snoozedDueAt, notice: notice,
                    outcome: notice == nil ? .suppressed : .shown,
                    nextDue: firing.plan.nextDue))
            recorded.append(firing)
        }
        guard !occurrences.isEmpty else { return }
        do {
            let ids = try await database.recordOccurrences(occurrences, now: now)
            for (firing, id) in zip(recorded, ids) {
                if let id { logger.info("\(firing.key.plugin)/\(firing.key.reminder) is due; queued notice \(id)") }
                state.upsert(firing.key, nextDue: firing.plan.nextDue)
            }
            changes.publish()
        } catch {
            // Nothing of the pass was written: each is tried again in a minute, as one alone would be.
            logger.error("cannot record \(occurrences.count) due reminder(s): \(error); retrying in 1 minute")
            for firing in recorded { state.upsert(firing.key, nextDue: now.addingTimeInterval(60)) }
        }
    }

    package func fire(_ key: RuleKey, now: Date) async {
        do {
            guard let plugin = plugins[key.plugin], !isHeld(key.plugin),
                let rule = try await database.rule(plugin: key.plugin, reminderID: key.reminder),
                let due = rule.nextDue
            else {
                state.remove(key)
                plannedAsStored.remove(key.plugin)
                return
            }
            let reminder = rule.reminder
            let plan = catchUpPlan(for: reminder, nextDue: due, now: now)
            if plan.skipped > 0 {
                logger.notice(
                    "\(key.plugin)/\(key.reminder): skipped \(plan.skipped) missed occurrence(s), too late to show")
                // A one-off is noted below, when it is not shown at all. A plugin in another language
                // is told of its own reminders' skips, and its program may have been stopped rather
                // than the computer: those are not "while you were away".
                let isOneOff: Bool = if case .once = reminder.schedule { true } else { false }
                if reminder.notShownReason(at: due) == nil, !(plugin is ExternalPlugin), !isOneOff {
                    missedThisPass.append(
                        MissedReminder(
                            plugin: key.plugin, reminderID: key.reminder, title: reminder.notice.title,
                            count: plan.skipped, firstDueAt: due, lastDueAt: plan.lastSkipped ?? due, recordedAt: now))
                }
            }
            if let dueAt = plan.fire,
                try await !database.hasOccurrence(plugin: key.plugin, reminderID: key.reminder, dueAt: dueAt)
            {
                let notice = try await noticeCarryingPayload(
                    DueReminder(reminder: reminder, dueAt: dueAt, isCatchUp: plan.isCatchUp), rule: rule,
                    plugin: plugin)
                let id = try await database.recordOccurrence(
                    plugin: key.plugin, reminderID: key.reminder, dueAt: dueAt, snoozedDueAt: rule.snoozedDueAt,
                    notice: notice, outcome: notice == nil ? .suppressed : .shown, nextDue: plan.nextDue, now: now)
                if let id {
                    // Delivery is told once the whole pass is done, so that notices due together can
                    // be gathered into one digest.
                    logger.info("\(key.plugin)/\(key.reminder) is due; queued notice \(id)")
                    changes.publish()
                }
            } else if plan.fire == nil, case .once = reminder.schedule,
                try await !database.hasOccurrence(plugin: key.plugin, reminderID: key.reminder, dueAt: due)
            {
                // A one-off later than its own limit would vanish without a word; its plugin is told,
                // then the skip is recorded so that a restart does not tell it again.
                await tellSkipped(SkippedReminder(reminder: reminder, dueAt: due), plugin: plugin)
                if reminder.notShownReason(at: due) == nil, !(plugin is ExternalPlugin) {
                    missedThisPass.append(
                        MissedReminder(
                            plugin: key.plugin, reminderID: key.reminder, title: reminder.notice.title, count: 1,
                            firstDueAt: due, lastDueAt: due, recordedAt: now))
                }
                _ = try await database.recordOccurrence(
                    plugin: key.plugin, reminderID: key.reminder, dueAt: due, notice: nil, outcome: .skipped,
                    nextDue: plan.nextDue, now: now)
            } else {
                try await database.setNextDue(plugin: key.plugin, reminderID: key.reminder, nextDue: plan.nextDue)
            }
            state.upsert(key, nextDue: plan.nextDue)
        } catch {
            // Keep the loop alive; try again in a minute rather than spinning on a persistent error.
            logger.error("cannot handle \(key.plugin)/\(key.reminder): \(error); retrying in 1 minute")
            state.upsert(key, nextDue: now.addingTimeInterval(60))
        }
    }

    /// What to do with a rule due at `nextDue`, by the catch-up rule of its reminder.
    func catchUpPlan(for reminder: Reminder, nextDue: Date, now: Date) -> CatchUpPlan {
        CatchUpPlan.plan(
            nextDue: nextDue, schedule: reminder.schedule, now: now,
            catchUpWithin: CatchUpPlan.catchUpLimit(for: reminder, default: settings.catchUpWithin))
    }

    /// The notice for a due rule, carrying the reminder's payload when the plugin gave none, so that
    /// a button pressed on it can tell which of the plugin's things it is about.
    func noticeCarryingPayload(_ due: DueReminder, rule: StoredRule, plugin: any HoorayPlugin) async throws -> Notice? {
        try await noticeForDue(due, rule: rule, plugin: plugin).map { shown in
            var notice = shown
            if notice.payload == nil { notice.payload = due.reminder.payload }
            return notice
        }
    }

    func tellSkipped(_ skipped: SkippedReminder, plugin: any HoorayPlugin) async {
        let context = makeContext(for: plugin.name)
        do {
            try await withTimeLimit(settings.pluginTimeLimit) {
                try await plugin.reminderSkipped(skipped, context: context)
            }
        } catch {
            logger.error("plugin \(plugin.name) failed on skipped \(skipped.reminder.id): \(error)")
        }
    }

    /// The notice for a due rule: the plugin's answer, or for a snooze, the snoozed notice — which
    /// the plugin is asked about again when it came from one of its reminders, as the occurrence
    /// that was snoozed.
    func noticeForDue(_ due: DueReminder, rule: StoredRule, plugin: any HoorayPlugin) async throws -> Notice? {
        guard let snoozed = Snooze.snoozedID(of: rule.reminder.id) else {
            return await noticeForDue(due, plugin: plugin)
        }
        guard try await database.rule(plugin: rule.plugin, reminderID: snoozed) != nil else {
            return due.reminder.notice
        }
        var original = due
        original.reminder.id = snoozed
        // A snooze from before snoozes kept their occurrence knows only its own end.
        original.dueAt = rule.snoozedDueAt ?? due.dueAt
        original.snoozedUntil = due.dueAt
        return await noticeForDue(original, plugin: plugin)
    }

    func noticeForDue(_ due: DueReminder, plugin: any HoorayPlugin) async -> Notice? {
        let context = makeContext(for: plugin.name)
        do {
            return try await withTimeLimit(settings.pluginTimeLimit) {
                try await plugin.reminderDue(due, context: context)
            }
        } catch {
            logger.error("plugin \(plugin.name) failed on \(due.reminder.id): \(error); showing the reminder as it is")
            return due.reminder.notice
        }
    }

    /// Re-plans reminders that follow the system's time zone when it changed.
    ///
    /// Plugins are activated again with the new zone in their context, so a reminder "at 08:30"
    /// without a zone of its own moves to 08:30 in the new zone.
    public func timeZoneMayHaveChanged() async {
        guard let systemTimeZone, !systemTimeZone.isPinnedByEnvironment else { return }
        let zone = systemTimeZone.current()
        guard zone.identifier != timeZone.identifier else { return }
        logger.notice("the time zone changed from \(timeZone.identifier) to \(zone.identifier); re-planning reminders")
        timeZone = zone
        await apply(settings: settings, plugins: lastSetups)
    }
}
