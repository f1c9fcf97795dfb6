import HoorayCalendar
import HoorayKit

/// The `[plugins.water]` section.
///
/// ```toml
/// [plugins.water]
/// enabled = true    # the water plugin is off until enabled
/// goal = 8          # glasses a day; reaching it is celebrated, once a day
/// from = "09:00"    # the first reminder of the day
/// until = "21:00"   # the last one: every two hours from `from` up to this time
/// ```
public struct WaterConfiguration: Decodable, Sendable, Equatable {
    /// The glasses a day worth a celebration.
    public var goal: Int
    /// The time of the first reminder of the day.
    public var from: TimeOfDay
    /// The latest time of a reminder.
    public var until: TimeOfDay

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - goal: Glasses a day; 8 by default.
    ///   - from: The first reminder's time; 09:00 by default.
    ///   - until: The latest reminder's time; 21:00 by default.
    public init(goal: Int = 8, from: TimeOfDay = TimeOfDay(hour: 9)!, until: TimeOfDay = TimeOfDay(hour: 21)!) {
        self.goal = goal
        self.from = from
        self.until = until
    }

    /// The reminders' times: every two hours from ``from`` up to ``until``.
    public var times: [TimeOfDay] {
        stride(from: from.secondsSinceMidnight, through: until.secondsSinceMidnight, by: 2 * 3600).map { seconds in
            TimeOfDay(hour: seconds / 3600, minute: seconds % 3600 / 60)!
        }
    }

    enum CodingKeys: String, CodingKey {
        case goal, from, until
    }

    /// Decodes the section; every key is optional.
    ///
    /// - Throws: `DecodingError` naming the key when a value is out of range: `hooray config check`
    ///   shows it with its file, line and column.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = WaterConfiguration()
        goal = try container.decodeIfPresent(Int.self, forKey: .goal) ?? defaults.goal
        from = try container.decodeIfPresent(TimeOfDay.self, forKey: .from) ?? defaults.from
        until = try container.decodeIfPresent(TimeOfDay.self, forKey: .until) ?? defaults.until
        guard (1...50).contains(goal) else {
            throw DecodingError.dataCorruptedError(
                forKey: .goal, in: container,
                debugDescription: "goal must be a number of glasses from 1 to 50, such as 8")
        }
        guard from <= until else {
            throw DecodingError.dataCorruptedError(
                forKey: .until, in: container,
                debugDescription:
                    "until (\(until)) is before from (\(from)); reminders run from `from` to `until` each day")
        }
    }
}
