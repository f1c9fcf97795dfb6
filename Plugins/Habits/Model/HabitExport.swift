import Foundation
import HoorayCalendar
import HoorayKit

/// A habit in `hooray export`: what the user chose, and its history as lists of days.
struct HabitExport: Codable {
    /// A schedule as people write it: `{"every": "day"}`, `{"days": ["mon", "wed"]}` or
    /// `{"everyDays": 3}`.
    struct Schedule: Codable {
        var every: String?
        var days: [String]?
        var everyDays: Int?
    }

    struct Reset: Codable {
        var day: LocalDate
        var note: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(day, forKey: .day)
            try container.encode(note, forKey: .note)
        }
    }

    struct Pause: Codable {
        var from: LocalDate
        var through: LocalDate?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(from, forKey: .from)
            try container.encode(through, forKey: .through)
        }
    }

    var name: String
    var why: String?
    var schedule: Schedule
    var start: LocalDate
    var remindAt: TimeOfDay?
    var createdAt: Date
    var done: [LocalDate]
    var paused: [Pause]
    var resets: [Reset]
    var celebrated: [CelebratedMilestone]

    enum CodingKeys: String, CodingKey {
        case name, why, schedule, start, remindAt, createdAt, done, paused, resets, celebrated
    }

    init(_ habit: Habit) {
        name = habit.name
        why = habit.why
        schedule =
            switch habit.schedule {
            case .daily: Schedule(every: "day")
            case .weekdays(let days): Schedule(days: days.sorted().map(\.abbreviation))
            case .everyNDays(let interval): Schedule(everyDays: interval)
            }
        start = habit.start
        remindAt = habit.remindAt
        createdAt = habit.createdAt
        done = Array(habit.completions)
        paused = habit.pauses.map { Pause(from: $0.from, through: $0.through) }
        resets = habit.resets.map { Reset(day: $0.day, note: $0.note) }
        celebrated = habit.celebrated
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        why = try container.decodeIfPresent(String.self, forKey: .why)
        schedule = try container.decode(Schedule.self, forKey: .schedule)
        start = try container.decode(LocalDate.self, forKey: .start)
        remindAt = try container.decodeIfPresent(TimeOfDay.self, forKey: .remindAt)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        done = try container.decode([LocalDate].self, forKey: .done)
        paused = try container.decodeIfPresent([Pause].self, forKey: .paused) ?? []
        resets = try container.decodeIfPresent([Reset].self, forKey: .resets) ?? []
        celebrated = try container.decodeIfPresent([CelebratedMilestone].self, forKey: .celebrated) ?? []
    }

    /// Every key, `null` when absent.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(why, forKey: .why)
        try container.encode(schedule, forKey: .schedule)
        try container.encode(start, forKey: .start)
        try container.encode(remindAt, forKey: .remindAt)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(done, forKey: .done)
        try container.encode(paused, forKey: .paused)
        try container.encode(resets, forKey: .resets)
        try container.encode(celebrated, forKey: .celebrated)
    }

    /// The schedule, or the field that is wrong.
    func dueDays() throws(ExportFormError) -> HabitSchedule {
        switch (schedule.every, schedule.days, schedule.everyDays) {
        case ("day"?, nil, nil):
            return .daily
        case (nil, let names?, nil):
            var days = Set<Weekday>()
            for (index, name) in names.enumerated() {
                guard let day = Weekday.allCases.first(where: { $0.abbreviation == name.lowercased() }) else {
                    throw ExportFormError(
                        field: "schedule.days[\(index)]",
                        problem: "\"\(name)\" is not a day of the week; write mon, tue, wed, thu, fri, sat or sun")
                }
                guard days.insert(day).inserted else {
                    throw ExportFormError(field: "schedule.days[\(index)]", problem: "\(name) is listed twice")
                }
            }
            guard !days.isEmpty else {
                throw ExportFormError(field: "schedule.days", problem: "it lists no day; give at least one")
            }
            return .weekdays(days)
        case (nil, nil, let interval?):
            guard interval >= 1 else {
                throw ExportFormError(field: "schedule.everyDays", problem: "\(interval) is not 1 or more")
            }
            return .everyNDays(interval)
        case (let every?, nil, nil):
            throw ExportFormError(field: "schedule.every", problem: "\"\(every)\" is not \"day\"")
        default:
            throw ExportFormError(
                field: "schedule",
                problem: "it needs one of {\"every\": \"day\"}, {\"days\": [\"mon\", …]} or {\"everyDays\": N}")
        }
    }
}

extension Habit {
    /// The `habit` of docs/export.md: its settings, and its history as lists of days.
    public func exportValue() throws -> JSONValue {
        try ExportForm.encode(HabitExport(self))
    }

    /// Reads a habit from its public form: a day listed twice, a pause that ends before it starts
    /// or a schedule that is not one are refused by field.
    public init(exportValue value: JSONValue, id: String) throws {
        let uuid = try ExportForm.uuid(id)
        let form = try ExportForm.decode(HabitExport.self, from: value)
        var seen: [LocalDate: Int] = [:]
        for (index, day) in form.done.enumerated() {
            if let earlier = seen[day] {
                throw ExportFormError(
                    field: "done[\(index)]", problem: "\(day) is listed twice (also done[\(earlier)]); list it once")
            }
            seen[day] = index
        }
        for (index, pause) in form.paused.enumerated() {
            if let through = pause.through, through < pause.from {
                throw ExportFormError(
                    field: "paused[\(index)].through",
                    problem: "\(through) is before the pause's first day, \(pause.from)")
            }
        }
        self.init(
            id: uuid, name: form.name, why: form.why, schedule: try form.dueDays(), start: form.start,
            remindAt: form.remindAt, createdAt: form.createdAt, completions: DaySet(form.done),
            resets: form.resets.map { HabitReset(day: $0.day, note: $0.note) },
            pauses: form.paused.map { HabitPause(from: $0.from, through: $0.through) }, celebrated: form.celebrated)
    }
}

extension Habit {
    /// A row of `habits.csv`, and the habit's days in `habit-days.csv`: each day done, each day of
    /// a pause (the first day only, for a pause not ended yet) and each reset with its note.
    public func csvRows(timeZone: TimeZone) throws -> [CSVRow] {
        var rows = [
            CSVRow(
                table: "habits",
                cells: [
                    ("name", name), ("why", why ?? ""), ("schedule", schedule.summary), ("start", start.description),
                    ("remind at", remindAt?.description ?? ""),
                    ("created", CSVRow.dateAndTime(of: createdAt, in: timeZone).day),
                    ("done days", "\(completions.count)"),
                    ("id", recordID),
                ])
        ]
        var days: [(LocalDate, String, String)] = completions.map { ($0, "done", "") }
        for pause in pauses {
            guard let through = pause.through else {
                days.append((pause.from, "paused", "paused from this day on"))
                continue
            }
            var day = pause.from
            while day <= through {
                days.append((day, "paused", ""))
                day = day.adding(days: 1)
            }
        }
        days += resets.map { ($0.day, "reset", $0.note ?? "") }
        let order = ["done": 0, "paused": 1, "reset": 2]
        for (day, status, note) in days.sorted(by: { ($0.0, order[$0.1] ?? 0) < ($1.0, order[$1.1] ?? 0) }) {
            rows.append(
                CSVRow(
                    table: "habit-days",
                    cells: [("habit", name), ("date", day.description), ("status", status), ("note", note)]))
        }
        return rows
    }
}
