import Foundation
import HoorayCalendar
import HoorayClient
import HoorayDelivery
import HoorayKit
import HoorayStorage

/// What will be shown, and when: the one plan that `hooray next` lists and a status bar's
/// "next reminder" is the first of, so that the two never disagree.
///
/// For each planned reminder it says when it will really be shown, or why not: an occurrence its
/// plugin holds back (paused, a habit done today, a check-in already made) is not shown; one due in
/// quiet hours or a pause is shown when they end; while do-not-disturb is on, every occurrence that is not
/// urgent waits until it ends. Notices already waiting (for quiet hours or do-not-disturb) are
/// listed beside the reminders.
public struct UpcomingItem: Sendable, Hashable {
    /// The plugin it belongs to.
    public var plugin: String
    /// The reminder's id, or `notice-N` for a waiting notice of no reminder.
    public var id: String
    /// Its title.
    public var title: String
    /// When it will be shown: its due time, or the end of the quiet hours it is due in; for a notice
    /// waiting for do-not-disturb to end, the time it came due.
    public var due: Date
    /// The reminder's schedule; `nil` for a waiting notice.
    public var schedule: Schedule?
    /// The reminder's own time zone, when it has one.
    public var zone: String?
    /// Why it will not be shown at all (`plugin disabled`, `paused`, `internal`); `nil` when it will be.
    public var notShownBecause: String?
    /// Why it waits past the time it is due, such as `quiet hours until 07:30` or `do not disturb is
    /// on`; `nil` when it is shown when due.
    public var heldBecause: String?
    /// Until when it waits; `nil` while not held, or held until do-not-disturb ends (an unknown time).
    public var heldUntil: Date?
    /// The waiting notice this is, when it is one rather than a reminder.
    public var notice: Int64?

    /// Whether it will be shown as a notification.
    public var shown: Bool { notShownBecause == nil }
}

/// The plan of ``UpcomingItem``s.
public enum UpcomingPlan {
    /// Everything planned, soonest shown first; those that will not be shown are included, marked.
    ///
    /// - Parameters:
    ///   - rules: The planned reminders, as the database holds them.
    ///   - waiting: Notices held back now (``HoorayDatabase/heldNotices()``).
    ///   - isActive: Whether a plugin's reminders are shown now (enabled, and its program running).
    ///   - quietHours: The quiet hours configured.
    ///   - doNotDisturb: Whether the notification server is in do-not-disturb.
    ///   - pausedUntil: The end of the pause of notifications (`hooray pause`) in force; `nil` for none.
    ///   - now: The current instant.
    ///   - timeZone: The user's time zone, where quiet hours and "HH:MM" are.
    package static func items(
        rules: [StoredRule], waiting: [StoredNotice], isActive: (String) -> Bool, quietHours: QuietHours,
        doNotDisturb: Bool, pausedUntil: Date? = nil, now: Date, timeZone: TimeZone
    ) -> [UpcomingItem] {
        let pausedUntil = pausedUntil.flatMap { $0 > now ? $0 : nil }
        var items: [UpcomingItem] = waiting.map { stored in
            UpcomingItem(
                plugin: stored.plugin, id: stored.reminderID ?? "notice-\(stored.id)", title: stored.notice.title,
                due: stored.heldUntil ?? stored.dueAt ?? stored.createdAt, schedule: nil, zone: nil,
                notShownBecause: nil, heldBecause: stored.heldBecause ?? "held back", heldUntil: stored.heldUntil,
                notice: stored.id.rawValue)
        }
        for rule in rules {
            guard let due = rule.nextDue else { continue }
            var item = UpcomingItem(
                plugin: rule.plugin, id: rule.reminder.id, title: rule.reminder.notice.title, due: due,
                schedule: rule.reminder.schedule,
                zone: rule.reminder.schedule.zone?.identifier)
            if !isActive(rule.plugin) {
                item.notShownBecause = "plugin disabled"
                items.append(item)
                continue
            }
            if let reason = rule.reminder.notShownReason(at: due) {
                item.notShownBecause = reason
            } else if rule.reminder.notice.urgency != .critical {
                if doNotDisturb {
                    item.heldBecause = "do not disturb is on"
                } else if let pausedUntil, due < pausedUntil {
                    // The quiet hours the pause ends in hold it on.
                    let end =
                        quietHours.end(containing: pausedUntil, in: timeZone).map { max($0, pausedUntil) }
                        ?? pausedUntil
                    item.due = end
                    item.heldUntil = end
                    item.heldBecause =
                        "notifications paused until \(BarSnapshot.when(pausedUntil, now: now, timeZone: timeZone))"
                } else if let end = quietHours.end(containing: due, in: timeZone), end > due {
                    item.due = end
                    item.heldUntil = end
                    item.heldBecause = "quiet hours until \(clock(end, in: timeZone))"
                }
            }
            items.append(item)
        }
        return items.enumerated().sorted { ($0.element.due, $0.offset) < ($1.element.due, $1.offset) }.map(\.element)
    }

    /// The first item that will be shown, as a status bar says it.
    public static func firstShown(_ items: [UpcomingItem], now: Date, timeZone: TimeZone) -> BarSnapshot.Next? {
        guard let first = items.first(where: \.shown) else { return nil }
        return BarSnapshot.Next(
            title: first.title, plugin: first.plugin, due: first.due, waiting: first.heldBecause, now: now,
            timeZone: timeZone)
    }

    /// `HH:MM` in a time zone.
    public static func clock(_ instant: Date, in zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: instant)
    }
}
