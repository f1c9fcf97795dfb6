import HoorayCalendar
import HoorayKit

/// Hooray's own settings: every section of the configuration except `[plugins]`.
///
/// The defaults written here are the built-in layer under every configuration file; a key that no
/// file sets keeps its default. `Config/hooray.toml` documents each setting.
public struct CoreSettings: Sendable, Hashable, Decodable {
    /// `[scheduler]`: when reminders fire.
    public var scheduler: Scheduler
    /// `[delivery]`: how notices reach the desktop.
    public var delivery: Delivery
    /// `[log]`: what the daemon logs.
    public var log: Log
    /// `[celebrations]`: how plugins celebrate.
    public var celebrations: Celebrations
    /// `[identity]`: where the anonymous identity is kept.
    public var identity: Identity
    /// `[storage]`: how long delivery records are kept.
    public var storage: Storage

    /// The built-in defaults.
    public static let defaults = CoreSettings()

    /// The top-level sections Hooray reads, besides `plugins`.
    public static let sectionNames = ["scheduler", "delivery", "log", "celebrations", "identity", "storage"]

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - scheduler: The `[scheduler]` section.
    ///   - delivery: The `[delivery]` section.
    ///   - log: The `[log]` section.
    ///   - celebrations: The `[celebrations]` section.
    ///   - identity: The `[identity]` section.
    ///   - storage: The `[storage]` section.
    package init(
        scheduler: Scheduler = Scheduler(), delivery: Delivery = Delivery(), log: Log = Log(),
        celebrations: Celebrations = Celebrations(), identity: Identity = Identity(), storage: Storage = Storage()
    ) {
        self.storage = storage
        self.scheduler = scheduler
        self.delivery = delivery
        self.log = log
        self.celebrations = celebrations
        self.identity = identity
    }

    private enum CodingKeys: String, CodingKey {
        case scheduler, delivery, log, celebrations, identity, storage
    }

    /// Decodes the sections, each independently so that errors in all of them are reported.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var errors = ConfigErrorCollector()
        scheduler =
            errors.attempt { try container.decodeIfPresent(Scheduler.self, forKey: .scheduler) ?? Scheduler() }
            ?? Scheduler()
        delivery =
            errors.attempt { try container.decodeIfPresent(Delivery.self, forKey: .delivery) ?? Delivery() }
            ?? Delivery()
        log = errors.attempt { try container.decodeIfPresent(Log.self, forKey: .log) ?? Log() } ?? Log()
        celebrations =
            errors.attempt {
                try container.decodeIfPresent(Celebrations.self, forKey: .celebrations) ?? Celebrations()
            } ?? Celebrations()
        identity =
            errors.attempt { try container.decodeIfPresent(Identity.self, forKey: .identity) ?? Identity() }
            ?? Identity()
        storage =
            errors.attempt { try container.decodeIfPresent(Storage.self, forKey: .storage) ?? Storage() } ?? Storage()
        try errors.throwIfAny()
    }

    /// Decodes the settings from the merged configuration root.
    ///
    /// Unknown top-level sections are warned about, with a suggestion when one looks like a typo
    /// of a known section; `plugins` is left to ``pluginSections(in:knownPlugins:)``.
    /// - Parameters:
    ///   - root: The merged root table.
    ///   - alsoPermitted: Other top-level sections that are read elsewhere, such as `ai`.
    /// - Returns: The settings and any warnings.
    /// - Throws: ``ConfigDiagnostics`` when a setting has the wrong type or is out of range.
    public static func decode(from root: ConfigNode, alsoPermitted: Set<String> = []) throws(ConfigDiagnostics)
        -> (CoreSettings, [ConfigDiagnostic])
    {
        let (settings, warnings) = try ConfigDecoder().decode(
            CoreSettings.self, from: root, permittedKeys: alsoPermitted.union(["plugins"]), knownKeys: sectionNames)
        return (settings, warnings)
    }

    /// `[scheduler]`: when reminders fire.
    public struct Scheduler: Sendable, Hashable, Decodable {
        /// How late a missed occurrence may still be shown, after the computer was off or asleep.
        ///
        /// `catch_up_within`, 2 hours by default. One catch-up per reminder at most; older
        /// occurrences are skipped. A reminder may set its own limit.
        public var catchUpWithin: ConfigDuration

        /// Creates the section.
        ///
        /// - Parameter catchUpWithin: How late a missed occurrence may still be shown.
        public init(catchUpWithin: ConfigDuration = ConfigDuration(seconds: 2 * 3600)) {
            self.catchUpWithin = catchUpWithin
        }

        private enum CodingKeys: String, CodingKey {
            case catchUpWithin = "catch_up_within"
        }

        /// Decodes the section, checking that the limit lies between 1 second and 30 days.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = Scheduler()
            var errors = ConfigErrorCollector()
            catchUpWithin =
                errors.attempt {
                    try container.decodeDuration(
                        .catchUpWithin, default: defaults.catchUpWithin, within: 1...(30 * 86400))
                } ?? defaults.catchUpWithin
            try errors.throwIfAny()
        }
    }

    /// `[delivery]`: how notices reach the desktop.
    public struct Delivery: Sendable, Hashable, Decodable {
        /// The icon of Hooray's notifications: an icon-theme name or an absolute path to an image.
        ///
        /// `icon`, `hooray` by default.
        public var icon: String
        /// How long to wait for the notification server before keeping a notice for later.
        ///
        /// `server_timeout`, 5 seconds by default.
        public var serverTimeout: ConfigDuration
        /// How often to try again to deliver notices that could not be shown.
        ///
        /// `retry_every`, 30 seconds by default.
        public var retryEvery: ConfigDuration
        /// When notices that are not urgent wait, to arrive as one digest when the quiet hours end.
        ///
        /// `quiet_hours`, none by default.
        package var quietHours: QuietHours
        /// How many notices due within a minute are shown one by one; more become one digest.
        ///
        /// `burst_limit`, 3 by default; at least 1.
        public var burstLimit: Int
        /// Whether `hoorayd` shows its icon in the tray (a StatusNotifierItem) where the desktop has
        /// one; GNOME without the AppIndicator extension has none, so it shows nothing there.
        ///
        /// `tray`, `true` by default.
        public var tray: Bool

        /// Creates the section.
        ///
        /// - Parameters:
        ///   - icon: An icon-theme name or an absolute path.
        ///   - serverTimeout: How long to wait for the notification server.
        ///   - retryEvery: How often to retry undelivered notices.
        ///   - quietHours: When notices that are not urgent wait.
        ///   - burstLimit: How many notices within a minute are shown one by one.
        ///   - tray: Whether hoorayd shows its icon in the tray.
        package init(
            icon: String = "hooray", serverTimeout: ConfigDuration = ConfigDuration(seconds: 5),
            retryEvery: ConfigDuration = ConfigDuration(seconds: 30), quietHours: QuietHours = .none,
            burstLimit: Int = 3, tray: Bool = true
        ) {
            self.tray = tray
            self.icon = icon
            self.serverTimeout = serverTimeout
            self.retryEvery = retryEvery
            self.quietHours = quietHours
            self.burstLimit = burstLimit
        }

        private enum CodingKeys: String, CodingKey {
            case icon
            case serverTimeout = "server_timeout"
            case retryEvery = "retry_every"
            case quietHours = "quiet_hours"
            case burstLimit = "burst_limit"
            case tray
        }

        /// Decodes the section, checking that the icon is not empty and the durations are in range:
        /// a server timeout of 1 to 60 seconds, a retry interval of 1 second to 1 day.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = Delivery()
            var errors = ConfigErrorCollector()
            icon =
                errors.attempt {
                    let icon = try container.decodeIfPresent(String.self, forKey: .icon) ?? defaults.icon
                    guard !icon.trimmingSpaces().isEmpty else {
                        throw DecodingError.dataCorruptedError(
                            forKey: .icon, in: container,
                            debugDescription: "the icon is empty; give an icon-theme name such as \"hooray\" "
                                + "or an absolute path to an image")
                    }
                    return icon
                } ?? defaults.icon
            serverTimeout =
                errors.attempt {
                    try container.decodeDuration(.serverTimeout, default: defaults.serverTimeout, within: 1...60)
                } ?? defaults.serverTimeout
            retryEvery =
                errors.attempt {
                    try container.decodeDuration(.retryEvery, default: defaults.retryEvery, within: 1...86400)
                } ?? defaults.retryEvery
            quietHours =
                errors.attempt {
                    try container.decodeIfPresent(QuietHours.self, forKey: .quietHours) ?? defaults.quietHours
                }
                ?? defaults.quietHours
            burstLimit =
                errors.attempt {
                    let limit = try container.decodeIfPresent(Int.self, forKey: .burstLimit) ?? defaults.burstLimit
                    guard limit >= 1 else {
                        throw DecodingError.dataCorruptedError(
                            forKey: .burstLimit, in: container,
                            debugDescription: "burst_limit is \(limit), but at least 1 notice a minute must be "
                                + "shown on its own; use 1 to make every burst a digest, or the default 3")
                    }
                    return limit
                } ?? defaults.burstLimit
            tray =
                errors.attempt { try container.decodeIfPresent(Bool.self, forKey: .tray) ?? defaults.tray }
                ?? defaults.tray
            try errors.throwIfAny()
        }
    }

    /// `[storage]`: how long delivery records are kept.
    public struct Storage: Sendable, Hashable, Decodable {
        /// How long records of delivered notices, shown occurrences and missed reminders are kept;
        /// older ones are pruned once a day. User data is never pruned.
        ///
        /// `keep_delivered`, 90 days by default; from 1 day to 100 years.
        public var keepDelivered: ConfigDuration

        /// Creates the section.
        ///
        /// - Parameter keepDelivered: How long delivery records are kept.
        public init(keepDelivered: ConfigDuration = ConfigDuration(seconds: 90 * 86400)) {
            self.keepDelivered = keepDelivered
        }

        private enum CodingKeys: String, CodingKey {
            case keepDelivered = "keep_delivered"
        }

        /// Decodes the section, checking that `keep_delivered` is from 1 day to 100 years.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            keepDelivered = try container.decodeDuration(
                .keepDelivered, default: Storage().keepDelivered, within: 86400...(36500 * 86400))
        }
    }

    /// `[log]`: what the daemon logs.
    public struct Log: Sendable, Hashable, Decodable {
        /// The least severe level that is logged.
        ///
        /// `level`, `info` by default.
        public var level: LogLevel

        /// Creates the section.
        ///
        /// - Parameter level: The least severe level that is logged.
        public init(level: LogLevel = .info) {
            self.level = level
        }

        private enum CodingKeys: String, CodingKey {
            case level
        }

        /// Decodes the section.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            level = try container.decodeIfPresent(LogLevel.self, forKey: .level) ?? Log().level
        }
    }

    /// `[celebrations]`: how plugins celebrate.
    public struct Celebrations: Sendable, Hashable, Decodable {
        /// The style of every plugin's celebrations: `calm`, `playful` or `off`.
        ///
        /// `style`, `calm` by default. A plugin's `[plugins.NAME] celebrations` overrides it for
        /// that plugin (see ``PluginSection/celebrationStyle``).
        public var style: CelebrationStyle
        /// Whether a milestone (a habit's 7 days, say) also opens the desktop app's short
        /// celebration window; `window`, `true` by default. `false` keeps celebrations to
        /// notifications.
        public var window: Bool

        /// Creates the section.
        ///
        /// - Parameters:
        ///   - style: The style of every plugin's celebrations.
        ///   - window: Whether milestones open the app's celebration window.
        public init(style: CelebrationStyle = .calm, window: Bool = true) {
            self.style = style
            self.window = window
        }

        private enum CodingKeys: String, CodingKey {
            case style, window
        }

        /// Decodes the section; a style that is none of the three is an error listing them.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            style = try container.decodeIfPresent(CelebrationStyle.self, forKey: .style) ?? Celebrations().style
            window = try container.decodeIfPresent(Bool.self, forKey: .window) ?? true
        }
    }

    /// `[identity]`: where the anonymous identity (and an AI key set with `hooray ai set-key`) is kept.
    public struct Identity: Sendable, Hashable, Decodable {
        /// Where secrets are kept.
        public enum Store: String, Sendable, Hashable, CaseIterable, Decodable {
            /// The desktop's keyring when a Secret Service answers on the session bus, otherwise the
            /// private file.
            case auto
            /// The desktop's keyring only; without one, AI requests wait and commands say why.
            case keyring
            /// The private file `~/.local/share/hooray/identity` (mode 0600), never the keyring.
            case file
        }

        /// Where the identity is kept; `store`, `auto` by default.
        public var store: Store

        /// Creates the section.
        ///
        /// - Parameter store: Where the identity is kept.
        public init(store: Store = .auto) {
            self.store = store
        }

        private enum CodingKeys: String, CodingKey {
            case store
        }

        /// Decodes the section; a store that is none of the three is an error listing them.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            store = try container.decodeIfPresent(Store.self, forKey: .store) ?? Identity().store
        }
    }

    /// How much the daemon logs, least to most severe; the names are swift-log's `Logger.Level`'s.
    public enum LogLevel: String, Sendable, Hashable, CaseIterable, Decodable {
        /// Everything, including each step of scheduling.
        case trace
        /// Details useful to find a problem.
        case debug
        /// What the daemon does: starts, reloads, notices shown.
        case info
        /// Noteworthy events, such as a catch-up after sleep.
        case notice
        /// Problems Hooray works around, such as a missing notification server.
        case warning
        /// Failures, such as a plugin that threw.
        case error
        /// Failures that stop the daemon.
        case critical
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
