import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayText

/// `hooray swap prep`: up to three swaps for the user's next day, shown by Morning Focus.
extension SwapsPlugin {
    /// The hour the user's next day starts for a prep: one made before it, after midnight, is for
    /// the day that has just begun (its Morning Focus has not come yet); one made from then on is
    /// for tomorrow.
    static let prepDayStartHour = 5
    /// The most characters an item of a prep may have.
    static let maxPrepItemLength = TextLimits.name

    /// `hooray swap prep "…"…`: keeps up to three items for the next day, replacing a prep already
    /// made for it; without items, shows tonight's prep (and this morning's, from last night).
    func prepCommand(_ command: CommandInvocation, context: PluginContext, configuration: SwapsConfiguration)
        async throws -> CommandReply
    {
        let zone = command.environment.timeZone
        let now = context.now
        let day = Self.prepDay(at: now, in: zone)
        let book = context.records(of: Prep.self)
        let given = command.values("items")
        guard !given.isEmpty else {
            let tonight = try await book.record(day.description)
            let today = LocalDate(instant: now, in: zone)
            let fromLastNight = day == today ? nil : try await book.record(today.description)
            return CommandReply(
                text: Self.preppedText(
                    tonight, day: day, today: today, fromLastNight: fromLastNight, configuration: configuration),
                json: try JSONValue(
                    encoding: PrepView(day: day, prep: tonight, replaced: false, fromLastNight: fromLastNight)))
        }
        let items = try Self.checkedPrepItems(given)
        let change: @Sendable (inout Prep) -> Bool = { stored in
            stored.items = items
            stored.at = now
            return true
        }
        var replaced = try await book.update(day.description, change) ?? false
        if !replaced {
            do {
                try await book.insert(Prep(day: day, items: items, at: now))
            } catch let error as RecordBookError where error.code == .duplicateID {
                // Another prep for the same day was saved meanwhile: the latest one counts.
                replaced = try await book.update(day.description, change) ?? false
            }
        }
        try await holdNightPrep(ifPreppedFor: day, context: context)
        let prep = Prep(day: day, items: items, at: now)
        let today = LocalDate(instant: now, in: zone)
        let fromLastNight = day == today ? nil : try await book.record(today.description)
        return CommandReply(
            text: Self.savedPrepText(prep, today: today, replaced: replaced, configuration: configuration),
            json: try JSONValue(
                encoding: PrepView(day: day, prep: prep, replaced: replaced, fromLastNight: fromLastNight)))
    }

    /// The day a prep made at `instant` is for: tomorrow, or today before ``prepDayStartHour``.
    static func prepDay(at instant: Date, in zone: TimeZone) -> LocalDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = LocalDate(instant: instant, in: zone)
        return calendar.component(.hour, from: instant) < prepDayStartHour ? today : today.adding(days: 1)
    }

    /// The items of a prep as given, trimmed, line breaks made spaces; refuses more than three, an empty one or a long one.
    static func checkedPrepItems(_ given: [String]) throws -> [String] {
        let example = "hooray swap prep \"Oatmeal instead of a pastry\" \"Walk after lunch\""
        guard given.count <= Prep.maxItems else {
            throw PluginCommandError.invalidValue(
                "<items>",
                "a night's prep keeps up to \(Prep.maxItems) swaps, and \(given.count) were given; pick the "
                    + "\(Prep.maxItems) that matter most, each in quotes, such as: \(example)")
        }
        return try given.enumerated().map { index, item in
            // One line each: Morning Focus shows one item a line.
            let text = item.components(separatedBy: .newlines).joined(separator: " ")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else {
                throw PluginCommandError.invalidValue(
                    "<items>",
                    "item \(index + 1) of your prep is empty; give each swap in quotes, such as: \(example)")
            }
            guard text.count <= maxPrepItemLength else {
                throw PluginCommandError.invalidValue(
                    "<items>",
                    "item \(index + 1) of your prep is \(text.count) characters long; keep each to "
                        + "\(maxPrepItemLength) or fewer, such as \"Oatmeal instead of a pastry\"")
            }
            return text
        }
    }

    /// Holds Night Prep for the rest of the reminder's day once the prep for its next day is made and
    /// the day's swap is saved, so `hooray next` does not list a question already answered. Changes the reminder as
    /// `activate` made it, in its own zone (a command may run in another one).
    func holdNightPrep(ifPreppedFor day: LocalDate, context: PluginContext) async throws {
        guard
            var reminder = try await context.reminders.list().first(where: { $0.reminder.id == Self.nightPrepReminder }
            )?
            .reminder
        else { return }
        let zone = reminder.schedule.zone ?? context.timeZone
        let today = LocalDate(instant: context.now, in: zone)
        guard day == today.adding(days: 1), try await nothingLeftToAsk(tonight: today, context: context),
            let hold = Self.nightPrepHold(today: today, prepped: true, in: zone), reminder.hold != hold
        else { return }
        reminder.hold = hold
        try await context.reminders.schedule(reminder)
    }

    /// Night Prep's hold for the rest of `today` when tomorrow is prepped; `nil` when it is not.
    static func nightPrepHold(today: LocalDate, prepped: Bool, in zone: TimeZone) -> ReminderHold? {
        guard prepped else { return nil }
        return ReminderHold(
            reason: "prepped tonight", until: LocalDayRange(from: today, through: today, in: zone).instants.upperBound)
    }

    // MARK: Text

    /// `tomorrow, Tue 16 Jun`, `today, Tue 16 Jun` or `Tue 16 Jun`.
    static func dayLabel(_ day: LocalDate, today: LocalDate) -> String {
        let name = day.written(today: today)
        switch today.days(until: day) {
        case 0: return "today, \(name)"
        case 1: return "tomorrow, \(name)"
        default: return name
        }
    }

    /// The items as bullet lines for a terminal, with `indent` in front.
    static func bulletLines(_ items: [String], indent: String = "  ") -> [String] {
        items.map { "\(indent)• \(TerminalText.safe($0))" }
    }

    /// What `hooray swap prep "…"` says once the prep is saved.
    static func savedPrepText(_ prep: Prep, today: LocalDate, replaced: Bool, configuration: SwapsConfiguration)
        -> String
    {
        var lines = ["🌙 Prepped for \(dayLabel(prep.day, today: today)):"] + numberedLines(prep.items)
        if replaced { lines.append("This replaces the prep you made earlier for that day.") }
        if let time = configuration.morningFocus {
            lines.append("Morning Focus shows \(prep.items.count == 1 ? "it" : "them") at \(time). Sleep well.")
        } else {
            lines.append("Morning Focus is off; `hooray swap prep` shows \(prep.items.count == 1 ? "it" : "them").")
        }
        return lines.joined(separator: "\n")
    }

    /// What `hooray swap prep` says without items: tonight's prep, and this morning's from last night.
    static func preppedText(
        _ tonight: Prep?, day: LocalDate, today: LocalDate, fromLastNight: Prep?, configuration: SwapsConfiguration
    ) -> String {
        var lines: [String] = []
        if let fromLastNight {
            lines += ["☀️ From last night, for today:"] + bulletLines(fromLastNight.items) + [""]
        }
        if let tonight {
            lines += ["🌙 Your prep for \(dayLabel(day, today: today)):"] + numberedLines(tonight.items)
            lines.append("A new `hooray swap prep \"…\"` replaces it; `hooray swap prep remove N` takes item N out.")
        } else {
            lines.append("No prep for \(dayLabel(day, today: today)) yet, and that's okay.")
            lines.append(
                "When you're ready: hooray swap prep \"Oatmeal instead of a pastry\" (up to three, each in quotes).")
        }
        return lines.joined(separator: "\n")
    }
}

/// A prep as `hooray swap prep --json` prints it (docs/json.md, `prep`): every key, `null` when absent.
struct PrepView: Encodable, Sendable, Hashable {
    /// The day it is for.
    var day: LocalDate
    /// Its items; empty when none was made.
    var items: [String]
    /// When it was made; `nil` when none was made.
    var at: Date?
    /// Whether this command replaced a prep made earlier for the same day.
    var replaced: Bool
    /// The items of the prep made last night for today, which Morning Focus shows; empty when there
    /// is none, or when the prep's day is today (made after midnight).
    var fromLastNight: [String]

    init(day: LocalDate, prep: Prep?, replaced: Bool, fromLastNight: Prep?) {
        self.day = day
        items = prep?.items ?? []
        at = prep?.at
        self.replaced = replaced
        self.fromLastNight = fromLastNight?.items ?? []
    }

    enum CodingKeys: String, CodingKey {
        case day, items, at, replaced, fromLastNight
    }

    /// Encodes every key, an absent instant as `null`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(day, forKey: .day)
        try container.encode(items, forKey: .items)
        try container.encode(at, forKey: .at)
        try container.encode(replaced, forKey: .replaced)
        try container.encode(fromLastNight, forKey: .fromLastNight)
    }
}
