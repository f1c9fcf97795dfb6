import Foundation
import HooraySystemTesting
import Testing

/// `hooray bar` end to end: the real `hoorayd` pushing lines to a following `hooray bar`, each
/// format's one line with and without `hoorayd`, and a follower that waits for `hoorayd`.
@Suite(.timeLimit(.minutes(3)))
struct BarTests {
    /// A reminder whose title holds markup and a line break; it is due every day, so it is always next.
    static let config = """
        [[plugins.reminders.reminder]]
        title = "Tea <b>&</b>\\ncake"
        at = "23:59"
        """

    /// The whole lines a following `hooray bar` printed so far.
    func lines(_ follower: ChildProcess) -> [String] {
        let output = follower.standardOutput
        guard let end = output.lastIndex(of: "\n") else { return [] }
        return output[..<end].split(separator: "\n").map(String.init)
    }

    /// The waybar objects a following `hooray bar --format waybar` printed so far.
    ///
    /// A line that is not one such object is left out here; ``notWaybarObjects(_:)`` lists it.
    func objects(_ follower: ChildProcess) -> [[String: Any]] {
        lines(follower).compactMap(Self.waybarObject)
    }

    /// The lines a following `hooray bar --format waybar` printed so far that waybar could not read
    /// with `return-type: json`.
    func notWaybarObjects(_ follower: ChildProcess) -> [String] {
        lines(follower).filter { Self.waybarObject($0) == nil }
    }

    /// `line` as waybar's JSON object: exactly `text`, `tooltip`, `class`, `alt` and `percentage`, with
    /// strings and a whole percentage from 0 to 100; nil for anything else.
    static func waybarObject(_ line: String) -> [String: Any]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            Set(object.keys) == ["text", "tooltip", "class", "alt", "percentage"],
            object["text"] is String, object["tooltip"] is String, object["class"] is String,
            object["alt"] is String, let percentage = object["percentage"] as? Int, (0...100).contains(percentage)
        else { return nil }
        return object
    }

    /// Waits for a waybar object after the first `after` that satisfies `matching`.
    func waitForObject(
        _ follower: ChildProcess, after: Int = 0, timeout: Duration = .seconds(15),
        matching: @escaping ([String: Any]) -> Bool = { _ in true }
    ) async -> [String: Any]? {
        await pollUntil(timeout: timeout, interval: .milliseconds(5)) {
            objects(follower).dropFirst(after).first(where: matching)
        }
    }

    func startFollower(_ fixture: HoorayFixture, format: String = "waybar") throws -> ChildProcess {
        try ChildProcess(
            HoorayFixture.binDirectory + "/hooray", arguments: ["bar", "--format", format, "--follow"],
            environment: fixture.environment())
    }

    @Test func aWinReachesAFollowingWaybarAndAFollowerThatGoesAwayLeavesHooraydWell() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(Self.config)
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let follower = try startFollower(fixture)
            let first = try #require(await waitForObject(follower), "no line: \(follower.standardError)")
            #expect(first["class"] as? String != "stopped")
            let text = try #require(first["text"] as? String)
            #expect(text.contains("🏆 0"))
            // Markup is escaped for waybar's Pango, and the title's line break is a space.
            #expect(text.contains("⏰ Tea &lt;b&gt;&amp;&lt;/b&gt; cake 23:59"), "\(text)")
            let before = lines(follower).count

            let started = ContinuousClock.now
            let win = try await fixture.hooray("win", "Took a short walk")
            #expect(win.status == .exited(0), "\(win.standardError)")
            let answered = ContinuousClock.now
            let next = await waitForObject(follower, after: before) { ($0["text"] as? String)?.contains("🏆 1") == true }
            let arrived = ContinuousClock.now
            #expect(next != nil, "no new line with today's count after hooray win: \(lines(follower))")
            // Every line printed is one object waybar reads, the first and the new one alike.
            #expect(notWaybarObjects(follower).isEmpty, "not waybar's JSON: \(notWaybarObjects(follower))")
            print(
                "hooray bar --follow: the new line came \(arrived - started) after `hooray win` started, \(arrived - answered) after it returned"
            )
            // The win was shown too: the bar's line is not instead of the notification.
            let shown = try await server.waitForNotifications(count: 1)
            #expect(shown.contains { $0.summary == "Moment logged" })

            // A follower killed mid-stream: hoorayd goes on answering, and a new follower is served.
            follower.send(SIGKILL)
            #expect(await follower.waitForExit(timeout: .seconds(5)) == .signalled(SIGKILL))
            _ = try await fixture.hooray("win", "Drank some water")
            let status = try await fixture.hooray("status")
            #expect(status.status == .exited(0), "\(status.standardError)")
            let again = try startFollower(fixture)
            let line = await waitForObject(again) { ($0["text"] as? String)?.contains("🏆 2") == true }
            #expect(line != nil, "\(lines(again)) \(again.standardError)")
            #expect(notWaybarObjects(again).isEmpty, "\(notWaybarObjects(again))")
            again.send(SIGINT)
            #expect(await again.waitForExit(timeout: .seconds(5)) == .exited(0))
            #expect(daemon.isRunning)
            #expect(!daemon.standardError.contains("EPIPE"))
            await daemon.stop()
        }
    }

    @Test func eachFormatPrintsOneLineWithAndWithoutHoorayd() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(Self.config)
            func check(_ format: String, wins: Int) async throws {
                let output = try await fixture.hooray("bar", "--format", format)
                #expect(output.status == .exited(0), "\(format): \(output.standardError)")
                let printed = output.standardOutput
                #expect(printed.hasSuffix("\n") && printed.dropLast().split(separator: "\n").count == 1, "\(printed)")
                #expect(printed.hasPrefix("⏰ Tea <b>&</b> cake 23:59  🏆 \(wins)"), "\(format): \(printed)")
            }
            for format in ["text", "i3blocks", "polybar"] {
                try await check(format, wins: 0)
            }
            let stopped = try await fixture.hooray("bar", "--format", "waybar")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(stopped.standardOutput.utf8)) as? [String: Any])
            #expect(object["class"] as? String == "stopped")
            #expect((object["tooltip"] as? String)?.contains("hoorayd is not running") == true)
            // Counted here while hoorayd is stopped, too.
            _ = try await fixture.hooray("win", "Took a short walk")
            try await check("text", wins: 1)

            let daemon = try await fixture.startDaemon()
            for format in ["text", "i3blocks", "polybar"] {
                try await check(format, wins: 1)
            }
            // hoorayd's line comes from its own configuration, and --config says so.
            let extra = try fixture.home.write("[plugins.habits]\nmilestones = [3]\n", to: "extra.toml")
            let noted = try await fixture.hooray("bar", "--config", extra)
            #expect(noted.status == .exited(0))
            #expect(noted.standardError.contains("hoorayd made this line with the configuration it started with"))
            let running = try await fixture.hooray("--json", "bar")
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(running.standardOutput.utf8)) as? [String: Any])
            #expect(json["running"] as? Bool == true)
            #expect(json["class"] as? String != "stopped")
            await daemon.stop()
        }
    }

    @Test func todaysCountsStartAgainAtMidnightWithNothingElseHappening() async throws {
        try await HoorayFixture.with { fixture in
            // hoorayd's clock starts 20 seconds before midnight; nothing is due at midnight.
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 23:59:40")
            // A minute ago by hoorayd's clock: on the 23rd even if the machine is slow.
            let win = try await fixture.hooray("win", "Late walk", "--ago", "1m")
            #expect(win.status == .exited(0), "\(win.standardError)")
            let follower = try startFollower(fixture)
            let before = await waitForObject(follower) { ($0["text"] as? String)?.contains("🏆 1") == true }
            #expect(before != nil, "\(lines(follower)) \(follower.standardError)")
            let seen = lines(follower).count
            let after = await waitForObject(follower, after: seen, timeout: .seconds(40)) {
                ($0["text"] as? String)?.contains("🏆 0") == true
            }
            #expect(after != nil, "no new line at midnight: \(lines(follower))")
            #expect(notWaybarObjects(follower).isEmpty, "\(notWaybarObjects(follower))")
            follower.send(SIGINT)
            await daemon.stop()
        }
    }

    @Test func aFollowerWaitsForHooraydAndSaysWhenItStops() async throws {
        try await HoorayFixture.with { fixture in
            let follower = try startFollower(fixture)
            let first = try #require(await waitForObject(follower), "no line: \(follower.standardError)")
            #expect(first["class"] as? String == "stopped")

            var daemon = try await fixture.startDaemon()
            let running = await waitForObject(follower, after: 1) { $0["class"] as? String != "stopped" }
            #expect(running != nil, "\(lines(follower))")
            let seen = lines(follower).count
            await daemon.stop()
            let stopped = await waitForObject(follower, after: seen) { $0["class"] as? String == "stopped" }
            #expect(stopped != nil, "\(lines(follower))")

            let seenStopped = lines(follower).count
            daemon = try await fixture.startDaemon()
            let back = await waitForObject(follower, after: seenStopped) { $0["class"] as? String != "stopped" }
            #expect(back != nil, "\(lines(follower))")
            #expect(notWaybarObjects(follower).isEmpty, "\(notWaybarObjects(follower))")
            follower.send(SIGINT)
            #expect(await follower.waitForExit(timeout: .seconds(5)) == .exited(0))
            await daemon.stop()
        }
    }

    @Test func aReminderComingNearTurnsTheLineDueSoonWithNothingElseHappening() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(
                """
                [[plugins.reminders.reminder]]
                title = "Stretch"
                at = "10:00"
                """)
            // hoorayd's clock starts 15 min 15 s before the reminder, and later than this machine's:
            // only hoorayd can tell that the reminder comes near.
            let daemon = try await fixture.startDaemon(fakeTime: "2027-03-10 09:44:45")
            let follower = try startFollower(fixture)
            let first = try #require(
                await waitForObject(follower) { ($0["text"] as? String)?.contains("⏰ Stretch 10:00") == true },
                "\(lines(follower)) \(follower.standardError)")
            #expect(first["class"] as? String == "idle")
            let seen = lines(follower).count
            let soon = await waitForObject(follower, after: seen, timeout: .seconds(40)) {
                $0["class"] as? String == "due-soon"
            }
            #expect(soon != nil, "no due-soon line 15 minutes before the reminder: \(lines(follower))")
            #expect(notWaybarObjects(follower).isEmpty, "\(notWaybarObjects(follower))")
            follower.send(SIGINT)
            await daemon.stop()
        }
    }

    @Test func anOlderHooraydIsToldToBeRestartedNotCalledStopped() async throws {
        try await HoorayFixture.with { fixture in
            // A hoorayd from before `bar`: it answers every request for it with "unknown method".
            let script = """
                import socket, sys
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.bind(sys.argv[1])
                s.listen(8)
                print("listening", flush=True)
                while True:
                    c, _ = s.accept()
                    try:
                        c.recv(65536)
                        c.sendall(b'{"api_version":1,"ok":false,"message":"unreadable request: method is wrong (unknown method; the methods are status, reload, refresh, act, command, plugins, restart)"}\\n')
                    except OSError:
                        pass
                    c.close()
                """
            let older = try await fixture.startStandInDaemon(script)
            let once = try await fixture.hooray("bar", "--format", "waybar")
            #expect(once.status == .exited(0), "\(once.standardError)")
            let restart = "hoorayd is older than this hooray; restart it: systemctl --user restart hooray"
            #expect(once.standardError.contains(restart), "\(once.standardError)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(once.standardOutput.utf8)) as? [String: Any])
            #expect((object["tooltip"] as? String)?.contains(restart) == true, "\(object)")
            #expect(!((object["tooltip"] as? String)?.contains("not running") ?? true))
            #expect(object["class"] as? String != "stopped")

            // A follower says so too, and follows hoorayd once it is restarted.
            let follower = try startFollower(fixture)
            let told = await waitForObject(follower) { ($0["tooltip"] as? String)?.contains(restart) == true }
            #expect(told != nil, "\(lines(follower)) \(follower.standardError)")
            older.send(SIGKILL)
            _ = await older.waitForExit(timeout: .seconds(5))
            let daemon = try await fixture.startDaemon()
            let following = await waitForObject(follower, timeout: .seconds(30)) {
                $0["class"] as? String != "stopped" && ($0["tooltip"] as? String)?.contains(restart) == false
            }
            #expect(following != nil, "\(lines(follower)) \(follower.standardError)")
            #expect(notWaybarObjects(follower).isEmpty, "\(notWaybarObjects(follower))")
            follower.send(SIGINT)
            await daemon.stop()
        }
    }

    @Test func followersHaveSlotsOfTheirOwnAndTheSeventeenthWaitsForRoom() async throws {
        try await HoorayFixture.with { fixture in
            let daemon = try await fixture.startDaemon()
            let path = fixture.home.appending("runtime/hooray/control.sock")
            // 64 status bars following at once, as many as there are connection slots.
            let request = Data(#"{"api_version":1,"method":"bar","follow":true}"#.utf8 + [UInt8(ascii: "\n")])
            var bars = try (0..<64).map { _ in try RawControlConnection(path: path) }
            for bar in bars { bar.send(request) }
            let answers = bars.map { Self.firstLine($0.fd) }
            let following = answers.indices.filter { answers[$0].contains("\"bar\"") }
            #expect(following.count == 16, "\(answers.prefix(20))")
            #expect(answers.contains { $0.contains("too many bars follow hoorayd") })
            // Commands keep their slots.
            let status = try await fixture.hooray("status")
            #expect(status.status == .exited(0), "\(status.standardError)")
            // One more bar is told, waits, and follows once one of the others goes away.
            let follower = try startFollower(fixture)
            #expect(
                await follower.waitForOutput(
                    containing: "too many bars follow hoorayd", in: .standardError, timeout: .seconds(15)))
            #expect(lines(follower).isEmpty)
            let leaving = try #require(following.first)
            bars.remove(at: leaving)
            let line = await waitForObject(follower, timeout: .seconds(90))
            #expect(line != nil, "\(follower.standardError)")
            #expect(follower.isRunning)
            #expect(notWaybarObjects(follower).isEmpty, "\(notWaybarObjects(follower))")
            follower.send(SIGINT)
            bars.removeAll()
            await daemon.stop()
        }
    }

    /// The first line that comes on a connection, within 10 s.
    static func firstLine(_ fd: Int32) -> String {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while !data.contains(UInt8(ascii: "\n")) && ContinuousClock.now < deadline {
            var wanted = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&wanted, 1, 1000) >= 0 else { break }
            guard wanted.revents != 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: data, as: UTF8.self)
    }
}
