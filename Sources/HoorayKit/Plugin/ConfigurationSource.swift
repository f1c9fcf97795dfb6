/// Where a plugin's configuration came from: a digest of every configuration file, and whether part
/// of the plugin's ``HoorayPlugin/deferrableList`` was left unread.
///
/// A plugin that declares many reminders from its configuration builds a key from ``digest`` and
/// everything else its declaration depends on. When the engine still holds what was declared with
/// that key (``ReminderBook/keepDeclared(key:)``), nothing needs to be read or declared again.
public struct ConfigurationSource: Sendable {
    /// A digest of the bytes of every configuration file, their paths and Hooray's version: the
    /// same digest means the same configuration, read by the same Hooray.
    public var digest: String
    /// Whether the plugin's list continues in files that were left unread: the configuration the
    /// plugin was handed lacks their entries.
    public var listContinuesUnread: Bool
    private let readEverything: @Sendable () throws -> (configuration: any Sendable, digest: String)

    /// Creates a source. The host makes these.
    ///
    /// - Parameters:
    ///   - digest: The configuration digest.
    ///   - listContinuesUnread: Whether files holding the plugin's list were left unread.
    ///   - readAll: Reads every file and returns the plugin's decoded configuration and the digest of
    ///     what it read.
    public init(
        digest: String, listContinuesUnread: Bool,
        readAll: @escaping @Sendable () throws -> (configuration: any Sendable, digest: String)
    ) {
        self.digest = digest
        self.listContinuesUnread = listContinuesUnread
        self.readEverything = readAll
    }

    /// Reads the whole configuration after all, with nothing left unread.
    ///
    /// - Parameter plugin: The plugin asking, which names the type.
    /// - Returns: The plugin's configuration, with the whole list, and the digest of the files as they
    ///   were read now (they may have changed since ``digest`` was taken).
    /// - Throws: The configuration's errors, such as a file changed meanwhile that no longer reads.
    public func readAll<Plugin: HoorayPlugin>(
        of plugin: Plugin
    ) throws -> (configuration: Plugin.Configuration, digest: String) {
        let (configuration, digest) = try readEverything()
        guard let typed = configuration as? Plugin.Configuration else {
            throw PluginCommandError("internal error: the \(plugin.name) plugin's configuration has another type")
        }
        return (typed, digest)
    }
}
