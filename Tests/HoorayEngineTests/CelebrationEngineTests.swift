import Foundation
import HoorayCommandLine
import HoorayEngine
import HoorayKit
import HoorayMessages
import HoorayStorage
import Testing

/// A plugin that celebrates whatever its `celebrate` command names, and replies with the outcome's line.
struct CelebratingPlugin: CommandPlugin {
    var name: String
    var summary: String { "celebrates on command" }

    struct Request: Codable {
        var title: String
        var big: Bool
    }

    func activate(context: PluginContext, configuration: NoConfiguration) async throws {}

    var commands: [CommandSpec] {
        [
            CommandSpec(
                name: "celebrate", summary: "Celebrates a title.", arguments: [.init(name: "title", help: "What.")],
                flags: [.init(name: "big", help: "A big one.")])
        ]
    }

    func run(_ command: CommandInvocation, context: PluginContext, configuration: NoConfiguration) async throws
        -> CommandReply
    {
        let outcome = try await context.celebrations.celebrate(
            Celebration(size: command.flag("big") ? .big : .small, title: command.value("title") ?? ""))
        return .text(outcome.line)
    }
}

extension World {
    /// Has `plugin` celebrate `title` through the engine and returns the line it printed.
    func celebrate(_ title: String, big: Bool = false, plugin: String) async throws -> String {
        let reply = try await engine.run(
            CommandInvocation(command: "celebrate", values: ["title": [title]], flags: big ? ["big"] : []),
            plugin: plugin)
        return reply.text
    }
}

@Suite struct CelebrationEngineTests {
    @Test func eachPluginCelebratesInItsOwnStyleOrElseTheGlobalOne() async throws {
        let world = try World()
        defer { world.cleanUp() }
        await world.engine.apply(
            settings: EngineSettings(celebrationStyle: .playful),
            plugins: [
                PluginSetup(plugin: CelebratingPlugin(name: "habits"), enabled: true, configuration: NoConfiguration()),
                PluginSetup(
                    plugin: CelebratingPlugin(name: "swaps"), enabled: true, configuration: NoConfiguration(),
                    celebrationStyle: .calm),
                PluginSetup(
                    plugin: CelebratingPlugin(name: "wins"), enabled: true, configuration: NoConfiguration(),
                    celebrationStyle: .off),
            ])

        let habits = try await world.celebrate("Read 10 pages · 7 days", big: true, plugin: "habits")
        let swaps = try await world.celebrate("Fruit for dessert", plugin: "swaps")
        let wins = try await world.celebrate("Sent the email", plugin: "wins")
        await world.engine.deliverPending()

        let shown = world.sink.shown.map(\.notice)
        #expect(shown.count == 2)
        #expect(shown.first?.title == "🎉 Read 10 pages · 7 days")
        #expect(shown.first?.sound == .named("complete"))
        #expect(shown.first?.timeout == .milliseconds(15_000))
        #expect(shown.first?.category == "hooray.celebration.big")
        #expect(habits.hasPrefix("🎉 Read 10 pages · 7 days — "))
        #expect(shown.last?.title == "Fruit for dessert")
        #expect(shown.last?.urgency == .low)
        #expect(shown.last?.sound == .silent)
        #expect(swaps.hasPrefix("✓ Fruit for dessert — "))
        #expect(wins == "✓ Sent the email")
    }

    @Test func theStylesComeFromTheConfiguration() async throws {
        let world = try World()
        defer { world.cleanUp() }
        let directory = world.directory + "/config"
        try FileManager.default.createDirectory(atPath: directory + "/hooray", withIntermediateDirectories: true)
        try """
        [celebrations]
        style = "off"

        [plugins.habits]
        celebrations = "playful"
        """.write(toFile: directory + "/hooray/hooray.toml", atomically: true, encoding: .utf8)
        let loaded = try ConfigurationLoader(
            environment: ["XDG_CONFIG_HOME": directory, "HOORAY_SYSCONFDIR": world.directory + "/etc"],
            extraFile: nil, plugins: [CelebratingPlugin(name: "habits"), CelebratingPlugin(name: "swaps")]
        ).load()

        await world.engine.apply(settings: loaded.settings, plugins: loaded.setups)
        let habits = try await world.celebrate("Read 10 pages", plugin: "habits")
        let swaps = try await world.celebrate("Fruit for dessert", plugin: "swaps")
        await world.engine.deliverPending()

        #expect(loaded.settings.celebrationStyle == .off)
        #expect(loaded.setups.map(\.celebrationStyle) == [.playful, nil])
        #expect(habits.hasPrefix("✨ Read 10 pages — "))
        #expect(swaps == "✓ Fruit for dessert")
        #expect(world.sink.shown.map(\.notice.title) == ["✨ Read 10 pages"])
    }

    @Test func phrasesComeFromTheShippedPoolAndAreRememberedOutsideThePluginsStorage() async throws {
        let world = try World()
        defer { world.cleanUp() }
        await world.engine.apply(
            settings: EngineSettings(),
            plugins: [
                PluginSetup(plugin: CelebratingPlugin(name: "habits"), enabled: true, configuration: NoConfiguration()),
                PluginSetup(plugin: CelebratingPlugin(name: "swaps"), enabled: true, configuration: NoConfiguration()),
            ])

        // Two plugins take turns: neither repeats a phrase the other used lately.
        var lines: [String] = []
        for round in 0..<30 {
            lines.append(try await world.celebrate("Done", plugin: round.isMultiple(of: 2) ? "habits" : "swaps"))
        }

        let pool = try #require(MessagePools.celebrations["calm.small"])
        let phrases = lines.map { String($0.dropFirst("✓ Done — ".count)) }
        #expect(phrases.allSatisfy(pool.contains))
        for (index, phrase) in phrases.enumerated() {
            #expect(!phrases[max(0, index - 5)..<index].contains(phrase), "\(phrases)")
        }
        #expect(try await world.database.pluginKeys(plugin: "habits").isEmpty)
        #expect(
            try await world.database.pluginKeys(plugin: Engine.celebrationMemoryNamespace) == ["recent.calm.small"])
    }
}

@Suite struct CelebrationPoolTests {
    @Test func everyStyleAndSizeHasAPoolOfWarmPlainLines() throws {
        let pools = MessagePools.celebrations

        #expect(pools.keys.sorted() == ["calm.big", "calm.small", "playful.big", "playful.small"])
        for (name, lines) in pools {
            #expect(lines.count >= 10, "\(name)")
            #expect(Set(lines).count == lines.count, "\(name) has a line twice")
            for line in lines {
                #expect(!line.contains(where: { "<>&".contains($0) }), "\(name): \(line)")
            }
        }
        #expect(pools["calm.small"]?.contains("Nice choice.") == true)
        #expect(pools["calm.small"]?.contains("You're building momentum.") == true)
        #expect(pools["playful.small"]?.contains("One healthier choice, done.") == true)
        #expect(pools["playful.big"]?.contains("Small steps, big wins.") == true)
    }
}
