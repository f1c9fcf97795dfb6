import Foundation
import HoorayCalendar
import HoorayKit

/// When one of a plugin's recurring notices — a daily check-in, a morning plan — starts, as its
/// configuration says.
///
/// A fresh install is calm: it shows a welcome and nothing else until the user does something. So
/// a plugin's recurring notices start on the user's first use of that plugin (see
/// ``RecurringNotices``), unless the user switched them on in its `[plugins.NAME]` section. A
/// setting that turns a notice off is separate, and always wins.
public enum RecurringNoticeStart: Sendable, Hashable {
    /// From the user's first use of the plugin: the default, when the configuration says nothing.
    case onFirstUse
    /// At once: the user switched the notice on in the configuration, such as `checkin = true`.
    case now

    /// Whether the notice is on, given whether the plugin's recurring notices have started.
    ///
    /// - Parameter started: What ``RecurringNotices/haveStarted(context:recordTypes:)`` says.
    /// - Returns: `true` when switched on, or when the user has used the plugin.
    public func isOn(started: Bool) -> Bool {
        self == .now || started
    }
}

/// The rule that a plugin's recurring notices start when the user first uses the plugin.
///
/// Nothing recurring on install: a plugin schedules its daily notices in
/// `HoorayPlugin.activate(context:configuration:)` only once ``haveStarted(context:recordTypes:)``
/// says so, or the user switched them on (``RecurringNoticeStart/now``). The first command that
/// uses the plugin — one that saves its first record — calls ``start(context:)``, schedules them
/// right away (so `hooray next` lists them, whether `hoorayd` or `hooray` ran the command) and ends
/// its reply with ``startedLine(_:section:configurationFile:)``, which says what is now scheduled
/// and how to turn it off:
///
/// ```swift
/// let started = try await RecurringNotices.haveStarted(context: context, recordTypes: recordTypes)
/// try await book.insert(entry)
/// try await RecurringNotices.start(context: context)
/// if !started {
///     try await activate(context: context, configuration: configuration)
///     reply.text += "\n" + RecurringNotices.startedLine(
///         [.init(name: "a check-in", at: configuration.checkInAt, turnOff: "checkin = false")],
///         section: "plugins.\(name)", configurationFile: context.configurationFile)
/// }
/// ```
///
/// The note is a value in the plugin's storage (``startedKey``), so it travels in an export and
/// `hooray delete-my-data` removes it: after that the plugin is calm again. A user whose data
/// predates the note — any record of the plugin, also one imported — counts as started.
public enum RecurringNotices {
    /// The key of the plugin's storage (`PluginContext.storage`) noting that its recurring
    /// notices started.
    public static let startedKey = "reminders.started"

    /// The bytes stored under ``startedKey``; usable with `RecordBook.insert(_:announcing:storing:)`
    /// to note the start in the same step as the first record.
    public static let startedValue = Data("true".utf8)

    /// Whether the plugin's recurring notices have started: ``start(context:)`` noted it, or the
    /// plugin keeps a record of one of `recordTypes` (the user used it before the note existed, or
    /// imported their data).
    ///
    /// - Parameters:
    ///   - context: The plugin's context.
    ///   - recordTypes: The kinds of record whose presence shows that the user used the plugin,
    ///     usually `HoorayPlugin.recordTypes`.
    /// - Returns: Whether they have started.
    public static func haveStarted(context: PluginContext, recordTypes: [any PluginRecord.Type]) async throws
        -> Bool
    {
        if try await context.storage.data(forKey: startedKey) != nil { return true }
        for type in recordTypes {
            let first = try await context.recordStore.recordsPage(kind: type.recordKind, after: nil, limit: 1)
            if !first.isEmpty { return true }
        }
        return false
    }

    /// Notes that the plugin's recurring notices have started; noting it again changes nothing.
    ///
    /// - Parameter context: The plugin's context.
    public static func start(context: PluginContext) async throws {
        try await context.storage.modify(forKey: startedKey) { $0 ?? startedValue }
    }

    /// One recurring notice that the first use scheduled, for ``startedLine(_:section:configurationFile:)``.
    public struct Started: Sendable, Hashable {
        /// What it is, as it reads in a sentence, such as `a check-in` or `Night Prep`.
        public var name: String
        /// When it comes each day.
        public var at: TimeOfDay
        /// The setting that turns it off, as written in the section, such as `checkin = false`.
        public var turnOff: String

        /// Creates one.
        ///
        /// - Parameters:
        ///   - name: What it is, as it reads in a sentence.
        ///   - at: When it comes each day.
        ///   - turnOff: The setting that turns it off.
        public init(name: String, at: TimeOfDay, turnOff: String) {
            self.name = name
            self.at = at
            self.turnOff = turnOff
        }
    }

    /// The one line a first use prints: what is now scheduled, and how to turn it off.
    ///
    /// "Now scheduled: a check-in at 20:00 and today's challenge at 09:00, each day. To turn them
    /// off, set checkin = false and challenge_at = "off" under [plugins.recovery] in
    /// /home/u/.config/hooray/hooray.toml."
    ///
    /// - Parameters:
    ///   - notices: What started, in the order to name them; at least one.
    ///   - section: The plugin's section, such as `plugins.recovery`.
    ///   - configurationFile: The user's configuration file (`PluginContext.configurationFile`);
    ///     `nil` names `your hooray.toml`.
    /// - Returns: The line.
    public static func startedLine(_ notices: [Started], section: String, configurationFile: String?) -> String {
        let what = listed(notices.map { "\($0.name) at \($0.at)" })
        let settings = listed(notices.map(\.turnOff))
        let them = notices.count == 1 ? "it" : "them"
        let file = configurationFile ?? "your hooray.toml"
        return "Now scheduled: \(what), each day. To turn \(them) off, set \(settings) under [\(section)] in \(file)."
    }

    /// A command's reply with ``startedLine(_:section:configurationFile:)`` as its last line, or the
    /// reply as it is when nothing started.
    ///
    /// The line is said once, so it must reach the user whatever they asked for: with `--json` it
    /// goes to standard error (`CommandReply.warnings`), leaving the JSON as it is.
    ///
    /// - Parameters:
    ///   - notices: What started, in the order to name them; none leaves the reply as it is.
    ///   - reply: The command's reply.
    ///   - json: Whether the user asked for JSON (`CommandInvocation.json`).
    ///   - plugin: The plugin's name, which names its section (`plugins.NAME`).
    ///   - context: The plugin's context, for the user's configuration file.
    /// - Returns: The reply with the line added.
    public static func announcing(
        _ notices: [Started], in reply: CommandReply, json: Bool, plugin: String, context: PluginContext
    ) -> CommandReply {
        guard !notices.isEmpty else { return reply }
        let line = startedLine(notices, section: "plugins.\(plugin)", configurationFile: context.configurationFile)
        var shown = reply
        if json {
            shown.warnings.append(line)
        } else {
            shown.text += (shown.text.isEmpty ? "" : "\n") + line
        }
        return shown
    }

    /// `a`, `a and b`, `a, b and c`.
    static func listed(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        let rest = items.dropLast()
        return rest.isEmpty ? last : rest.joined(separator: ", ") + " and " + last
    }
}
