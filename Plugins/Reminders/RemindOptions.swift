import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayText

/// What `hooray remind` and `hooray remind edit` were told, read and checked before anything is
/// saved.
///
/// Each value is read by the same type as its key in hooray.toml (`at`, `days`, `every`, `zone`,
/// a date), so a value refused in the file is refused here with the same words, after the option's
/// name: `--at "25:00" is not a time of day; write it as HH:MM, e.g. "15:00"`. Every refusal is a
/// usage error (`hooray` exits 64) that says what to type instead.
struct RemindOptions: Sendable, Equatable {
    /// The time of a one-off given with `--on` and no `--at`.
    static let defaultTime = TimeOfDay(hour: 9)!
    /// The furthest ahead `--in` may point: a year.
    static let furthestIn = 366 * 86400

    /// A new title (the argument of `remind`, `--title` of `edit`).
    var title: String?
    /// A new body.
    var body: String?
    /// A new time of day.
    var at: TimeOfDay?
    /// New weekdays, in week order.
    var days: [Weekday]?
    /// A new interval in days.
    var every: Int?
    /// The day of a one-off.
    var on: LocalDate?
    /// What `--on` said, for messages.
    var onText: String?
    /// Seconds from now of a one-off.
    var inSeconds: Int?
    /// A new time zone's identifier.
    var zone: String?

    /// Whether nothing at all was given.
    var isEmpty: Bool { self == RemindOptions() }

    init() {}

    /// Reads the options of a command; `title` is the new title, if one was given, and `input`
    /// reads days (`--on today`) and lengths (`--in 20m`) in the user's time zone.
    ///
    /// - Throws: ``PluginCommandError`` naming the option for a value that cannot be used, or for
    ///   options that cannot go together.
    init(_ command: CommandInvocation, title: String?, input: TimeInput) throws {
        let today = input.today
        if let title {
            let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else {
                throw PluginCommandError.invalidValue(
                    "<title>",
                    "a reminder needs a title that is not empty; give one in quotes, such as \"Call mom\"")
            }
            if let problem = TextLimits.problem(in: trimmed, kind: .name) {
                let fix = trimmed.count > TextLimits.name ? "; shorten it, and put the rest in --body" : ""
                throw PluginCommandError.invalidValue("<title>", "the title \(problem)\(fix)")
            }
            self.title = trimmed
        }
        body = command.value("body")
        if let body, let problem = TextLimits.problem(in: body, kind: .text) {
            throw PluginCommandError.invalidValue("--body", "the body \(problem)")
        }
        if let text = command.value("at") {
            at = try Self.read(TimeOfDay.self, text, option: "--at")
        }
        if let text = command.value("days") {
            days = try Self.read(RemindersPlugin.WeekdayList.self, text, option: "--days").days.sorted()
        }
        if let text = command.value("every") {
            every = try Self.read(RemindersPlugin.EveryDays.self, text, option: "--every").days
        }
        if let text = command.value("zone") {
            zone = try Self.read(RemindersPlugin.ZoneName.self, text, option: "--zone").zone.identifier
        }
        if let text = command.value("on") {
            onText = text
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "today": on = today
            case "tomorrow": on = today.adding(days: 1)
            default: on = try Self.read(LocalDate.self, text, option: "--on")
            }
        }
        if let text = command.value("in") {
            var words = text.trimmingCharacters(in: .whitespaces)
            if words.lowercased().hasPrefix("in ") { words = String(words.dropFirst(3)) }
            let seconds = try input.seconds(words, option: "--in", minimum: 60)
            guard seconds <= Self.furthestIn else {
                throw TimeInput.refusal(
                    "--in", text, "is more than a year ahead", "give a date with --on instead, such as --on 2027-01-15")
            }
            inSeconds = seconds
        }
        try checkCombinations()
    }

    /// Refuses options that cannot go together.
    func checkCombinations() throws {
        if days != nil && every != nil {
            throw PluginCommandError.invalidValue(
                "--every",
                "use either --days or --every in one reminder, not both (as `days` and `every` in hooray.toml)")
        }
        if inSeconds != nil && at != nil {
            throw PluginCommandError.invalidValue(
                "--in",
                "--in already says when (that long from now); leave out --at, or give a day and a time with --on DATE --at TIME"
            )
        }
        if inSeconds != nil && on != nil {
            throw PluginCommandError.invalidValue(
                "--in", "use either --in (that long from now) or --on (a day), not both")
        }
        if inSeconds != nil || on != nil, days != nil || every != nil {
            let option = inSeconds != nil ? "--in" : "--on"
            throw PluginCommandError.invalidValue(
                option,
                "\(option) makes a one-off, which has no --days or --every; leave out \(option) for a reminder that repeats"
            )
        }
    }

    /// Applies the options to a reminder: a new one, or one being edited (then only what was given
    /// changes, and a schedule changes as a whole: `--days` replaces `--every`, `--on` a rhythm).
    ///
    /// - Parameters:
    ///   - record: The reminder to change.
    ///   - isNew: Whether it is being added, so it must be told when.
    ///   - now: The current time.
    ///   - defaultZone: The user's zone: a new reminder's without --zone, and that of times of day
    ///     when the reminder has none of its own.
    /// - Throws: ``PluginCommandError`` when it would not be due (a past day or time), or when it is
    ///   not told when.
    func apply(to record: inout CommandLineReminder, isNew: Bool, now: Date, defaultZone: TimeZone) throws {
        var changed = record
        if let title { changed.title = title }
        if let body { changed.body = body }
        if let zone {
            changed.zone = zone
        } else if isNew {
            // The zone the user reads times in, kept: a daemon in another zone (TZ set in a shell and
            // not in the service) would otherwise move it on its next reload.
            changed.zone = defaultZone.identifier
        }
        let timeZone = changed.timeZone(default: defaultZone)
        let today = LocalDate(instant: now, in: timeZone)

        if let inSeconds {
            changed.makeOneOff(
                at: Self.wholeMinute(near: now.addingTimeInterval(Double(inSeconds))), day: nil, time: nil)
        } else if let on {
            try changed.makeOneOff(
                on: on, onText: onText ?? "\(on)", at: at ?? changed.at ?? Self.defaultTime, now: now,
                today: today, timeZone: timeZone)
        } else if days != nil || every != nil {
            guard let time = at ?? changed.at else {
                let option = days != nil ? "--days" : "--every"
                throw PluginCommandError.invalidValue(
                    "--at", "\(option) needs a time of day too; add --at, such as --at 09:00")
            }
            changed.at = time
            changed.once = nil
            changed.on = nil
            changed.shownAt = nil
            if let days {
                changed.days = days
                changed.every = nil
                changed.anchor = nil
            }
            if let every {
                changed.anchor = changed.every != nil ? (changed.anchor ?? today) : today
                changed.every = every
                changed.days = nil
            }
        } else if let at {
            if let once = changed.once {
                // A one-off at another time: the same day, at this time.
                let day = changed.on ?? LocalDate(instant: once, in: timeZone)
                try changed.makeOneOff(on: day, onText: "\(day)", at: at, now: now, today: today, timeZone: timeZone)
            } else {
                changed.at = at
            }
        } else if isNew {
            throw PluginCommandError.invalidValue(
                "--at",
                "say when it should come: --at 18:00 (every day), --in 20m (once, that long from now) or --on 2026-12-24 (once, at 09:00)"
            )
        } else if zone != nil, let day = changed.on, let time = changed.at {
            // A one-off on a day, now in another zone: the same day and time there.
            try changed.makeOneOff(on: day, onText: "\(day)", at: time, now: now, today: today, timeZone: timeZone)
        }
        record = changed
    }

    /// The whole minute nearest to an instant: `--in 2m` at 17:09:58 comes at 17:11 (not 17:11:58),
    /// the minute every list shows, as `at now + 2 minutes` keeps to whole minutes.
    static func wholeMinute(near instant: Date) -> Date {
        Date(timeIntervalSince1970: (instant.timeIntervalSince1970 / 60).rounded() * 60)
    }

    /// Reads a value with the type that reads the same key in hooray.toml, and refuses it with that
    /// type's words after the option's name.
    static func read<Value: Decodable>(_ type: Value.Type, _ text: String, option: String) throws -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(text))
        } catch DecodingError.dataCorrupted(let context) {
            throw PluginCommandError.invalidValue(option, "\(option) \(context.debugDescription)")
        } catch {
            throw PluginCommandError.invalidValue(option, "\(option) \"\(text)\" cannot be read: \(error)")
        }
    }
}

extension CommandLineReminder {
    /// Makes it a one-off at an instant.
    mutating func makeOneOff(at instant: Date, day: LocalDate?, time: TimeOfDay?) {
        once = instant
        on = day
        at = time
        days = nil
        every = nil
        anchor = nil
        shownAt = nil
    }

    /// Makes it a one-off on a day at a time in `timeZone`, which must be later than now.
    mutating func makeOneOff(
        on day: LocalDate, onText: String, at time: TimeOfDay, now: Date, today: LocalDate, timeZone: TimeZone
    ) throws {
        guard day >= today else {
            throw TimeInput.refusal(
                "--on", onText, "is in the past", "give today or a later day, such as \(today.adding(days: 1))")
        }
        let instant = Self.instant(of: day, at: time, in: timeZone)
        guard instant > now else {
            throw PluginCommandError.invalidValue(
                "--at", "\(time) on \(day) has already passed; give a later time with --at, or another day with --on")
        }
        makeOneOff(at: instant, day: day, time: time)
    }

    /// The instant of a wall-clock time on a day in a zone; a time that a clock change skips moves
    /// forward, as for every schedule.
    static func instant(of day: LocalDate, at time: TimeOfDay, in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let midnight =
            calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))
            .map { calendar.startOfDay(for: $0) } ?? Date(timeIntervalSince1970: Double(day.daysSinceEpoch) * 86400)
        return calendar.nextDate(
            after: midnight.addingTimeInterval(-1),
            matching: DateComponents(hour: time.hour, minute: time.minute, second: 0),
            matchingPolicy: .nextTimePreservingSmallerComponents, repeatedTimePolicy: .first, direction: .forward)
            ?? midnight.addingTimeInterval(Double(time.secondsSinceMidnight))
    }
}
