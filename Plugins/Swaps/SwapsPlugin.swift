import Foundation
import HoorayCommandLine
import HoorayKit

/// The nightly healthy swap (seed 004, Weight Loss Coach): log a swap, get a small celebration and
/// a streak, a big one at 3, 7, 14 and 30 days; one inspiring sentence a day; Night Prep and
/// Morning Focus reminders.
public struct SwapsPlugin: CommandPlugin, StatusBarPlugin {
    public typealias Configuration = SwapsConfiguration

    public var name: String { "swaps" }
    /// What `hooray import` checks imported records against.
    public var recordTypes: [any PluginRecord.Type] { [Swap.self, Prep.self, CoachTurn.self] }
    /// The records whose first one starts Night Prep and Morning Focus: a talk with the coach does not.
    static let usageRecordTypes: [any PluginRecord.Type] = [Swap.self, Prep.self]
    public var summary: String { "Log a healthy swap (`hooray swap`), grow a streak, get daily inspiration" }

    /// Creates the plugin.
    public init() {}

    /// The Night Prep reminder's id.
    static let nightPrepReminder = "night-prep"
    /// The Morning Focus reminder's id.
    static let morningFocusReminder = "morning-focus"
}
