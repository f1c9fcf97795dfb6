import Foundation
import HoorayCommandLine
import HoorayCommands
import HoorayKit
import Testing

/// A plugin that only declares commands, for the command tree and parser.
private struct DeclaringPlugin: CommandPlugin {
    var name: String
    var summary: String { "Declares \(name)'s commands." }
    var commands: [CommandSpec]

    func activate(context: PluginContext, configuration: NoConfiguration) async throws {}

    func run(_ command: CommandInvocation, context: PluginContext, configuration: NoConfiguration) async throws
        -> CommandReply
    {
        throw PluginCommandError("only its commands are declared here")
    }
}

private let log = CommandSpec(
    name: "log", summary: "Log something.",
    arguments: [.init(name: "text", help: "Words.", isOptional: true, isRepeating: true)],
    options: [
        .init(name: "ago", valueName: "time", help: "When."),
        .init(name: "photo", valueName: "file", help: "A photo.", isRepeating: true, isPath: true),
    ],
    flags: [.init(name: "favorite", help: "A favourite.")], aliases: ["jot"], offersJSON: true)

@Suite struct CommandLineTests {
    @Test func argumentsOptionsFlagsAndPathsAreParsedByName() throws {
        let parsed = try CommandLineParser.parse(
            ["Took", "a", "walk", "--ago=2h", "--photo", "a.jpg", "--photo", "~/b.jpg", "--favorite", "--json"],
            spec: log, workingDirectory: "/work", home: "/home/me")
        #expect(parsed.invocation.values("text") == ["Took", "a", "walk"])
        #expect(parsed.invocation.value("ago") == "2h")
        #expect(parsed.invocation.values("photo") == ["/work/a.jpg", "/home/me/b.jpg"])
        #expect(parsed.invocation.flag("favorite"))
        #expect(parsed.invocation.json)
        #expect(!parsed.wantsHelp)
    }

    @Test func aValueThatStartsWithADashIsTakenAsTheOptionsValue() throws {
        let parsed = try CommandLineParser.parse(["--ago", "-1"], spec: log)
        #expect(parsed.invocation.value("ago") == "-1")
        let words = try CommandLineParser.parse(["--", "--not-an-option"], spec: log)
        #expect(words.invocation.values("text") == ["--not-an-option"])
    }

    @Test func mistakesNameTheWordAndTheFix() throws {
        let misspelt = #expect(throws: CommandUsageError.self) {
            try CommandLineParser.parse(["--agoo", "2h"], spec: log)
        }
        #expect(misspelt?.message.contains("--agoo") == true)
        #expect(misspelt?.message.contains("did you mean --ago?") == true)
        let missing = #expect(throws: CommandUsageError.self) { try CommandLineParser.parse(["--ago"], spec: log) }
        #expect(missing?.message == "--ago needs a value")
        let flagValue = #expect(throws: CommandUsageError.self) {
            try CommandLineParser.parse(["--json=yes"], spec: log)
        }
        #expect(flagValue?.message.contains("takes no value") == true)
        let single = CommandSpec(name: "show", summary: "Show.", arguments: [.init(name: "name", help: "The name.")])
        let extra = #expect(throws: CommandUsageError.self) { try CommandLineParser.parse(["a", "b"], spec: single) }
        #expect(extra?.message.contains("unexpected argument \"b\"") == true)
        let none = #expect(throws: CommandUsageError.self) { try CommandLineParser.parse([], spec: single) }
        #expect(none?.message == "missing <name>: The name.")
    }

    @Test func theOptionsEveryCommandTakesAreParsedListedAndReserved() throws {
        let environment = CommandEnvironment(color: true)
        let parsed = try CommandLineParser.parse(
            ["--no-color", "--config", "extra.toml", "Walked"], spec: log, environment: environment,
            workingDirectory: "/work")
        #expect(!parsed.invocation.environment.color)
        #expect(parsed.configFile == "/work/extra.toml")
        #expect(parsed.invocation.values("text") == ["Walked"])
        #expect(CommandLineParser.optionNames(of: log).suffix(3) == ["--config", "--no-color", "--help"])
        #expect(CommandHelp.text(path: ["jot"], spec: log).contains("  --no-color "))
        let claiming = CommandSpec(name: "paint", summary: "Paint.", flags: [.init(name: "no-color", help: "Plain.")])
        #expect(throws: CommandSpecError.self) {
            try CommandTree(plugins: [DeclaringPlugin(name: "art", commands: [claiming])])
        }
    }

    @Test func helpWinsOverEverythingElse() throws {
        #expect(try CommandLineParser.parse(["--agoo", "-h"], spec: log).wantsHelp)
        #expect(try !CommandLineParser.parse(["--", "--help"], spec: log).wantsHelp)
        let help = CommandHelp.text(path: ["jot"], spec: log)
        #expect(
            help.contains("USAGE: hooray jot [<text> ...] [--ago <time>] [--photo <file> ...] [--favorite] [--json]"))
        #expect(help.contains("  --ago <time>              When."))
    }

    @Test func theTreeRoutesPluginCommandsAliasesAndDefaults() throws {
        let list = CommandSpec(name: "list", summary: "List.", aliases: ["note list"], isDefault: true)
        let tree = try CommandTree(plugins: [
            DeclaringPlugin(name: "notes", commands: [log, list]),
            DeclaringPlugin(name: "silent", commands: []),
        ])
        guard case .command(_, let target, let rest) = tree.route(["jot", "hello"]) else {
            Issue.record("jot is not a command")
            return
        }
        #expect(target.plugin == "notes" && target.spec.name == "log" && rest == ["hello"])
        guard case .command(_, let viaGroup, _) = tree.route(["notes"]) else {
            Issue.record("notes alone runs nothing")
            return
        }
        #expect(viaGroup.spec.name == "list")
        guard case .command(_, let viaAlias, _) = tree.route(["note"]) else {
            Issue.record("note alone runs nothing")
            return
        }
        #expect(viaAlias.spec.name == "list")
        guard case .group(_, let unknown) = tree.route(["notes", "lsit"]) else {
            Issue.record("a typo was run")
            return
        }
        #expect(unknown == "lsit")
        #expect(tree.route(["silent"]) == nil)
        // `notes` has a command outside the `note` group, so both are listed.
        #expect(tree.visibleChildren(of: 0).map(\.word) == ["notes", "jot", "note"])
        let grouped = try CommandTree(plugins: [DeclaringPlugin(name: "notes", commands: [list])])
        #expect(grouped.visibleChildren(of: 0).map(\.word) == ["note"])
        #expect(grouped.route(["notes", "list"]) != nil)
        #expect(tree.route(["status"]) == nil)
    }

    @Test func twoPluginsClaimingTheSameWordsAreNamedBoth() throws {
        let other = CommandSpec(name: "write", summary: "Write.", aliases: ["jot"])
        let conflict = #expect(throws: CommandConflict.self) {
            try CommandTree(plugins: [
                DeclaringPlugin(name: "notes", commands: [log]), DeclaringPlugin(name: "diary", commands: [other]),
            ])
        }
        #expect(conflict?.description.contains("`hooray jot`") == true)
        #expect(conflict?.description.contains("the notes plugin's command log") == true)
        #expect(conflict?.description.contains("the diary plugin's command write") == true)
        let host = #expect(throws: CommandConflict.self) {
            try CommandTree(plugins: [
                DeclaringPlugin(name: "notes", commands: [CommandSpec(name: "x", summary: "X.", aliases: ["status"])])
            ])
        }
        #expect(host?.description.contains("hooray itself") == true)
    }
}

@Suite struct CommandDeclarationTests {
    func refusal(_ spec: CommandSpec, _ others: [CommandSpec] = []) -> String? {
        do {
            _ = try CommandTree(plugins: [DeclaringPlugin(name: "notes", commands: others + [spec])])
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aDeclarationHoorayCannotOfferIsRefusedNamingThePluginAndTheFix() {
        #expect(refusal(CommandSpec(name: "Log It", summary: "x"))?.contains("lowercase letters") == true)
        #expect(
            refusal(CommandSpec(name: "log", summary: "x", flags: [.init(name: "json", help: "x")]))?.contains(
                "the notes plugin's command \"log\" declares the flag --json, which hooray gives every command") == true
        )
        #expect(
            refusal(
                CommandSpec(
                    name: "log", summary: "x", arguments: [.init(name: "when", help: "x")],
                    options: [.init(name: "when", help: "x")]))?.contains("declares when twice") == true)
        #expect(
            refusal(
                CommandSpec(
                    name: "log", summary: "x",
                    arguments: [
                        .init(name: "words", help: "x", isRepeating: true), .init(name: "tag", help: "x"),
                    ]))?.contains("only the last argument may be") == true)
        #expect(
            refusal(
                CommandSpec(name: "b", summary: "x", isDefault: true),
                [CommandSpec(name: "a", summary: "x", isDefault: true)])?.contains("mark only one isDefault") == true)
        #expect(refusal(CommandSpec(name: "log", summary: "x", aliases: ["Jot Down"]))?.contains("alias") == true)
        #expect(refusal(log) == nil)
    }
}
