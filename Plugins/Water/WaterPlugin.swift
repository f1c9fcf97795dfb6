import Foundation
import HoorayCalendar
import HoorayCommandLine
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
public struct WaterPlugin: CommandPlugin {
    public typealias Configuration = WaterConfiguration

    /// Creates the plugin.
    public init() {}

    public var name: String { "water" }
    public var summary: String { "A glass of water every two hours, and a cheer at your daily goal" }
    public var isEnabledByDefault: Bool { false }
    /// What `hooray import` checks imported records against.
    public var recordTypes: [any PluginRecord.Type] { [Drink.self] }

    /// The reminders' button.
    static let drank = NoticeAction(id: "drank", label: "Drank a glass")

    /// The time between two reminders.
    static let interval: TimeInterval = 2 * 3600

    // MARK: Reminders

    public func activate(context: PluginContext, configuration: WaterConfiguration) async throws {
        let reminders = configuration.times.map { time in
            Reminder(
                id: "glass-\(time)", schedule: .daily(at: time, zone: context.timeZone),
                notice: Notice(
                    title: "A glass of water?", body: "A few sips count too.", urgency: .low, actions: [Self.drank],
                    category: "hooray.water"))
        }
        try await context.reminders.replaceAll(with: reminders)
    }

    public func reminderDue(_ due: DueReminder, context: PluginContext) async throws -> Notice? {
        // After a sleep, only the latest missed reminder is worth showing: the others were followed by another.
        if due.isCatchUp && context.now >= due.dueAt.addingTimeInterval(Self.interval) { return nil }
        let goal = try context.configuration(of: self).goal
        let day = LocalDate(instant: due.dueAt, in: context.timeZone)
        let glasses = try await glasses(on: day, in: context.timeZone, context: context)
        // The goal is reached: no more reminders today.
        guard glasses < goal else { return nil }
        var notice = due.reminder.notice
        if glasses > 0 { notice.body = "\(glasses) of \(goal) so far today. " + notice.body }
        return notice
    }

    public func actionInvoked(_ action: InvokedAction, context: PluginContext) async throws {
        guard action.actionID == Self.drank.id else { return }
        let goal = try context.configuration(of: self).goal
        _ = try await drink(1, goal: goal, timeZone: context.timeZone, context: context)
    }

    // MARK: Counting

    /// Counts glasses drunk now, and celebrates when they bring the day to its goal.
    ///
    /// - Parameters:
    ///   - glasses: How many glasses.
    ///   - goal: The glasses a day worth a celebration.
    ///   - timeZone: The user's time zone, where the day starts and ends.
    ///   - context: The plugin's context.
    /// - Returns: The day's glasses now, and the celebration's line when the goal was reached.
    func drink(_ glasses: Int, goal: Int, timeZone: TimeZone, context: PluginContext) async throws
        -> (glasses: Int, celebration: String?)
    {
        try await context.records(of: Drink.self).insert(Drink(drunkAt: context.now, glasses: glasses))
        let today = LocalDate(instant: context.now, in: timeZone)
        let total = try await self.glasses(on: today, in: timeZone, context: context)
        guard total >= goal else { return (total, nil) }
        // The daemon may count a button press meanwhile: whoever first sees the goal reached claims the
        // day's celebration, in one step that no other writer interleaves with, so it happens once a day.
        let claim = Data(UUID().uuidString.utf8)
        let claimed = try await context.storage.modify(forKey: "celebrated.\(today)") { $0 ?? claim }
        guard claimed == claim else { return (total, nil) }
        let outcome = await context.celebrate(
            Celebration(size: .big, title: "\(goal) glasses of water today", detail: "That's your goal. Cheers!"))
        return (total, outcome?.line)
    }

    /// The glasses counted on a day of the user's time zone.
    func glasses(on day: LocalDate, in timeZone: TimeZone, context: PluginContext) async throws -> Int {
        let drinks = try await context.records(of: Drink.self).records(on: day, in: timeZone)
        return drinks.reduce(0) { $0 + $1.glasses }
    }
}

/// Glasses counted at once: one record for each `hooray water drink` or press of the button.
struct Drink: PluginRecord, Identifiable {
    static let recordKind = "drink"

    var id = UUID()
    /// When they were counted.
    var drunkAt: Date
    /// How many glasses.
    var glasses: Int

    /// Filed under the instant, which falls on the day of whoever looks.
    var recordDate: RecordDate { .instant(drunkAt) }
}
