import Foundation
import HoorayCalendar
import HoorayKit

/// A reminder added with `hooray remind`, in `hooray export`: as it was given, with days of the
/// week by name (`mon`) rather than by number.
struct ReminderExport: Codable {
    var title: String
    var body: String
    var at: TimeOfDay?
    var days: [String]?
    var every: Int?
    var anchor: LocalDate?
    var on: LocalDate?
    var once: Date?
    var zone: String?
    var createdAt: Date
    var shownAt: Date?

    enum CodingKeys: String, CodingKey {
        case title, body, at, days, every, anchor, on, once, zone, createdAt, shownAt
    }

    init(_ reminder: CommandLineReminder) {
        title = reminder.title
        body = reminder.body
        at = reminder.at
        days = reminder.days?.map(\.abbreviation)
        every = reminder.every
        anchor = reminder.anchor
        on = reminder.on
        once = reminder.once
        zone = reminder.zone
        createdAt = reminder.createdAt
        shownAt = reminder.shownAt
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        body = try container.decodeIfPresent(String.self, forKey: .body) ?? ""
        at = try container.decodeIfPresent(TimeOfDay.self, forKey: .at)
        days = try container.decodeIfPresent([String].self, forKey: .days)
        every = try container.decodeIfPresent(Int.self, forKey: .every)
        anchor = try container.decodeIfPresent(LocalDate.self, forKey: .anchor)
        on = try container.decodeIfPresent(LocalDate.self, forKey: .on)
        once = try container.decodeIfPresent(Date.self, forKey: .once)
        zone = try container.decodeIfPresent(String.self, forKey: .zone)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        shownAt = try container.decodeIfPresent(Date.self, forKey: .shownAt)
    }

    /// Every key, `null` when absent.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(at, forKey: .at)
        try container.encode(days, forKey: .days)
        try container.encode(every, forKey: .every)
        try container.encode(anchor, forKey: .anchor)
        try container.encode(on, forKey: .on)
        try container.encode(once, forKey: .once)
        try container.encode(zone, forKey: .zone)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(shownAt, forKey: .shownAt)
    }
}

extension CommandLineReminder {
    /// The `reminder` of docs/export.md.
    func exportValue() throws -> JSONValue {
        try ExportForm.encode(ReminderExport(self))
    }

    /// Reads a reminder from its public form.
    init(exportValue value: JSONValue, id: String) throws {
        let form = try ExportForm.decode(ReminderExport.self, from: value)
        var weekdays: [Weekday]?
        if let names = form.days {
            weekdays = try names.enumerated().map { index, name throws(ExportFormError) in
                guard let day = Weekday.allCases.first(where: { $0.abbreviation == name.lowercased() }) else {
                    throw ExportFormError(
                        field: "days[\(index)]",
                        problem: "\"\(name)\" is not a day of the week; write mon, tue, wed, thu, fri, sat or sun")
                }
                return day
            }
        }
        if let every = form.every, every < 1 {
            throw ExportFormError(field: "every", problem: "\(every) is not 1 or more")
        }
        if let zone = form.zone, TimeZone(identifier: zone) == nil {
            throw ExportFormError(field: "zone", problem: "\"\(zone)\" is not a time zone")
        }
        self.init(
            id: id, title: form.title, body: form.body, at: form.at, days: weekdays, every: form.every,
            anchor: form.anchor, on: form.on, once: form.once, zone: form.zone, createdAt: form.createdAt,
            shownAt: form.shownAt)
    }
}
