/// What a single day is for something with a streak, as a calendar shows it.
///
/// A day has exactly one state; ``StreakHistory/state(on:today:)`` documents which wins when
/// several apply.
public enum DayState: Sendable, Hashable, CaseIterable {
    /// It was done that day (due or not: a completion on a day that is not due is extra).
    case done
    /// The streak was reset that day.
    ///
    /// A reset day may also have been done, and then it starts the new run with one day; the
    /// state stays `reset` so a calendar shows the reset, and ``StreakHistory/isDone(on:)`` tells
    /// whether it was done as well.
    case reset
    /// It was paused that day: the day is neither due nor missed.
    case paused
    /// A due day that was not done: missed when it is in the past, still open when it is today.
    case open
    /// A day the rhythm does not ask for, or a day before the start.
    case notDue
    /// A day after today.
    case future
}

/// The current run of a streak: how many due days in a row were done.
///
/// See ``StreakHistory/streak(today:)`` for the rules.
public struct Streak: Sendable, Hashable {
    /// The number of due days done in the current run.
    public var days: Int
    /// The first counted day of the current run; `nil` when ``days`` is 0.
    public var runStart: LocalDate?
    /// The missed due day that ended the run, walking back from today; `nil` when the run reaches
    /// back to the start or to a reset without a miss.
    public var lastMissed: LocalDate?

    /// Creates a streak.
    ///
    /// - Parameters:
    ///   - days: The number of due days done in the current run.
    ///   - runStart: The first counted day of the run.
    ///   - lastMissed: The missed due day that ended the run.
    public init(days: Int, runStart: LocalDate? = nil, lastMissed: LocalDate? = nil) {
        self.days = days
        self.runStart = runStart
        self.lastMissed = lastMissed
    }
}

/// The streak and milestone engine: everything that happened to something done day by day — a
/// habit, a nightly swap, a recovery challenge — and the rules that turn it into a streak.
///
/// The history is kept as days (done, paused, reset), so the streak is computed, never stored, and
/// a change of rhythm re-reads the history under the new rules:
///
/// - The streak counts consecutive *due* days that were done (``DueDays``).
/// - Days that are not due, and paused days, neither count nor break it.
/// - A due day in the past that was not done ends the run.
/// - Today is open until it ends: due and not done yet, it neither counts nor breaks the run.
/// - A reset starts a new run on its day.
/// - Each milestone (``MilestoneSet``) is celebrated once per run (``complete(_:today:milestones:)``).
///
/// ```swift
/// var history = StreakHistory(due: .weekdays([.monday, .wednesday]), start: firstDay)
/// if let milestone = history.complete(today, today: today, milestones: .habits) {
///     // celebrate `milestone` days
/// }
/// let streak = history.streak(today: today).days
/// ```
public struct StreakHistory: Sendable, Hashable {
    /// On which days it is due.
    public var due: DueDays
    /// The first day it counts; the anchor of an every-N-days rhythm.
    public var start: LocalDate
    /// The days it was done.
    public var done: DaySet
    /// Pauses, in any order; they may overlap.
    public var pauses: [StreakPause]
    /// The days the streak was reset, in any order.
    public var resets: [LocalDate]
    /// Milestones already celebrated, by the first day of the run that reached them.
    public var celebrated: [CelebratedMilestone]

    /// Creates a history.
    ///
    /// - Parameters:
    ///   - due: On which days it is due; every day by default.
    ///   - start: The first day it counts.
    ///   - done: The days it was done.
    ///   - pauses: Its pauses.
    ///   - resets: The days the streak was reset.
    ///   - celebrated: Milestones already celebrated.
    public init(
        due: DueDays = .daily, start: LocalDate, done: DaySet = [], pauses: [StreakPause] = [],
        resets: [LocalDate] = [], celebrated: [CelebratedMilestone] = []
    ) {
        self.due = due
        self.start = start
        self.done = done
        self.pauses = pauses
        self.resets = resets
        self.celebrated = celebrated
    }

    // MARK: Days

    /// Whether it was done on `day`, whatever the day's state.
    ///
    /// A reset day, or a day that is not due, can be done too; ``state(on:today:)`` shows such a
    /// day as ``DayState/reset`` and ``DayState/done``, and this tells them apart.
    public func isDone(on day: LocalDate) -> Bool {
        done.contains(day)
    }

    /// Whether it is due on `day`: the rhythm asks for it, the day is on or after the start, and no
    /// pause contains it.
    public func isDue(on day: LocalDate) -> Bool {
        due.isDue(on: day, start: start) && !isPaused(on: day)
    }

    /// Whether a pause contains `day`.
    public func isPaused(on day: LocalDate) -> Bool {
        pauses.contains { $0.contains(day) }
    }

    /// What `day` is, seen from `today`.
    ///
    /// The first rule that applies wins:
    ///
    /// 1. ``DayState/future``: `day` is after `today`;
    /// 2. ``DayState/notDue``: `day` is before the start;
    /// 3. ``DayState/paused``: a pause contains `day`;
    /// 4. ``DayState/reset``: the streak was reset on `day` (use ``isDone(on:)`` to know whether it
    ///    was done too);
    /// 5. ``DayState/done``: it was done on `day`, even when it was not due;
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
        if resets.contains(day) { return .reset }
        if done.contains(day) { return .done }
        if due.isDue(on: day, start: start) { return .open }
        return .notDue
    }

    /// The latest due day before `day`, looking back at most 400 days; `nil` when there is none
    /// since the start.
    public func previousDueDay(before day: LocalDate) -> LocalDate? {
        var candidate = day.adding(days: -1)
        for _ in 0..<400 {
            if candidate < start { return nil }
            if isDue(on: candidate) { return candidate }
            candidate = candidate.adding(days: -1)
        }
        return nil
    }

    // MARK: The streak

    /// The current streak, walking back from `today`.
    ///
    /// These are the rules:
    ///
    /// - The streak counts consecutive *due* days that were done.
    /// - Days the rhythm does not ask for, and paused days, are skipped: they neither count nor
    ///   break the run. A completion on such a day is allowed but extra, and does not count.
    /// - A due day in the past that was not done ends the run; it is ``Streak/lastMissed``.
    /// - Today, when due and not done yet, is still open: it neither counts nor breaks the run.
    /// - A reset on a day D starts a new run on D: days before D never count, and D counts if it
    ///   was done that day. D not done is not a miss: the run simply starts after it. The latest
    ///   reset on or before today is the one that matters; resets after today are ignored.
    /// - Days before the start never count; completions after today are ignored.
    ///
    /// The walk stops at the first miss, the latest reset or the start, and skips a pause in one
    /// step, so its cost is the length of the run and its gaps, not of the whole history.
    ///
    /// - Parameter today: The current day in the user's time zone.
    /// - Returns: The streak; ``Streak/runStart`` is its earliest counted day.
    public func streak(today: LocalDate) -> Streak {
        walk(today: today).streak
    }

    // MARK: Milestones

    /// Marks `day` done and finds the milestone to celebrate for it, recording it so that the run
    /// never celebrates it again.
    ///
    /// After the day is added, the milestone is the highest one the streak (counted up to `today`)
    /// has reached, as long as `day` belongs to the current run and that milestone was not already
    /// celebrated in this run. So a streak that reaches 7 celebrates 7 once — not again after an
    /// undo and a redo — and filling in a forgotten day that lifts the streak past 7 still
    /// celebrates it. A day already done changes nothing.
    ///
    /// - Parameters:
    ///   - day: The day done, usually `today`.
    ///   - today: The current day in the user's time zone.
    ///   - milestones: The streak lengths to celebrate.
    /// - Returns: The milestone to celebrate now, or `nil`.
    @discardableResult
    public mutating func complete(_ day: LocalDate, today: LocalDate, milestones: MilestoneSet) -> Int? {
        guard done.insert(day) else { return nil }
        let streak = streak(today: today)
        guard let runStart = streak.runStart, day >= runStart,
            let milestone = milestones.highest(reachedBy: streak.days)
        else { return nil }
        let record = CelebratedMilestone(days: milestone, runStart: runStart)
        guard !celebrated.contains(record) else { return nil }
        celebrated.append(record)
        return milestone
    }

    /// The milestone reached when `day` was completed, if it is one to celebrate now.
    ///
    /// A milestone is reached by `day` when `day` is the latest counted day of the current run and
    /// the streak, counted up to `today`, is exactly that milestone: a streak of 7 reaches 7, a
    /// streak of 8 reaches nothing. A milestone already celebrated in this run (it is in
    /// ``celebrated`` with the run's start) is not reached again. Unlike
    /// ``complete(_:today:milestones:)``, this changes nothing.
    ///
    /// - Parameters:
    ///   - day: The day just completed, usually `today`.
    ///   - today: The current day in the user's time zone.
    ///   - milestones: The streak lengths to celebrate.
    /// - Returns: The milestone, or `nil` when there is nothing to celebrate.
    public func milestoneReached(by day: LocalDate, today: LocalDate, milestones: MilestoneSet) -> Int? {
        let (streak, latest) = walk(today: today)
        guard latest == day, let runStart = streak.runStart, milestones.contains(streak.days) else { return nil }
        guard !celebrated.contains(CelebratedMilestone(days: streak.days, runStart: runStart)) else { return nil }
        return streak.days
    }

    /// The badge for the current streak: the highest milestone it has reached, such as 30 for a
    /// "30 Day" badge; `nil` below the lowest.
    ///
    /// - Parameters:
    ///   - today: The current day in the user's time zone.
    ///   - milestones: The streak lengths that earn a badge.
    public func badge(today: LocalDate, milestones: MilestoneSet) -> Int? {
        milestones.highest(reachedBy: streak(today: today).days)
    }

    /// The streak and its latest counted day (the first one met walking back from `today`).
    private func walk(today: LocalDate) -> (streak: Streak, latest: LocalDate?) {
        let latestReset = resets.lazy.filter { $0 <= today }.max()
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
            if due.isDue(on: date, start: start) {
                if done.contains(date) {
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

    init(_ pauses: [StreakPause]) {
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
