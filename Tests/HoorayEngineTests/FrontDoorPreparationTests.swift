import Foundation
import HabitsPlugin
import HoorayCLIHost
import HoorayClient
import HoorayCommands
import HoorayDaemon
import HoorayKit
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
        // What only the full program can do is left to it.
        #expect(
            FrontDoor.output(
                for: ControlResponse(ok: true, reply: CommandReply(text: "t", clipboard: "c")), of: prepared)
                == nil)
    }

    @Test func theHandoverIsReadFromTheFrontDoorsVariables() {
        let answered = FrontDoorHandover(variable: "answered 9d2e", answer: "{}")
        #expect(answered?.requestID == "9d2e")
        #expect(answered?.state == .answered("{}"))
        #expect(FrontDoorHandover(variable: "answered 9d2e", answer: nil) == nil)
        // A long answer comes in a file open on a descriptor.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        #expect(write(ends[1], "{\"ok\":true}", 11) == 11)
        close(ends[1])
        let long = FrontDoorHandover(variable: "answered 9d2e \(ends[0])", answer: nil)
        #expect(long?.state == .answered("{\"ok\":true}"))
        // A connection that is not open is not taken.
        #expect(FrontDoorHandover(variable: "waiting 9d2e 987654 2000", answer: nil) == nil)
        #expect(FrontDoorHandover(variable: "something else", answer: nil) == nil)
        #expect(FrontDoorHandover(variable: nil, answer: nil) == nil)
    }
}
