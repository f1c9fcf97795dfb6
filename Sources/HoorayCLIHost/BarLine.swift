import Foundation
import HoorayClient
import HoorayEngine
import HoorayKit
import HoorayText

/// One status-bar line, formatted for a bar: waybar, i3blocks, polybar, or plain text.
public struct BarLine: Sendable, Equatable {
    /// The line itself, such as `⏰ Stretch 15:00  🏆 2  ✅ 1/2  🔥 12`.
    public var text: String
    /// Longer lines for a tooltip, joined by newlines.
    public var tooltip: String
    /// `stopped` (hoorayd is not running), `due-soon` (a reminder within 15 minutes that is not held
    /// back), `quiet` (do-not-disturb or quiet hours are on, or the next reminder waits for them to
    /// end) or `idle`.
    public var cssClass: String
    /// Today's progress in percent: done of due across items, 0 without any.
    public var percentage: Int

    /// The formats `hooray bar --format` knows.
    public enum Format: String, Sendable, CaseIterable {
        /// Plain text for a terminal.
        case text
        /// One JSON object per line, for a waybar custom module with `return-type: json`.
        case waybar
        /// The line as i3blocks reads it (`full_text`), for `interval=persist`.
        case i3blocks
        /// One plain line, for a polybar `custom/script` module with `tail = true`.
        case polybar
    }

    /// The longest a reminder's title may be on the line, in characters; longer ones end with `…`.
    public static let maxTitle = 32

    /// How the line came to be, as far as `hoorayd` is concerned.
    public enum Source: Sendable, Equatable {
        /// `hoorayd` made it.
        case daemon
        /// `hoorayd` is not running: made by `hooray`, and reminders wait.
        case stopped
        /// `hoorayd` runs but is older than `hooray` and knows no status bars: made by `hooray`.
        case outdatedDaemon
        /// `hoorayd` was too busy to answer: made by `hooray`.
        case busyDaemon

        /// Whether `hoorayd` runs.
        public var running: Bool { self != .stopped }
    }

    /// The tooltip's line for a `hoorayd` older than `hooray`, which answers `bar` with "unknown method".
    public static let outdatedDaemon = "hoorayd is older than this hooray; restart it: systemctl --user restart hooray"

    /// Builds the line.
    ///
    /// - Parameters:
    ///   - snapshot: What to show.
    ///   - source: Who made the snapshot (unless `hoorayd`, the tooltip says why not).
    ///   - now: The current instant, for a snapshot that does not say when its reminder is.
    ///   - timeZone: The user's time zone, likewise.
    public init(_ snapshot: BarSnapshot, source: Source, now: Date, timeZone: TimeZone) {
        var parts: [String] = []
        var tips: [String] = []
        if let next = snapshot.next {
            let title = Self.oneLine(next.title, limit: Self.maxTitle)
            let when = Self.oneLine(next.when ?? BarSnapshot.when(next.due, now: now, timeZone: timeZone), limit: 40)
            parts.append("⏰ \(title) \(when)")
            let waiting = next.waiting.map { " (waiting: \(Self.oneLine($0, limit: 80)))" } ?? ""
            tips.append("Next at \(when): \(title)\(waiting)")
        }
        for part in snapshot.items {
            let text = Self.oneLine(part.item.text, limit: Self.maxTitle)
            if !text.isEmpty { parts.append(text) }
            let tip = Self.oneLine(part.item.tooltip, limit: 200)
            if !tip.isEmpty { tips.append(tip) }
        }
        let best = snapshot.items.compactMap(\.item.streak).filter { $0.days > 0 }.max { $0.days < $1.days }
        if let best {
            parts.append("🔥 \(best.days)")
            tips.append(
                "Best streak: \(best.days == 1 ? "1 day" : "\(best.days) days") (\(Self.oneLine(best.name, limit: Self.maxTitle)))"
            )
        }
        if parts.isEmpty { parts.append("hooray") }
        if let paused = snapshot.paused {
            parts.append("⏸")
            tips.append("Notifications paused until \(Self.oneLine(paused.when, limit: 40)) (hooray pause off)")
        }
        if let quiet = snapshot.quietHours { tips.append("Quiet hours until \(Self.oneLine(quiet.when, limit: 40))") }
        if snapshot.doNotDisturb { tips.append("Do not disturb is on: notices wait in `hooray inbox`") }
        switch source {
        case .daemon: break
        case .stopped:
            tips.append("hoorayd is not running, so reminders wait until it starts (systemctl --user start hooray)")
        case .outdatedDaemon: tips.append(Self.outdatedDaemon)
        case .busyDaemon: tips.append("hoorayd was busy, so hooray made this line itself")
        }
        let progress = snapshot.items.compactMap(\.item.progress)
        let due = progress.map(\.due).reduce(0, +)
        let done = progress.map(\.done).reduce(0, +)
        text = parts.joined(separator: "  ")
        tooltip = tips.joined(separator: "\n")
        percentage = due > 0 ? min(100, max(0, Int((Double(done) * 100 / Double(due)).rounded()))) : 0
        if !source.running {
            cssClass = "stopped"
        } else if let next = snapshot.next, next.waiting == nil,
            next.dueSoon ?? (next.due.timeIntervalSince(now) <= BarSnapshot.dueSoonWindow)
        {
            cssClass = "due-soon"
        } else if snapshot.doNotDisturb || snapshot.quietHours != nil || snapshot.paused != nil
            || snapshot.next?.waiting != nil
        {
            cssClass = "quiet"
        } else {
            cssClass = "idle"
        }
    }

    /// Creates a line from its parts, for tests.
    public init(text: String, tooltip: String, cssClass: String, percentage: Int) {
        self.text = text
        self.tooltip = tooltip
        self.cssClass = cssClass
        self.percentage = percentage
    }

    /// The line as `format` prints it, without its newline; always a single line.
    public func rendered(_ format: Format) -> String {
        switch format {
        case .text, .i3blocks:
            // Every part was put on one line and made safe when the line was built.
            return Self.singleLine(text)
        case .waybar:
            // waybar reads text and tooltip as Pango markup: what looks like a tag is escaped.
            let object: [String: Any] = [
                "text": Self.markupEscaped(text), "tooltip": Self.markupEscaped(tooltip), "class": cssClass,
                "alt": cssClass, "percentage": percentage,
            ]
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            return data.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        case .polybar:
            // polybar reads %{…} in a script's output as formatting tags.
            return Self.singleLine(text).replacingOccurrences(of: "%{", with: "% {")
        }
    }

    /// The line as `hooray bar --json` prints it: one compact object on one line, the `bar` type of
    /// docs/json.md, with the text as built (no markup escaping).
    public func json(running: Bool) -> String {
        let object: [String: Any] = [
            "text": text, "tooltip": tooltip, "class": cssClass, "percentage": percentage, "running": running,
        ]
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// `text` on one line: line breaks and tabs become spaces, controls and bidirectional overrides
    /// are neutralised, runs of spaces are one, and past `limit` characters it ends with `…`.
    public static func oneLine(_ text: String, limit: Int) -> String {
        let spaced = String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    switch scalar.value {
                    case 0x0A, 0x0D, 0x09, 0x0B, 0x0C, 0x85, 0x2028, 0x2029: " "
                    default: scalar
                    }
                }))
        let safe = TerminalText.safe(spaced).split(separator: " ", omittingEmptySubsequences: true).joined(
            separator: " ")
        guard safe.count > limit else { return safe }
        return String(safe.prefix(max(0, limit - 1))) + "…"
    }

    /// `text` with no line break, for a line made with ``init(text:tooltip:cssClass:percentage:)``.
    static func singleLine(_ text: String) -> String {
        TerminalText.safe(text).replacingOccurrences(of: "\u{240A}", with: " ")
    }

    /// `&`, `<` and `>` as Pango markup entities.
    public static func markupEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
