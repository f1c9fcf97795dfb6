/// A reminder a plugin declares by what it is built from, so that it is built only when that changed
/// (``ReminderBook/replaceAll(declaring:)``).
///
/// A plugin that declares many reminders from its configuration, such as one for every
/// `[[plugins.reminders.reminder]]` entry, gives each its id, a digest of everything the reminder is
/// built from (``ContentDigest``), and how to build it. The engine keeps the digest beside the stored
/// reminder: at the next start a reminder whose digest is the same is neither built nor stored
/// again, and keeps its next due instant.
public struct DeclaredReminder: Sendable {
    /// The reminder's id, as the built reminder has it.
    public var id: String
    /// A digest of everything the reminder is built from; `nil` when it is built every time.
    package var sourceDigest: String?
    /// Builds the reminder; called only when no reminder with this id and digest is stored.
    package var build: @Sendable () throws -> Reminder

    /// Declares a reminder built only when its source changed.
    ///
    /// - Parameters:
    ///   - id: The reminder's id; the built reminder must have it.
    ///   - sourceDigest: A digest of everything that goes into the reminder: each value the plugin
    ///     reads from its configuration and from elsewhere (the time zone it falls back on, say).
    ///     The engine adds Hooray's version, so a newer Hooray builds every reminder once again.
    ///   - build: Builds the reminder.
    public init(id: String, sourceDigest: String, build: @escaping @Sendable () throws -> Reminder) {
        self.id = id
        self.sourceDigest = sourceDigest
        self.build = build
    }

    /// Declares a reminder built already: it is stored as given, as ``ReminderBook/replaceAll(with:)`` does.
    ///
    /// - Parameter reminder: The reminder.
    public init(_ reminder: Reminder) {
        self.id = reminder.id
        self.sourceDigest = nil
        self.build = { reminder }
    }
}
