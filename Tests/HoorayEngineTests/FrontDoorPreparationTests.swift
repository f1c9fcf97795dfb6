import Foundation
import HabitsPlugin
import HoorayCLIHost
import HoorayClient
import HoorayCommandLine
import HoorayCommands
import HoorayDaemon
import HoorayKit
import RemindersPlugin
import Testing
import WinsPlugin

@testable import HoorayEngine

/// What hoorayd takes from the `hooray` front door and what it hands back to the full program.
@Suite struct FrontDoorPreparationTests {
    static let tree = try! CommandTree(plugins: [WinsPlugin(), HabitsPlugin()])
    static let builtIns: Set<String> = ["wins", "habits"]

    static func caller(interactive: Bool = false, color: Bool = true, version: String = HoorayVersion.current)
        -> FrontDoorCaller
    {
        FrontDoorCaller(
            timeZone: "Europe/Paris", color: color, interactive: interactive, dataDirectory: "/home/me/data",
            workingDirectory: "/home/me/Pictures", home: "/home/me", version: version)
    }

    static func prepare(_ words: [String], caller: FrontDoorCaller = caller(), builtIns: Set<String> = builtIns)
        -> FrontDoor.Prepared?
    {
        FrontDoor.prepare(
            arguments: words, caller: caller, tree: tree, builtIns: builtIns, hostVersion: HoorayVersion.current)
    }

    @Test func aPlainWinIsTakenWithTheCallersZoneAndColours() throws {
        let prepared = try #require(Self.prepare(["win", "Took", "a walk", "--mood", "proud"]))
        #expect(prepared.plugin == "wins")
        #expect(prepared.path == ["win"])
        #expect(prepared.invocation.values["text"] == ["Took", "a walk"])
        #expect(prepared.invocation.values["mood"] == ["proud"])
        #expect(prepared.invocation.environment.timeZoneIdentifier == "Europe/Paris")
        #expect(prepared.invocation.environment.dataDirectory == "/home/me/data")
        #expect(prepared.invocation.environment.color)
        #expect(!prepared.invocation.json)
    }

    @Test func pathsStartAtTheCallersWorkingFolderAndHome() throws {
        let prepared = try #require(Self.prepare(["win", "Cooked dinner", "--photo", "dinner.jpg", "--photo=~/a.jpg"]))
        #expect(prepared.invocation.values["photo"] == ["/home/me/Pictures/dinner.jpg", "/home/me/a.jpg"])
        var lost = Self.caller()
        lost.workingDirectory = "Pictures"
        #expect(Self.prepare(["win", "Cooked dinner"], caller: lost) == nil)
    }

    @Test func theGlobalOptionsAreReadAsTheFullProgramReadsThem() throws {
        let json = try #require(Self.prepare(["--json", "win", "Took a walk", "--no-color"]))
        #expect(json.invocation.json)
        #expect(!json.invocation.environment.color)
        #expect(json.invocation.values["text"] == ["Took a walk"])
    }

    @Test(arguments: [
        ["win", "Took a walk", "--help"],  // help
        ["help", "win"],
        ["win", "Took a walk", "--config", "/tmp/x.toml"],  // another configuration
        ["win", "Took a walk", "--config"],  // a global option without its file
        ["win", "Took a walk", "--bogus"],  // an unknown option
        ["wn", "Took a walk"],  // no such command
        ["moments"],  // a command that only reads
        ["moments", "--json"],
        ["status"],  // hooray's own
        ["--version"],
        [],
        ["habit", "delete", "Read"],  // a confirmation to ask for
        ["habit", "done"],  // a missing argument
        ["act", "3", "did-swap"],  // hooray's own, which may ask a button's question
        ["act", "3", "did-swap", "--answer", "Tea instead of wine"],
    ])
    func whatTheFullProgramWouldWordOrAskAboutIsHandedBack(_ words: [String]) {
        #expect(Self.prepare(words) == nil, "\(words)")
    }

    @Test func aValueOnlyThePluginRefusesIsTakenAndRefusedThere() {
        // The plugin's refusal comes back as a usage error, worded by `output(for:of:)`.
        #expect(Self.prepare(["win", "Took a walk", "--mood", "grumpy"])?.invocation.values["mood"] == ["grumpy"])
    }

    @Test func aConfirmationAnsweredOnTheCommandLineIsTaken() {
        #expect(Self.prepare(["habit", "delete", "Read", "--yes"])?.plugin == "habits")
    }

    @Test func anotherVersionOrAPluginInAnotherLanguageIsHandedBack() {
        #expect(Self.prepare(["win", "Took a walk"], caller: Self.caller(version: "0.0.1")) == nil)
        #expect(Self.prepare(["win", "Took a walk"], builtIns: ["habits"]) == nil)
    }

    @Test func theOutputIsWhatTheFullProgramPrints() throws {
        let prepared = try #require(Self.prepare(["win", "Took a walk"]))
        let success = FrontDoor.output(
            for: ControlResponse(ok: true, reply: CommandReply(text: "Moment logged", warnings: ["careful"])),
            of: prepared)
        #expect(
            success
                == CommandOutput(
                    writes: [.init(to: 2, text: "careful\n"), .init(to: 1, text: "Moment logged\n")], status: 0))
        let refused = FrontDoor.output(
            for: ControlResponse(ok: false, message: "--ago \"soon\" is not a time", invalidValue: "--ago"),
            of: prepared)
        #expect(refused?.status == 64)
        #expect(refused?.writes.first?.text == "hooray win: --ago \"soon\" is not a time\n")
        #expect(refused?.writes.last?.text == "See `hooray help win`.\n")
        let failed = FrontDoor.output(for: ControlResponse(ok: false, message: "the disk is full"), of: prepared)
        #expect(
            failed
                == CommandOutput(
                    writes: [
                        .init(to: 2, text: "hooray win: the disk is full\n"),
                        .init(to: 2, text: "Nothing was saved.\n"),
                    ],
                    status: 1))
        // What only the full program can do is named, never dropped without a word.
        let leftover = FrontDoor.output(
            for: ControlResponse(ok: true, reply: CommandReply(text: "t", clipboard: "c")), of: prepared)
        #expect(leftover?.writes.map(\.to) == [2, 1])
        #expect(leftover?.writes.first?.text.contains("hooray-cli") == true)
    }

    @Test func aCommandRunWithAFlagThatSavesNothingIsTheFullPrograms() throws {
        let tree = try CommandTree(plugins: [RemindersPlugin()])
        func prepare(_ words: [String]) -> FrontDoor.Prepared? {
            FrontDoor.prepare(
                arguments: words, caller: Self.caller(), tree: tree, builtIns: ["reminders"],
                hostVersion: HoorayVersion.current)
        }
        #expect(prepare(["remind", "Stretch", "--at", "15:00"]) != nil)
        // `--to-file` only answers with an entry the full program writes into hooray.toml.
        #expect(prepare(["remind", "Stretch", "--at", "15:00", "--to-file"]) == nil)
    }
}
