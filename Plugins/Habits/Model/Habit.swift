import Foundation
import HoorayCalendar
import HoorayKit

/// A habit the user tracks (seed 003, "Yolda"): calm, with pauses that keep the streak and resets
/// that ask what happened.
///
/// Days are ``LocalDate`` values in the user's time zone. Everything that happened to the habit is
/// kept as days — completions, pauses, resets — so the streak and the calendar are computed, never
/// stored, and an edit of the schedule re-reads history under the new rules.
public struct Habit: Sendable, Hashable, Codable, Identifiable, PluginRecord {
    /// Habits are records of the kind `habit`.
    public static let recordKind = "habit"
    /// Before the record book, each habit was kept under `habit.<id>` in the plugin's storage.
    public static let legacyKeyPrefix: String? = "habit."
    /// A habit is filed under its first day.
    public var recordDate: RecordDate { .day(start) }

    /// The habit's id.
    public var id: UUID
    /// Its name, unique among the user's habits (compared without case).
    public var name: String
    /// The "remember why" note, shown when motivation is low.
    public var why: String?
    /// On which days it is due.
    public var schedule: HabitSchedule
    /// The first day it counts; the anchor of an every-N-days rhythm.
    public var start: LocalDate
    /// When to remind, in the user's time zone; `nil` for no reminder.
    public var remindAt: TimeOfDay?
    /// When it was created.
    public var createdAt: Date
    /// The days it was done.
    public var completions: DaySet
    /// Resets, oldest first.
    public var resets: [HabitReset]
    /// Pauses, oldest first.
    public var pauses: [HabitPause]
    /// Milestones already celebrated, by the first day of the run that reached them, so a run never
    /// celebrates the same milestone twice (even after an undo and a redo).
    public var celebrated: [CelebratedMilestone]

    /// Creates a habit.
    public init(
        id: UUID = UUID(), name: String, why: String? = nil, schedule: HabitSchedule = .daily, start: LocalDate,
        remindAt: TimeOfDay? = nil, createdAt: Date, completions: DaySet = [], resets: [HabitReset] = [],
        pauses: [HabitPause] = [], celebrated: [CelebratedMilestone] = []
    ) {
        self.id = id
        self.name = name
        self.why = why
        self.schedule = schedule
        self.start = start
        self.remindAt = remindAt
        self.createdAt = createdAt
        self.completions = completions
        self.resets = resets
        self.pauses = pauses
        self.celebrated = celebrated
    }

    enum CodingKeys: String, CodingKey {
        case id, name, why, schedule, start, remindAt, createdAt, completions, done, resets, pauses, celebrated
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        why = try container.decodeIfPresent(String.self, forKey: .why)
        schedule = try container.decode(HabitSchedule.self, forKey: .schedule)
        start = try container.decode(LocalDate.self, forKey: .start)
        remindAt = try container.decodeIfPresent(TimeOfDay.self, forKey: .remindAt)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        if let done = try container.decodeIfPresent(DaySet.self, forKey: .done) {
            completions = done
        } else {
            let days = try container.decodeIfPresent([Int].self, forKey: .completions) ?? []
            completions = DaySet(days.map(LocalDate.init(daysSinceEpoch:)))
        }
        resets = try container.decodeIfPresent([HabitReset].self, forKey: .resets) ?? []
        pauses = try container.decodeIfPresent([HabitPause].self, forKey: .pauses) ?? []
        celebrated = try container.decodeIfPresent([CelebratedMilestone].self, forKey: .celebrated) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(why, forKey: .why)
        try container.encode(schedule, forKey: .schedule)
        try container.encode(start, forKey: .start)
        try container.encodeIfPresent(remindAt, forKey: .remindAt)
        try container.encode(createdAt, forKey: .createdAt)
        // A bitmap, one bit a day: a year of history is 46 bytes, quick to read for 1,000 habits.
        try container.encode(completions, forKey: .done)
        try container.encode(resets, forKey: .resets)
        try container.encode(pauses, forKey: .pauses)
        try container.encode(celebrated, forKey: .celebrated)
    }
}

/// On which days a habit is due: the streak engine's rhythms.
public typealias HabitSchedule = DueDays

/// A reset: the user chose to start the streak again on ``day``, with a reflection.
public struct HabitReset: Sendable, Hashable, Codable {
    /// The day of the reset. A new run starts on this day: it counts if the habit is done that day.
    public var day: LocalDate
    /// The answer to "What happened?", if the user gave one.
    public var note: String?

    /// Creates a reset.
    public init(day: LocalDate, note: String? = nil) {
        self.day = day
        self.note = note
    }
}

/// A pause of a habit: days that neither count nor break its streak, and show no reminders.
public typealias HabitPause = StreakPause
