import Foundation
import HoorayCommandLine
import HoorayCommands
import HoorayKit
import Testing

/// A plugin shaped like the swaps plugin: a free-text command under a short alias, with commands
/// beside it.
private struct SwapLikePlugin: CommandPlugin {
    var name: String { "swaps" }
    var summary: String { "Swaps." }
    var commands: [CommandSpec] {
        [
            CommandSpec(
                name: "log", summary: "Log a swap.",
                arguments: [.init(name: "text", help: "What you swapped.", isRepeating: true)],
                options: [.init(name: "date", valueName: "day", help: "The day.")], aliases: ["swap"],
                offersJSON: true, noun: "your swap"),
            CommandSpec(name: "history", summary: "History.", aliases: ["swap history"], writes: false),
            CommandSpec(
                name: "delete", summary: "Delete.", arguments: [.init(name: "id", help: "The id.")],
                aliases: ["swap delete"]),
            CommandSpec(
                name: "remove", summary: "Remove by ids.",
                arguments: [.init(name: "id", help: "Ids.", isRepeating: true)], aliases: ["swap remove"]),
        ]
    }

    func activate(context: PluginContext, configuration: NoConfiguration) async throws {}

    func run(_ command: CommandInvocation, context: PluginContext, configuration: NoConfiguration) async throws
        -> CommandReply
    {
        throw PluginCommandError("only its commands are declared here")
    }
}

@Suite struct FreeTextGuardTests {
    let tree = try! CommandTree(plugins: [SwapLikePlugin()])

    func refusal(_ words: [String], at path: [String] = ["swap"]) -> [String]? {
        FreeTextGuard.refusal(words, node: tree.index(of: path)!, tree: tree)
    }

    @Test("Item 1: a near-typo of a command where a swap is expected is refused with a did-you-mean")
    func aNearTypoIsRefusedWithTheNearMatch() throws {
        let lines = try #require(refusal(["histroy"]))
        #expect(
            lines[0] == "\"histroy\" looks like a mistyped command, not your swap; did you mean `hooray swap history`?")
        #expect(
            lines[1] == "Nothing was saved. To keep the words as they are, put -- before them: hooray swap -- histroy")
    }

    @Test("Item 1: a command word before free text is refused, with the words to type to keep it")
    func aCommandWordFirstIsRefused() throws {
        let lines = try #require(refusal(["delete", "Tea instead of wine", "--date", "yesterday"]))
        #expect(lines[0].hasPrefix("\"delete\" is a command word, so \"delete Tea instead of wine\" was not taken"))
        #expect(lines[0].hasSuffix("did you mean `hooray swap delete`?"))
        #expect(lines[1].hasSuffix("hooray swap --date yesterday -- delete \"Tea instead of wine\""))
        // A word people type to see or change what they saved, though this plugin has no such command.
        let list = try #require(refusal(["list"]))
        #expect(list[0].contains("`hooray swap` has no command \"list\""))
        let help = try #require(refusal(["help"]))
        #expect(help[0].hasSuffix("did you mean `hooray help swap`?"))
    }

    @Test("Item 1: words after --, words quoted together, longer text and the full command name are taken as text")
    func textThatIsMeantIsTaken() {
        #expect(refusal(["--", "list"]) == nil)
        #expect(refusal(["--date", "yesterday", "--", "histroy"]) == nil)
        #expect(refusal(["delete the cookies from my list"]) == nil)
        #expect(refusal(["Walked", "the", "dog"]) == nil)
        #expect(refusal(["histroy", "of", "tea"]) == nil)
        #expect(refusal(["Tea"]) == nil)
        // Longer text that starts with a word of a sentence, not one that manages what was saved.
        #expect(refusal(["show", "mum", "the", "garden"]) == nil)
        #expect(refusal(["help", "the", "neighbours"]) == nil)
        // A short word is too near too many others to be called a typo.
        #expect(refusal(["rim"]) == nil)
        // The command's own names are no typo: "jog" is a swap, not `log`.
        #expect(refusal(["jog"]) == nil)
        #expect(refusal(["swap"]) == nil)
        #expect(refusal(["list"], at: ["swaps", "log"]) == nil)
        // A command that saves nothing, whatever its words: ids are no free text.
        #expect(refusal(["r5", "r6"], at: ["swap", "remove"]) == nil)
    }
}
