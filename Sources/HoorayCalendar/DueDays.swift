/// On which days something with a streak is due: every day, chosen weekdays, or every N days.
///
/// A day that is not due neither counts toward a streak nor breaks it.
public enum DueDays: Sendable, Hashable, Codable {
    /// Every day.
    case daily
    /// On these weekdays.
    case weekdays(Set<Weekday>)
    /// Every `interval` days, counted in calendar days from the start.
    case everyNDays(Int)

    /// Whether `day` is due, for something that starts on `start`. Days before the start are never due.
    public func isDue(on day: LocalDate, start: LocalDate) -> Bool {
        guard day >= start else { return false }
        switch self {
        case .daily: return true
        case .weekdays(let days): return days.contains(day.weekday)
        case .everyNDays(let interval): return start.days(until: day) % max(interval, 1) == 0
        }
    }

    /// Encodes the rhythm as Swift encodes such an enum (`{"weekdays": {"_0": [1, 3, 5]}}`), with the
    /// weekdays in week order: the same rhythm always gives the same bytes, so that `hooray import`
    /// finds a record it stored before the same, whichever process stored it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StoredKey.self)
        switch self {
        case .daily:
            _ = container.nestedContainer(keyedBy: StoredKey.self, forKey: .daily)
        case .weekdays(let days):
            var nested = container.nestedContainer(keyedBy: StoredKey.self, forKey: .weekdays)
            try nested.encode(days.sorted(), forKey: .value)
        case .everyNDays(let interval):
            var nested = container.nestedContainer(keyedBy: StoredKey.self, forKey: .everyNDays)
            try nested.encode(interval, forKey: .value)
        }
    }

    /// The keys of the stored form, as Swift names them for this enum.
    private enum StoredKey: String, CodingKey {
        case daily, weekdays, everyNDays
        case value = "_0"
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

/// A pause: from ``from`` through ``through`` (inclusive), or open-ended.
///
/// Paused days are neither due nor missed: they do not count and do not break a streak.
public struct StreakPause: Sendable, Hashable, Codable {
    /// The first paused day.
    public var from: LocalDate
    /// The last paused day; `nil` until the pause is ended.
    public var through: LocalDate?

    /// Creates a pause.
    ///
    /// - Parameters:
    ///   - from: The first paused day.
    ///   - through: The last paused day; `nil` for a pause without an end yet.
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
    ///
    /// - Parameters:
    ///   - days: The streak length.
    ///   - runStart: The first day of the run that reached it.
    public init(days: Int, runStart: LocalDate) {
        self.days = days
        self.runStart = runStart
    }
}

/// The streak lengths worth celebrating, such as 7, 30, 100 and 365 days.
public struct MilestoneSet: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The lengths, ascending, each once, all at least 1.
    public let days: [Int]

    /// Creates a set; lengths below 1 are left out, and the order does not matter.
    ///
    /// - Parameter days: The streak lengths, in days.
    public init(_ days: [Int]) {
        self.days = Set(days.filter { $0 > 0 }).sorted()
    }

    /// A set of the lengths listed.
    public init(arrayLiteral days: Int...) {
        self.init(days)
    }

    /// The habits of seed 003: 7, 30, 100 and 365 days.
    public static let habits: MilestoneSet = [7, 30, 100, 365]

    /// The nightly swaps of seed 004: 3, 7, 14 and 30 days.
    public static let swaps: MilestoneSet = [3, 7, 14, 30]

    /// Whether `length` is a milestone.
    public func contains(_ length: Int) -> Bool { days.contains(length) }

    /// The highest milestone a streak of `length` days has reached, such as 30 for a "30 Day"
    /// badge; `nil` below the lowest.
    public func highest(reachedBy length: Int) -> Int? {
        days.last { $0 <= length }
    }

    /// The lengths as `[7, 30, 100, 365]`.
    public var description: String { "\(days)" }
}
