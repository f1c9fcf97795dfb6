/// Where Hooray looks for configuration files, worked out from an environment.
///
/// The layers, later ones overriding earlier ones:
///
/// 1. the built-in defaults,
/// 2. ``systemFile`` (`/etc/hooray/hooray.toml`),
/// 3. ``systemDropInDirectory`` (`/etc/hooray/conf.d/*.toml`, sorted by name),
/// 4. ``userFile`` (`$XDG_CONFIG_HOME/hooray/hooray.toml`, `~/.config/hooray/hooray.toml` by default),
/// 5. ``userDropInDirectory`` (`$XDG_CONFIG_HOME/hooray/conf.d/*.toml`, sorted by name),
/// 6. a file given with `--config`.
///
/// Paths are built from an environment dictionary rather than read from the process, so tests and
/// the CLI's `--config` handling can point them anywhere.
public struct ConfigPaths: Sendable, Hashable {
    /// The system directory, `/etc/hooray` unless `HOORAY_SYSCONFDIR` names another.
    public var systemDirectory: String
    /// The user's directory, `$XDG_CONFIG_HOME/hooray`.
    public var userDirectory: String
    /// Hooray's cache folder, `$XDG_CACHE_HOME/hooray` (`~/.cache/hooray` by default); `nil` when
    /// unknown. What is there can be deleted at any time.
    public var cacheDirectory: String?

    /// Creates paths from the two directories.
    ///
    /// - Parameters:
    ///   - systemDirectory: The directory holding the system `hooray.toml` and `conf.d`.
    ///   - userDirectory: The directory holding the user's `hooray.toml` and `conf.d`.
    public init(systemDirectory: String, userDirectory: String) {
        self.systemDirectory = systemDirectory
        self.userDirectory = userDirectory
    }

    /// Works out the paths from environment variables.
    ///
    /// - `HOORAY_SYSCONFDIR`: the system directory itself (it replaces `/etc/hooray`).
    /// - `XDG_CONFIG_HOME`: the base of the user's directory, when it is an absolute path
    ///   (the XDG Base Directory rules ignore relative ones); otherwise `$HOME/.config`.
    ///
    /// - Parameter environment: The variables, such as `ProcessInfo.processInfo.environment`.
    public init(environment: [String: String]) {
        let system = environment["HOORAY_SYSCONFDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/hooray"
        let configHome: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            configHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
            configHome = ConfigPaths.join(home, ".config")
        }
        self.init(systemDirectory: ConfigPaths.trimmed(system), userDirectory: ConfigPaths.join(configHome, "hooray"))
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            cacheDirectory = ConfigPaths.join(xdg, "hooray")
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            cacheDirectory = ConfigPaths.join(ConfigPaths.join(home, ".cache"), "hooray")
        }
    }

    /// The file where hoorayd notes which configuration files hold nothing but a plugin's list
    /// (``ListCache``), in ``cacheDirectory``.
    public var listCacheFile: String? { cacheDirectory.map { ConfigPaths.join($0, "config-lists") } }

    /// `hooray.toml` in the system directory.
    public var systemFile: String { ConfigPaths.join(systemDirectory, "hooray.toml") }
    /// `conf.d` in the system directory: drop-ins from packages and administrators.
    public var systemDropInDirectory: String { ConfigPaths.join(systemDirectory, "conf.d") }
    /// `hooray.toml` in the user's directory.
    public var userFile: String { ConfigPaths.join(userDirectory, "hooray.toml") }
    /// `conf.d` in the user's directory.
    public var userDropInDirectory: String { ConfigPaths.join(userDirectory, "conf.d") }

    /// A path as a message shows it: with the home folder written `~`, as a shell user types it.
    ///
    /// - Parameters:
    ///   - path: An absolute path.
    ///   - home: The home folder; `nil`, relative or `/` leaves the path as it is.
    /// - Returns: `~/…` for a path in `home`, otherwise `path`.
    public static func shown(_ path: String, home: String?) -> String {
        guard var home, home.hasPrefix("/"), home != "/" else { return path }
        while home.count > 1 && home.hasSuffix("/") { home.removeLast() }
        if path == home { return "~" }
        return path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    private static func trimmed(_ directory: String) -> String {
        var result = directory
        while result.count > 1 && result.hasSuffix("/") { result.removeLast() }
        return result
    }
}
