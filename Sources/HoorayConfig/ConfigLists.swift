import HoorayKit

/// The digests of the configuration files, and the files that hold nothing but one plugin's list
/// (``HoorayKit/HoorayPlugin/deferrableList``): those the loader left unread, and those it can leave
/// unread next time.
public struct ConfigLists: Sendable {
    /// The configuration digest: of every file's path and bytes, in layer order, and Hooray's version.
    public var digest = ""
    /// The digest of each file read or left unread, in the order of ``LoadedConfiguration/files``.
    public var fileDigests: [String] = []
    /// The plugins whose list continues in files left unread.
    public var unreadPlugins: Set<String> = []
    /// The files that hold nothing but a plugin's list, among the files of the layers now.
    public var cache = ListCache()
    /// Whether ``cache`` is what the cache file says already.
    var cacheIsCurrent = true
    /// The loader, reading everything: for ``LoadedConfiguration/readingEverything()`` and the cache.
    var loader: ConfigLoader?
    /// Every file's bytes as read, while a list continues in files left unread: what
    /// ``LoadedConfiguration/readingEverything()`` reads, so that it gives this configuration whole
    /// and never one with edits made since (a half-typed file, say, not yet reloaded). Kept deflated.
    var kept: KeptFiles?

    /// Writes the list cache when it changed, so that the next start can leave the files it names
    /// unread; nothing when the loader has no cache file.
    ///
    /// - Returns: Whether the cache file was written (`false`: it said this already, or there is none).
    /// - Throws: The file system's error; the cache is only an aid, so callers log it and go on.
    @discardableResult
    public func writeCache() throws -> Bool {
        guard !cacheIsCurrent, let loader, let file = loader.listCacheFile else { return false }
        try cache.write(to: file, version: loader.version)
        return true
    }
}

extension LoadedConfiguration {
    /// The configuration digest (``ConfigLists/digest``).
    public var digest: String { lists.digest }

    /// Whether a plugin's list continues in files that were left unread: its configuration lacks
    /// their entries.
    ///
    /// - Parameter plugin: The plugin's name.
    public func listContinuesUnread(plugin: String) -> Bool { lists.unreadPlugins.contains(plugin) }

    /// The configuration read again with nothing left unread; this configuration when nothing was.
    ///
    /// Lists of tables are concatenated across layers in layer order, so a whole list is only had
    /// from reading everything, not by adding the files left out. The files are read as they were
    /// when this configuration was loaded (their bytes are kept meanwhile), not as they are now: a
    /// plugin activated again without a reload (a new time zone, say) gets the configuration in
    /// force, even while a file is being edited.
    ///
    /// - Throws: ``ConfigDiagnostics`` when a file added to a layer's folder since has errors.
    public func readingEverything() throws(ConfigDiagnostics) -> LoadedConfiguration {
        guard !lists.unreadPlugins.isEmpty, var loader = lists.loader else { return self }
        loader.listCacheFile = nil
        for (path, text) in lists.kept?.texts() ?? [:] {
            loader.replacedTexts[path] = text
        }
        return try loader.load()
    }
}

/// What one evaluation finds out about files of nothing but a plugin's list.
struct ListReading {
    /// The plugins whose list continues in files left unread.
    var unreadPlugins: Set<String> = []
    /// The plugins whose section or list a file read holds in another shape than a list of tables
    /// (`reminder = []`, `plugins.reminders = 1`): merged over a list they replace it.
    var otherShapes: Set<String> = []
    /// The files left unread.
    var unread: [String: ListCache.Entry] = [:]
    /// The files read that hold nothing but a plugin's list; noted once the file proves clean.
    var candidates: [(path: String, digest: String, entry: ListCache.Entry)] = []

    mutating func leftUnread(digest: String, _ entry: ListCache.Entry) {
        unreadPlugins.insert(entry.plugin)
        unread[digest] = entry
    }

    /// Notes whether a file read holds nothing but one plugin's list, and where it holds a plugin's
    /// section or list in another shape.
    ///
    /// - Parameter deferrable: The list key of each plugin that has one, by plugin.
    mutating func look(at node: ConfigNode, path: String, digest: String, deferrable: [String: String]) {
        guard !deferrable.isEmpty, let plugins = node["plugins"] else { return }
        guard let table = plugins.table else {
            otherShapes.formUnion(deferrable.keys)
            return
        }
        for (plugin, key) in deferrable {
            guard let section = table[plugin] else { continue }
            guard let sectionTable = section.table else {
                otherShapes.insert(plugin)
                continue
            }
            guard let list = sectionTable[key] else { continue }
            guard list.isArrayOfTables else {
                otherShapes.insert(plugin)
                continue
            }
            if node.table?.count == 1, table.count == 1, sectionTable.count == 1 {
                candidates.append((path, digest, ListCache.Entry(plugin: plugin, key: key)))
            }
        }
    }
}

extension ConfigLoader {
    /// The list key of each plugin that has one (``HoorayKit/HoorayPlugin/deferrableList``), by plugin.
    var deferrableLists: [String: String] {
        Dictionary(
            plugins.compactMap { plugin in plugin.deferrableList.map { (plugin.name, $0) } },
            uniquingKeysWith: { first, _ in first })
    }

    /// The digests and list files of an evaluation that loaded.
    func lists(of evaluation: Evaluation, known: ListCache?) -> ConfigLists {
        var digest = ContentDigest()
        digest.add("hooray configuration")
        digest.add(version)
        for (path, fileDigest) in zip(evaluation.files, evaluation.digests) {
            digest.add(path)
            digest.add(fileDigest)
        }
        // A file is noted only when nothing was found in it: no error, no warning.
        let found = Set(evaluation.diagnostics.diagnostics.compactMap { $0.location?.file })
        var cache = ListCache(entries: evaluation.unread.unread)
        for candidate in evaluation.unread.candidates where !found.contains(candidate.path) {
            cache.entries[candidate.digest] = candidate.entry
        }
        var lists = ConfigLists()
        lists.digest = digest.value
        lists.fileDigests = evaluation.digests
        lists.unreadPlugins = evaluation.unread.unreadPlugins
        lists.cache = cache
        lists.cacheIsCurrent = known == cache
        lists.loader = self
        if !lists.unreadPlugins.isEmpty { lists.kept = KeptFiles(evaluation.bytes) }
        return lists
    }
}
