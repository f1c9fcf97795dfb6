import Foundation
import HoorayBasics
import HoorayClient
import HoorayConfig
import HoorayEngine
import HoorayExternalPlugins

/// The paths of this user's files as advice and help should name them: worked out from
/// `$XDG_CONFIG_HOME`, `$XDG_DATA_HOME` and `HOORAY_SYSCONFDIR` as the loader and the daemon do,
/// never a guessed `~/.config/hooray`, with the home folder shown as `~`.
///
/// The man page is made from the help (`--experimental-dump-help`) on the packager's computer and
/// read on every other: while the help is dumped, the paths are given in their XDG form
/// (`$XDG_CONFIG_HOME/hooray/hooray.toml`), true for everyone.
public enum UserPaths {
    /// Whether the help is being dumped for the man page and the completions.
    public static let forEveryone = ProcessArguments.current().contains("--experimental-dump-help")

    /// The process environment, with an absolute home folder: read once, as `ProcessInfo` builds the
    /// dictionary anew at each call and `hooray` changes no variable of its own.
    public static let environment: [String: String] = HoorayPaths.withAbsoluteHome(ProcessInfo.processInfo.environment)

    /// Where the configuration files are.
    public static var config: ConfigPaths {
        forEveryone
            ? ConfigPaths(systemDirectory: "/etc/hooray", userDirectory: "$XDG_CONFIG_HOME/hooray")
            : ConfigPaths(environment: environment)
    }

    /// The user's `hooray.toml`, as shown.
    public static var configFile: String { shown(config.userFile) }

    /// The user's drop-in folder, as shown.
    public static var configDropIns: String { shown(config.userDropInDirectory) }

    /// The data folder, as shown; `$XDG_DATA_HOME/hooray` when no home folder is known.
    public static var dataDirectory: String {
        guard !forEveryone, let paths = try? HoorayPaths(environment: environment) else {
            return "$XDG_DATA_HOME/hooray"
        }
        return shown(paths.dataDirectory)
    }

    /// The plugin folders searched, the user's first, as shown.
    public static var pluginFolders: [String] {
        if forEveryone { return ["$XDG_DATA_HOME/hooray/plugins", PluginDiscovery.systemFolder] }
        return PluginDiscovery.folders(environment: environment).map(shown)
    }

    /// A path with the home folder written as `~`, as a shell user types it.
    public static func shown(_ path: String) -> String {
        ConfigPaths.shown(path, home: environment["HOME"])
    }
}
