import Foundation
import HooraySystemTesting
import Testing

/// `hooray win` end to end: the real binaries, a real notification server on a private bus and a
/// loopback AI service that answers well, badly or not at all.
@Suite(.timeLimit(.minutes(5)))
struct WinsTests {
    /// A moment as `hooray moments --json` prints it.
    struct PrintedMoment: Decodable {
        let id: String
        let text: String
        let offlinePraise: String
        let aiPraise: String?
        let sync: String
        let syncError: String?
    }

    struct PrintedIdentity: Decodable {
        let userId: String
    }

    static let goodPraise = "You made space for yourself."
    static let failedLine = "Couldn't fetch extra encouragement this time."

    func config(provider: String, endpoint: URL, timeout: String = "3s", extra: String = "") -> String {
        """
        [ai]
        provider = "\(provider)"
        endpoint = "\(endpoint.absoluteString)"
        timeout = "\(timeout)"
        connect_timeout = "2s"
        \(provider == "openai" ? "model = \"test-model\"\napi_key_env = \"HOORAY_TEST_KEY\"" : "")

        [plugins.wins]
        retry_first = "1s"
        retry_max = "2s"
        \(extra)
        """
    }

    func moments(_ fixture: HoorayFixture) async throws -> [PrintedMoment] {
        let output = try await fixture.hooray("moments", "--json")
        #expect(output.status == .exited(0), "\(output.standardError)")
        return try JSONDecoder().decode([PrintedMoment].self, from: Data(output.standardOutput.utf8))
    }

    func identity(_ fixture: HoorayFixture) async throws -> String {
        let output = try await fixture.hooray("identity", "--json")
        return try JSONDecoder().decode(PrintedIdentity.self, from: Data(output.standardOutput.utf8)).userId
    }

    /// Waits until every stored moment has AI praise.
    func waitUntilAllSynced(_ fixture: HoorayFixture, timeout: Duration = .seconds(40)) async -> [PrintedMoment]? {
        await pollUntil(timeout: timeout) { () -> [PrintedMoment]? in
            guard let all = try? await moments(fixture), !all.isEmpty, all.allSatisfy({ $0.sync == "synced" })
            else { return nil }
            return all
        }
    }

    /// The notifications from the `start`-th on, once one of them is `final`: one when the AI service
    /// answered before the notification was first shown, more when its answer replaced it in place.
    static func shown(
        _ server: TestNotificationServer, from start: Int, timeout: Duration = .seconds(15),
        until final: @escaping (RecordedNotification) -> Bool
    ) async throws -> [RecordedNotification] {
        let shown = await pollUntil(timeout: timeout) { () -> [RecordedNotification]? in
            let all = Array(((try? server.notifications()) ?? []).dropFirst(start))
            return all.contains(where: final) ? all : nil
        }
        return try #require(shown, "no notification with the final text: \((try? server.notifications()) ?? [])")
    }

    @Test(arguments: ["hooray", "openai"])
    func offlinePraiseArrivesFirstThenAIPraiseReplacesItInPlace(provider: String) async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try await withAIServer { ai in
                try fixture.writeConfig(config(provider: provider, endpoint: ai.endpoint("good")))
                let daemon = try await fixture.startDaemon(environment: ["HOORAY_TEST_KEY": "sk-test-key"])

                let win = try await fixture.hooray("win", "Took a short walk", "--ago", "2h")
                #expect(win.status == .exited(0), "\(win.standardError)")
                #expect(win.standardOutput.hasPrefix("Moment logged\n  Took a short walk · 2 h ago\n"))

                let shown = try await Self.shown(server, from: 0) {
                    $0.body == "Took a short walk · 2 h ago\n\(Self.goodPraise)"
                }
                let stored = try #require(try await moments(fixture).first)
                #expect(shown[0].summary == "Moment logged")
                #expect(win.standardOutput.contains("“\(stored.offlinePraise)”"))
                // The AI's praise replaces the same notification on screen (unless it answered before
                // the notification was first shown: then that one already carries it).
                #expect(shown.count <= 2)
                #expect(shown.allSatisfy { $0.id == shown[0].id })
                if shown.count == 2 {
                    #expect(shown[0].body == "Took a short walk · 2 h ago\n\(stored.offlinePraise)")
                    #expect(shown[1].replacesID == shown[0].id)
                }
                // Both praises are kept on the moment.
                #expect(stored.aiPraise == Self.goodPraise)
                #expect(stored.sync == "synced")

                let request = try #require(try ai.requests().first)
                #expect(request.headers["x-user-id"] == (try await identity(fixture)))
                #expect(request.body.contains("Took a short walk"))
                if provider == "openai" {
                    #expect(request.path == "/good/v1/chat/completions")
                    #expect(request.headers["authorization"] == "Bearer sk-test-key")
                } else {
                    #expect(request.path == "/good/moments")
                    #expect(
                        request.body.contains(stored.id.lowercased()) || request.body.contains(stored.id.uppercased()))
                }
                #expect(!daemon.standardError.contains("sk-test-key"))
                await daemon.stop()
            }
        }
    }

    @Test func brokenAnswersKeepTheOfflinePraiseAndLaterRetriesSucceed() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try await withAIServer { ai in
                try fixture.writeConfig(config(provider: "hooray", endpoint: ai.endpoint("scripted"), timeout: "2s"))
                let daemon = try await fixture.startDaemon()

                let modes = [
                    "notjson", "wrongtypes", "missing", "wrongclient", "oversized", "drip", "hang", "status-500",
                    "status-404", "status-429", "redirect", "markup",
                ]
                for mode in modes {
                    try ai.script(mode)
                    let seen = try server.notifications().count
                    let win = try await fixture.hooray("win", "Moment for \(mode)")
                    #expect(win.status == .exited(0), "\(mode): \(win.standardError)")
                    let shown = try await Self.shown(server, from: seen) {
                        $0.body.hasPrefix("Moment for \(mode)\n") && $0.body.hasSuffix("\n" + Self.failedLine)
                    }
                    let first = shown[0]
                    let update = shown[shown.count - 1]
                    #expect(first.body.hasPrefix("Moment for \(mode)\n"))
                    #expect(
                        shown.allSatisfy { $0.id == first.id }, "\(mode): the update replaces the same notification")
                    if shown.count > 1 { #expect(update.body == first.body + "\n" + Self.failedLine, "\(mode)") }
                    #expect(!update.body.contains("<b>"), "\(mode)")
                }
                #expect(daemon.isRunning, "hoorayd survives every broken answer")
                let pending = try await moments(fixture)
                #expect(pending.count == modes.count)
                #expect(pending.allSatisfy { $0.aiPraise == nil && $0.sync == "pending" && $0.syncError != nil })

                // The service is fixed: the retries in the background now get praise for every moment.
                try ai.script("good")
                let synced = try #require(await waitUntilAllSynced(fixture))
                #expect(synced.count == modes.count)
                #expect(synced.allSatisfy { $0.aiPraise == Self.goodPraise && !$0.offlinePraise.isEmpty })
                let status = try await fixture.hooray("status")
                #expect(status.status == .exited(0))
                await daemon.stop()
            }
        }
    }

    @Test func aWinWhileTheServiceIsDownIsPraisedWhenItComesBack() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let gone = try await TestAIServer()
            let port = gone.port
            await gone.stop()
            try fixture.writeConfig(config(provider: "hooray", endpoint: gone.endpoint("good")))
            let daemon = try await fixture.startDaemon()

            _ = try await fixture.hooray("win", "Made the bed")
            let shown = try await Self.shown(server, from: 0) { $0.body.hasSuffix("\n" + Self.failedLine) }
            #expect(shown.allSatisfy { $0.id == shown[0].id })
            #expect(try await moments(fixture).first?.syncError?.contains("connect") == true)

            try await withAIServer(port: port) { back in
                let synced = try #require(await waitUntilAllSynced(fixture), "\(daemon.standardError)")
                #expect(synced.first?.aiPraise == Self.goodPraise)
                #expect(try back.requests().first?.headers["x-user-id"] == (try await identity(fixture)))
                await daemon.stop()
            }
        }
    }

    @Test func withoutADaemonTheCommandShowsThePraiseItself() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try await withAIServer { ai in
                try fixture.writeConfig(config(provider: "hooray", endpoint: ai.endpoint("good")))

                let win = try await fixture.hooray("win", "Answered one message")
                #expect(win.status == .exited(0), "\(win.standardError)")
                #expect(win.standardOutput.hasSuffix("  ✨ “\(Self.goodPraise)”\n"))
                // The praise replaces the offline line in place; when the service answers before the
                // first Notify, the one notification already carries it.
                let shown = try await Self.shown(server, from: 0) {
                    $0.body == "Answered one message\n\(Self.goodPraise)"
                }
                #expect(Set(shown.map(\.id)).count == 1, "one notification, updated in place: \(shown)")
                #expect(shown.last?.body == "Answered one message\n\(Self.goodPraise)")
                #expect(try await moments(fixture).first?.aiPraise == Self.goodPraise)
            }
        }
    }

    @Test func theIdentitySurvivesRestartsAndIsReplacedAfterDeletingMyData() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            try await withAIServer { ai in
                try fixture.writeConfig(config(provider: "hooray", endpoint: ai.endpoint("good")))

                var daemon = try await fixture.startDaemon()
                let original = try await identity(fixture)
                _ = try await fixture.hooray("win", "First")
                await daemon.stop()
                daemon = try await fixture.startDaemon()
                #expect(try await identity(fixture) == original)
                _ = try await fixture.hooray("win", "Second")
                _ = try #require(await waitUntilAllSynced(fixture))
                // A request cut short by the stop is asked again after the restart: every one carries the same id.
                let sent = try ai.requests().map { $0.headers["x-user-id"] }
                #expect(sent.count >= 2)
                #expect(sent.allSatisfy { $0 == original }, "\(sent)")

                let deleted = try await fixture.hooray("delete-my-data", "--yes")
                #expect(deleted.status == .exited(0), "\(deleted.standardError)")
                #expect(try await moments(fixture).isEmpty)
                let replacement = try await identity(fixture)
                #expect(replacement != original)
                _ = try await fixture.hooray("win", "After the fresh start")
                _ = try #require(await waitUntilAllSynced(fixture))
                #expect(try ai.requests().last?.headers["x-user-id"] == replacement)
                await daemon.stop()
            }
        }
    }

    @Test func theWelcomeAppearsOnceAndItsButtonLogsTheFirstMoment() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig("[plugins.wins]\nwelcome = true\n")
            let home = try await fixture.hooray()
            #expect(home.standardOutput.contains("installing the app counts too"))

            var daemon = try await fixture.startDaemon()
            let welcome = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(15)).first)
            #expect(welcome.summary == "Hey. Glad you're here.")
            #expect(welcome.body.hasPrefix("You're doing better than you think."))
            #expect(welcome.actions.map(\.label) == ["Log it"])

            try await server.invokeAction(id: welcome.id, key: "log-install")
            let logged = try await server.waitForNotifications(count: 2, timeout: .seconds(15))
            try #require(logged.count == 2)
            #expect(logged[1].summary == "Moment logged")
            #expect(logged[1].body.hasPrefix("I installed this app. A tiny step, but it counts.\n"))
            #expect(try await moments(fixture).map(\.text) == ["I installed this app. A tiny step, but it counts."])

            // Never again: not after a restart, and the home hint is gone.
            await daemon.stop()
            daemon = try await fixture.startDaemon()
            #expect(
                await fixture.waitUntilSettled(daemon) { next in
                    !next.contains { $0.id == "welcome" }
                }, "\(daemon.standardError)")
            #expect(try server.notifications().count == 2)
            let later = try await fixture.hooray()
            #expect(!later.standardOutput.contains("installing the app counts too"))
            #expect(later.standardOutput.contains("hooray win"))
            await daemon.stop()
        }
    }

    @Test func badInputIsRefusedWithTheFixAndNothingIsSaved() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let folder = fixture.home.appending("data")
            // A value that cannot be used is a usage error (64, with the usage line); a photo that
            // is not there is a failure (1).
            let cases: [([String], String, Int32)] = [
                (["win", String(repeating: "x", count: 2001)], "at most 2000", 64),
                (["win", "Walked", "--ago", "a while"], "such as 5m, 2h, 3d or 1h30m", 64),
                (["win", "Walked", "--ago", "in 10m"], "in the future", 64),
                (["win", "Walked", "--mood", "clam"], "did you mean calm", 64),
                (["win", "Walked", "--photo", "/nonexistent/walk.jpg"], "no such file", 1),
                (["win", "Walked", "--photo", folder], "is a folder", 1),
            ]
            for daemonRunning in [false, true] {
                let daemon = daemonRunning ? try await fixture.startDaemon() : nil
                for (arguments, message, code) in cases {
                    let output = try await fixture.hooray(arguments: arguments)
                    #expect(output.status == .exited(code), "\(arguments)")
                    #expect(output.standardError.contains(message), "\(arguments): \(output.standardError)")
                    if code == 64 {
                        #expect(output.standardError.contains("Usage: hooray win"), "\(arguments)")
                    } else {
                        #expect(output.standardError.contains("Nothing was saved."))
                    }
                }
                #expect(try await moments(fixture).isEmpty)
                await daemon?.stop()
            }
            #expect(try server.notifications().isEmpty)
        }
    }

    @Test func momentsAndJourneyFollowTheLocalDayAcrossTimeZones() async throws {
        try await HoorayFixture.with { fixture in
            let newYork = ["TZ": "America/New_York"]
            // libfaketime reads these times in the process's own zone. 23:50 and 00:10 New York time
            // are two local days there, and 04:50 and 05:10 UTC: one day in UTC.
            _ = try await fixture.hooray("win", "Late tidy-up", fakeTime: "2026-11-21 23:50:00", environment: newYork)
            _ = try await fixture.hooray("win", "Early stretch", fakeTime: "2026-11-22 00:10:00", environment: newYork)
            let viewedInNewYork = "2026-11-22 09:00:00"

            let local = try await fixture.hooray("moments", fakeTime: viewedInNewYork, environment: newYork)
            let text = local.standardOutput
            let today = try #require(text.range(of: "Today\n"))
            let yesterday = try #require(text.range(of: "Yesterday\n"))
            #expect(today.lowerBound < yesterday.lowerBound)
            let early = try #require(text.range(of: "Early stretch"))
            let late = try #require(text.range(of: "Late tidy-up"))
            #expect(early.lowerBound > today.upperBound && early.lowerBound < yesterday.lowerBound)
            #expect(late.lowerBound > yesterday.upperBound)

            let utc = try await fixture.hooray("moments", fakeTime: "2026-11-22 14:00:00")
            #expect(utc.standardOutput.contains("Today\n"))
            #expect(!utc.standardOutput.contains("Yesterday\n"))

            struct Day: Decodable {
                let date: String
                let count: Int
            }
            let journeyNY = try await fixture.hooray(
                "journey", "--json", fakeTime: viewedInNewYork, environment: newYork)
            let daysNY = try JSONDecoder().decode([Day].self, from: Data(journeyNY.standardOutput.utf8))
            #expect(daysNY.map(\.date) == ["2026-11-22", "2026-11-21"])
            #expect(daysNY.map(\.count) == [1, 1])
            let journeyUTC = try await fixture.hooray("journey", "--json", fakeTime: "2026-11-22 14:00:00")
            let daysUTC = try JSONDecoder().decode([Day].self, from: Data(journeyUTC.standardOutput.utf8))
            #expect(daysUTC.map(\.date) == ["2026-11-22"])
            #expect(daysUTC.map(\.count) == [2])

            let journeyText = try await fixture.hooray("journey", fakeTime: viewedInNewYork, environment: newYork)
            #expect(journeyText.standardOutput.contains("Your journey"))
            #expect(journeyText.standardOutput.contains("1 moment logged"))
        }
    }

    @Test func emptyStatesAndFavourites() async throws {
        try await HoorayFixture.with { fixture in
            let empty = try await fixture.hooray("moments")
            #expect(empty.standardOutput.contains("No moments yet… but you're here, so that's one."))
            let journey = try await fixture.hooray("journey")
            #expect(
                journey.standardOutput.contains("Once you have a few days of moments, you'll see your journey here."))

            _ = try await fixture.hooray("win", "Watered the plants")
            let id = try #require(try await moments(fixture).first?.id)
            let fav = try await fixture.hooray("moments", "fav", String(id.prefix(8)))
            #expect(fav.status == .exited(0), "\(fav.standardError)")
            #expect(fav.standardOutput.contains("★ Marked as a favourite: Watered the plants"))
            let favorites = try await fixture.hooray("moments", "--favorites")
            #expect(favorites.standardOutput.contains("Watered the plants"))
            let unknown = try await fixture.hooray("moments", "fav", "ffffffff")
            #expect(unknown.status == .exited(1))
            #expect(unknown.standardError.contains("`hooray moments` lists them"))
        }
    }
}
