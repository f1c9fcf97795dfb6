import Foundation
import HoorayKit

/// What to do with a rule that has come due, possibly long ago: the daemon was off, the computer
/// was asleep, or the clock jumped forward.
///
/// A rule never fires a burst of missed occurrences. At most one is shown, the latest, and only while
/// it is recent enough; the others are counted so that they can be summarised in one
/// "while you were away" notice. A one-off without a lateness limit of its own is never too old: it
/// is shown once, however late (see ``catchUpLimit(for:default:)``).
public struct CatchUpPlan: Sendable, Hashable {
    /// The occurrence to show now, or `nil` when every missed occurrence is too old to show.
    public var fire: Date?
    /// `true` when ``fire`` is shown late rather than on time.
    ///
    /// A wakeup within the on-time tolerance of the due instant (timer slack, a busy machine) is
    /// not a catch-up.
    public var isCatchUp: Bool
    /// How many missed occurrences are not shown.
    public var skipped: Int
    /// The first instant strictly after now at which the rule is due, or `nil` when it will never be
    /// due again (a one-off).
    public var nextDue: Date?
    /// The latest of the occurrences not shown, when any is not (``skipped`` > 0), for
    /// "while you were away".
    public var lastSkipped: Date?

    /// Creates a plan from its parts.
    ///
    /// - Parameters:
    ///   - fire: The occurrence to show now, if any.
    ///   - isCatchUp: Whether that occurrence is shown late.
    ///   - skipped: How many missed occurrences are not shown.
    ///   - nextDue: The next due instant after now, if any.
    ///   - lastSkipped: The latest occurrence not shown, if any.
    public init(fire: Date?, isCatchUp: Bool, skipped: Int, nextDue: Date?, lastSkipped: Date? = nil) {
        self.lastSkipped = lastSkipped
        self.fire = fire
        self.isCatchUp = isCatchUp
        self.skipped = skipped
        self.nextDue = nextDue
    }

    /// Plans what to do with a rule whose stored next due instant has been reached.
    ///
    /// The missed occurrences are the stored `nextDue` and every occurrence of `schedule` after it up
    /// to and including `now`. Exactly one of them is shown, the latest, when it is at most
    /// `catchUpWithin` old (always when `catchUpWithin` is `nil`), or at most `onTimeTolerance` old (an
    /// on-time wakeup always fires, even with a lateness limit of zero); every other one is counted in
    /// ``skipped``.
    ///
    /// The work does not grow with how long the rule was missed: the latest occurrence and the count
    /// come from calendar arithmetic, so a rule missed for thirty years plans as fast as one missed
    /// for a day.
    ///
    /// - Parameters:
    ///   - nextDue: The rule's stored next due instant. When it is still after `now`, nothing is due:
    ///     the plan fires nothing and keeps `nextDue`.
    ///   - schedule: The rule's schedule.
    ///   - now: The current instant.
    ///   - catchUpWithin: How late an occurrence may still be shown; `nil` for no limit. Use
    ///     ``catchUpLimit(for:default:)`` to pick it for a reminder.
    ///   - onTimeTolerance: How late a wakeup may be and still count as on time; 60 seconds unless given.
    /// - Returns: The plan.
    public static func plan(
        nextDue: Date, schedule: Schedule, now: Date, catchUpWithin: Duration?,
        onTimeTolerance: Duration = .seconds(60)
    ) -> CatchUpPlan {
        guard nextDue <= now else {
            return CatchUpPlan(fire: nil, isCatchUp: false, skipped: 0, nextDue: nextDue)
        }
        var latest = nextDue
        var missed = 1
        if let first = NextDue.nextOccurrence(after: nextDue, of: schedule), first.instant <= now,
            let last = NextDue.lastOccurrence(atOrBefore: now, of: schedule), first.date <= last.date
        {
            latest = last.instant
            missed += schedule.dueDateCount(from: first.date, through: last.date)
        }
        let lateness = now.timeIntervalSince(latest)
        let onTime = lateness <= onTimeTolerance.timeInterval
        let fires = onTime || catchUpWithin.map { lateness <= $0.timeInterval } ?? true
        let skipped = fires ? missed - 1 : missed
        // The latest skipped one is the one before the shown one, or the latest of all when none is shown.
        let lastSkipped: Date? =
            if skipped == 0 { nil } else if !fires { latest } else if skipped == 1 { nextDue } else {
                NextDue.lastOccurrence(atOrBefore: latest.addingTimeInterval(-1), of: schedule)?.instant ?? nextDue
            }
        return CatchUpPlan(
            fire: fires ? latest : nil,
            isCatchUp: fires && !onTime,
            skipped: skipped,
            nextDue: NextDue.next(after: now, for: schedule),
            lastSkipped: lastSkipped
        )
    }
}

extension CatchUpPlan {
    /// How late a missed occurrence of a reminder may still be shown.
    ///
    /// A reminder's own ``Reminder/catchUpWithin`` always applies. Without one, a repeating reminder
    /// uses the configured default — its next occurrence comes soon anyway — while a one-off has no
    /// limit: it would never come again, so it is shown once on return however long the computer was
    /// off (a 24-hour follow-up after a weekend with the lid closed still arrives).
    ///
    /// - Parameters:
    ///   - reminder: The reminder.
    ///   - default: The configured limit, `[scheduler] catch_up_within`.
    /// - Returns: The limit to pass to ``plan(nextDue:schedule:now:catchUpWithin:onTimeTolerance:)``,
    ///   or `nil` for none.
    public static func catchUpLimit(for reminder: Reminder, default: Duration) -> Duration? {
        if let own = reminder.catchUpWithin { return own }
        if case .once = reminder.schedule { return nil }
        return `default`
    }
}

extension Duration {
    /// The duration in seconds, as Foundation measures time between dates.
    var timeInterval: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
