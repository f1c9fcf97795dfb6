import Foundation
import HoorayEngine
import HoorayKit
import HoorayStorage
import HoorayTerminal
import HoorayText

/// Formatting of the CLI's text output.
enum Output {
    /// A plain-text table with left-aligned columns, sized to their content in terminal cells.
    ///
    /// Cells are made safe for the terminal (`TerminalText.safe(_:multiline:)`) and measured by
    /// `TerminalText.width(_:)`, so a title with an emoji or wide letters keeps the columns aligned.
    struct Table {
        let headers: [String]
        var rows: [[String]] = []

        init(headers: [String]) { self.headers = headers }

        mutating func add(_ row: [String]) { rows.append(row.map { TerminalText.safe($0) }) }

        func render() -> String {
            let all = [headers] + rows
            let widths = headers.indices.map { column in all.map { TerminalText.width($0[column]) }.max() ?? 0 }
            return all.map { row in
                row.enumerated().map { index, cell in
                    index == row.count - 1 ? cell : TerminalText.padding(cell, toWidth: widths[index])
                }.joined(separator: "  ")
            }.joined(separator: "\n")
        }
    }

    /// A local time, relative where that reads better: `today 15:00`, `tomorrow 08:30`, `Wed 25 Nov 15:00`.
    static func when(_ date: Date, now: Date = Date(), calendar: Calendar = .current) -> String {
        let time = format(date, "HH:mm")
        if calendar.isDate(date, inSameDayAs: now) { return "today \(time)" }
        if let tomorrow = calendar.date(byAdding: .day, value: 1, to: now), calendar.isDate(date, inSameDayAs: tomorrow)
        {
            return "tomorrow \(time)"
        }
        if let yesterday = calendar.date(byAdding: .day, value: -1, to: now),
            calendar.isDate(date, inSameDayAs: yesterday)
        {
            return "yesterday \(time)"
        }
        if calendar.component(.year, from: date) == calendar.component(.year, from: now) {
            return format(date, "EEE d MMM HH:mm")
        }
        return format(date, "EEE d MMM yyyy HH:mm")
    }

    static func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }

    /// The same JSON with every member name in camelCase: `next_due` → `nextDue`.
    static func camelCased(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                Dictionary(
                    members.map { key, nested in
                        let words = key.split(separator: "_")
                        let name = (words.first.map(String.init) ?? "") + words.dropFirst().map(\.capitalized).joined()
                        return (name, camelCased(nested))
                    }, uniquingKeysWith: { first, _ in first }))
        case .array(let items): return .array(items.map(camelCased))
        default: return value
        }
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        try TerminalJSON.text(value)
    }

    /// One line per reason notices wait for, as the last delivery attempts gave them; the notices'
    /// ids are named when there is more than one reason.
    static func inboxReasons(_ notices: [StoredNotice]) -> [String] {
        var reasons: [String] = []
        var ids: [String: [NoticeID]] = [:]
        for stored in notices where stored.state == .pending && stored.heldBecause == nil {
            guard let reason = stored.lastError else { continue }
            if ids[reason] == nil { reasons.append(reason) }
            ids[reason, default: []].append(stored.id)
        }
        return reasons.map { reason in
            let which =
                reasons.count > 1 ? " (\(ids[reason, default: []].map { "#\($0)" }.joined(separator: ", ")))" : ""
            return "Waiting for a notification server\(which): \(TerminalText.safe(reason))"
        }
    }

    /// Why notices are held back (quiet hours, do-not-disturb), once per reason.
    static func heldReasons(_ notices: [StoredNotice]) -> [String] {
        var reasons: [String] = []
        for stored in notices where stored.state == .pending {
            if let reason = stored.heldBecause, !reasons.contains(reason) { reasons.append(reason) }
        }
        return reasons.map { "Held back: \(TerminalText.safe($0))" }
    }

    /// One notice as `hooray inbox` prints it; its text is made safe for the terminal.
    static func inboxEntry(_ stored: StoredNotice) -> String {
        let state: String
        switch stored.state {
        case .pending:
            state = stored.heldBecause.map { "waiting: \($0)" } ?? "waiting"
        case .digested:
            state =
                "shown in digest #\(stored.digestID.map(\.description) ?? "?") \(stored.deliveredAt.map { when($0) } ?? "")"
        case .sending: state = "being shown"
        case .delivered: state = "shown \(stored.deliveredAt.map { when($0) } ?? "")"
        case .unconfirmed: state = "may not have been shown (hoorayd stopped while showing it)"
        }
        let title = TerminalText.safe(stored.notice.title)
        var lines = ["#\(stored.id)  \(when(stored.createdAt))  \(title)  [\(stored.plugin), \(state)]"]
        if !stored.notice.body.isEmpty {
            lines += TerminalText.safe(stored.notice.body, multiline: true)
                .split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }
        }
        if !stored.notice.actions.isEmpty {
            let buttons = stored.notice.actions.map {
                "\(TerminalText.safe($0.label)) (`hooray act \(stored.id) \(TerminalText.safe($0.id))`"
                    + ($0.prompt == nil ? ")" : ", asks a question)")
            }
            lines.append("    buttons: " + buttons.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    static let reminderExample = """
        [[plugins.reminders.reminder]]
        title = "Stretch"
        body = "Stand up and roll your shoulders."
        at = "15:00"
        days = "mon-fri"
        """
}
