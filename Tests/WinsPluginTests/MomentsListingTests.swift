import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayKitTesting
import Testing

@testable import WinsPlugin

/// `hooray moments` with the options every listing takes, and written as a stream.
@Suite struct MomentsListingTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18

    /// A praise file of one line no search below looks for: the built-in pool's random praise is
    /// searched too, and one of its lines says "Well walked".
    static let praiseFile: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-praise-\(UUID().uuidString)")
            .path
        _ = FileManager.default.createFile(atPath: path, contents: Data("Nicely done.\n".utf8))
        return path
    }()

    func loggedWorld() async throws -> (WinsPlugin, PluginTestHarness) {
        let configuration = WinsConfiguration(welcome: false, praiseFile: Self.praiseFile)
        let harness = PluginTestHarness(
            pluginName: "wins", now: Self.start, ai: NoPraiseProvider(), configuration: configuration)
        let plugin = WinsPlugin()
        try await plugin.activate(context: harness.context, configuration: configuration)
        // One a day, the newest today: texts say how many days ago.
        for (days, text) in [
            (0, "Walked to work"), (1, "Called mum"), (2, "A long walk"), (3, "Read a book"), (4, "Cooked"),
        ] {
            _ = try await plugin.log(LogRequest(text: text, ago: "\(days * 24 + 1)h"), context: harness.context)
        }
        // Each moment's praise request has ended (pending → local): the listings read a settled world.
        await harness.background.waitUntilIdle()
        return (plugin, harness)
    }

    func texts(_ plugin: WinsPlugin, _ harness: PluginTestHarness, _ values: [String: [String]]) async throws
        -> [String]
    {
        let reply = try await plugin.run(
            CommandInvocation(
                command: "moments", values: values, json: true,
                environment: CommandEnvironment(timeZoneIdentifier: "UTC")),
            context: harness.context, configuration: WinsConfiguration())
        let array = try #require(
            reply.json.flatMap { value -> [JSONValue]? in
                if case .array(let items) = value { return items }
                return nil
            })
        return array.compactMap { $0["text"]?.stringValue }
    }

    @Test("Item 3: moments take --limit, --since, --until and --search")
    func momentsTakeTheListingOptions() async throws {
        let (plugin, harness) = try await loggedWorld()
        #expect(try await texts(plugin, harness, [:]).count == 5)
        #expect(try await texts(plugin, harness, ["limit": ["2"]]) == ["Walked to work", "Called mum"])
        #expect(try await texts(plugin, harness, ["search": ["WALK"]]) == ["Walked to work", "A long walk"])
        let day = { (days: Int) in
            LocalDate(
                instant: Self.start.addingTimeInterval(-Double(days * 24 + 1) * 3600), in: TimeZone(identifier: "UTC")!
            )
            .description
        }
        #expect(
            try await texts(plugin, harness, ["since": [day(3)], "until": [day(1)]])
                == ["Called mum", "A long walk", "Read a book"])
        #expect(try await texts(plugin, harness, ["since": [day(1)], "search": ["walk"]]) == ["Walked to work"])
        for refused in [["limit": ["0"]], ["limit": ["many"]], ["since": [day(1)], "until": [day(3)]]] {
            let error = await #expect(throws: PluginCommandError.self) {
                try await texts(plugin, harness, refused)
            }
            #expect(error?.invalidOption != nil, "\(refused)")
        }
    }

    @Test("Item 3: with a stream, moments are written as they are read, as one JSON array or the text")
    func momentsAreStreamed() async throws {
        let (plugin, harness) = try await loggedWorld()
        let whole = try await plugin.run(
            CommandInvocation(command: "moments", json: true), context: harness.context,
            configuration: WinsConfiguration())
        let pieces = Pieces()
        let stream = CommandStream { pieces.append($0) }
        let streamed = try await CommandStream.$current.withValue(stream) {
            try await plugin.run(
                CommandInvocation(command: "moments", json: true), context: harness.context,
                configuration: WinsConfiguration())
        }
        #expect(streamed.json == nil && streamed.text.isEmpty)
        #expect(pieces.count > 5, "written a moment at a time")
        #expect(try JSONValue(json: pieces.text) == whole.json)

        let text = try await plugin.run(
            CommandInvocation(command: "moments"), context: harness.context, configuration: WinsConfiguration())
        let textPieces = Pieces()
        _ = try await CommandStream.$current.withValue(CommandStream { textPieces.append($0) }) {
            try await plugin.run(
                CommandInvocation(command: "moments"), context: harness.context, configuration: WinsConfiguration())
        }
        #expect(textPieces.text == text.text + "\n")
    }
}

/// What a stream wrote, in order.
final class Pieces: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [String] = []
    func append(_ part: String) { lock.withLock { parts.append(part) } }
    var count: Int { lock.withLock { parts.count } }
    var text: String { lock.withLock { parts.joined() } }
}

@Suite struct MomentJSONTextTests {
    @Test("Item 3: a streamed moment is the same JSON as the encoder writes, whatever its text holds")
    func theStreamedElementMatchesTheEncoder() throws {
        var moment = Moment(
            text: "Quote \" backslash \\ slash / tab \t newline \n bell \u{07} esc \u{1B} 🌱 é 中",
            submittedAt: Date(timeIntervalSince1970: 1_795_000_200),
            happenedAt: Date(timeIntervalSince1970: 1_795_000_123.75),
            timeZone: "Europe/Paris", offlinePraise: "Nice \u{2028} one")
        for variant in 0..<2 {
            if variant == 1 {
                moment.aiPraise = "AI \"praise\""
                moment.mood = .proud
                moment.note = "a note\r\n"
                moment.photos = ["/home/a b/p.jpg", "q"]
                moment.tags = ["walk"]
                moment.isFavorite = true
                moment.syncError = "oops"
            }
            for zone in ["UTC", "Pacific/Kiritimati", "America/Los_Angeles"] {
                let timeZone = TimeZone(identifier: zone)!
                let streamed = try JSONValue(json: MomentJSONText.element(moment, timeZone: timeZone))
                let encoded = try JSONValue(json: ViewText.json(MomentJSON(moment, timeZone: timeZone)))
                #expect(streamed == encoded, "\(zone) \(variant)")
            }
        }
    }
}
