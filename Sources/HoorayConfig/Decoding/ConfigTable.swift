import HoorayTOML

/// A TOML table: keys in the order they are written, each with its node and the place the key is written.
///
/// A table read from a file is a view of the TOML reader's table; it becomes a table of its own the
/// first time it is changed (when layers are merged, for instance).
public struct ConfigTable: Sendable, Hashable, Sequence {
    struct Entry: Sendable, Hashable {
        var node: ConfigNode
        var keyLocation: SourceLocation?
    }

    /// Where a table's keys are kept.
    enum Storage: Sendable {
        /// A table as the TOML reader read it, in the file with that number.
        case read(TOMLTable, file: Int32)
        /// A table made or changed in code: the keys in order, and each key's entry.
        case made(keys: [String], entries: [String: Entry])
    }

    var storage: Storage

    /// Creates an empty table.
    public init() {
        storage = .made(keys: [], entries: [:])
    }

    init(read table: TOMLTable, file: Int32) {
        storage = .read(table, file: file)
    }

    /// The keys, in the order they were written (for merged tables, earlier layers first).
    public var keys: [String] {
        switch storage {
        case .read(let table, _): table.entries.map(\.key)
        case .made(let keys, _): keys
        }
    }

    /// The number of keys.
    public var count: Int {
        switch storage {
        case .read(let table, _): table.entries.count
        case .made(let keys, _): keys.count
        }
    }

    /// `true` when the table has no keys.
    public var isEmpty: Bool { count == 0 }

    /// The key at a place in ``keys``.
    func key(at index: Int) -> String {
        switch storage {
        case .read(let table, _): table.entries[index].key
        case .made(let keys, _): keys[index]
        }
    }

    /// The node at a place in ``keys``.
    func node(at index: Int) -> ConfigNode {
        switch storage {
        case .read(let table, let file): ConfigNode(read: table.entries[index].item, file: file)
        case .made(let keys, let entries): entries[keys[index]]!.node
        }
    }

    /// The place of a key in ``keys``, or `nil` when the table does not have it.
    ///
    /// A table read from a file of a dozen keys or fewer is searched along, without hashing.
    func index(of key: String) -> Int? {
        switch storage {
        case .read(let table, _): table.entryIndex(of: key)
        case .made(let keys, let entries): entries[key] == nil ? nil : keys.firstIndex(of: key)
        }
    }

    /// The node under a key, or `nil`; setting `nil` removes the key.
    ///
    /// Setting a new key appends it after the others, with no key location.
    public subscript(key: String) -> ConfigNode? {
        get {
            switch storage {
            case .read(let table, let file):
                guard let index = table.entryIndex(of: key) else { return nil }
                return ConfigNode(read: table.entries[index].item, file: file)
            case .made(_, let entries):
                return entries[key]?.node
            }
        }
        set {
            if let newValue {
                set(newValue, forKey: key, keyLocation: keyLocation(of: key))
            } else if self[key] != nil {
                makeOwn()
                guard case .made(var keys, var entries) = storage else { return }
                storage = .made(keys: [], entries: [:])
                entries.removeValue(forKey: key)
                keys.removeAll { $0 == key }
                storage = .made(keys: keys, entries: entries)
            }
        }
    }

    /// Stores a node under a key, remembering where the key is written.
    ///
    /// A key that is already present keeps its position in ``keys``.
    /// - Parameters:
    ///   - node: The value.
    ///   - key: The key.
    ///   - keyLocation: Where the key itself is written, which is where warnings about it point.
    public mutating func set(_ node: ConfigNode, forKey key: String, keyLocation: SourceLocation?) {
        makeOwn()
        guard case .made(var keys, var entries) = storage else { return }
        // Let go of the old storage first, so that the arrays are changed in place.
        storage = .made(keys: [], entries: [:])
        if entries[key] == nil { keys.append(key) }
        entries[key] = Entry(node: node, keyLocation: keyLocation)
        storage = .made(keys: keys, entries: entries)
    }

    /// Turns a view of a file's table into a table of its own, to be changed.
    private mutating func makeOwn() {
        guard case .read(let table, let file) = storage else { return }
        var keys: [String] = []
        var entries: [String: Entry] = [:]
        keys.reserveCapacity(table.entries.count)
        entries.reserveCapacity(table.entries.count)
        for entry in table.entries where entries[entry.key] == nil {
            keys.append(entry.key)
            entries[entry.key] = Entry(
                node: ConfigNode(read: entry.item, file: file),
                keyLocation: SourceFiles.location(entry.keyPosition, file: file))
        }
        storage = .made(keys: keys, entries: entries)
    }

    /// Where a key is written, or `nil` when it is not in the table or comes from no file.
    public func keyLocation(of key: String) -> SourceLocation? {
        switch storage {
        case .read(let table, let file):
            guard let index = table.entryIndex(of: key) else { return nil }
            return SourceFiles.location(table.entries[index].keyPosition, file: file)
        case .made(_, let entries):
            return entries[key]?.keyLocation
        }
    }

    /// Iterates over the keys and their nodes in ``keys`` order.
    public func makeIterator() -> some IteratorProtocol<(key: String, node: ConfigNode)> {
        (0..<count).lazy.map { index in (key: key(at: index), node: node(at: index)) }.makeIterator()
    }

    /// Tables are equal when they have the same keys in the same order, with equal nodes written
    /// at the same places.
    public static func == (lhs: ConfigTable, rhs: ConfigTable) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count {
            let key = lhs.key(at: index)
            guard key == rhs.key(at: index), lhs.node(at: index) == rhs.node(at: index),
                lhs.keyLocation(of: key) == rhs.keyLocation(of: key)
            else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for index in 0..<count {
            hasher.combine(key(at: index))
            hasher.combine(node(at: index))
        }
    }
}
