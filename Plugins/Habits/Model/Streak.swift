import HoorayCalendar
import HoorayKit

extension Habit {
    /// The streak lengths celebrated by default: 7, 30, 100 and 365 days.
    public static let defaultMilestones = MilestoneSet.habits.days

    /// The habit's history for the streak engine: its schedule, start, completions, pauses, resets
    /// and celebrated milestones.
    public var history: StreakHistory {
        StreakHistory(
            due: schedule, start: start, done: completions, pauses: pauses, resets: resets.map(\.day),
            celebrated: celebrated)
    }

    /// Whether the habit was done on `day`, whatever the day's state (see ``StreakHistory/isDone(on:)``).
    public func isDone(on day: LocalDate) -> Bool {
        completions.contains(day)
    }

    /// Whether the habit is due on `day`: the schedule asks for it, the day is on or after the
    /// start, and no pause contains it.
    public func isDue(on day: LocalDate) -> Bool {
        history.isDue(on: day)
    }

    /// Whether a pause contains `day`.
    public func isPaused(on day: LocalDate) -> Bool {
        pauses.contains { $0.contains(day) }
    }

    /// What `day` is for this habit, seen from `today`; see ``StreakHistory/state(on:today:)``.
    public func state(on day: LocalDate, today: LocalDate) -> DayState {
        history.state(on: day, today: today)
    }

    /// The current streak, walking back from `today`; see ``StreakHistory/streak(today:)`` for the rules.
    public func streak(today: LocalDate) -> Streak {
        history.streak(today: today)
    }

    /// Marks `day` done and returns the milestone to celebrate, recording it so that this run never
    /// celebrates it again; see ``StreakHistory/complete(_:today:milestones:)``.
    ///
    /// - Returns: The milestone to celebrate now, or `nil`.
    @discardableResult
    public mutating func complete(_ day: LocalDate, today: LocalDate, milestones: [Int]) -> Int? {
        var history = history
        let milestone = history.complete(day, today: today, milestones: MilestoneSet(milestones))
        completions = history.done
        celebrated = history.celebrated
        return milestone
    }

    /// The milestone reached when `day` was completed, if it is one to celebrate now; see
    /// ``StreakHistory/milestoneReached(by:today:milestones:)``.
    public func milestoneReached(
        by day: LocalDate, today: LocalDate, milestones: [Int] = Habit.defaultMilestones
    ) -> Int? {
        history.milestoneReached(by: day, today: today, milestones: MilestoneSet(milestones))
    }

    /// The badge for the current streak: the highest milestone it has reached, such as 30 for a
    /// "30 Day" badge; `nil` below the lowest.
    public func badge(today: LocalDate, milestones: [Int] = Habit.defaultMilestones) -> Int? {
        history.badge(today: today, milestones: MilestoneSet(milestones))
    }

    /// The highest milestone at most `days`, shared with the list so it walks the history once.
    static func badge(forStreak days: Int, milestones: [Int]) -> Int? {
        MilestoneSet(milestones).highest(reachedBy: days)
    }

    /// The habit's latest due day before `day`, looking back at most 400 days.
    func previousDueDay(before day: LocalDate) -> LocalDate? {
        history.previousDueDay(before: day)
    }
}
