import HoorayTOML

/// The path from the root of the configuration to one value, such as
/// `plugins.reminders.reminder[1].at`.
///
/// Diagnostics name values by their path so a message still makes sense when several files
/// were merged. Keys that are not bare TOML keys are shown quoted: `plugins."my plugin".x`.
public struct ConfigKeyPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// One step of a path: a key in a table or an index in an array.
    public enum Component: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        /// A key in a table.
        case key(String)
        /// A position in an array, counting from 0.
        case index(Int)

        /// Creates a key component from a string literal.
        public init(stringLiteral value: String) { self = .key(value) }

        /// Creates an index component from an integer literal.
        public init(integerLiteral value: Int) { self = .index(value) }
    }

    /// The steps from the root, outermost first.
    public var components: [Component]

    /// Creates a path from its steps.
    ///
    /// - Parameter components: The steps from the root, outermost first; empty for the root itself.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// Creates a path from a list of keys, such as `["plugins", "reminders"]`.
    ///
    /// - Parameter keys: The table keys from the root, outermost first.
    public init(keys: [String]) {
        self.components = keys.map(Component.key)
    }

    /// Creates a path from an array literal of steps, such as `["plugins", "reminders", "reminder", 1]`.
    public init(arrayLiteral elements: Component...) {
        self.components = elements
    }

    /// `true` for the root of the configuration.
    public var isEmpty: Bool { components.isEmpty }

    /// Compares the last steps first: paths met together (the keys of one table, the elements of
    /// one array) differ there, and share their long common beginning.
    public static func == (lhs: ConfigKeyPath, rhs: ConfigKeyPath) -> Bool {
        lhs.components.count == rhs.components.count
            && lhs.components.reversed().elementsEqual(rhs.components.reversed())
    }

    /// Hashes the depth and the last two steps only: the locations of a large file are kept by
    /// path, and hashing every step of hundreds of thousands of long paths was most of the time it
    /// took to read one. Paths that differ only further up are told apart by `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(components.count)
        for component in components.suffix(2) { hasher.combine(component) }
    }

    /// The path one key further down.
    ///
    /// - Parameter key: The key in the table this path names.
    public func appending(key: String) -> ConfigKeyPath {
        appending(.key(key))
    }

    /// The path one array element further down.
    ///
    /// - Parameter index: The position in the array this path names, counting from 0.
    public func appending(index: Int) -> ConfigKeyPath {
        appending(.index(index))
    }

    /// The path one step further down, made with one allocation.
    func appending(_ component: Component) -> ConfigKeyPath {
        var longer: [Component] = []
        longer.reserveCapacity(components.count + 1)
        longer.append(contentsOf: components)
        longer.append(component)
        return ConfigKeyPath(longer)
    }

    /// The path as written in messages, such as `plugins.reminders.reminder[1].at`; empty for the root.
    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += TOMLLiteral.key(key)
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}
