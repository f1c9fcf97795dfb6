import FoundationEssentials

/// What a status bar shows, before it is formatted: the next reminder that will be shown and every
/// active plugin's ``BarItem``s. `hoorayd` answers it to the control method `bar`; `hooray bar`
/// computes it itself while `hoorayd` is not running.
///
/// Everything on the line that changes by the clock alone — whether the next reminder is due soon,
/// its time as "15:00" or "tomorrow 08:30", whether quiet hours are on — is in the snapshot, computed
/// where the clock is read, so that a follower gets a new line when one of them changes.
public struct BarSnapshot: Codable, Sendable, Equatable {
    /// The earliest reminder that will be shown.
    public var next: Next?
    /// Every active plugin's items, by plugin name.
    public var items: [Part]
    /// Whether the notification server is in do-not-disturb.
    public var doNotDisturb: Bool
    /// The quiet hours on now, while they are.
    public var quietHours: Quiet?
    /// The pause of notifications (`hooray pause`) on now, while it is; its ``Quiet/until`` is when
    /// it ends.
    public var paused: Quiet?

    /// A reminder to come.
    public struct Next: Codable, Sendable, Equatable {
        /// Its title.
        public var title: String
        /// Its plugin.
        public var plugin: String
        /// When it will be shown: when it is due, or when the quiet hours it is due in end.
        public var due: Date
        /// `due` as the line says it: `15:00` today, `tomorrow 08:30`, else `Wed 08:30`; `nil` from a
        /// `hoorayd` that did not say (then the client says it).
        public var when: String?
        /// Whether it is due within ``BarSnapshot/dueSoonWindow`` and not held back (quiet hours,
        /// do-not-disturb); `nil` from a `hoorayd` that did not say.
        public var dueSoon: Bool?
        /// Why it waits past the time it is due, such as `quiet hours until 07:30` or `do not disturb
        /// is on`; `nil` when it does not.
        public var waiting: String?

        /// Creates one.
        public init(
            title: String, plugin: String, due: Date, when: String? = nil, dueSoon: Bool? = nil, waiting: String? = nil
        ) {
            self.title = title
            self.plugin = plugin
            self.due = due
            self.when = when
            self.dueSoon = dueSoon
            self.waiting = waiting
        }

        enum CodingKeys: String, CodingKey {
            case title, plugin, due, when, waiting
            case dueSoon = "due_soon"
        }
    }

    /// Quiet hours, or a pause, that are on.
    public struct Quiet: Codable, Sendable, Equatable {
        /// When they end.
        public var until: Date
        /// `until` as the tooltip says it, such as `07:30`.
        public var when: String

        /// Creates one.
        public init(until: Date, when: String) {
            self.until = until
            self.when = when
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
        case quietHours = "quiet_hours"
        case paused
    }

    /// Creates a snapshot.
    public init(
        next: Next? = nil, items: [Part] = [], doNotDisturb: Bool = false, quietHours: Quiet? = nil,
        paused: Quiet? = nil
    ) {
        self.paused = paused
        self.next = next
        self.items = items
        self.doNotDisturb = doNotDisturb
        self.quietHours = quietHours
    }
}

/// A plugin's part of the status-bar line that `hooray bar` prints, such as today's count of
/// something the user logged, or how many habits are done today.
///
/// The host builds one line from the next reminder and every plugin's items: each item's
/// ``text`` goes on the line, its ``tooltip`` becomes a line of the tooltip, the best ``streak``
/// of all items is shown once, and the ``progress`` of all items is added up into the bar's
/// percentage. Keep ``text`` to a few characters — a bar is narrow — and never shame: a zero is
/// just a zero.
///
/// ```swift
/// BarItem(text: "✅ 1/2", tooltip: "1 of 2 habits done today", progress: BarProgress(done: 1, due: 2))
/// ```
public struct BarItem: Sendable, Hashable, Codable {
    /// The short text for the line, such as `🏆 2`; empty to put nothing on the line (an item that
    /// only offers a ``streak``).
    public var text: String
    /// One line for the tooltip, such as `2 logged today`; empty for none.
    public var tooltip: String
    /// A current streak the host may show, when it is the best of all items'.
    public var streak: BarStreak?
    /// Progress the host adds up across items into the bar's percentage.
    public var progress: BarProgress?

    /// Creates an item.
    ///
    /// - Parameters:
    ///   - text: The short text for the line; empty for none.
    ///   - tooltip: One line for the tooltip; empty for none.
    ///   - streak: A current streak, if the plugin has one.
    ///   - progress: What is done of what is due today, if the plugin counts that.
    public init(text: String, tooltip: String = "", streak: BarStreak? = nil, progress: BarProgress? = nil) {
        self.text = text
        self.tooltip = tooltip
        self.streak = streak
        self.progress = progress
    }
}

/// A current streak shown in the status bar: how many days, and of what.
public struct BarStreak: Sendable, Hashable, Codable {
    /// The streak's length in days.
    public var days: Int
    /// What the streak is of, such as a habit's name, for the tooltip.
    public var name: String

    /// Creates a streak.
    ///
    /// - Parameters:
    ///   - days: The streak's length in days.
    ///   - name: What the streak is of, such as a habit's name.
    public init(days: Int, name: String) {
        self.days = days
        self.name = name
    }
}

/// How much of what is due today is done, for the status bar's percentage.
public struct BarProgress: Sendable, Hashable, Codable {
    /// How many are done today.
    public var done: Int
    /// How many are due today.
    public var due: Int

    /// Creates progress.
    ///
    /// - Parameters:
    ///   - done: How many are done today.
    ///   - due: How many are due today.
    public init(done: Int, due: Int) {
        self.done = done
        self.due = due
    }
}
