import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayText

/// `hooray swap list`, `edit` and `delete`, and `hooray swap prep remove`: so that a swap saved by
/// mistake can be fixed or taken away, and no longer counts toward the streak.
extension SwapsPlugin {
    /// How many days back `hooray swap list` shows by default, as `hooray swap history` does.
    static let defaultListDays = 28
    /// The command that shows swaps with their ids, for messages.
    static let listedBy = "`hooray swap list`"

    /// A swap's short id, as lists show it and commands take it: the first eight characters.
    static func shortID(_ id: UUID) -> String { String(id.uuidString.lowercased().prefix(8)) }

    /// `hooray swap list [--days N] [--json]`: the swaps of the last days, newest first, with their ids.
    func listCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        let days = try command.value("days").map { try TimeInput.daysBack($0) } ?? Self.defaultListDays
        let today = LocalDate(instant: context.now, in: command.environment.timeZone)
        let from = today.adding(days: 1 - days)
        let swaps = try await context.records(of: Swap.self).all()
            .filter { $0.day >= from }
            .sorted { ($0.day, $0.loggedAt) > ($1.day, $1.loggedAt) }
        return CommandReply(
            // --ids is for shell completion: the ids alone, one a line.
            text: command.flag("ids")
                ? swaps.map { Self.shortID($0.id) }.joined(separator: "\n")
                : Self.listText(swaps, from: from, today: today),
            json: try JSONValue(encoding: swaps.map(SwapEntry.init)))
    }

    /// The list for a terminal: one line a swap, its id first.
    static func listText(_ swaps: [Swap], from: LocalDate, today: LocalDate) -> String {
        guard !swaps.isEmpty else {
            return
                "No swaps since \(from.written(today: today)). `hooray swap \"…\"` logs one; --days shows further back."
        }
        var lines = ["Your swaps since \(from.written(today: today)), newest first:"]
        func dayName(_ day: LocalDate) -> String {
            day == today ? "today" : day == today.adding(days: -1) ? "yesterday" : day.written(today: today)
        }
        let width = swaps.map { TerminalText.width(dayName($0.day)) }.max() ?? 0
        for swap in swaps {
            let day = TerminalText.padding(dayName(swap.day), toWidth: width)
            lines.append("  \(shortID(swap.id))  \(day)  \(TerminalText.safe(SwapCelebration.oneLine(swap.text)))")
        }
        lines.append("`hooray swap edit ID \"…\"` fixes one; `hooray swap delete ID` removes it.")
        return lines.joined(separator: "\n")
    }

    /// Finds the swap the user named by the first characters of its id; words that are no id say how
    /// to log them as a swap instead.
    func findSwap(_ given: String, command: String, context: PluginContext) async throws -> Swap {
        let wanted = given.trimmingCharacters(in: .whitespaces)
        let isID = wanted.count >= 4 && wanted.allSatisfy { $0.isHexDigit || $0 == "-" }
        guard isID else {
            throw PluginCommandError.invalidValue(
                "<id>",
                "\"\(given)\" is not a swap's id; \(Self.listedBy) shows them, such as 3f2a9c1e. "
                    + "To log a swap that starts with \"\(command)\", put -- before it: "
                    + "hooray swap -- \(command) \"\(given)\"")
        }
        return try await context.records(of: Swap.self).find(idPrefix: wanted, listedBy: Self.listedBy)
    }

    /// `hooray swap edit ID [TEXT…] [--date DAY]`: new words, a new day, or both.
    func editCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        let words = command.values("text").joined(separator: " ")
        guard !words.isEmpty || command.value("date") != nil else {
            throw PluginCommandError.invalidValue(
                "<text>",
                "nothing to change; give the swap's new words, --date, or both, such as "
                    + "hooray swap edit 3f2a9c1e \"Tea instead of wine\"")
        }
        let text = words.isEmpty ? nil : try Self.checkedSwapText(words)
        let input = TimeInput(now: context.now, timeZone: command.environment.timeZone)
        let day = try command.value("date").map { try Self.checkedSwapDay($0, input: input) }
        let found = try await findSwap(command.value("id") ?? "", command: "edit", context: context)
        let updated = try await context.records(of: Swap.self).update(found.recordID) { swap in
            if let text { swap.text = text }
            if let day { swap.day = day }
            return swap
        }
        guard let updated else { throw PluginCommandError("that swap was just deleted") }
        if updated.day != found.day { try await releaseDidSwapClaim(on: found.day, context: context) }
        let today = input.today
        let streak = try await currentStreak(today: today, context: context)
        let when = updated.day == today ? "today" : updated.day.written(today: today)
        return CommandReply(
            text: "Swap \(Self.shortID(updated.id)) is now: \(TerminalText.safe(SwapCelebration.oneLine(updated.text)))"
                + " (\(when)).\nSwap streak: \(SwapCelebration.days(streak)).",
            json: try JSONValue(encoding: SwapEntry(updated)))
    }

    /// `hooray swap delete ID`: the swap goes, and no longer counts toward the streak.
    func deleteCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        let found = try await findSwap(command.value("id") ?? "", command: "delete", context: context)
        guard try await context.records(of: Swap.self).delete(found.recordID) else {
            throw PluginCommandError("that swap was just deleted")
        }
        try await releaseDidSwapClaim(on: found.day, context: context)
        let today = LocalDate(instant: context.now, in: command.environment.timeZone)
        let streak = try await currentStreak(today: today, context: context)
        return CommandReply(
            text: "Deleted the swap “\(TerminalText.safe(SwapCelebration.oneLine(found.text)))” "
                + "[\(Self.shortID(found.id))] of \(found.day.written(today: today)).\nSwap streak: \(SwapCelebration.days(streak)).",
            json: try JSONValue(encoding: SwapEntry(found)))
    }

    /// Lets Night Prep's "I did my swap" save a swap for `day` again once no swap is left on it (the
    /// button claims its day, so that two presses save one swap).
    func releaseDidSwapClaim(on day: LocalDate, context: PluginContext) async throws {
        guard try await !context.records(of: Swap.self).all().contains(where: { $0.day == day }) else { return }
        try await context.storage.removeValue(forKey: "did-swap.\(day)")
    }

    /// The streak up to `today`, from the swaps as they are now.
    func currentStreak(today: LocalDate, context: PluginContext) async throws -> Int {
        let days = DaySet(try await context.records(of: Swap.self).all().map(\.day).filter { $0 <= today })
        return SwapStreak.history(days: days).streak(today: today).days
    }

    /// `hooray swap prep remove ITEM`: takes one item out of tonight's prep, by its number as
    /// `hooray swap prep` shows it or by its words; the last one out removes the prep.
    func prepRemoveCommand(_ command: CommandInvocation, context: PluginContext, configuration: SwapsConfiguration)
        async throws -> CommandReply
    {
        let zone = command.environment.timeZone
        let day = Self.prepDay(at: context.now, in: zone)
        let today = LocalDate(instant: context.now, in: zone)
        let given = (command.value("item") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let book = context.records(of: Prep.self)
        guard let prep = try await book.record(day.description), !prep.items.isEmpty else {
            throw PluginCommandError("there is no prep for \(Self.dayLabel(day, today: today)) to remove from")
        }
        guard let index = Self.prepItemIndex(given, in: prep.items) else {
            let numbers = prep.items.count == 1 ? "1" : "1 to \(prep.items.count)"
            throw PluginCommandError.invalidValue(
                "<item>",
                "\"\(given)\" is not an item of your prep for \(Self.dayLabel(day, today: today)); give its number "
                    + "(\(numbers)) or its words, as `hooray swap prep` shows them")
        }
        let removed = prep.items[index]
        let now = context.now
        let left = try await book.update(day.description) { stored -> [String] in
            if let at = stored.items.firstIndex(of: removed) { stored.items.remove(at: at) }
            stored.at = now
            return stored.items
        }
        if left?.isEmpty == true { _ = try await book.delete(day.description) }
        let remaining = Prep(day: day, items: left ?? [], at: now)
        var lines = ["Removed “\(TerminalText.safe(removed))” from your prep for \(Self.dayLabel(day, today: today))."]
        lines += remaining.items.isEmpty ? ["Nothing is left in it."] : Self.numberedLines(remaining.items)
        let fromLastNight = day == today ? nil : try await book.record(today.description)
        return CommandReply(
            text: lines.joined(separator: "\n"),
            json: try JSONValue(
                encoding: PrepView(
                    day: day, prep: remaining.items.isEmpty ? nil : remaining, replaced: false,
                    fromLastNight: fromLastNight)))
    }

    /// The index of the item `given` names: its number from 1, or its words without regard to case.
    static func prepItemIndex(_ given: String, in items: [String]) -> Int? {
        if let number = Int(given) { return (1...items.count).contains(number) ? number - 1 : nil }
        let wanted = given.lowercased()
        return items.firstIndex { $0.lowercased() == wanted }
    }

    /// The items as numbered lines for a terminal, for `hooray swap prep remove N`.
    static func numberedLines(_ items: [String], indent: String = "  ") -> [String] {
        items.enumerated().map { "\(indent)\($0.offset + 1). \(TerminalText.safe($0.element))" }
    }
}

/// A swap as `hooray swap list`, `edit` and `delete` print it with `--json` (docs/json.md, `swapEntry`).
struct SwapEntry: Codable, Sendable, Hashable {
    var id: String
    var text: String
    var day: LocalDate
    var loggedAt: Date
    var fromPrep: Bool

    init(_ swap: Swap) {
        id = swap.id.uuidString.lowercased()
        text = swap.text
        day = swap.day
        loggedAt = swap.loggedAt
        fromPrep = swap.fromPrep
    }
}
