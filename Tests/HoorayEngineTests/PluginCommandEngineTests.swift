import Foundation
import HoorayCommandLine
import HoorayDaemon
import HoorayEngine
import HoorayKit
import Testing

/// A plugin that only declares commands.
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

@Suite struct CommandConflictStartTests {
    @Test func hooraydRefusesToStartWhenTwoPluginsClaimTheSameCommand() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-conflict-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = [
            "HOME": folder.path, "XDG_CONFIG_HOME": folder.path + "/config", "XDG_DATA_HOME": folder.path + "/data",
            "XDG_RUNTIME_DIR": folder.path + "/run",
        ]
        let exit = await Daemon.run(
            options: DaemonOptions(configFile: nil, environment: environment),
            plugins: [
                DeclaringPlugin(
                    name: "notes", commands: [CommandSpec(name: "log", summary: "Log something.", aliases: ["jot"])]),
                DeclaringPlugin(name: "diary", commands: [CommandSpec(name: "jot", summary: "Jot.")]),
                DeclaringPlugin(name: "jot", commands: [CommandSpec(name: "x", summary: "X.")]),
            ], version: "test")
        #expect(exit == .badConfiguration)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/data/hooray"))
    }
}

/// A plugin whose configuration its commands read from the context.
private struct ConfiguredPlugin: CommandPlugin {
    struct Configuration: Decodable, Sendable {
        var goal = 8
    }

    var name: String { "configured" }
    var summary: String { "Reads its goal." }
    var commands: [CommandSpec] { [CommandSpec(name: "goal", summary: "The goal.")] }

    func activate(context: PluginContext, configuration: Configuration) async throws {}

    func run(_ command: CommandInvocation, context: PluginContext, configuration: Configuration) async throws
        -> CommandReply
    {
        .text("\(configuration.goal) \(try context.configuration(of: self).goal)")
    }
}

@Suite struct TypedConfigurationTests {
    @Test func theEngineHandsThePluginItsOwnConfigurationTypedOnTheContext() async throws {
        let world = try World()
        defer { world.cleanUp() }
        var configuration = ConfiguredPlugin.Configuration()
        configuration.goal = 6
        await world.engine.apply(
            settings: EngineSettings(),
            plugins: [PluginSetup(plugin: ConfiguredPlugin(), enabled: true, configuration: configuration)])
        let reply = try await world.engine.run(CommandInvocation(command: "goal"), plugin: "configured")
        #expect(reply.text == "6 6")
    }
}

/// A plugin with a command that reads and one that writes.
private struct ReadingPlugin: CommandPlugin {
    var name: String { "reading" }
    var summary: String { "Reads and writes." }
    var commands: [CommandSpec] {
        [CommandSpec(name: "show", summary: "Shows.", writes: false), CommandSpec(name: "add", summary: "Adds.")]
    }

    func activate(context: PluginContext, configuration: NoConfiguration) async throws {}

    func run(_ command: CommandInvocation, context: PluginContext, configuration: NoConfiguration) async throws
        -> CommandReply
    {
        .text(command.command)
    }
}

@Suite struct CommandChangeTests {
    /// A window reads again at each change hoorayd announces: a read announced as a change would
    /// have it read forever.
    @Test func onlyACommandThatWritesAnnouncesAChange() async throws {
        let world = try World()
        defer { world.cleanUp() }
        await world.engine.apply(
            settings: EngineSettings(),
            plugins: [PluginSetup(plugin: ReadingPlugin(), enabled: true, configuration: NoConfiguration())])
        let before = world.engine.changes.publishedCount
        #expect(try await world.engine.run(CommandInvocation(command: "add"), plugin: "reading").text == "add")
        #expect(world.engine.changes.publishedCount == before + 1, "a write is announced")
        #expect(try await world.engine.run(CommandInvocation(command: "show"), plugin: "reading").text == "show")
        #expect(world.engine.changes.publishedCount == before + 1, "a read is not")
    }
}

/// A plugin whose start fails, as one does on a database it cannot write.
private struct FailingStartPlugin: CommandPlugin {
    struct CannotWrite: Error, CustomStringConvertible {
        var description: String { "the database is read-only: permission denied; run `chmod u+w` on it" }
    }
    var name: String { "failing" }
    var summary: String { "Fails to start." }
    var commands: [CommandSpec] { [CommandSpec(name: "add", summary: "Adds.")] }

    func activate(context: PluginContext, configuration: NoConfiguration) async throws { throw CannotWrite() }

    func run(_ command: CommandInvocation, context: PluginContext, configuration: NoConfiguration) async throws
        -> CommandReply
    {
        .text("ran")
    }
}

@Suite struct FailedStartTests {
    /// A plugin that is enabled but could not start is not "not enabled": its command says why it
    /// could not start, with the fix that error names; one turned off still says how to enable it.
    @Test func aCommandOfAPluginThatCouldNotStartSaysWhy() async throws {
        let world = try World()
        defer { world.cleanUp() }
        await world.engine.apply(
            settings: EngineSettings(),
            plugins: [PluginSetup(plugin: FailingStartPlugin(), enabled: true, configuration: NoConfiguration())])
        let failure = await #expect(throws: PluginCommandError.self) {
            try await world.engine.run(CommandInvocation(command: "add"), plugin: "failing")
        }
        #expect(
            failure?.message.contains("the failing plugin could not start") == true, "\(String(describing: failure))")
        #expect(failure?.message.contains("permission denied; run `chmod u+w`") == true)
        #expect(failure?.message.contains("not enabled") == false)

        await world.engine.apply(
            settings: EngineSettings(),
            plugins: [PluginSetup(plugin: FailingStartPlugin(), enabled: false, configuration: NoConfiguration())])
        let off = await #expect(throws: PluginCommandError.self) {
            try await world.engine.run(CommandInvocation(command: "add"), plugin: "failing")
        }
        #expect(off?.message.contains("the failing plugin is not enabled") == true, "\(String(describing: off))")
    }
}
