import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayText

extension RecoveryPlugin {
    /// `hooray recovery list`, `edit` and `delete`.
    func historyCommand(_ command: CommandInvocation, context: PluginContext, configuration: RecoveryConfiguration)
        async throws -> CommandReply
    {
        let book = context.records(of: Rejection.self)
        let zone = command.environment.timeZone
        switch command.command {
        case "list":
            let type = try command.value("type").map { try RejectionType.parse($0) }
            let input = TimeInput(now: context.now, timeZone: zone)
            let since = try command.value("since").map { text -> LocalDate in
                // `--since 30d` reads as "the last 30 days", as `30d ago` does.
                if case .length(let seconds) = input.parse(text) {
                    return input.today.adding(days: -(seconds / 86400))
                }
                return try input.day(text, option: "--since", limit: .todayOrEarlier)
            }
            let shown = try await book.all()
                .filter { type == nil || $0.type == type }
                .filter { since == nil || LocalDate(instant: $0.happenedAt, in: zone) >= since! }
                .sorted { $0.happenedAt > $1.happenedAt }
            if command.flag("ids") {
                return CommandReply(
                    text: shown.map(\.recordID).joined(separator: "\n"),
                    json: JSONValue.array(shown.map { JSONValue.string($0.recordID) }))
            }
            return CommandReply(
                text: RejectionListView.text(
                    shown, now: context.now, timeZone: zone, filtered: type != nil || since != nil),
                json: try JSONValue(encoding: shown.map(RejectionView.init)))
        case "edit":
            return try await edit(command, context: context, configuration: configuration)
        default:
            let rejection = try await book.find(idPrefix: command.value("id") ?? "", listedBy: "`hooray recovery list`")
            guard try await book.delete(rejection.recordID) else {
                throw PluginCommandError("that rejection was deleted meanwhile; nothing more to do")
            }
            if let group = rejection.followUpGroup {
                try await cancelFollowUpIfDone(group: group, context: context)
            }
            return .text("Deleted the \(rejection.type.rawValue) rejection \(String(rejection.recordID.prefix(8))).")
        }
    }

    /// `hooray recovery edit ID [--type] [--impact] [--note] [--screenshot]… [--no-screenshots]`: checks
    /// everything first, then changes the rejection and brings its follow-up in line with its impact.
    func edit(_ command: CommandInvocation, context: PluginContext, configuration: RecoveryConfiguration) async throws
        -> CommandReply
    {
        let type = try command.value("type").map { try RejectionType.parse($0) }
        let impact = try command.value("impact").map(RejectionRequest.checkedImpact)
        let note = try command.value("note").map { try RejectionRequest.checkedNote($0, option: "--note") }
        let screenshots = command.values("screenshot")
        if command.flag("no-screenshots"), !screenshots.isEmpty {
            throw PluginCommandError.invalidValue(
                "--screenshot", "give --screenshot or --no-screenshots, not both")
        }
        let newScreenshots: [String]? =
            command.flag("no-screenshots")
            ? [] : screenshots.isEmpty ? nil : try RejectionRequest.checkedScreenshots(screenshots)
        guard type != nil || impact != nil || note != nil || newScreenshots != nil else {
            throw PluginCommandError.invalidValue(
                "--type", "say what to change: --type, --impact, --note or --screenshot (see hooray help recovery edit)"
            )
        }
        let book = context.records(of: Rejection.self)
        let found = try await book.find(idPrefix: command.value("id") ?? "", listedBy: "`hooray recovery list`")
        let updated = try await book.update(found.recordID) { stored -> Rejection in
            if let type { stored.type = type }
            if let impact { stored.impact = impact }
            if let note { stored.note = note }
            if let newScreenshots { stored.screenshots = newScreenshots }
            return stored
        }
        guard var rejection = updated else {
            throw PluginCommandError("that rejection was deleted meanwhile; nothing was changed")
        }
        rejection = try await alignFollowUp(of: rejection, context: context, configuration: configuration)
        let zone = command.environment.timeZone
        var text = "Updated.\n" + RejectionListView.text([rejection], now: context.now, timeZone: zone, filtered: true)
        if let due = rejection.followUpDue, due > context.now, found.followUpDue == nil {
            text += "\nI'll check on you \(Self.when(due, from: context.now, in: zone))."
        } else if found.followUpDue != nil, rejection.followUpDue == nil {
            text += "\nNo follow-up for this one now."
        }
        return CommandReply(text: text, json: try JSONValue(encoding: RejectionView(rejection)))
    }

    /// Gives a rejection the follow-up its impact earns now, or takes it out of its follow-up.
    ///
    /// - Returns: The rejection as saved.
    func alignFollowUp(of rejection: Rejection, context: PluginContext, configuration: RecoveryConfiguration)
        async throws -> Rejection
    {
        let book = context.records(of: Rejection.self)
        let wants = !rejection.isRecovered && rejection.impact >= configuration.followUpMinImpact
        if wants, rejection.followUpGroup == nil {
            let due = rejection.happenedAt.addingTimeInterval(Double(configuration.followUpAfter.seconds))
            guard due >= context.now else { return rejection }
            let joined = try await followUpToJoin(
                dueAt: due, after: Double(configuration.followUpAfter.seconds), context: context)
            let group = joined?.group ?? rejection.id
            let at = joined?.due ?? due
            guard
                let saved = try await book.update(
                    rejection.recordID,
                    { stored -> Rejection in
                        stored.followUpGroup = group
                        stored.followUpDue = at
                        return stored
                    })
            else { return rejection }
            return try await planFollowUp(of: saved, group: group, at: at, ownDue: due, context: context)
        }
        if !wants, let group = rejection.followUpGroup, (rejection.followUpDue ?? .distantPast) > context.now {
            let saved = try await book.update(rejection.recordID) { stored -> Rejection in
                stored.followUpGroup = nil
                stored.followUpDue = nil
                stored.followUpShown = nil
                return stored
            }
            try await cancelFollowUpIfDone(group: group, context: context)
            return saved ?? rejection
        }
        return rejection
    }
}

/// `hooray recovery list` as text: one rejection a line, newest first.
enum RejectionListView {
    /// The table, or a friendly line when there is nothing to list.
    static func text(_ rejections: [Rejection], now: Date, timeZone: TimeZone, filtered: Bool) -> String {
        guard !rejections.isEmpty else {
            return filtered
                ? "No rejections match. `hooray recovery list` shows them all."
                : "Nothing logged yet. When a 'no' stings, `hooray reject` takes 30 seconds."
        }
        let header = ["ID", "WHEN", "KIND", "HURT", "RECOVERED", "NOTE"]
        let rows = rejections.map { rejection -> [String] in
            [
                String(rejection.recordID.prefix(8)),
                when(rejection.happenedAt, now: now, timeZone: timeZone),
                rejection.type.label,
                "\(rejection.impact)/10 \(RecoveryCopy.face(forImpact: rejection.impact))",
                rejection.recoverySeconds.map { "in " + RecoveryFormat.duration($0) } ?? "not yet",
                TerminalText.safe(Self.oneLine(rejection.note ?? ""))
                    + (rejection.screenshots.isEmpty ? "" : " 📎\(rejection.screenshots.count)"),
            ]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { TerminalText.width($0[column]) }.max() ?? 0
        }
        return ([header] + rows).map { row in
            row.indices.map { column in
                column == row.count - 1 ? row[column] : TerminalText.padding(row[column], toWidth: widths[column])
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    /// The first 40 characters of a note's first line.
    static func oneLine(_ note: String) -> String {
        let first = note.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        return first.count > 40 ? String(first.prefix(39)) + "…" : first
    }

    /// `today 10:00`, `yesterday 21:15`, `Thu 12 Nov 09:30`: as every instant in Hooray's text.
    static func when(_ instant: Date, now: Date, timeZone: TimeZone) -> String {
        Schedule.localDayAndTime(instant, in: timeZone, now: now)
    }
}
