import HoorayAI
import HoorayClient
import HoorayConfig
import HoorayDelivery
import HoorayExternalPlugins
import HoorayIdentity
import HoorayKit
import HooraySync
import Logging

/// The configuration in the form the daemon runs on: engine settings and ready-to-activate plugins.
public struct DaemonConfiguration: Sendable {
    /// The loaded configuration.
    public var loaded: LoadedConfiguration
    /// Every built-in plugin with its decoded configuration.
    public var setups: [PluginSetup]

    /// The engine's settings.
    public var settings: EngineSettings {
        EngineSettings(
            catchUpWithin: .seconds(loaded.core.scheduler.catchUpWithin.seconds),
            retryEvery: .seconds(loaded.core.delivery.retryEvery.seconds),
            celebrationStyle: loaded.core.celebrations.style, quietHours: loaded.core.delivery.quietHours,
            burstLimit: loaded.core.delivery.burstLimit,
            keepDelivered: .seconds(loaded.core.storage.keepDelivered.seconds),
            userConfigurationFile: userConfigurationFile,
            channelsTurnedOff: CelebrationWindowChannel.turnedOff(window: loaded.core.celebrations.window))
    }

    /// The user's configuration file (``ConfigPaths/userFile``, with the home folder as `~`), named by
    /// messages that say how to change a setting; `nil` when unknown.
    public var userConfigurationFile: String?

    /// The log level.
    public var logLevel: Logger.Level { Logger.Level(rawValue: loaded.core.log.level.rawValue) ?? .info }
    /// The notifications' icon.
    public var icon: String { loaded.core.delivery.icon }
    /// How long to wait for the notification server.
    public var serverTimeout: Duration { .seconds(loaded.core.delivery.serverTimeout.seconds) }
    /// The files read, in layer order.
    public var files: [String] { loaded.files }
    /// Warnings (unknown keys and the like), ready to log.
    public var warnings: [String] { loaded.warnings.map(\.description) }
    /// The `[ai]` section: off unless configured.
    /// The `[sync]` section, or its default (sync off).
    public var sync: SyncConfiguration {
        loaded.extraSection(SyncConfiguration.sectionName, as: SyncConfiguration.self) ?? .defaults
    }

    public var ai: AIConfiguration {
        loaded.extraSection(AIConfiguration.sectionName, as: AIConfiguration.self) ?? .defaults
    }

    /// Whether the `[ai]` section was left out because it has errors, by a command that runs while
    /// hoorayd is stopped: AI is then not off but unknown, and moments logged meanwhile wait for
    /// their AI praise until the section is fixed.
    public var aiSectionIgnored = false

    /// The praise provider of a command that runs while hoorayd is stopped: none is asked while
    /// the `[ai]` section has errors (``aiSectionIgnored``), so that the moments wait, pending,
    /// for hoorayd to ask once it is fixed; otherwise the one `[ai]` describes.
    ///
    /// - Parameters:
    ///   - paths: Where the identity file is.
    ///   - logger: Where the provider logs.
    public func commandPraiseProvider(paths: HoorayPaths, logger: Logger) -> any PraiseProvider {
        if aiSectionIgnored { return PraiseLeftForLater() }
        return IdentityResolvingPraiseProvider.make(ai, identity: identityStore, paths: paths, logger: logger)
    }

    /// Where the anonymous identity is kept: `[identity] store`.
    public var identityStore: CoreSettings.Identity.Store { loaded.core.identity.store }

    /// The names of the enabled plugins.
    public var enabledPlugins: Set<String> { Set(setups.filter(\.enabled).map(\.plugin.name)) }
}

/// Loads the layered configuration for the daemon and the CLI.
public struct ConfigurationLoader: Sendable {
    var loader: ConfigLoader
    /// The environment the loader reads paths from.
    public let environment: [String: String]
    let plugins: [any HoorayPlugin]

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - environment: The process environment (`HOORAY_SYSCONFDIR`, `XDG_CONFIG_HOME`, `HOME`).
    ///   - extraFile: `--config FILE`, read after all others.
    ///   - plugins: The plugins whose sections are checked and decoded.
    public init(environment: [String: String], extraFile: String?, plugins: [any HoorayPlugin]) {
        loader = ConfigLoader(
            paths: ConfigPaths(environment: environment), explicitFile: extraFile, plugins: plugins,
            extraSections: Self.extraSections)
        self.plugins = plugins
        self.environment = environment
    }

    /// A loader for hoorayd: it may leave a known file of nothing but a plugin's list unread
    /// (``HoorayConfig/ConfigLoader/listCacheFile``), and digests the configuration with Hooray's version.
    public func leavingKnownListsUnread() -> ConfigurationLoader {
        var daemon = self
        daemon.loader.version = HoorayVersion.current
        daemon.loader.listCacheFile = loader.paths.listCacheFile
        return daemon
    }

    /// Loads every layer.
    ///
    /// - Throws: ``ConfigDiagnostics`` with every error (and warning), each naming its file, line and column.
    public func load() throws(ConfigDiagnostics) -> DaemonConfiguration {
        let loaded = try loader.load()
        var setups: [PluginSetup] = []
        for plugin in plugins {
            setups.append(
                PluginSetup(
                    plugin: plugin, enabled: loaded.isEnabled(plugin.name),
                    configuration: try Self.configuration(of: plugin, in: loaded),
                    celebrationStyle: loaded.pluginSections[plugin.name]?.celebrationStyle,
                    source: Self.source(of: plugin, in: loaded)))
        }
        var configuration = DaemonConfiguration(loaded: loaded, setups: setups)
        configuration.userConfigurationFile = shownUserFile
        return configuration
    }

    /// The user's `hooray.toml` as messages name it (`~/…`), for plugins' advice.
    var shownUserFile: String {
        ConfigPaths.shown(loader.paths.userFile, home: environment["HOME"])
    }

    /// Loads what can be loaded for a command of one plugin, or for one that only shows what the
    /// configuration says: broken parts of the configuration that the command does not need are
    /// left out, each reported once in words.
    ///
    /// - Parameter plugin: The plugin whose command runs; errors in its own section still stop it.
    ///   `nil` leaves every broken part out, for commands such as `hooray next` and `hooray plugins`.
    /// - Returns: The configuration, and one line per part left out, such as
    ///   `~/.config/hooray/hooray.toml:12:3: … — the reminders section is ignored until it is fixed; …`.
    /// - Throws: ``ConfigDiagnostics`` with the errors of the plugin's own section.
    public func loadLeniently(for plugin: String?) throws(ConfigDiagnostics) -> (
        configuration: DaemonConfiguration, ignored: [String]
    ) {
        let lenient = try loader.loadLeniently(for: plugin)
        var setups: [PluginSetup] = []
        for known in plugins {
            guard let configuration = try? Self.configuration(of: known, in: lenient.loaded) else { continue }
            setups.append(
                PluginSetup(
                    plugin: known, enabled: lenient.loaded.isEnabled(known.name), configuration: configuration,
                    celebrationStyle: lenient.loaded.pluginSections[known.name]?.celebrationStyle))
        }
        let home = environment["HOME"].map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        let ignored = lenient.ignored.map { part in
            var place = part.diagnostic.location?.description ?? ""
            if let home, !home.isEmpty, place.hasPrefix(home + "/") { place = "~" + place.dropFirst(home.count) }
            let firstLine = part.diagnostic.message.split(separator: "\n").first.map(String.init) ?? ""
            return (place.isEmpty ? "" : place + ": ") + firstLine
                + " — \(part.part) is ignored until it is fixed; `hooray config check` shows what is wrong."
        }
        var configuration = DaemonConfiguration(loaded: lenient.loaded, setups: setups)
        configuration.aiSectionIgnored = lenient.ignored.contains { $0.isSection(AIConfiguration.sectionName) }
        configuration.userConfigurationFile = shownUserFile
        return (configuration, ignored)
    }

    /// Where a plugin's configuration came from, with a way to read it all when its list continues
    /// in files left unread.
    static func source(of plugin: any HoorayPlugin, in loaded: LoadedConfiguration) -> ConfigurationSource {
        ConfigurationSource(
            digest: loaded.digest, listContinuesUnread: loaded.listContinuesUnread(plugin: plugin.name)
        ) {
            let everything = try loaded.readingEverything()
            return (try configuration(of: plugin, in: everything), everything.digest)
        }
    }

    static func configuration<P: HoorayPlugin>(of plugin: P, in loaded: LoadedConfiguration) throws(ConfigDiagnostics)
        -> any Sendable
    {
        let configuration = try loaded.configuration(of: plugin)
        guard var external = configuration as? ExternalPluginConfiguration else { return configuration }
        external.allowUnsandboxed = loaded.allowsUnsandboxedPlugins
        return external
    }

    /// Checks the configuration as `hooray config check` does.
    ///
    /// - Parameters:
    ///   - file: Check only this file; every layer when `nil`.
    ///   - configFile: The file given with `--config`, checked after the others when `file` is `nil`.
    ///   - environment: The process environment.
    ///   - plugins: The plugins whose sections are checked.
    public static func check(
        file: String?, configFile: String? = nil, environment: [String: String], plugins: [any HoorayPlugin]
    ) -> ConfigCheckReport {
        ConfigLoader(
            paths: ConfigPaths(environment: environment), explicitFile: configFile, plugins: plugins,
            extraSections: extraSections
        )
        .check(onlyFile: file)
    }

    /// Top-level sections read by the engine beyond the core settings.
    public static let extraSections = [
        ExtraSection(name: AIConfiguration.sectionName, as: AIConfiguration.self, default: .defaults),
        ExtraSection(name: SyncConfiguration.sectionName, as: SyncConfiguration.self, default: .defaults),
    ]
}

/// The praise provider while the `[ai]` section has errors and hoorayd is stopped: AI may be meant to
/// be on, so nothing is asked now and no moment is marked as having no AI. Each request ends as
/// if cancelled, which leaves the moment pending; hoorayd asks for it once the section is fixed.
struct PraiseLeftForLater: PraiseProvider {
    func praise(for moment: MomentForPraise) async throws -> AIPraise {
        throw CancellationError()
    }
}
