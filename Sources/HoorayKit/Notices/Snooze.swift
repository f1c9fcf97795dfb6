import Foundation
import HoorayCalendar

extension NoticeAction {
    /// A standard "Snooze" button, handled by the engine itself.
    ///
    /// Put it on any notice; the plugin writes no code for it. When the user presses it — on the
    /// notification, or with `hooray act ID snooze` — the engine brings the notice back once after
    /// `delay`: it keeps the snooze across restarts, lists it in `hooray next`, and never stacks
    /// two (pressing it again moves the one snooze). For a notice of a reminder, the reminder's
    /// ``HoorayPlugin/reminderDue(_:context:)`` is asked again when the snooze is due, with
    /// ``DueReminder/isSnoozed`` set, so a habit done in the meantime is not shown again. The
    /// plugin's ``HoorayPlugin/actionInvoked(_:context:)`` is not called.
    ///
    /// ```swift
    /// Notice(title: "Stretch", actions: [.snooze()])                 // "Snooze 1 h"
    /// Notice(title: "Tea", actions: [.snooze(for: .seconds(600))])   // "Snooze 10 min"
    /// ```
    ///
    /// - Parameters:
    ///   - delay: How long to put the notice off, at least a minute; an hour by default.
    ///   - label: The button's label; by default `Snooze` and the delay, such as `Snooze 1 h`.
    /// - Returns: The button: id `snooze` for an hour, `snooze-` and the delay otherwise (such as
    ///   `snooze-10m`), which is what `hooray act` takes.
    public static func snooze(for delay: Duration = Snooze.defaultDelay, label: String? = nil) -> NoticeAction {
        let seconds = max(60, Int(delay.components.seconds))
        let id =
            seconds == Snooze.seconds(of: Snooze.defaultDelay)
            ? Snooze.actionID : Snooze.actionID + "-" + ConfigDuration(seconds: seconds).description
        return NoticeAction(id: id, label: label ?? "Snooze " + Snooze.phrase(seconds: seconds))
    }

    /// How long this button puts its notice off, when it is a standard snooze button
    /// (``snooze(for:label:)``); `nil` for every other button.
    package var snoozeDelay: Duration? { Snooze.delay(ofAction: id) }
}

/// The engine's snooze: the names it uses, shared by the engine and test doubles.
///
/// Plugins attach ``NoticeAction/snooze(for:label:)`` to a notice, or call
/// ``ReminderBook/snooze(_:until:)``; the rest is the engine's.
public enum Snooze {
    /// The id of the standard snooze button: an hour. The ids `snooze` and `snooze-DURATION`
    /// (such as `snooze-10m`) are reserved for it.
    public static let actionID = "snooze"

    /// How long a snooze lasts unless the button says otherwise: an hour.
    public static let defaultDelay: Duration = .seconds(3600)

    /// The prefix of the ids of the one-off reminders that bring snoozed notices back, such as
    /// `snoozed.stretch`. Plugins cannot schedule reminders with ids starting with it.
    package static let reminderIDPrefix = "snoozed."

    /// The prefix of a snoozed notice's own key when it came from no reminder, such as `notice.12`.
    /// Plugins cannot schedule reminders with ids starting with it either: a button on such a
    /// reminder's notice would not be handed its ``InvokedAction/reminderID``.
    package static let noticeKeyPrefix = "notice."

    /// The prefixes of reminder ids the engine keeps for itself: ``reminderIDPrefix`` and
    /// ``noticeKeyPrefix``.
    package static let reservedPrefixes = [reminderIDPrefix, noticeKeyPrefix]

    /// The reserved prefix `id` starts with, or `nil` when a plugin may use it for a reminder.
    public static func reservedPrefix(of id: String) -> String? {
        reservedPrefixes.first { id.hasPrefix($0) }
    }

    /// The id of the one-off reminder that brings a snoozed reminder back: `snoozed.` and its id.
    package static func reminderID(snoozing id: String) -> String { reminderIDPrefix + id }

    /// The id of the reminder a snooze brings back, or `nil` when `id` is not a snooze's.
    public static func snoozedID(of id: String) -> String? {
        id.hasPrefix(reminderIDPrefix) ? String(id.dropFirst(reminderIDPrefix.count)) : nil
    }

    /// How long a button with this id snoozes, or `nil` when it is not a snooze button.
    ///
    /// `snooze` is ``defaultDelay``; `snooze-10m`, `snooze-2h` and the like are their duration,
    /// when it is at least a minute.
    package static func delay(ofAction id: String) -> Duration? {
        if id == actionID { return defaultDelay }
        guard id.hasPrefix(actionID + "-"), let duration = ConfigDuration(parsing: String(id.dropFirst(7))),
            duration.seconds >= 60
        else { return nil }
        return .seconds(duration.seconds)
    }

    /// Whole seconds of a duration.
    static func seconds(of duration: Duration) -> Int { Int(duration.components.seconds) }

    /// `1 h`, `10 min`, `1 h 30 min`, `1 day`, `2 days`.
    static func phrase(seconds: Int) -> String {
        let days = seconds / 86400
        let hours = seconds % 86400 / 3600
        let minutes = seconds % 3600 / 60
        var parts: [String] = []
        if days > 0 { parts.append(days == 1 ? "1 day" : "\(days) days") }
        if hours > 0 { parts.append("\(hours) h") }
        if minutes > 0 || parts.isEmpty { parts.append("\(minutes) min") }
        return parts.joined(separator: " ")
    }
}

/// A snooze that cannot be: the reminder is not there, or a plugin used an id the engine keeps.
package enum SnoozeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ``ReminderBook/snooze(_:until:)`` was given an id the plugin has no reminder for.
    case noSuchReminder(String)
    /// A plugin tried to schedule a reminder whose id starts with one of
    /// ``Snooze/reservedPrefixes``.
    case reservedID(String)

    /// What went wrong, for the plugin's developer.
    package var description: String {
        switch self {
        case .noSuchReminder(let id):
            "there is no reminder \(id) to snooze"
        case .reservedID(let id):
            "the reminder id \(id) starts with \(Snooze.reservedPrefix(of: id) ?? id), which Hooray keeps for "
                + "snoozed notices; pick another id"
        }
    }
}
