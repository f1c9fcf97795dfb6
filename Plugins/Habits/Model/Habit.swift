import Foundation
import HoorayKit

/// A habit the user tracks (seed 003, "Yolda"): calm, with pauses that keep the streak and resets
/// that ask what happened.
///
/// Days are ``LocalDate`` values in the user's time zone. Everything that happened to the habit is
/// kept as days — completions, pauses, resets — so the streak and the calendar are computed, never
/// stored, and an edit of the schedule re-reads history under the new rules.
public struct Habit: Sendable, Hashable, Codable, Identifiable {
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
        if let bits = try container.decodeIfPresent(DayBits.self, forKey: .done) {
            completions = bits.days
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
        try container.encode(DayBits(completions), forKey: .done)
        try container.encode(resets, forKey: .resets)
        try container.encode(pauses, forKey: .pauses)
        try container.encode(celebrated, forKey: .celebrated)
    }
}

/// On which days a habit is due.
public enum HabitSchedule: Sendable, Hashable, Codable {
    /// Every day.
    case daily
    /// On these weekdays.
    case weekdays(Set<Weekday>)
    /// Every `interval` days, counted in calendar days from the habit's start.
    case everyNDays(Int)

    /// Whether the habit is due on `day`, for a habit starting on `start`. Days before the start
    /// are never due.
    public func isDue(on day: LocalDate, start: LocalDate) -> Bool {
        guard day >= start else { return false }
        switch self {
        case .daily: return true
        case .weekdays(let days): return days.contains(day.weekday)
        case .everyNDays(let interval): return start.days(until: day) % max(interval, 1) == 0
        }
    }

    /// "every day", "mon, wed, fri", "every 3 days".
    public var summary: String {
        switch self {
        case .daily: "every day"
        case .weekdays(let days): Weekday.describe(days)
        case .everyNDays(let interval): interval == 1 ? "every day" : "every \(interval) days"
        }
    }
}

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

/// A pause: from ``from`` through ``through`` (inclusive), or open-ended.
///
/// Paused days are neither due nor missed: they do not count and do not break the streak, and
/// no reminders are shown on them.
public struct HabitPause: Sendable, Hashable, Codable {
    /// The first paused day.
    public var from: LocalDate
    /// The last paused day; `nil` until the user resumes.
    public var through: LocalDate?

    /// Creates a pause.
    public init(from: LocalDate, through: LocalDate? = nil) {
        self.from = from
        self.through = through
    }

    /// Whether `day` is inside the pause.
    public func contains(_ day: LocalDate) -> Bool {
        day >= from && (through.map { day <= $0 } ?? true)
    }
}

/// A milestone that was celebrated, in the run that started on ``runStart``.
public struct CelebratedMilestone: Sendable, Hashable, Codable {
    /// The streak length, such as 7.
    public var days: Int
    /// The first day of the run that reached it.
    public var runStart: LocalDate

    /// Creates a record.
    public init(days: Int, runStart: LocalDate) {
        self.days = days
        self.runStart = runStart
    }
}

/// A set of days as stored: the first day, and one bit a day from it, in base64.
struct DayBits: Codable, Hashable {
    /// The first day, as days since 1970-01-01.
    var from: Int
    /// Bit `i` (least significant first in each byte) says whether day `from + i` is in the set.
    var bits: String

    init(_ days: DaySet) {
        let stored = days.storedForm
        from = stored.first
        bits = stored.bytes.base64EncodedString()
    }

    var days: DaySet {
        guard let data = Data(base64Encoded: bits) else { return [] }
        return DaySet(first: from, bytes: data)
    }
}
