import Foundation
import HoorayClient
import HoorayCommandLine
import HoorayCommands
import HoorayKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the plugins in other languages: the folders with a `plugin.toml` in the user's and the
/// system's plugin folders, read, checked, and checked against each other and the built-in plugins
/// (see "Where plugins are found" in `docs/protocol.md`).
public struct PluginDiscovery: Sendable {
    /// What discovery found: the plugins the host may run, and the folders it will not run, with why.
    public struct Result: Sendable {
        /// The plugins found, user folder first, each folder's plugins by folder name.
        public var found: [PluginManifest]
        /// The plugin folders refused, in the order they were read.
        public var refused: [RefusedPlugin]

        /// Creates a result.
        ///
        /// - Parameters:
        ///   - found: The plugins found.
        ///   - refused: The folders refused.
        public init(found: [PluginManifest] = [], refused: [RefusedPlugin] = []) {
            self.found = found
            self.refused = refused
        }
    }

    /// The system's plugin folder when `HOORAY_SYSTEM_PLUGIN_DIR` does not name another: packages install there.
    public static let systemFolder = "/usr/lib/hooray/plugins"

    /// The plugin folders in the order they are searched: the user's, then the system's.
    ///
    /// The user's is `$XDG_DATA_HOME/hooray/plugins` (a relative `XDG_DATA_HOME` is ignored, as the
    /// XDG specification says), by default `~/.local/share/hooray/plugins`; it is left out when no
    /// home folder is known. The system's is `HOORAY_SYSTEM_PLUGIN_DIR` when that is an absolute
    /// path, otherwise ``systemFolder``.
    ///
    /// - Parameter environment: The environment to read `XDG_DATA_HOME`, `HOME` and
    ///   `HOORAY_SYSTEM_PLUGIN_DIR` from.
    /// - Returns: The folders, user first.
    public static func folders(environment: [String: String]) -> [String] {
        var folders: [String] = []
        if let paths = try? HoorayPaths(environment: environment) {
            folders.append(paths.dataDirectory + "/plugins")
        }
        if let system = environment["HOORAY_SYSTEM_PLUGIN_DIR"], system.hasPrefix("/") {
            folders.append(system)
        } else {
            folders.append(systemFolder)
        }
        return folders
    }

    /// Reads every plugin folder in the given folders and decides which plugins may run.
    ///
    /// Each folder's subfolders are read sorted by name (byte by byte); hidden ones (`.name`) and
    /// files are skipped, and a folder that does not exist holds no plugins. A subfolder is refused,
    /// with a reason that names the problem and its fix, when
    /// - its `plugin.toml` cannot be used (``PluginManifest/read(folder:)``);
    /// - its name is a built-in plugin's, or one of the words `hooray` uses itself
    ///   (``CommandTree/hostWords``);
    /// - another subfolder of the same folder, read earlier, has a plugin of that name;
    /// - its commands or aliases claim words another plugin's already have;
    /// - another user than the user and root may change it: its folder, its `plugin.toml`, its
    ///   program or the plugin folder holding it belong to another user or are writable by others
    ///   (``PluginOwnership``).
    ///
    /// A plugin in an earlier folder hides one of the same name in a later folder: that one is
    /// skipped silently, so a plugin the user installed replaces the one a package installed. It
    /// does so even when it is refused itself, so that a broken copy the user meant as a
    /// replacement is never replaced by the package's without a word.
    ///
    /// - Parameters:
    ///   - folders: The folders to search, in order, such as ``folders(environment:)``.
    ///   - builtIns: The built-in plugins, whose names and command words are taken.
    /// - Returns: The plugins found and the folders refused.
    public static func discover(folders: [String], builtIns: [any HoorayPlugin]) -> Result {
        var result = Result()
        let builtInNames = Set(builtIns.map(\.name))
        // A built-in clash is `hoorayd`'s own to report; then commands are not checked here.
        let checksCommands = (try? CommandTree(plugins: builtIns)) != nil
        // The names of the plugins found so far, and where; and the names of those refused, which
        // still hide the ones of later folders.
        var claims: [String: (root: Int, folder: String)] = [:]
        var refusedNames: [String: Int] = [:]
        for (root, parent) in folders.enumerated() {
            for folder in subfolders(of: parent) {
                let fallbackName = String(folder.split(separator: "/").last ?? "")
                func refuse(_ name: String, _ reason: String) {
                    result.refused.append(RefusedPlugin(folder: folder, name: name, reason: reason))
                }
                let manifest: PluginManifest
                do {
                    manifest = try PluginManifest.read(folder: folder)
                } catch {
                    if let name = error.plugin {
                        if let earlier = claims[name]?.root ?? refusedNames[name], earlier < root { continue }
                        if refusedNames[name] == nil { refusedNames[name] = root }
                    }
                    refuse(error.plugin ?? fallbackName, error.description)
                    continue
                }
                let name = manifest.name
                if let unsafe = PluginOwnership.problem(parent: parent, folder: folder, program: manifest.exec.first) {
                    if let earlier = claims[name]?.root ?? refusedNames[name], earlier < root { continue }
                    if refusedNames[name] == nil { refusedNames[name] = root }
                    refuse(name, unsafe)
                    continue
                }
                if let clash = nameClash(name, builtInNames: builtInNames) {
                    refuse(name, clash)
                    continue
                }
                if let earlier = refusedNames[name], earlier < root { continue }
                if let claim = claims[name] {
                    if claim.root < root { continue }
                    refuse(
                        name,
                        "the name `\(name)` is taken by the plugin in \(claim.folder); rename one of them in its "
                            + "plugin.toml, or remove the folder you do not use")
                    continue
                }
                claims[name] = (root, folder)
                if checksCommands,
                    let clash = commandClash(
                        builtIns + (result.found + [manifest]).map { ManifestCommands(manifest: $0) })
                {
                    refuse(name, clash)
                    continue
                }
                result.found.append(manifest)
            }
        }
        return result
    }

    /// Why `hoorayd` would refuse a plugin beside the built-in plugins alone — its name is a
    /// built-in's or one of hooray's own commands, or its commands claim a built-in's words — or
    /// `nil` when it would run it.
    ///
    /// - Parameters:
    ///   - manifest: The plugin.
    ///   - builtIns: The built-in plugins.
    /// - Returns: The reason, naming the fix, as `hooray plugins` shows it.
    public static func clash(of manifest: PluginManifest, builtIns: [any HoorayPlugin]) -> String? {
        if let clash = nameClash(manifest.name, builtInNames: Set(builtIns.map(\.name))) { return clash }
        guard (try? CommandTree(plugins: builtIns)) != nil else { return nil }
        return commandClash(builtIns + [ManifestCommands(manifest: manifest)])
    }

    /// Why a plugin's name cannot be used: a built-in plugin's, or a word of hooray's own.
    static func nameClash(_ name: String, builtInNames: Set<String>) -> String? {
        if builtInNames.contains(name) {
            return "the name `\(name)` belongs to a built-in plugin; rename the plugin in plugin.toml "
                + "(and its [plugins.NAME] section, if it has one)"
        }
        if CommandTree.hostWords.contains(name) {
            return "the name `\(name)` is one of hooray's own commands (`hooray \(name)`); rename the plugin "
                + "in plugin.toml"
        }
        return nil
    }

    /// Why the last of `plugins` cannot join the others: a command or alias claims words they have.
    static func commandClash(_ plugins: [any HoorayPlugin]) -> String? {
        do {
            _ = try CommandTree(plugins: plugins)
            return nil
        } catch let conflict as CommandConflict {
            let words = "`hooray \(conflict.words.joined(separator: " "))`"
            return "\(words) already belongs to \(conflict.first); rename \(conflict.second) in plugin.toml"
        } catch {
            return "\(error); fix it in plugin.toml"
        }
    }

    /// The subfolders of a folder, sorted by name byte by byte, hidden ones left out; none when
    /// the folder does not exist or cannot be listed.
    static func subfolders(of parent: String) -> [String] {
        var parent = parent
        while parent.count > 1 && parent.hasSuffix("/") { parent.removeLast() }
        guard let stream = opendir(parent) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            var status = stat()
            // `stat` follows a symbolic link, so a plugin linked in from a working copy is found.
            guard stat(parent + "/" + name, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { continue }
            names.append(name)
        }
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let separator = parent == "/" ? "" : "/"
        return names.map { parent + separator + $0 }
    }
}

/// A manifest's commands as a plugin, for checking them against the others' in a ``CommandTree``;
/// it runs nothing.
private struct ManifestCommands: CommandPlugin {
    let manifest: PluginManifest

    var name: String { manifest.name }
    var summary: String { manifest.description }
    var commands: [CommandSpec] { manifest.commands }

    func activate(context: PluginContext, configuration: NoConfiguration) async throws {}

    func run(_ command: CommandInvocation, context: PluginContext, configuration: NoConfiguration) async throws
        -> CommandReply
    {
        throw PluginCommandError("the \(name) plugin's commands are only checked here, never run")
    }
}
