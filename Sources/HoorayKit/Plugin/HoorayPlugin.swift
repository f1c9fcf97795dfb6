import Foundation

/// A Hooray plugin: code that schedules reminders and posts notices.
///
/// A plugin is a small `Sendable` value. The daemon calls ``activate(context:configuration:)``
/// when it starts and again after every successful configuration reload; the plugin then brings
/// its reminders in line with its configuration. When one of its reminders comes due the daemon
/// asks ``reminderDue(_:context:)`` for the notice to show, when a one-off reminder was missed
/// beyond its own lateness limit it calls ``reminderSkipped(_:context:)``, and when the user presses
/// one of its buttons it calls ``actionInvoked(_:context:)``.
///
/// Everything a plugin may touch comes through the ``PluginContext`` it is handed: there are no
/// global singletons. Errors a plugin throws are logged with the plugin's name and never stop the
/// daemon.
///
/// See <doc:WritingAPlugin> for a walkthrough.
public protocol HoorayPlugin: Sendable {
    /// The plugin's configuration, decoded from its `[plugins.NAME]` section.
    ///
    /// Decoding errors and unknown keys are reported with the file, line and column.
    associatedtype Configuration: Decodable & Sendable = NoConfiguration

    /// The plugin's name: lowercase letters, digits and dashes, such as `reminders`.
    ///
    /// It names the configuration section, the storage scope and the log label.
    var name: String { get }

    /// One line describing the plugin, for `hooray plugins`.
    var summary: String { get }

    /// Whether the plugin runs when its `[plugins.NAME]` section does not say `enabled`.
    ///
    /// A plugin that is off by default, such as an example or one that notifies often, runs only
    /// once the user writes `enabled = true` in its section; until then `hooray plugins` lists it
    /// as disabled and its commands say how to enable it. The default is `true`.
    var isEnabledByDefault: Bool { get }

    /// A key of the plugin's section holding a list of tables (`[[plugins.NAME.KEY]]`) that the
    /// daemon may leave unread at a start, when a file holds nothing but that list and is known to be
    /// unchanged; `nil` (the default) has every file read.
    ///
    /// A plugin that names one must decode each element of the list on its own, and in ``activate(context:configuration:)``
    /// look at ``PluginContext/configurationSource``: when its list continues in unread files it
    /// keeps what it declared before (``ReminderBook/keepDeclared(key:)``) or reads the whole
    /// configuration (``ConfigurationSource/readAll(of:)``). Everywhere else the plugin is handed its
    /// configuration (its commands, its bar items) the list then lacks the entries left unread: a
    /// plugin that needs them there reads them with ``ConfigurationSource/readAll(of:)`` too.
    var deferrableList: String? { get }

    /// Brings the plugin in line with its configuration.
    ///
    /// Called when the daemon starts and after each successful reload. Schedule and cancel
    /// reminders here.
    ///
    /// - Parameters:
    ///   - context: The plugin's view of the engine.
    ///   - configuration: The decoded `[plugins.NAME]` section.
    func activate(context: PluginContext, configuration: Configuration) async throws

    /// Returns the notice to show for a reminder that came due, or `nil` to show nothing this time.
    ///
    /// The default shows the reminder's own notice.
    func reminderDue(_ due: DueReminder, context: PluginContext) async throws -> Notice?

    /// Learns that a one-off reminder was missed and will not be shown.
    ///
    /// A ``Schedule/once(at:)`` reminder that came due while the computer was off or asleep is shown
    /// once when it is back (``reminderDue(_:context:)`` sees ``DueReminder/isCatchUp``), however
    /// late — unless the reminder has its own ``Reminder/catchUpWithin`` and is later than that. Then
    /// it is skipped and this is called instead, once, so the plugin can note it or schedule something
    /// else. Repeating reminders are not reported: their next occurrence comes anyway.
    ///
    /// If `hoorayd` is killed while this runs it is called again on the next start, so make it
    /// idempotent.
    ///
    /// The default does nothing.
    ///
    /// - Parameters:
    ///   - skipped: The reminder and when it was due.
    ///   - context: The plugin's view of the engine.
    func reminderSkipped(_ skipped: SkippedReminder, context: PluginContext) async throws

    /// Handles a button the user pressed on one of the plugin's notices.
    ///
    /// The default does nothing.
    func actionInvoked(_ action: InvokedAction, context: PluginContext) async throws

    /// The types of the records the plugin keeps, so that `hooray import` can refuse a record
    /// (edited by hand, say) whose value does not read as its kind, rather than adding what the
    /// record book would then pass over. The default is none: every value is accepted.
    var recordTypes: [any PluginRecord.Type] { get }

    /// Whether a stored value is the plugin's own bookkeeping, which it writes for itself as it
    /// runs (the first day a reminder was seen, say), rather than something the user set.
    ///
    /// `hooray export` writes such values too, and `hooray import` takes the file's value for
    /// them without calling a difference a conflict: a plugin that wrote its own value again
    /// after `hooray delete-my-data` gets the one the user had back. The default is `false` for
    /// every key.
    ///
    /// - Parameter key: The value's key.
    func isBookkeeping(valueKey key: String) -> Bool

    /// Whether a stored value is a cache of this computer's, which the plugin keeps only to run
    /// well here (a rotation of recent texts, say) rather than something the user logged or chose.
    ///
    /// `hooray export` leaves such values out: an export holds the user's data. The default is
    /// `false` for every key.
    ///
    /// - Parameter key: The value's key.
    func isDeviceCache(valueKey key: String) -> Bool

}

extension HoorayPlugin {
    /// Enabled: the plugin runs unless its section says `enabled = false`.
    public var isEnabledByDefault: Bool { true }

    /// None: every file is read.
    public var deferrableList: String? { nil }

    /// Shows the reminder's own notice.
    public func reminderDue(_ due: DueReminder, context: PluginContext) async throws -> Notice? {
        due.reminder.notice
    }

    /// Does nothing.
    public func reminderSkipped(_ skipped: SkippedReminder, context: PluginContext) async throws {}

    /// Does nothing.
    public func actionInvoked(_ action: InvokedAction, context: PluginContext) async throws {}

    /// None: every imported record's value is accepted.
    public var recordTypes: [any PluginRecord.Type] { [] }

    /// None of the plugin's values is bookkeeping.
    public func isBookkeeping(valueKey key: String) -> Bool { false }

    /// None of the plugin's values is a cache: all are exported.
    public func isDeviceCache(valueKey key: String) -> Bool { false }
}

extension HoorayPlugin {
    /// A configuration whose type was erased on its way through the host, typed again.
    ///
    /// - Throws: ``ConfigurationMismatch`` when it is of another type (a host bug).
    package func typedConfiguration(_ erasedConfiguration: any Sendable) throws -> Configuration {
        guard let typed = erasedConfiguration as? Configuration else { throw ConfigurationMismatch(plugin: name) }
        return typed
    }
}

/// A plugin's decoded configuration was not of its own `Configuration` type (a host bug).
package struct ConfigurationMismatch: Error, CustomStringConvertible {
    /// The plugin's name.
    package let plugin: String
    /// What went wrong.
    package var description: String { "internal error: the configuration handed to \(plugin) has the wrong type" }
}

/// The configuration of a plugin that takes none: an empty section.
public struct NoConfiguration: Decodable, Sendable, Hashable {
    /// Creates an empty configuration.
    public init() {}
}
