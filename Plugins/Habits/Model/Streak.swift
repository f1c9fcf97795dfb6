import HoorayKit

/// What a single day is for a habit, as the calendar shows it and the list reads today.
///
/// A day has exactly one state; ``Habit/state(on:today:)`` documents which wins when several apply.
public enum DayState: Sendable, Hashable, CaseIterable {
    /// The habit was done that day (due or not: a completion on a not-due day is extra).
    case done
    /// The user reset the streak that day.
    ///
    /// A reset day may also have been done, and then it starts the new run with one day; the
    /// state stays `reset` so the calendar shows the reflection, and ``Habit/isDone(on:)`` tells
    /// whether the habit was done as well.
    case reset
    /// The habit was paused that day: the day is neither due nor missed.
    case paused
    /// A due day that was not done: missed when it is in the past, still open when it is today.
    case open
    /// A day the schedule does not ask for, or a day before the habit's start.
    case notDue
    /// A day after today.
    case future
}

/// The current run of a habit: how many due days in a row were done.
///
/// See ``Habit/streak(today:)`` for the rules.
public struct Streak: Sendable, Hashable {
    /// The number of due days done in the current run.
    public var days: Int
    /// The first counted day of the current run; `nil` when ``days`` is 0.
    public var runStart: LocalDate?
    /// The missed due day that ended the run, walking back from today; `nil` when the run reaches
    /// back to the habit's start or to a reset without a miss.
    public var lastMissed: LocalDate?

    /// Creates a streak.
    public init(days: Int, runStart: LocalDate? = nil, lastMissed: LocalDate? = nil) {
        self.days = days
        self.runStart = runStart
        self.lastMissed = lastMissed
    }
}

extension Habit {
    /// The streak lengths celebrated by default: 7, 30, 100 and 365 days.
    public static let defaultMilestones = [7, 30, 100, 365]

    /// Whether the habit was done on `day`, whatever the day's state.
    ///
    /// A reset day, or a day the schedule does not ask for, can be done too; ``state(on:today:)``
    /// shows such a day as ``DayState/reset`` and ``DayState/done``, and this tells them apart.
    public func isDone(on day: LocalDate) -> Bool {
        completions.contains(day)
    }

    /// Whether the habit is due on `day`: the schedule asks for it, the day is on or after the
    /// start, and no pause contains it.
    public func isDue(on day: LocalDate) -> Bool {
        schedule.isDue(on: day, start: start) && !isPaused(on: day)
    }

    /// Whether a pause contains `day`.
    public func isPaused(on day: LocalDate) -> Bool {
        pauses.contains { $0.contains(day) }
    }

    /// What `day` is for this habit, seen from `today`.
    ///
    /// The first rule that applies wins:
    ///
    /// 1. ``DayState/future``: `day` is after `today`;
    /// 2. ``DayState/notDue``: `day` is before the habit's start;
    /// 3. ``DayState/paused``: a pause contains `day`;
    /// 4. ``DayState/reset``: the user reset the streak on `day` (use ``isDone(on:)`` to know
    ///    whether it was done too);
    /// 5. ``DayState/done``: the habit was done on `day`, even when it was not due;
    /// 6. ``DayState/open``: `day` is due and not done;
    /// 7. ``DayState/notDue`` otherwise.
    ///
    /// - Parameters:
    ///   - day: The day to describe.
    ///   - today: The current day in the user's time zone.
    public func state(on day: LocalDate, today: LocalDate) -> DayState {
        if day > today { return .future }
        if day < start { return .notDue }
        if isPaused(on: day) { return .paused }
        if resets.contains(where: { $0.day == day }) { return .reset }
        if completions.contains(day) { return .done }
        if schedule.isDue(on: day, start: start) { return .open }
        return .notDue
    }

    /// The current streak, walking back from `today`.
    ///
    /// These are the product's rules:
    ///
    /// - The streak counts consecutive *due* days that were done.
    /// - Days the schedule does not ask for, and paused days, are skipped: they neither count nor
    ///   break the run. A completion on such a day is allowed but extra, and does not count.
    /// - A due day in the past that was not done ends the run; it is ``Streak/lastMissed``.
    /// - Today, when due and not done yet, is still open: it neither counts nor breaks the run.
    /// - A reset on a day D starts a new run on D: days before D never count, and D counts if the
    ///   habit was done that day. D not done is not a miss: the run simply starts after it. The
    ///   latest reset on or before today is the one that matters; resets after today are ignored.
    /// - Days before the habit's start never count; completions after today are ignored.
    ///
    /// The walk stops at the first miss, the latest reset or the start, and skips a pause in one
    /// step, so its cost is the length of the run and its gaps, not of the whole history.
    ///
    /// - Parameter today: The current day in the user's time zone.
    /// - Returns: The streak; ``Streak/runStart`` is its earliest counted day.
    public func streak(today: LocalDate) -> Streak {
        walk(today: today).streak
    }

    /// The milestone reached when `day` was completed, if it is one to celebrate now.
    ///
    /// A milestone is reached by `day` when `day` is the latest counted day of the current run and
    /// the streak, counted up to `today`, is exactly that milestone: a streak of 7 reaches 7, a
    /// streak of 8 reaches nothing. A milestone already celebrated in this run (it is in
    /// ``celebrated`` with the run's start) is not reached again, so undoing and redoing a
    /// completion celebrates once. Record the celebration with ``Streak/runStart`` of
    /// ``streak(today:)``.
    ///
    /// - Parameters:
    ///   - day: The day just completed, usually `today`.
    ///   - today: The current day in the user's time zone.
    ///   - milestones: The streak lengths to celebrate, such as ``defaultMilestones``.
    /// - Returns: The milestone, or `nil` when there is nothing to celebrate.
    public func milestoneReached(
        by day: LocalDate, today: LocalDate, milestones: [Int] = Habit.defaultMilestones
    ) -> Int? {
        let (streak, latest) = walk(today: today)
        guard latest == day, let runStart = streak.runStart, milestones.contains(streak.days) else { return nil }
        guard !celebrated.contains(CelebratedMilestone(days: streak.days, runStart: runStart)) else { return nil }
        return streak.days
    }

    /// The badge for the current streak: the highest milestone it has reached, such as 30 for a
    /// "30 Day" badge.
    ///
    /// - Parameters:
    ///   - today: The current day in the user's time zone.
    ///   - milestones: The streak lengths that earn a badge, such as ``defaultMilestones``.
    /// - Returns: The highest milestone at most the streak's length; `nil` below the lowest.
    public func badge(today: LocalDate, milestones: [Int] = Habit.defaultMilestones) -> Int? {
        Habit.badge(forStreak: streak(today: today).days, milestones: milestones)
    }

    /// The highest milestone at most `days`, shared with the list so it walks the history once.
    static func badge(forStreak days: Int, milestones: [Int]) -> Int? {
        milestones.filter { $0 > 0 && $0 <= days }.max()
    }

    /// The streak and its latest counted day (the first one met walking back from `today`).
    private func walk(today: LocalDate) -> (streak: Streak, latest: LocalDate?) {
        let latestReset = resets.lazy.map(\.day).filter { $0 <= today }.max()
        let floor = max(start, latestReset ?? start).daysSinceEpoch
        let paused = PausedDays(pauses)
        var result = Streak(days: 0)
        var latest: LocalDate?
        var day = today.daysSinceEpoch
        while day >= floor {
            if let pauseStart = paused.start(ofPauseContaining: day) {
                day = pauseStart - 1
                continue
            }
            let date = LocalDate(daysSinceEpoch: day)
            if schedule.isDue(on: date, start: start) {
                if completions.contains(date) {
                    result.days += 1
                    result.runStart = date
                    if latest == nil { latest = date }
                } else if date != today && date != latestReset {
                    result.lastMissed = date
                    break
                }
            }
            day -= 1
        }
        return (result, latest)
    }
}

/// Paused days as disjoint intervals of day numbers, sorted so a day is looked up by binary search.
///
/// Overlapping and touching pauses are merged, so one query skips a whole paused stretch.
private struct PausedDays {
    /// Sorted by first day; an open-ended pause ends at `Int.max`.
    private var intervals: [(from: Int, through: Int)] = []

    init(_ pauses: [HabitPause]) {
        let sorted = pauses.map { (from: $0.from.daysSinceEpoch, through: $0.through?.daysSinceEpoch ?? Int.max) }
            .filter { $0.from <= $0.through }
            .sorted { $0.from < $1.from }
        for pause in sorted {
            if let last = intervals.last, pause.from <= last.through || pause.from - 1 == last.through {
                intervals[intervals.count - 1].through = max(last.through, pause.through)
            } else {
                intervals.append(pause)
            }
        }
    }

    /// The first day of the merged pause containing `day`, if any.
    ///
    /// A binary search: pauses are few, but the walk may ask once per day.
    func start(ofPauseContaining day: Int) -> Int? {
        var low = 0
        var high = intervals.count
        while low < high {
            let middle = (low + high) / 2
            if intervals[middle].from <= day { low = middle + 1 } else { high = middle }
        }
        guard low > 0, day <= intervals[low - 1].through else { return nil }
        return intervals[low - 1].from
    }
}
