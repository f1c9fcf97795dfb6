import Foundation
import HoorayCalendar
import HoorayClient
import HoorayCommandLine
import HoorayKit
import HoorayStorage
import Logging

// `BarSnapshot` is a wire type (HoorayClient's); what makes its parts from the clock is here.
extension BarSnapshot {
    /// How long before a reminder the bar says it is due soon (class `due-soon`).
    public static let dueSoonWindow: TimeInterval = 15 * 60

    /// The next instant after `now` at which the line changes by the clock alone: local midnight
    /// (today's counts start again, "tomorrow 08:30" becomes "08:30"), the start of the next
    /// reminder's due-soon window, just after the reminder itself, when quiet hours begin or end, and
    /// when a pause ends.
    ///
    /// - Parameters:
    ///   - now: The current instant.
    ///   - timeZone: The user's time zone.
    ///   - quiet: The quiet hours configured.
    package func nextChange(after now: Date, timeZone: TimeZone, quiet: QuietHours = .none) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let midnight =
            calendar.nextDate(
                after: now, matching: DateComponents(hour: 0, minute: 0, second: 0), matchingPolicy: .nextTime)
            ?? now.addingTimeInterval(86_400)
        var candidates = [midnight]
        if let due = next?.due {
            candidates += [due.addingTimeInterval(-Self.dueSoonWindow), due.addingTimeInterval(1)]
        }
        if let until = quietHours?.until { candidates.append(until) }
        if let until = paused?.until { candidates.append(until) }
        for window in quiet.windows {
            let start = DateComponents(hour: window.start.hour, minute: window.start.minute, second: 0)
            if let begins = calendar.nextDate(after: now, matching: start, matchingPolicy: .nextTime) {
                candidates.append(begins)
            }
        }
        return candidates.filter { $0 > now }.min() ?? midnight
    }

    /// `15:00` today, `tomorrow 08:30`, else `Wed 08:30`.
    public static func when(_ date: Date, now: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "HH:mm"
        let clock = formatter.string(from: date)
        if calendar.isDate(date, inSameDayAs: now) { return clock }
        if let tomorrow = calendar.date(byAdding: .day, value: 1, to: now), calendar.isDate(date, inSameDayAs: tomorrow)
        {
            return "tomorrow \(clock)"
        }
        formatter.dateFormat = "EEE HH:mm"
        return formatter.string(from: date)
    }
}

extension BarSnapshot.Next {
    /// Creates one with the parts that change by the clock as they are at `now`.
    public init(
        title: String, plugin: String, due: Date, waiting: String? = nil, now: Date, timeZone: TimeZone
    ) {
        self.init(
            title: title, plugin: plugin, due: due,
            when: BarSnapshot.when(due, now: now, timeZone: timeZone),
            dueSoon: waiting == nil && due.timeIntervalSince(now) <= BarSnapshot.dueSoonWindow, waiting: waiting)
    }
}

extension Engine {
    /// What a status bar shows now: the earliest reminder that will be shown (as `hooray next`
    /// lists it, quiet hours included), every active plugin's items, and whether do-not-disturb
    /// and quiet hours are on. A plugin that fails or takes too long is left out and logged.
    ///
    /// The notification server is asked whether it is in do-not-disturb, so that the bar does not
    /// wait for the next delivery to learn it; a change it finds is the engine's news too.
    public func barSnapshot() async -> BarSnapshot {
        await refreshDoNotDisturb()
        let now = clock.now
        let active = plugins
        let next = await nextShownReminder(now: now)
        var parts: [BarSnapshot.Part] = []
        for name in active.keys.sorted() {
            guard let plugin = active[name], let setup = lastSetups.first(where: { $0.plugin.name == name }) else {
                continue
            }
            let context = makeContext(for: name)
            do {
                let items = try await withTimeLimit(settings.pluginTimeLimit) {
                    try await plugin.barItems(context: context, erasedConfiguration: setup.configuration)
                }
                parts += items.map { BarSnapshot.Part(plugin: name, item: $0) }
            } catch {
                logger.error("plugin \(name) could not say what goes on the status bar: \(error)")
            }
        }
        let quiet = settings.quietHours.end(containing: now, in: timeZone).flatMap {
            $0 > now ? BarSnapshot.Quiet(until: $0, when: localTime($0)) : nil
        }
        let paused = await currentPause(at: now).map {
            BarSnapshot.Quiet(until: $0, when: BarSnapshot.when($0, now: now, timeZone: timeZone))
        }
        return BarSnapshot(
            next: next, items: parts, doNotDisturb: doNotDisturbState.isOn, quietHours: quiet, paused: paused)
    }

    /// How long the bar waits for the notification server to say whether it is in do-not-disturb.
    static let doNotDisturbTimeLimit = 2.0

    /// Asks the notification server whether it is in do-not-disturb, as delivery does; a server
    /// that does not answer in time leaves the state as it was.
    package func refreshDoNotDisturb() async {
        let channels = channels
        guard
            let state = try? await withTimeLimit(Self.doNotDisturbTimeLimit, { await channels.doNotDisturb() }),
            state != doNotDisturbState
        else { return }
        await handle(.doNotDisturbChanged(state), from: channels.all.first?.name ?? "")
    }

    /// When a status bar's line next changes by the clock alone
    /// (``BarSnapshot/nextChange(after:timeZone:quiet:)``).
    package func nextBarChange(after snapshot: BarSnapshot) -> Date {
        snapshot.nextChange(after: clock.now, timeZone: timeZone, quiet: settings.quietHours)
    }

    /// The earliest reminder that will be shown, at the time it will be shown: the first that
    /// `hooray next` lists, from the same plan (``UpcomingPlan``).
    func nextShownReminder(now: Date) async -> BarSnapshot.Next? {
        UpcomingPlan.firstShown(await upcoming(now: now), now: now, timeZone: timeZone)
    }

    /// What will be shown and when (``UpcomingPlan``), as this engine knows it: its plugins, whether
    /// their programs run, the quiet hours and the do-not-disturb state.
    func upcoming(now: Date) async -> [UpcomingItem] {
        let held = (try? await database.heldNotices()) ?? []
        let rules = (try? await database.rules()) ?? []
        let paused = await currentPause(at: now)
        return UpcomingPlan.items(
            rules: rules, waiting: held, isActive: { plugins[$0] != nil && !isHeld($0) },
            quietHours: settings.quietHours, doNotDisturb: doNotDisturbState.isOn, pausedUntil: paused, now: now,
            timeZone: timeZone)
    }
}
