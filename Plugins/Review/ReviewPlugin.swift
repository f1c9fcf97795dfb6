import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit

/// The weekly review's notice: once a week, at the time the user chose, a calm note that the week's
/// review is there (`hooray review`). Off until the user turns it on, with `hooray review --weekly on`
/// or in the configuration:
///
/// ```toml
/// [plugins.review]
/// at = "sun 18:00"     # the day and time of the notice; leave out (the default) for none
/// share_notes = false  # with AI, whether the reflection may read your moments' words
/// ```
///
/// The review itself is `hooray review`, which asks each plugin for its part of the week.
public struct ReviewPlugin: HoorayPlugin {
    public typealias Configuration = ReviewConfiguration

    /// Creates the plugin.
    public init() {}

    public var name: String { "review" }
    public var summary: String { "A calm look back at your week: `hooray review`, and a weekly notice if you like" }

    /// The notice's reminder id.
    static let reminderID = "weekly-review"

    public func activate(context: PluginContext, configuration: ReviewConfiguration) async throws {
        guard let at = configuration.at else {
            try await context.reminders.replaceAll(with: [])
            return
        }
        try await context.reminders.replaceAll(with: [
            Reminder(
                id: Self.reminderID, schedule: .weekly(on: [at.day], at: at.time, zone: context.timeZone),
                notice: Notice(
                    title: "Your week in review", body: "", urgency: .low, category: "hooray.review", opens: .today))
        ])
    }

    public func reminderDue(_ due: DueReminder, context: PluginContext) async throws -> Notice? {
        // A review missed by more than a day waits for next week's: the week has moved on.
        if due.isCatchUp && context.now.timeIntervalSince(due.dueAt) > 24 * 3600 { return nil }
        let day = LocalDate(instant: due.dueAt, in: context.timeZone)
        // From Friday on, the week that ends; earlier in the week, the last one, which is whole.
        let week = day.weekday >= .friday ? ISOWeek(containing: day) : ISOWeek(containing: day).previous
        var notice = due.reminder.notice
        notice.body =
            "A calm look back at \(week.monday.written(today: day)) – \(week.sunday.written(today: day)): "
            + "`hooray review\(week == ISOWeek(containing: day) ? "" : " --week \(week)")` shows your wins, habits, "
            + "swaps and recoveries beside the week before (add `--pdf ~/week.pdf` to keep it)."
        return notice
    }
}

/// The `[plugins.review]` section.
public struct ReviewConfiguration: Decodable, Sendable, Equatable {
    /// A day of the week and a time, such as `sun 18:00`.
    public struct WeeklyTime: Sendable, Equatable {
        /// The day.
        public var day: Weekday
        /// The time.
        public var time: TimeOfDay

        /// Reads `sun 18:00` (a weekday name, then `HH:MM`); `nil` when it is not that.
        public init?(parsing text: String) {
            let words = text.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count == 2, let day = Weekday(parsing: String(words[0])),
                let time = TimeOfDay(parsing: String(words[1]))
            else { return nil }
            self.day = day
            self.time = time
        }
    }

    /// When the weekly notice comes; `nil` (the default) for none.
    public var at: WeeklyTime?
    /// With AI, whether the reflection may read the words of the week's moments.
    public var shareNotes: Bool

    /// Creates a configuration: no notice, no words shared.
    public init(at: WeeklyTime? = nil, shareNotes: Bool = false) {
        self.at = at
        self.shareNotes = shareNotes
    }

    enum CodingKeys: String, CodingKey {
        case at
        case shareNotes = "share_notes"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        shareNotes = try container.decodeIfPresent(Bool.self, forKey: .shareNotes) ?? false
        guard let text = try container.decodeIfPresent(String.self, forKey: .at) else {
            at = nil
            return
        }
        guard text.lowercased() != "off" else {
            at = nil
            return
        }
        guard let weekly = WeeklyTime(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .at, in: container,
                debugDescription:
                    "at = \"\(text)\" is not a day and a time; write a weekday and HH:MM, such as \"sun 18:00\", or \"off\""
            )
        }
        at = weekly
    }
}
