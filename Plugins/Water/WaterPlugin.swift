import Foundation
import HoorayKit

/// A glass of water every two hours, and a celebration when the day reaches its goal.
///
/// The example plugin of the article "Writing a Hooray plugin", off until the user enables it:
///
/// ```toml
/// [plugins.water]
/// enabled = true
/// ```
///
/// Each reminder time is a daily reminder of its own, with a "Drank a glass" button. Glasses are
/// counted per day in the user's time zone, from the button or with `hooray water drink`; once the
/// day reaches its goal the plugin celebrates, once, and leaves the rest of the day in peace.
public struct WaterPlugin: HoorayPlugin {
    public typealias Configuration = WaterConfiguration

    /// Creates the plugin.
    public init() {}

    public var name: String { "water" }
    public var summary: String { "A glass of water every two hours, and a cheer at your daily goal" }
    public var isEnabledByDefault: Bool { false }

    /// The reminders' button.
    static let drank = NoticeAction(id: "drank", label: "Drank a glass")

    /// The time between two reminders.
    static let interval: TimeInterval = 2 * 3600

    // MARK: Reminders

    public func activate(context: PluginContext, configuration: WaterConfiguration) async throws {
        // The goal travels with each reminder as its payload, for `reminderDue` and the button,
        // which are not handed the configuration.
        let goal = try JSONValue(encoding: configuration.goal)
        let reminders = configuration.times.map { time in
            Reminder(
                id: "glass-\(time)", schedule: .daily(at: time, zone: context.timeZone),
                notice: Notice(
                    title: "A glass of water?", body: "A few sips count too.", urgency: .low, actions: [Self.drank],
                    category: "hooray.water"),
                payload: goal)
        }
        try await context.reminders.replaceAll(with: reminders)
    }

    public func reminderDue(_ due: DueReminder, context: PluginContext) async throws -> Notice? {
        // After a sleep, only the latest missed reminder is worth showing: the others were followed by another.
        if due.isCatchUp && context.now >= due.dueAt.addingTimeInterval(Self.interval) { return nil }
        let goal = try Self.goal(in: due.reminder.payload)
        let glasses = try await glasses(on: LocalDate(instant: due.dueAt, in: context.timeZone), context: context)
        // The goal is reached: no more reminders today.
        guard glasses < goal else { return nil }
        var notice = due.reminder.notice
        if glasses > 0 { notice.body = "\(glasses) of \(goal) so far today. " + notice.body }
        return notice
    }

    public func actionInvoked(_ action: InvokedAction, context: PluginContext) async throws {
        guard action.actionID == Self.drank.id else { return }
        let today = LocalDate(instant: context.now, in: context.timeZone)
        _ = try await drink(1, on: today, goal: try Self.goal(in: action.payload), context: context)
    }

    /// The goal a reminder carries as its payload.
    static func goal(in payload: JSONValue?) throws -> Int {
        try payload?.decode(Int.self) ?? WaterConfiguration().goal
    }

    // MARK: Counting

    /// Counts glasses on a day, and celebrates when they reach the goal.
    ///
    /// - Returns: The day's glasses now, and the celebration's line when this drink reached the goal.
    func drink(_ glasses: Int, on day: LocalDate, goal: Int, context: PluginContext) async throws
        -> (glasses: Int, celebration: String?)
    {
        // One step that no other writer interleaves with: the daemon may count a button press meanwhile.
        let stored = try await context.storage.modify(forKey: Self.key(day)) { data in
            try JSONEncoder().encode(Self.glasses(in: data) + glasses)
        }
        let total = try Self.glasses(in: stored)
        // Counts only grow, one step at a time, so exactly one drink crosses the goal: celebrated once a day.
        guard total >= goal, total - glasses < goal else { return (total, nil) }
        let outcome = try await context.celebrations.celebrate(
            Celebration(size: .big, title: "\(goal) glasses of water today", detail: "That's your goal. Cheers!"))
        return (total, outcome.line)
    }

    /// The glasses counted on a day.
    func glasses(on day: LocalDate, context: PluginContext) async throws -> Int {
        try Self.glasses(in: await context.storage.data(forKey: Self.key(day)))
    }

    /// The storage key of a day's count, such as `glasses.2026-11-23`.
    static func key(_ day: LocalDate) -> String { "glasses.\(day)" }

    static func glasses(in data: Data?) throws -> Int {
        try data.map { try JSONDecoder().decode(Int.self, from: $0) } ?? 0
    }
}
