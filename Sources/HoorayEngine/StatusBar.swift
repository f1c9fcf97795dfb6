import Foundation
import HoorayKit
import HoorayStorage
import Logging

/// What a status bar shows, before it is formatted: the next reminder that will be shown and every
/// active plugin's ``BarItem``s. `hoorayd` answers it to the control method `bar`; `hooray bar`
/// computes it itself while `hoorayd` is not running.
public struct BarSnapshot: Codable, Sendable, Equatable {
    /// The earliest reminder that will be shown.
    public var next: Next?
    /// Every active plugin's items, by plugin name.
    public var items: [Part]
    /// Whether the notification server is in do-not-disturb.
    public var doNotDisturb: Bool

    /// A reminder to come.
    public struct Next: Codable, Sendable, Equatable {
        /// Its title.
        public var title: String
        /// Its plugin.
        public var plugin: String
        /// When it is due.
        public var due: Date

        /// Creates one.
        public init(title: String, plugin: String, due: Date) {
            self.title = title
            self.plugin = plugin
            self.due = due
        }
    }

    /// One item, with the plugin that offered it.
    public struct Part: Codable, Sendable, Equatable {
        /// The plugin's name.
        public var plugin: String
        /// The item.
        public var item: BarItem

        /// Creates one.
        public init(plugin: String, item: BarItem) {
            self.plugin = plugin
            self.item = item
        }

        enum CodingKeys: String, CodingKey { case plugin, text, tooltip, streak, progress }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            plugin = try container.decode(String.self, forKey: .plugin)
            item = BarItem(
                text: try container.decode(String.self, forKey: .text),
                tooltip: try container.decodeIfPresent(String.self, forKey: .tooltip) ?? "",
                streak: try container.decodeIfPresent(BarStreak.self, forKey: .streak),
                progress: try container.decodeIfPresent(BarProgress.self, forKey: .progress))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(plugin, forKey: .plugin)
            try container.encode(item.text, forKey: .text)
            try container.encode(item.tooltip, forKey: .tooltip)
            try container.encodeIfPresent(item.streak, forKey: .streak)
            try container.encodeIfPresent(item.progress, forKey: .progress)
        }
    }

    enum CodingKeys: String, CodingKey {
        case next, items
        case doNotDisturb = "do_not_disturb"
    }

    /// Creates a snapshot.
    public init(next: Next? = nil, items: [Part] = [], doNotDisturb: Bool = false) {
        self.next = next
        self.items = items
        self.doNotDisturb = doNotDisturb
    }

    /// How long before a reminder the bar says it is due soon (class `due-soon`).
    public static let dueSoonWindow: TimeInterval = 15 * 60

    /// The next instant after `now` at which the line changes by the clock alone: local midnight
    /// (today's counts start again), the start of the next reminder's due-soon window, or just
    /// after the reminder itself.
    public func nextChange(after now: Date, timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let midnight =
            calendar.nextDate(
                after: now, matching: DateComponents(hour: 0, minute: 0, second: 0), matchingPolicy: .nextTime)
            ?? now.addingTimeInterval(86_400)
        var candidates = [midnight]
        if let due = next?.due {
            candidates += [due.addingTimeInterval(-Self.dueSoonWindow), due.addingTimeInterval(1)]
        }
        return candidates.filter { $0 > now }.min() ?? midnight
    }
}

extension Engine {
    /// What a status bar shows now: the earliest reminder that will be shown (as `hooray next`
    /// lists it) and every active plugin's items. A plugin that fails or takes too long is left
    /// out and logged.
    public func barSnapshot() async -> BarSnapshot {
        let active = plugins
        let next = await nextShownReminder()
        var parts: [BarSnapshot.Part] = []
        for name in active.keys.sorted() {
            guard let plugin = active[name], let setup = lastSetups.first(where: { $0.plugin.name == name }) else {
                continue
            }
            let context = makeContext(for: name)
            do {
                let items = try await withTimeLimit(settings.pluginTimeLimit) {
                    try await plugin.barItems(context: context, erasedConfiguration: setup.configuration)
                }
                parts += items.map { BarSnapshot.Part(plugin: name, item: $0) }
            } catch {
                logger.error("plugin \(name) could not say what goes on the status bar: \(error)")
            }
        }
        return BarSnapshot(next: next, items: parts, doNotDisturb: doNotDisturbState.isOn)
    }
}

extension HoorayPlugin {
    /// The plugin's bar items, with a configuration whose type was erased on its way through the host.
    func barItems(context: PluginContext, erasedConfiguration: any Sendable) async throws -> [BarItem] {
        guard let typed = erasedConfiguration as? Configuration else {
            throw ConfigurationMismatch(plugin: name)
        }
        return try await barItems(context: context, configuration: typed)
    }
}

/// One status-bar line, formatted for a bar: waybar, i3blocks, polybar, or plain text.
public struct BarLine: Sendable, Equatable {
    /// The line itself, such as `⏰ Stretch 15:00  🏆 2  ✅ 1/2  🔥 12`.
    public var text: String
    /// Longer lines for a tooltip, joined by newlines.
    public var tooltip: String
    /// `stopped` (hoorayd is not running), `due-soon` (a reminder within 15 minutes), `quiet`
    /// (do-not-disturb is on) or `idle`.
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

    /// Builds the line.
    ///
    /// - Parameters:
    ///   - snapshot: What to show.
    ///   - running: Whether `hoorayd` is running (otherwise the line says it is stopped).
    ///   - now: The current instant.
    ///   - timeZone: The user's time zone, for the reminder's time.
    public init(_ snapshot: BarSnapshot, running: Bool, now: Date, timeZone: TimeZone) {
        var parts: [String] = []
        var tips: [String] = []
        if let next = snapshot.next {
            let title = Self.oneLine(next.title, limit: Self.maxTitle)
            let when = Self.time(next.due, now: now, timeZone: timeZone)
            parts.append("⏰ \(title) \(when)")
            tips.append("Next at \(when): \(title)")
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
        if snapshot.doNotDisturb { tips.append("Do not disturb is on: notices wait in `hooray inbox`") }
        if !running {
            tips.append("hoorayd is not running, so reminders wait until it starts (systemctl --user start hooray)")
        }
        let progress = snapshot.items.compactMap(\.item.progress)
        let due = progress.map(\.due).reduce(0, +)
        let done = progress.map(\.done).reduce(0, +)
        text = parts.joined(separator: "  ")
        tooltip = tips.joined(separator: "\n")
        percentage = due > 0 ? min(100, max(0, Int((Double(done) * 100 / Double(due)).rounded()))) : 0
        if !running {
            cssClass = "stopped"
        } else if let next = snapshot.next, next.due.timeIntervalSince(now) <= BarSnapshot.dueSoonWindow {
            cssClass = "due-soon"
        } else if snapshot.doNotDisturb {
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

    /// `15:00` today, `tomorrow 08:30`, else `Wed 08:30`.
    static func time(_ date: Date, now: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "HH:mm"
        let clock = formatter.string(from: date)
        if calendar.isDate(date, inSameDayAs: now) { return clock }
        if let tomorrow = calendar.date(byAdding: .day, value: 1, to: now), calendar.isDate(date, inSameDayAs: tomorrow)
        {
            return "tomorrow \(clock)"
        }
        formatter.dateFormat = "EEE HH:mm"
        return formatter.string(from: date)
    }
}

/// How `hoorayd` keeps status bars that follow it (`hooray bar --follow`) up to date: pushed on
/// every change the engine publishes, and on the clock alone only when the line changes by it.
enum StatusBarFeed {
    /// The answers for one follower: a snapshot now, and one after every change, until the
    /// follower goes away (the stream is then cancelled and its subscription ends).
    static func answers(engine: Engine) -> AsyncStream<ControlResponse> {
        let changes = engine.changes.subscribe()
        let (stream, continuation) = AsyncStream.makeStream(
            of: ControlResponse.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            continuation.yield(ControlResponse(ok: true, bar: await engine.barSnapshot()))
            for await _ in changes {
                continuation.yield(ControlResponse(ok: true, bar: await engine.barSnapshot()))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// One wall-clock timer to the next instant the line changes by the clock alone — local
    /// midnight, when today's counts start again, or the next reminder's due-soon window — which
    /// then publishes a change; it is set again after every change. Not a polling loop: between
    /// those instants nothing wakes.
    static func clock(engine: Engine, logger: Logger) -> Task<Void, Never> {
        let alarm: WallClockAlarm
        do {
            alarm = try WallClockAlarm()
        } catch {
            logger.warning("status bars will not turn over at midnight by themselves: \(error)")
            return Task {}
        }
        let changes = engine.changes.subscribe()
        return Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    alarm.set(deadline: await engine.nextBarChange())
                    for await _ in changes {
                        alarm.set(deadline: await engine.nextBarChange())
                    }
                }
                group.addTask {
                    for await _ in alarm.stream {
                        if Task.isCancelled { break }
                        engine.changes.publish()
                    }
                }
                await group.waitForAll()
            }
            alarm.shutdown()
        }
    }
}

extension Engine {
    /// When a status bar's line next changes by the clock alone (``BarSnapshot/nextChange(after:timeZone:)``);
    /// the plugins are not asked.
    func nextBarChange() async -> Date {
        let now = clock.now
        return BarSnapshot(next: await nextShownReminder()).nextChange(after: now, timeZone: timeZone)
    }

    /// The earliest reminder that will be shown: of an active plugin, not held, not internal —
    /// what `hooray next` lists first.
    func nextShownReminder() async -> BarSnapshot.Next? {
        let rules = (try? await database.rules()) ?? []
        for rule in rules {
            guard let due = rule.nextDue else { break }
            guard plugins[rule.plugin] != nil, !isHeld(rule.plugin), rule.reminder.notShownReason(at: due) == nil
            else { continue }
            return BarSnapshot.Next(title: rule.reminder.notice.title, plugin: rule.plugin, due: due)
        }
        return nil
    }
}
