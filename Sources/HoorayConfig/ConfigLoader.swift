import Foundation
import HoorayKit

/// Loads Hooray's configuration: reads every layer, merges them, and checks the core settings and
/// each plugin's section.
///
/// The daemon calls ``load()`` at start and on `SIGHUP`; when it throws, a reload keeps the last
/// good configuration. `hooray config check [FILE]` calls ``check(onlyFile:)``, which reports the
/// same problems without throwing.
public struct ConfigLoader: Sendable {
    /// Where the layers are.
    public var paths: ConfigPaths
    /// A file given with `--config`: the last layer, over all others. It must exist.
    public var explicitFile: String?
    /// The installed plugins, whose sections are checked.
    public var plugins: [any HoorayPlugin]
    /// Top-level sections read elsewhere, such as `[ai]`, checked like the core settings.
    public var extraSections: [ExtraSection]
    /// Texts read in place of files, by path: an edit checked before it is written (`hooray config set`).
    var replacedTexts: [String: String] = [:]
    /// Hooray's version, part of ``LoadedConfiguration/digest`` and of the list cache.
    public var version = ""
    /// The list cache (``ListCache``) that lets ``load()`` leave a known file of nothing but a
    /// plugin's list unread; `nil` (the default) reads every file. Only hoorayd sets it: `hooray
    /// config check` and every other command read everything.
    public var listCacheFile: String?

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - paths: Where the layers are, such as `ConfigPaths(environment: ProcessInfo.processInfo.environment)`.
    ///   - explicitFile: A file given with `--config`, if any.
    ///   - plugins: The installed plugins.
    ///   - extraSections: Top-level sections read elsewhere, such as `[ai]`.
    public init(
        paths: ConfigPaths, explicitFile: String? = nil, plugins: [any HoorayPlugin] = [],
        extraSections: [ExtraSection] = []
    ) {
        self.extraSections = extraSections
        self.paths = paths
        self.explicitFile = explicitFile
        self.plugins = plugins
    }

    /// Reads, merges and checks every layer.
    ///
    /// - Returns: The settings, the plugin sections and the warnings.
    /// - Throws: ``ConfigDiagnostics`` with every error and warning when there is at least one error.
    public func load() throws(ConfigDiagnostics) -> LoadedConfiguration {
        let known = listCacheFile.map { ListCache.read(from: $0, version: version) }
        let evaluation = evaluate(layers(), known: known)
        guard !evaluation.diagnostics.containsErrors, let core = evaluation.core else {
            throw evaluation.diagnostics
        }
        var loaded = LoadedConfiguration(
            core: core, pluginSections: evaluation.sections, files: evaluation.files,
            warnings: evaluation.diagnostics.diagnostics, root: evaluation.root,
            configurations: evaluation.configurations, extras: evaluation.extras)
        loaded.lists = lists(of: evaluation, known: known)
        return loaded
    }

    /// Loads what can be loaded for a command of one plugin, or for a command that only reads, so
    /// that a mistake elsewhere never stops the user from logging something or looking at it.
    ///
    /// A part of a file that is not valid TOML is left out — the sections it belongs to, such as
    /// every `[plugins.reminders…]` table of the file — and the rest of the file is read; a core
    /// section (such as `[log]`) or another plugin's section with errors falls back to its defaults,
    /// and only that section. Each part left out is reported once, in ``LenientConfiguration/ignored``.
    ///
    /// - Parameter plugin: The plugin whose command runs: errors in its own section still count.
    ///   `nil` for a command that only shows what the configuration says, such as `hooray next`:
    ///   then every broken part is left out.
    /// - Returns: The configuration, and what was left out.
    /// - Throws: ``ConfigDiagnostics`` when the plugin's own section has errors that are not syntax
    ///   errors (its values are wrong, so running it on defaults would not be what the user asked).
    public func loadLeniently(for plugin: String?) throws(ConfigDiagnostics) -> LenientConfiguration {
        var evaluation = evaluate(layers(), salvage: true)
        let own = evaluation.diagnostics.errors.filter { error in
            // A file named with `--config` was asked for by name: it is never left out quietly.
            if let explicitFile, error.location == .wholeFile(explicitFile) { return true }
            return plugin.map { error.concerns(plugin: $0) } ?? false
        }
        if !own.isEmpty { throw ConfigDiagnostics(own) }
        var ignored = evaluation.ignored
        for error in evaluation.diagnostics.errors {
            let part =
                error.path == nil && error.location?.line == 0 ? "the file" : IgnoredPart.part(of: error.path)
            ignored.append(IgnoredPart(diagnostic: error, part: part))
        }
        let core = evaluation.core ?? coreWithoutBrokenSections(evaluation)
        guard let core else { throw evaluation.diagnostics }
        for known in plugins where evaluation.configurations[known.name] == nil {
            if let (configuration, _) = try? decodeErased(known, from: nil) {
                evaluation.configurations[known.name] = configuration
            }
        }
        let loaded = LoadedConfiguration(
            core: core, pluginSections: evaluation.sections, files: evaluation.files,
            warnings: evaluation.diagnostics.warnings, root: evaluation.root,
            configurations: evaluation.configurations, extras: evaluation.extras)
        return LenientConfiguration(loaded: loaded, ignored: ignored)
    }

    /// The core settings decoded again without the core sections that have errors, so that a
    /// mistake in `[log]` sends only `[log]` back to its defaults and `[identity]` keeps what the
    /// user wrote. Should the rest still not decode, every core section falls back to its defaults.
    func coreWithoutBrokenSections(_ evaluation: Evaluation) -> CoreSettings? {
        let defaults = (try? CoreSettings.decode(from: .emptyTable()))?.0
        guard var table = evaluation.root.table else { return defaults }
        for error in evaluation.diagnostics.errors {
            if case .key(let section)? = error.path?.components.first, CoreSettings.sectionNames.contains(section) {
                table[section] = nil
            }
        }
        let kept = ConfigNode(.table(table), location: evaluation.root.location)
        return (try? CoreSettings.decode(from: kept, alsoPermitted: Set(extraSections.map(\.name))))?.0 ?? defaults
    }

    /// Checks the configuration and reports every problem, for `hooray config check`.
    ///
    /// - Parameter file: A file to check on its own, in place of all the layers; it is checked
    ///   exactly as a layer would be, against the installed plugins.
    /// - Returns: The files read and everything found, in file and line order.
    public func check(onlyFile file: String? = nil) -> ConfigCheckReport {
        // A check compares nothing with an earlier read: no file's digest is taken.
        let evaluation = evaluate(file.map { [Layer.file($0, required: true)] } ?? layers(), digests: false)
        var report = ConfigCheckReport(files: evaluation.files, diagnostics: evaluation.diagnostics)
        report.checked = CheckedValues(root: evaluation.root, configurations: evaluation.configurations)
        return report
    }

    /// The places a layer can come from, in order.
    enum Layer {
        case file(String, required: Bool)
        case directory(String)
    }

    func layers() -> [Layer] {
        var layers: [Layer] = [
            .file(paths.systemFile, required: false),
            .directory(paths.systemDropInDirectory),
            .file(paths.userFile, required: false),
            .directory(paths.userDropInDirectory),
        ]
        if let explicitFile { layers.append(.file(explicitFile, required: true)) }
        return layers
    }

    struct Evaluation {
        var files: [String] = []
        var diagnostics = ConfigDiagnostics()
        var root = ConfigNode.emptyTable()
        var core: CoreSettings?
        var sections: [String: PluginSection] = [:]
        var configurations: [String: any Sendable] = [:]
        var extras: [String: any Sendable] = [:]
        var ignored: [IgnoredPart] = []
        /// The digest of each file in ``files``.
        var digests: [String] = []
        /// What is known of files that hold nothing but a plugin's list (see ``ConfigLoader/lists(of:known:)``).
        var unread = ListReading()
        /// The bytes of each file as read, kept when some may be left unread: reading everything
        /// later reads these, not the files as they are by then.
        var bytes: [String: [UInt8]] = [:]
    }

    func evaluate(_ layers: [Layer], salvage: Bool = false, known: ListCache? = nil, digests: Bool = true)
        -> Evaluation
    {
        var evaluation = Evaluation()
        var files: [(path: String, required: Bool)] = []
        for layer in layers {
            switch layer {
            case .file(let path, let required):
                files.append((path, required))
            case .directory(let directory):
                do {
                    files += try FileReader.tomlFiles(inDirectory: directory).map { ($0, false) }
                } catch {
                    evaluation.diagnostics.append(contentsOf: error)
                }
            }
        }
        let deferrable = deferrableLists
        let keepsBytes = known.map { !$0.entries.isEmpty } ?? false
        for (path, required) in files {
            do {
                let text: String
                let digest: String
                if let replaced = replacedTexts[path] {
                    text = replaced
                    digest = digests ? FileReader.digest(of: Array(replaced.utf8)) : ""
                } else {
                    guard let bytes = try FileReader.readBytes(atPath: path) else {
                        if required {
                            let hint =
                                path == explicitFile
                                ? "check the path given with --config, or leave --config out" : "check the path"
                            evaluation.diagnostics.append(
                                .error(at: .wholeFile(path), "cannot read \(path): no such file", hint: hint))
                        }
                        continue
                    }
                    digest = digests ? FileReader.digest(of: bytes) : ""
                    if keepsBytes { evaluation.bytes[path] = bytes }
                    if let entry = known?.entries[digest], deferrable[entry.plugin] == entry.key {
                        evaluation.files.append(path)
                        evaluation.digests.append(digest)
                        evaluation.unread.leftUnread(digest: digest, entry)
                        continue
                    }
                    text = try FileReader.text(of: bytes, path: path)
                }
                evaluation.files.append(path)
                evaluation.digests.append(digest)
                if salvage {
                    let (node, ignored) = ConfigFileParser.readLeniently(text, file: path)
                    evaluation.ignored += ignored
                    if let node { evaluation.root = evaluation.root.merging(node) }
                    continue
                }
                let node = try ConfigFileParser.parse(text, file: path)
                evaluation.unread.look(at: node, path: path, digest: digest, deferrable: deferrable)
                evaluation.root = evaluation.root.merging(node)
            } catch {
                // A file that does not parse is left out of the merge; the other layers are still checked.
                evaluation.diagnostics.append(contentsOf: error)
            }
        }

        // A file left unread is merged as the concatenation of lists; should a file read hold the
        // plugin's section or list in another shape, everything is read instead.
        if known != nil, !evaluation.unread.unreadPlugins.isDisjoint(with: evaluation.unread.otherShapes) {
            return evaluate(layers, salvage: salvage)
        }
        do {
            let (core, warnings) = try CoreSettings.decode(
                from: evaluation.root, alsoPermitted: Set(extraSections.map(\.name)))
            evaluation.core = core
            evaluation.diagnostics.append(contentsOf: warnings)
        } catch {
            evaluation.diagnostics.append(contentsOf: error)
        }

        for section in extraSections {
            do {
                let (value, warnings) = try section.decode(evaluation.root[section.name])
                evaluation.extras[section.name] = value
                evaluation.diagnostics.append(contentsOf: warnings)
            } catch {
                evaluation.diagnostics.append(contentsOf: error)
            }
        }

        let (sections, sectionDiagnostics) = pluginSections(
            in: evaluation.root, knownPlugins: plugins.map(\.name),
            disabledByDefault: Set(plugins.filter { !$0.isEnabledByDefault }.map(\.name)))
        evaluation.sections = sections
        evaluation.diagnostics.append(contentsOf: sectionDiagnostics)
        for plugin in plugins {
            do {
                let (configuration, warnings) = try decodeErased(plugin, from: sections[plugin.name]?.node)
                evaluation.configurations[plugin.name] = configuration
                evaluation.diagnostics.append(contentsOf: warnings)
            } catch {
                evaluation.diagnostics.append(contentsOf: error)
            }
        }
        evaluation.diagnostics = evaluation.diagnostics.sortedByLocation(fileOrder: files.map(\.path))
        return evaluation
    }

    func decodeErased<P: HoorayPlugin>(
        _ plugin: P, from section: ConfigNode?
    ) throws(ConfigDiagnostics) -> (any Sendable, [ConfigDiagnostic]) {
        let (configuration, warnings) = try decodeConfiguration(of: plugin, from: section)
        return (configuration, warnings)
    }
}

/// A configuration that loaded without errors, as the daemon uses it.
public struct LoadedConfiguration: Sendable {
    /// Hooray's own settings.
    public var core: CoreSettings
    /// Every installed plugin's section, by plugin name.
    public var pluginSections: [String: PluginSection]
    /// The files that were read, in layer order.
    public var files: [String]
    /// Warnings found, such as unknown keys, in file and line order; the daemon logs them.
    public var warnings: [ConfigDiagnostic]
    /// The merged configuration.
    public var root: ConfigNode
    /// The files' digests, and the files of nothing but a plugin's list (``ConfigLoader/listCacheFile``).
    public internal(set) var lists = ConfigLists()
    private var configurations: [String: any Sendable]
    private var extras: [String: any Sendable]

    init(
        core: CoreSettings, pluginSections: [String: PluginSection], files: [String], warnings: [ConfigDiagnostic],
        root: ConfigNode, configurations: [String: any Sendable], extras: [String: any Sendable] = [:]
    ) {
        self.extras = extras
        self.core = core
        self.pluginSections = pluginSections
        self.files = files
        self.warnings = warnings
        self.root = root
        self.configurations = configurations
    }

    /// The decoded value of an extra section named when the loader was made.
    ///
    /// - Parameters:
    ///   - name: The section's name.
    ///   - type: The type it was decoded into.
    /// - Returns: The value, or `nil` when no such section was named or the type differs.
    public func extraSection<Value: Sendable>(_ name: String, as type: Value.Type) -> Value? {
        extras[name] as? Value
    }

    /// Whether a plugin is enabled: `[plugins.NAME] enabled`, or when not set the plugin's
    /// ``HoorayKit/HoorayPlugin/isEnabledByDefault`` (`true` for a plugin the loader did not know).
    ///
    /// - Parameter name: The plugin's name.
    public func isEnabled(_ name: String) -> Bool {
        pluginSections[name]?.isEnabled ?? true
    }

    /// `[plugins] allow_unsandboxed`: whether plugins in other languages may run without a sandbox
    /// where none can be had (`false` when not set).
    public var allowsUnsandboxedPlugins: Bool {
        if case .boolean(let flag)? = root["plugins"]?["allow_unsandboxed"]?.value { return flag }
        return false
    }

    /// A plugin's celebration style: its own `[plugins.NAME] celebrations`, or else `[celebrations] style`.
    ///
    /// - Parameter name: The plugin's name.
    public func celebrationStyle(of name: String) -> CelebrationStyle {
        pluginSections[name]?.celebrationStyle ?? core.celebrations.style
    }

    /// A plugin's decoded configuration.
    ///
    /// Plugins the loader knew were decoded (and checked) while loading; others are decoded now.
    /// - Parameter plugin: The plugin.
    /// - Throws: ``ConfigDiagnostics`` when the plugin was not known to the loader and its section has errors.
    public func configuration<P: HoorayPlugin>(of plugin: P) throws(ConfigDiagnostics) -> P.Configuration {
        if let configuration = configurations[plugin.name] as? P.Configuration { return configuration }
        return try decodeConfiguration(
            of: plugin, from: pluginSections[plugin.name]?.node ?? root["plugins"]?[plugin.name]
        ).0
    }
}

/// What `hooray config check` found: the files read and every diagnostic.
public struct ConfigCheckReport: Sendable, CustomStringConvertible {
    /// The files that were read, in layer order, including any that are not valid TOML.
    public var files: [String]
    /// Every error and warning, in file and line order.
    public var diagnostics: ConfigDiagnostics
    /// What was read and decoded, held by the report: `hooray config check` keeps it until the
    /// process ends, since freeing a file of 100,000 reminders value by value is work for nothing.
    package var checked: (any Sendable)?

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - files: The files that were read.
    ///   - diagnostics: Everything found.
    public init(files: [String], diagnostics: ConfigDiagnostics) {
        self.files = files
        self.diagnostics = diagnostics
    }

    /// `true` when the configuration cannot be used: the CLI exits with a non-zero status.
    public var hasErrors: Bool { diagnostics.containsErrors }

    /// One line for the end of the output, such as `checked 2 files: 1 error, 1 warning`.
    public var summary: String {
        let checked: String
        switch files.count {
        case 0: checked = "no configuration files found; the built-in defaults apply"
        case 1: checked = "checked 1 file"
        default: checked = "checked \(files.count) files"
        }
        let errors = diagnostics.errors.count
        let warnings = diagnostics.warnings.count
        if errors == 0 && warnings == 0 { return checked + (files.isEmpty ? "" : ": no problems found") }
        var counts: [String] = []
        if errors > 0 { counts.append(errors == 1 ? "1 error" : "\(errors) errors") }
        if warnings > 0 { counts.append(warnings == 1 ? "1 warning" : "\(warnings) warnings") }
        return checked + ": " + counts.joined(separator: ", ")
    }

    /// Every diagnostic, then the summary line.
    public var description: String {
        diagnostics.isEmpty ? summary : "\(diagnostics)\n\(summary)"
    }
}

/// The merged tree and the decoded configurations of a check.
struct CheckedValues: Sendable {
    var root: ConfigNode
    var configurations: [String: any Sendable]
}
