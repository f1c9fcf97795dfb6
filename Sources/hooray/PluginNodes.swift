import ArgumentParser
import Foundation
import HoorayCommands
import HoorayEngine
import HoorayKit
import Synchronization

/// A number as a type, so that each node of the command tree is a type of its own, as
/// swift-argument-parser wants commands to be.
protocol TypeIndex {
    static var value: Int { get }
}

enum ZeroIndex: TypeIndex {
    static var value: Int { 0 }
}

enum NextIndex<Previous: TypeIndex>: TypeIndex {
    static var value: Int { Previous.value + 1 }
}

/// A node of the plugin command tree as swift-argument-parser sees it: for `hooray --help`, man
/// pages and completions. Running one goes through ``PluginCommandLine``.
struct PluginNode<Index: TypeIndex>: AsyncParsableCommand {
    static var node: CommandTree.Node { commandTree.nodes[Index.value] }

    /// Made once per node: swift-argument-parser asks for it many times while it parses any command line.
    static var configuration: CommandConfiguration {
        nodeConfigurations.withLock { made in
            if let configuration = made[Index.value] { return configuration }
            let configuration = makeConfiguration()
            made[Index.value] = configuration
            return configuration
        }
    }

    private static func makeConfiguration() -> CommandConfiguration {
        let node = node
        var discussion = ""
        var usage: String?
        if let spec = node.command?.spec {
            discussion = CommandHelp.body(path: node.path, spec: spec).trimmingCharacters(in: .newlines)
            usage = CommandHelp.usage(path: node.path, spec: spec)
        }
        return CommandConfiguration(
            commandName: node.word, abstract: node.summary, usage: usage, discussion: discussion,
            shouldDisplay: !node.isHidden,
            subcommands: node.children.filter { !commandTree.nodes[$0].isHidden }.map { pluginNodeTypes[$0] })
    }

    @Argument(
        parsing: .captureForPassthrough, help: PluginNode.argumentsHelp,
        completion: .custom { words, index, prefix in
            PluginCompletion.complete(words: words, index: index, prefix: prefix)
        })
    var arguments: [String] = []

    /// The man page's entry for what follows the command's name: its own arguments and options, each
    /// with its help, or for a group the commands under it.
    static var argumentsHelp: ArgumentHelp {
        let node = node
        guard let spec = node.command?.spec else {
            let words = commandTree.visibleChildren(of: Index.value).map(\.word)
            return ArgumentHelp(
                "One of its commands (\(words.joined(separator: ", "))), then that command's arguments and options.",
                valueName: "command")
        }
        var parts =
            spec.arguments.map { "<\($0.name)> \($0.help)" }
            + spec.options.map { "--\($0.name) <\($0.valueName)> \($0.help)" }
            + spec.flags.map { "--\($0.name) \($0.help)" }
        if spec.offersJSON { parts.append("--json Print JSON instead of text.") }
        if spec.confirmation != nil { parts.append("--yes Go ahead without asking.") }
        guard !parts.isEmpty else {
            return ArgumentHelp("None of its own: it takes only --config, --no-color and --help.", valueName: "none")
        }
        return ArgumentHelp(parts.joined(separator: " · "), valueName: "arguments")
    }

    func run() async throws {
        let code = await PluginCommandLine.run(path: Self.node.path, arguments: arguments)
        if code != 0 { throw ExitCode(code) }
    }
}

/// The configuration of each node of the plugin command tree made so far, by its index.
private let nodeConfigurations = Mutex<[Int: CommandConfiguration]>([:])

/// One command type per node of the plugin command tree.
let pluginNodeTypes: [any ParsableCommand.Type] = makeNodeTypes(ZeroIndex.self, count: commandTree.nodes.count)

func makeNodeTypes<Index: TypeIndex>(_ index: Index.Type, count: Int) -> [any ParsableCommand.Type] {
    guard count > 0 else { return [] }
    return [PluginNode<Index>.self] + makeNodeTypes(NextIndex<Index>.self, count: count - 1)
}
