import Foundation
import HoorayKit
import Testing

@testable import HoorayEngine

/// The status-bar line of `hooray bar`: what it says, made safe for each bar, and the control
/// socket's `bar` method with `follow`.
@Suite struct StatusBarTests {
    static let utc = TimeZone(identifier: "UTC")!
    // Monday 2026-11-23, 14:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_442_400)

    static func snapshot(title: String = "Stretch", dueIn seconds: TimeInterval = 3600) -> BarSnapshot {
        BarSnapshot(
            next: .init(title: title, plugin: "reminders", due: now.addingTimeInterval(seconds)),
            items: [
                .init(
                    plugin: "habits",
                    item: BarItem(
                        text: "✅ 1/3", tooltip: "Habits: 1 of 3 done today", streak: BarStreak(days: 4, name: "Read"),
                        progress: BarProgress(done: 1, due: 3))),
                .init(plugin: "wins", item: BarItem(text: "🏆 2", tooltip: "2 today")),
                .init(plugin: "swaps", item: BarItem(text: "", streak: BarStreak(days: 9, name: "swaps"))),
            ])
    }

    static func line(_ snapshot: BarSnapshot = snapshot(), running: Bool = true) -> BarLine {
        BarLine(snapshot, running: running, now: now, timeZone: utc)
    }

    @Test func theLineHasTheNextReminderEachItemAndTheBestStreak() {
        let line = Self.line()
        #expect(line.text == "⏰ Stretch 15:00  ✅ 1/3  🏆 2  🔥 9")
        #expect(
            line.tooltip
                == "Next at 15:00: Stretch\nHabits: 1 of 3 done today\n2 today\nBest streak: 9 days (swaps)")
        #expect(line.percentage == 33)
        #expect(line.cssClass == "idle")
    }

    @Test func theClassSaysStoppedDueSoonOrQuiet() {
        #expect(Self.line(running: false).cssClass == "stopped")
        #expect(Self.line(running: false).tooltip.contains("hoorayd is not running"))
        #expect(Self.line(Self.snapshot(dueIn: 600)).cssClass == "due-soon")
        var quiet = Self.snapshot()
        quiet.doNotDisturb = true
        #expect(Self.line(quiet).cssClass == "quiet")
    }

    @Test func aReminderNotTodaySaysWhen() {
        #expect(Self.line(Self.snapshot(dueIn: 20 * 3600)).text.hasPrefix("⏰ Stretch tomorrow 10:00"))
        #expect(Self.line(Self.snapshot(dueIn: 3 * 86400)).text.hasPrefix("⏰ Stretch Thu 14:00"))
    }

    @Test func withNothingToShowTheLineIsStillThere() {
        let line = Self.line(BarSnapshot())
        #expect(line.text == "hooray")
        #expect(line.percentage == 0)
    }

    @Test func waybarGetsOneJSONObjectWithFiveKeysAndMarkupEscaped() throws {
        let line = Self.line(Self.snapshot(title: "<b>Tea</b> & \"cake\"\nnow"))
        let rendered = line.rendered(.waybar)
        #expect(!rendered.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["text", "tooltip", "class", "alt", "percentage"])
        let text = try #require(object["text"] as? String)
        #expect(text.hasPrefix("⏰ &lt;b&gt;Tea&lt;/b&gt; &amp; \"cake\" now 15:00"))
        #expect(object["class"] as? String == "idle")
        #expect(object["alt"] as? String == "idle")
        #expect(object["percentage"] as? Int == 33)
        let tooltip = try #require(object["tooltip"] as? String)
        #expect(tooltip.split(separator: "\n").count == 4)
        #expect(!tooltip.contains("<b>"))
    }

    @Test func everyFormatIsOneSafeLine() {
        let title = "Tea\u{1B}]0;owned\u{07}\nnow\u{202E}evil\tx %{F#f00}red"
        let line = Self.line(Self.snapshot(title: title))
        for format in BarLine.Format.allCases {
            let rendered = line.rendered(format)
            #expect(!rendered.contains("\n"), "\(format)")
            #expect(!rendered.contains("\u{1B}"), "\(format)")
            #expect(!rendered.contains("\u{202E}"), "\(format)")
            #expect(!rendered.unicodeScalars.contains { $0.value < 0x20 }, "\(format)")
        }
        #expect(!line.rendered(.polybar).contains("%{"))
        #expect(line.rendered(.text).contains("Tea␛]0;owned␇ nowevil x"))
    }

    @Test func aLongTitleIsShortened() {
        let line = Self.line(Self.snapshot(title: String(repeating: "long ", count: 20)))
        let title = line.text.dropFirst(2).prefix { $0 != "…" }
        #expect(title.count == BarLine.maxTitle - 1)
        #expect(line.text.contains("… 15:00"))
    }

    @Test func theLineChangesByTheClockAtMidnightAndWhenAReminderComesNear() {
        let midnight = Date(timeIntervalSince1970: 1_795_478_400)
        #expect(BarSnapshot().nextChange(after: Self.now, timeZone: Self.utc) == midnight)
        #expect(
            Self.snapshot().nextChange(after: Self.now, timeZone: Self.utc) == Self.now.addingTimeInterval(2700))
        let paris = TimeZone(identifier: "Europe/Paris")!
        #expect(BarSnapshot().nextChange(after: Self.now, timeZone: paris) == midnight.addingTimeInterval(-3600))
    }

    @Test func theBarRequestAndAnswerTravel() throws {
        let request = try ControlCoding.decode(
            ControlRequest.self, from: Data(#"{"api_version":1,"method":"bar","follow":true}"#.utf8))
        #expect(request == .bar(follow: true))
        #expect(
            try ControlCoding.decode(ControlRequest.self, from: Data(#"{"api_version":1,"method":"bar"}"#.utf8))
                == .bar(follow: false))
        let response = ControlResponse(ok: true, bar: Self.snapshot())
        let decoded = try ControlCoding.decode(ControlResponse.self, from: try ControlCoding.encode(response))
        #expect(decoded.bar?.items.count == 3)
        #expect(decoded.bar == Self.snapshot())
    }

    @Test func aFollowerGetsEachChangedLineAndIsDroppedWhenItGoesAway() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-bar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("control.sock").path
        let server = try ControlServer(path: path)
        defer { server.shutdown() }
        let feed = FeedBox()
        server.start(follow: { request in
            guard case .bar(follow: true) = request else { return nil }
            return feed.stream()
        }) { _ in ControlResponse(ok: true, bar: BarSnapshot()) }

        let snapshots = [Self.snapshot(), Self.snapshot(), Self.snapshot(title: "Tea")]
        let seen = SeenLines()
        let reader = Task.detached {
            try ControlFollower.follow(.bar(follow: true), socketPath: path) { response in
                seen.add(response.bar?.next?.title ?? "")
                // Leaves after the second distinct line: the connection closes.
                return seen.count < 2
            }
        }
        await feed.waitForListener()
        feed.send(ControlResponse(ok: true, bar: snapshots[0]))
        await seen.waitFor(count: 1)
        // The identical second snapshot is not written again; the third is.
        feed.send(ControlResponse(ok: true, bar: snapshots[1]))
        try await Task.sleep(for: .milliseconds(100))
        feed.send(ControlResponse(ok: true, bar: snapshots[2]))
        let end = try await reader.value
        #expect(end == .closed(answers: 2))
        #expect(seen.all == ["Stretch", "Tea"])
        // The server noticed the follower leave and ended its stream.
        #expect(await feed.waitForTermination())
        // And it still answers others.
        #expect(try ControlClient.send(.bar(), socketPath: path)?.ok == true)
    }
}

/// The stream a test feeds to one follower.
final class FeedBox: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: AsyncStream<ControlResponse>.Continuation?
    private var terminated = false

    func stream() -> AsyncStream<ControlResponse> {
        let (stream, continuation) = AsyncStream.makeStream(of: ControlResponse.self)
        continuation.onTermination = { [weak self] _ in self?.lock.withLock { self?.terminated = true } }
        lock.withLock { self.continuation = continuation }
        return stream
    }

    func send(_ response: ControlResponse) {
        _ = lock.withLock { continuation }?.yield(response)
    }

    func waitForListener() async {
        for _ in 0..<500 where lock.withLock({ continuation == nil }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    func waitForTermination() async -> Bool {
        for _ in 0..<500 {
            if lock.withLock({ terminated }) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}

/// The titles a follower read.
final class SeenLines: @unchecked Sendable {
    private let lock = NSLock()
    private var titles: [String] = []

    func add(_ title: String) { lock.withLock { titles.append(title) } }
    var count: Int { lock.withLock { titles.count } }
    var all: [String] { lock.withLock { titles } }

    func waitFor(count wanted: Int) async {
        for _ in 0..<500 where count < wanted {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
