import Foundation
import HoorayBasics
import HoorayCommandLine
import HoorayKit

/// Every plugin command as `hooray` offers it: `hooray PLUGIN COMMAND` and the aliases, as a tree
/// of words.
///
/// Built from the plugins' ``CommandPlugin/commands``. Both executables build it: `hooray` to parse,
/// help and complete, `hoorayd` to refuse to start when two plugins claim the same words.
public struct CommandTree: Sendable {
    /// One word of a command line, and what follows it.
    public struct Node: Sendable {
        /// The words from the top, such as `["moments", "fav"]`.
        public var path: [String]
        /// What the node runs, when it runs something.
        public var command: Target?
        /// One line for help listings.
        public var summary: String
        /// The indexes of the nodes one word further, in declaration order.
        public var children: [Int]
        /// The child that runs when no further word is given.
        public var defaultChild: Int?
        /// Whether listings leave it out.
        public var isHidden: Bool

        /// The word itself.
        public var word: String { path.last ?? "" }
    }

    /// A plugin's command, as a node runs it.
    public struct Target: Sendable, Hashable {
        /// The plugin's name.
        public var plugin: String
        /// The command.
        public var spec: CommandSpec
    }

    /// Where words led: a command with its remaining words, or a group that needs one more word.
    public enum Route: Sendable {
        /// A command and the words that are its arguments and options.
        case command(node: Int, target: Target, rest: [String])
        /// A group (a plugin, or an alias such as `habit`) with no command of its own, and the
        /// unknown word that followed it, if any.
        case group(node: Int, unknown: String?)
    }

    /// Every node; index 0 is the root, whose children are the top-level words.
    public private(set) var nodes: [Node] = [
        Node(path: [], command: nil, summary: "", children: [], defaultChild: nil, isHidden: false)
    ]

    /// Builds the tree.
    ///
    /// - Parameters:
    ///   - plugins: The plugins, in the order their commands are listed.
    ///   - reserved: Top-level words the host uses itself, such as `status`.
    /// - Throws: ``CommandConflict`` when two commands, or a command and a host word, claim the same words.
    public init(plugins: [any HoorayPlugin], reserved: [String] = CommandTree.hostWords) throws {
        var owners: [[String]: String] = [:]
        for word in reserved { owners[[word]] = "hooray itself" }
        for plugin in plugins where !plugin.offeredCommands.isEmpty {
            let group = try insert(
                path: [plugin.name], owner: "the \(plugin.name) plugin", owners: &owners, command: nil,
                summary: plugin.summary, hidden: false)
            var defaults: [String] = []
            for spec in plugin.offeredCommands {
                try Self.check(spec, plugin: plugin.name)
                if spec.isDefault { defaults.append(spec.name) }
                guard defaults.count <= 1 else {
                    throw CommandSpecError(
                        plugin: plugin.name, command: spec.name,
                        problem: "is a default command, and so is \(defaults[0]); mark only one isDefault")
                }
                let target = Target(plugin: plugin.name, spec: spec)
                let owner = "the \(plugin.name) plugin's command \(spec.name)"
                let node = try insert(
                    path: [plugin.name, spec.name], owner: owner, owners: &owners, command: target,
                    summary: spec.summary, hidden: spec.isHidden)
                if spec.isDefault { nodes[group].defaultChild = node }
                for alias in spec.aliases {
                    let words = alias.split(separator: " ").map(String.init)
                    guard !words.isEmpty else { continue }
                    let aliasNode = try insert(
                        path: words, owner: owner, owners: &owners, command: target, summary: spec.summary,
                        hidden: spec.isHidden)
                    if spec.isDefault, words.count > 1 {
                        let parent = index(of: Array(words.dropLast()))!
                        if nodes[parent].command == nil { nodes[parent].defaultChild = aliasNode }
                    }
                }
            }
        }
        // A group made by aliases alone (`habit add`, `habit done`) takes its summary from its plugin.
        let summaries = Dictionary(plugins.map { ($0.name, $0.summary) }, uniquingKeysWith: { first, _ in first })
        for index in nodes.indices where index != 0 && nodes[index].command == nil && nodes[index].summary.isEmpty {
            let owners = Set(nodes[index].children.compactMap { nodes[$0].command?.plugin })
            if owners.count == 1, let name = owners.first { nodes[index].summary = summaries[name] ?? "" }
        }
        // A plugin whose commands all have a one-word group of aliases (`habit` for `habits`) is
        // listed under that group only; `hooray habits …` still works.
        for group in nodes[0].children where nodes[group].command == nil {
            let commands = Set(nodes[group].children.compactMap { nodes[$0].command })
            guard let plugin = commands.first?.plugin, nodes[group].word != plugin,
                let pluginGroup = index(of: [plugin])
            else { continue }
            let own = Set(nodes[pluginGroup].children.compactMap { nodes[$0].command }.filter { !$0.spec.isHidden })
            if own == commands { nodes[pluginGroup].isHidden = true }
        }
    }

    /// The option names `hooray` gives every command, which no command may declare.
    public static let hostOptions: Set<String> = ["json", "yes", "config", "no-color", "help"]

    /// Checks a command's declaration: names `hooray` can parse, no clashes, arguments in an order
    /// that can be read.
    static func check(_ spec: CommandSpec, plugin: String) throws {
        func fail(_ problem: String) -> CommandSpecError {
            CommandSpecError(plugin: plugin, command: spec.name, problem: problem)
        }
        func isName(_ word: String) -> Bool {
            guard let first = word.unicodeScalars.first, !word.hasSuffix("-") else { return false }
            let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789-")
            return CharacterSet.lowercaseLetters.contains(first) && word.unicodeScalars.allSatisfy(allowed.contains)
        }
        guard isName(spec.name) else {
            throw fail("has a name hooray cannot take; use lowercase letters, digits and dashes, such as log")
        }
        for alias in spec.aliases where !alias.split(separator: " ").allSatisfy({ isName(String($0)) }) {
            throw fail("has the alias \"\(alias)\"; aliases are words of lowercase letters, digits and dashes")
        }
        var seen: Set<String> = []
        let names =
            spec.arguments.map { ("argument <\($0.name)>", $0.name) }
            + spec.options.map { ("option --\($0.name)", $0.name) }
            + spec.flags.map { ("flag --\($0.name)", $0.name) }
        for (what, name) in names {
            guard isName(name) else {
                throw fail("has the \(what), which is not a name; use lowercase letters, digits and dashes")
            }
            if !what.hasPrefix("argument"), hostOptions.contains(name) {
                throw fail("declares the \(what), which hooray gives every command itself; rename it")
            }
            guard seen.insert(name).inserted else {
                throw fail("declares \(name) twice; arguments, options and flags need names of their own")
            }
        }
        for argument in spec.arguments.dropLast()
        where argument.isOptional || argument.isRepeating || argument.prompt != nil {
            throw fail(
                "has the argument <\(argument.name)>, which may be left out or repeated but is not the last; only the last argument may be"
            )
        }
    }

    /// The words `hooray` uses itself, which no plugin may take.
    public static let hostWords = HostWords.all

    /// The node at these words, if there is one.
    public func index(of path: [String]) -> Int? {
        var current = 0
        for word in path {
            guard let next = nodes[current].children.first(where: { nodes[$0].word == word }) else { return nil }
            current = next
        }
        return current
    }

    /// Follows the words from the top as far as they name nodes.
    ///
    /// - Returns: `nil` when the first word is no plugin command at all.
    public func route(_ words: [String]) -> Route? {
        var current = 0
        var consumed = 0
        while consumed < words.count,
            let next = nodes[current].children.first(where: { nodes[$0].word == words[consumed] })
        {
            current = next
            consumed += 1
        }
        guard current != 0 else { return nil }
        let rest = Array(words[consumed...])
        if let target = nodes[current].command {
            return .command(node: current, target: target, rest: rest)
        }
        if let first = rest.first, !first.hasPrefix("-") {
            return .group(node: current, unknown: first)
        }
        // The first word is an option (`hooray recovery --weeks 4`): the default command's, values and all.
        if rest.isEmpty || !rest.contains(where: CommandHelp.isHelp),
            let child = nodes[current].defaultChild, let target = nodes[child].command
        {
            return .command(node: child, target: target, rest: rest)
        }
        return .group(node: current, unknown: nil)
    }

    /// The visible children of a node.
    public func visibleChildren(of node: Int) -> [Node] {
        nodes[node].children.map { nodes[$0] }.filter { !$0.isHidden }
    }

    private mutating func insert(
        path: [String], owner: String, owners: inout [[String]: String], command: Target?, summary: String,
        hidden: Bool
    ) throws -> Int {
        if let previous = owners[path] {
            throw CommandConflict(words: path, first: previous, second: owner)
        }
        owners[path] = owner
        var current = 0
        for (depth, word) in path.enumerated() {
            if let next = nodes[current].children.first(where: { nodes[$0].word == word }) {
                current = next
                if depth == path.count - 1 {
                    nodes[current].command = command
                    nodes[current].summary = summary
                    nodes[current].isHidden = hidden
                }
                continue
            }
            let last = depth == path.count - 1
            nodes.append(
                Node(
                    path: Array(path[...depth]), command: last ? command : nil, summary: last ? summary : "",
                    children: [], defaultChild: nil, isHidden: last ? hidden : false))
            nodes[current].children.append(nodes.count - 1)
            current = nodes.count - 1
        }
        return current
    }
}

/// Two plugins (or a plugin and `hooray` itself) claim the same command words.
public struct CommandConflict: Error, Sendable, Hashable, CustomStringConvertible {
    /// The words both claim.
    public var words: [String]
    /// The first claimant.
    public var first: String
    /// The second claimant.
    public var second: String

    public var description: String {
        "`hooray \(words.joined(separator: " "))` is claimed by both \(first) and \(second); "
            + "rename one of them"
    }
}

/// A plugin declared a command `hooray` cannot offer.
public struct CommandSpecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The plugin.
    public var plugin: String
    /// The command's name, as declared.
    public var command: String
    /// What is wrong with it, and the fix.
    public var problem: String

    public var description: String {
        "the \(plugin) plugin's command \"\(command)\" \(problem)"
    }
}
