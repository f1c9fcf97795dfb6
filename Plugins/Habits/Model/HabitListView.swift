import Foundation
import HoorayCalendar
import HoorayKit
import HoorayText

/// The habit list of `hooray habit list`: each habit with its streak and what today is for it.
///
/// Both renderings are pure: today is a parameter, so the same habits always render the same text.
public enum HabitListView {
    /// The text shown when there are no habits.
    public static let emptyText =
        "No habits yet. Add your first one: hooray habit add \"Read 10 pages\" --why \"To become wiser and calmer.\""

    /// The list as a table for a terminal.
    ///
    /// One row per habit, sorted by name without regard to case, under a header:
    ///
    /// ```
    /// NAME           STREAK   TODAY    SCHEDULE             BADGE
    /// Meditate       0 days   not due  every 3 days
    /// Read 10 pages  30 days  done     every day at 20:00   30 Day
    /// ```
    ///
    /// - `STREAK` is ``Habit/streak(today:)``: `0 days`, `1 day`, `15 days`;
    /// - `TODAY` is `paused` when a pause contains today, else `done` when the habit was done today,
    ///   else `due` when it is due today, else `not due`;
    /// - `SCHEDULE` is the schedule's summary, with ` at HH:MM` when the habit has a reminder;
    /// - `BADGE` is ``Habit/badge(today:milestones:)``, such as `30 Day`, or empty.
    ///
    /// Columns are separated by two spaces and measured in terminal cells (`TerminalText.width(_:)`),
    /// so an emoji or a wide letter in a name keeps them aligned; lines carry no trailing spaces.
    /// Names are made safe for the terminal (`TerminalText.safe(_:multiline:)`). Without habits the text
    /// invites the user to add one (``emptyText``).
    ///
    /// - Parameters:
    ///   - habits: The habits, in any order.
    ///   - today: The current day in the user's time zone.
    ///   - milestones: The streak lengths that earn a badge, such as ``Habit/defaultMilestones``.
    /// - Returns: The text, without a trailing newline.
    public static func text(_ habits: [Habit], today: LocalDate, milestones: [Int]) -> String {
        text(habits.map { Entry($0, today: today, milestones: milestones) })
    }

    /// The list as a table for a terminal, from the habits' entries: as
    /// ``text(_:today:milestones:)``.
    static func text(_ entries: [Entry]) -> String {
        guard !entries.isEmpty else { return emptyText }
        let header = ["NAME", "STREAK", "TODAY", "SCHEDULE", "BADGE"]
        let rows = sorted(entries).map { row -> [String] in
            let days = row.streak
            return [
                singleLine(row.name), days == 1 ? "1 day" : "\(days) days", row.today.text,
                row.schedule + (row.remindAt.map { " at \($0)" } ?? ""),
                row.badge.map { "\($0) Day" } ?? "",
            ]
        }
        let table = [header] + rows
        // Columns are measured in terminal cells, so emoji and wide letters in names keep them straight.
        let widths = header.indices.map { column in table.map { TerminalText.width($0[column]) }.max() ?? 0 }
        return table.map { cells in
            zip(cells, widths)
                .map { cell, width in TerminalText.padding(cell, toWidth: width) }
                .joined(separator: "  ")
                .trimmingTrailingSpaces()
        }
        .joined(separator: "\n")
    }

    /// The list as JSON, for `hooray habit list --json`.
    ///
    /// A pretty-printed array with sorted keys, in the order of
    /// ``text(_:today:milestones:)``. Each object has:
    ///
    /// - `id`: the UUID, lowercase;
    /// - `name`, and `why`: the "remember why" note, `null` when absent;
    /// - `streak`: the streak in days, an integer;
    /// - `today`: `done`, `due`, `notDue` or `paused`, as the `TODAY` column;
    /// - `schedule`: the schedule's summary, such as `every day` or `mon, wed, fri`;
    /// - `remindAt`: `HH:MM`, or `null` without a reminder;
    /// - `badge`: the highest milestone reached, such as `30`, or `null`;
    /// - `paused`: whether a pause contains today.
    ///
    /// - Parameters:
    ///   - habits: The habits, in any order.
    ///   - today: The current day in the user's time zone.
    ///   - milestones: The streak lengths that earn a badge, such as ``Habit/defaultMilestones``.
    /// - Returns: The JSON text, `[]` without habits.
    public static func json(_ habits: [Habit], today: LocalDate, milestones: [Int]) -> String {
        json(habits.map { Entry($0, today: today, milestones: milestones) })
    }

    /// The list as JSON, from the habits' entries: as ``json(_:today:milestones:)``.
    static func json(_ entries: [Entry]) -> String {
        guard !entries.isEmpty else { return "[]" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Entries hold only strings, integers, booleans and nulls, which cannot fail to encode.
        return String(decoding: try! encoder.encode(sorted(entries)), as: UTF8.self)
    }

    /// Sorted by name without regard to case; ties by name, then id, so the order is stable.
    private static func sorted(_ entries: [Entry]) -> [Entry] {
        // Each name is lowered once, not at every comparison.
        entries.map { ($0.name.lowercased(), $0) }
            .sorted { lhs, rhs in
                if lhs.0 != rhs.0 { return lhs.0 < rhs.0 }
                if lhs.1.name != rhs.1.name { return lhs.1.name < rhs.1.name }
                return lhs.1.id.uuidString < rhs.1.id.uuidString
            }
            .map(\.1)
    }

    /// Line breaks a user typed become spaces, so a row stays a row; control characters and bidi
    /// overrides are neutralised (`TerminalText.safe(_:multiline:)`).
    private static func singleLine(_ text: String) -> String {
        TerminalText.safe(text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
}

/// What today is for a habit, in the list.
private enum TodayStatus: String {
    case done, due, notDue, paused

    init(_ habit: Habit, today: LocalDate) {
        if habit.isPaused(on: today) {
            self = .paused
        } else if habit.isDone(on: today) {
            self = .done
        } else if habit.isDue(on: today) {
            self = .due
        } else {
            self = .notDue
        }
    }

    var text: String { self == .notDue ? "not due" : rawValue }
}

extension HabitListView {
    /// One habit as the list shows it, and as `hooray habit list --json` prints it: what the list
    /// needs of a habit, worked out once, so a list of thousands of habits holds rows, not histories.
    struct Entry: Encodable, Sendable {
        let id: UUID
        let name: String
        let why: String?
        /// The streak, in days.
        let streak: Int
        fileprivate let today: TodayStatus
        /// The schedule's summary.
        let schedule: String
        let remindAt: String?
        let badge: Int?

        init(_ habit: Habit, today: LocalDate, milestones: [Int]) {
            id = habit.id
            name = habit.name
            why = habit.why
            streak = habit.streak(today: today).days
            self.today = TodayStatus(habit, today: today)
            schedule = habit.schedule.summary
            remindAt = habit.remindAt?.description
            badge = Habit.badge(forStreak: streak, milestones: milestones)
        }

        enum CodingKeys: String, CodingKey {
            case id, name, streak, today, schedule, remindAt, badge, why, paused
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id.uuidString.lowercased(), forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(streak, forKey: .streak)
            try container.encode(today.rawValue, forKey: .today)
            try container.encode(schedule, forKey: .schedule)
            try container.encode(remindAt, forKey: .remindAt)
            try container.encode(badge, forKey: .badge)
            try container.encode(why, forKey: .why)
            try container.encode(today == .paused, forKey: .paused)
        }
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        guard let last = lastIndex(where: { $0 != " " }) else { return "" }
        return String(self[...last])
    }
}
