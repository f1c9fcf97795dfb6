import Foundation

/// A notice a plugin wants shown on a schedule.
///
/// A plugin schedules reminders through ``PluginContext/reminders``. The engine stores them, works
/// out when each is next due, and shows its notice then, even after a restart or a crash, exactly
/// once per occurrence.
public struct Reminder: Sendable, Hashable, Codable {
    /// The plugin's own key for the reminder, unique within the plugin, such as `standup`.
    public var id: String
    /// When the reminder is due.
    public var schedule: Schedule
    /// What to show when it is due.
    public var notice: Notice
    /// How late an occurrence may still be shown after the computer was off or asleep.
    ///
    /// At most one missed occurrence per reminder is caught up; older ones are skipped.
    /// `nil` uses the configured default (`[scheduler] catch_up_within`) for a repeating reminder,
    /// and no limit for a ``Schedule/once(at:)`` reminder: a missed one-off is shown once when the
    /// computer is back, however late. Give a one-off a limit only when it is pointless late; when
    /// that limit is exceeded the plugin's ``HoorayPlugin/reminderSkipped(_:context:)`` is called
    /// instead.
    public var catchUpWithin: Duration?
    /// The plugin's own data about the reminder, such as which rejection a follow-up is about. The
    /// notice shown for it carries it (unless the notice has a ``Notice/payload`` of its own), and
    /// ``InvokedAction/payload`` hands it back when one of its buttons is pressed.
    public var payload: JSONValue?
    /// Whether the reminder is the plugin's own work on a schedule, which never shows its notice,
    /// such as retrying AI praise later: `hooray next` leaves it out unless asked for `--all`.
    public var isInternal: Bool
    /// Why the reminder's occurrences are held back for now, such as a paused habit: they still
    /// come due, and the plugin's ``HoorayPlugin/reminderDue(_:context:)`` shows nothing for them.
    /// `hooray next` leaves out an occurrence the hold covers unless asked for `--all`. `nil` when
    /// nothing is held back.
    public var hold: ReminderHold?

    /// Creates a reminder.
    ///
    /// - Parameters:
    ///   - id: The plugin's own key, unique within the plugin.
    ///   - schedule: When the reminder is due.
    ///   - notice: What to show.
    ///   - catchUpWithin: How late a missed occurrence may still be shown; if `nil`, the configured
    ///     default for a repeating reminder and no limit for a one-off.
    ///   - payload: The plugin's own data, handed back with a pressed button.
    ///   - isInternal: Whether it is the plugin's own work, never shown as a notice.
    ///   - hold: Why its occurrences are held back for now, if they are.
    public init(
        id: String, schedule: Schedule, notice: Notice, catchUpWithin: Duration? = nil, payload: JSONValue? = nil,
        isInternal: Bool = false, hold: ReminderHold? = nil
    ) {
        self.payload = payload
        self.id = id
        self.schedule = schedule
        self.notice = notice
        self.catchUpWithin = catchUpWithin
        self.isInternal = isInternal
        self.hold = hold
    }

    enum CodingKeys: String, CodingKey {
        case id, schedule, notice, catchUpWithin, payload, isInternal, hold
    }

    /// Decodes a reminder; one stored before ``isInternal`` and ``hold`` existed is neither.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        schedule = try container.decode(Schedule.self, forKey: .schedule)
        notice = try container.decode(Notice.self, forKey: .notice)
        catchUpWithin = try container.decodeIfPresent(Duration.self, forKey: .catchUpWithin)
        payload = try container.decodeIfPresent(JSONValue.self, forKey: .payload)
        isInternal = try container.decodeIfPresent(Bool.self, forKey: .isInternal) ?? false
        hold = try container.decodeIfPresent(ReminderHold.self, forKey: .hold)
    }

    /// Encodes the reminder; ``isInternal`` and ``hold`` only when set, so other reminders are
    /// stored as before.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(schedule, forKey: .schedule)
        try container.encode(notice, forKey: .notice)
        try container.encodeIfPresent(catchUpWithin, forKey: .catchUpWithin)
        try container.encodeIfPresent(payload, forKey: .payload)
        if isInternal { try container.encode(true, forKey: .isInternal) }
        try container.encodeIfPresent(hold, forKey: .hold)
    }

    /// Whether an occurrence due at `instant` will be shown as far as the reminder itself says:
    /// not when it is ``isInternal``, nor when its ``hold`` covers the instant.
    ///
    /// - Returns: `nil` when it will be shown; otherwise why not, in a word or two (`internal`,
    ///   or the hold's reason).
    package func notShownReason(at instant: Date) -> String? {
        if isInternal { return "internal" }
        if let hold, hold.covers(instant) { return hold.reason }
        return nil
    }
}

/// Why a reminder's occurrences are held back for now (``Reminder/hold``).
public struct ReminderHold: Sendable, Hashable, Codable {
    /// Why, in a word or two, such as `paused`.
    public var reason: String
    /// When the hold ends: occurrences at or after it are shown again; `nil` until the plugin lifts it.
    public var until: Date?

    /// Creates a hold.
    ///
    /// - Parameters:
    ///   - reason: Why, in a word or two, such as `paused`.
    ///   - until: When it ends; `nil` until the plugin lifts it.
    public init(reason: String, until: Date? = nil) {
        self.reason = reason
        self.until = until
    }

    /// Whether an occurrence due at `instant` is held back.
    package func covers(_ instant: Date) -> Bool {
        until.map { instant < $0 } ?? true
    }
}

/// A reminder as the engine holds it, with its next due instant.
public struct ScheduledReminder: Sendable, Hashable {
    /// The reminder.
    public var reminder: Reminder
    /// The next instant it is due, or `nil` when it will not be due again (a past one-off).
    public var nextDue: Date?

    /// Creates a scheduled reminder.
    public init(reminder: Reminder, nextDue: Date?) {
        self.reminder = reminder
        self.nextDue = nextDue
    }
}

/// One occurrence of a reminder that has come due.
public struct DueReminder: Sendable, Hashable {
    /// The reminder.
    public var reminder: Reminder
    /// The instant this occurrence was due.
    ///
    /// For a snoozed notice coming back it is still the instant of the occurrence that was snoozed,
    /// not the snooze's end: a habit snoozed at 23:30 for an hour is still about
    /// the day it was due.
    public var dueAt: Date
    /// `true` when the occurrence is shown late because the computer was off or asleep.
    public var isCatchUp: Bool
    /// When the user snoozed the reminder and this is its notice coming back: the instant the snooze
    /// ended. `nil` for an occurrence shown for the first time.
    ///
    /// ``reminder`` is then the reminder with the notice that was snoozed, its payload and a one-off
    /// schedule at the snooze's end; its id is the reminder's own.
    package var snoozedUntil: Date?

    /// `true` when the user snoozed the reminder and this is its notice coming back.
    public var isSnoozed: Bool { snoozedUntil != nil }

    /// Creates a due occurrence.
    ///
    /// - Parameters:
    ///   - reminder: The reminder.
    ///   - dueAt: The instant this occurrence was due.
    ///   - isCatchUp: Whether it is shown late because the computer was off or asleep.
    ///   - snoozedUntil: For a snoozed notice coming back, when the snooze ended; `nil` otherwise.
    public init(reminder: Reminder, dueAt: Date, isCatchUp: Bool = false, snoozedUntil: Date? = nil) {
        self.reminder = reminder
        self.dueAt = dueAt
        self.isCatchUp = isCatchUp
        self.snoozedUntil = snoozedUntil
    }
}

/// A one-off reminder that came due while the computer was off or asleep and was not shown, because
/// it was later than its own ``Reminder/catchUpWithin`` limit.
public struct SkippedReminder: Sendable, Hashable {
    /// The reminder.
    public var reminder: Reminder
    /// The instant it was due.
    public var dueAt: Date

    /// Creates a skipped occurrence.
    public init(reminder: Reminder, dueAt: Date) {
        self.reminder = reminder
        self.dueAt = dueAt
    }
}
