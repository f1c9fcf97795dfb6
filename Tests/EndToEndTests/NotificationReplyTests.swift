import Foundation
import HooraySystemTesting
import Testing

/// Replies typed into a notification (KDE Plasma's and swaync's `inline-reply`): the evening prompt
/// "What went well today?" (`[plugins.wins] evening_prompt`) takes the reply as a win. The server is
/// the test's stand-in, which sends `NotificationReplied` as Plasma does; the recovery check-in
/// takes a typed note after its mood.
@Suite(.timeLimit(.minutes(5)))
struct NotificationReplyTests {
    static let evening = "[plugins.wins]\nevening_prompt = \"21:30\"\n"

    /// Starts a server that takes inline replies and hoorayd just before the evening prompt, and waits
    /// for the prompt.
    func prompted(_ fixture: HoorayFixture) async throws -> (TestNotificationServer, ChildProcess, RecordedNotification)
    {
        try fixture.writeConfig(Self.evening)
        let server = try await fixture.startServer(
            capabilities: TestNotificationServer.defaultCapabilities + ["inline-reply"])
        let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 21:29:57")
        let prompt = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(30)).first)
        return (server, daemon, prompt)
    }

    @Test func anEveningPromptRepliedInTheNotificationIsLoggedAsAWinOnce() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(Self.evening)
            let server = try await fixture.startServer(
                capabilities: TestNotificationServer.defaultCapabilities + ["inline-reply"])
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 21:29:57")

            let prompt = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(30)).first)
            #expect(prompt.summary == "What went well today?")
            // The question is the reply field, not a button (and no app here, so no click).
            #expect(prompt.actions.map(\.key) == ["inline-reply"], "\(prompt.actions)")
            #expect(prompt.hints["x-kde-reply-placeholder-text"]?.stringValue == "What went well today?")

            try await server.reply(id: prompt.id, text: "  Cooked dinner for friends ")
            let logged = try await server.waitForNotifications(count: 2, timeout: .seconds(20))
            #expect(logged.last?.summary == "Moment logged")
            #expect(try await fixture.momentTexts() == ["Cooked dinner for friends"])
            // The same reply again (a server that sends it twice): left alone, and said so.
            try await server.reply(id: prompt.id, text: "Cooked dinner for friends")
            let leftAlone = await daemon.waitForOutput(
                containing: "a reply came for notification \(prompt.id), which takes none now", in: .standardError,
                timeout: .seconds(20))
            #expect(leftAlone, "\(daemon.standardError)")
            #expect(try await fixture.momentTexts() == ["Cooked dinner for friends"])
            let settled = await fixture.waitUntilSettled(daemon)
            #expect(settled)
            #expect(try server.notifications().count == 2, "one win, one notification")
            await daemon.stop()
        }
    }

    @Test func aNoteTypedAfterTheCheckInsMoodIsKeptWithIt() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig("[plugins.recovery]\ncheckin = true\n")
            let server = try await fixture.startServer(
                capabilities: TestNotificationServer.defaultCapabilities + ["inline-reply"])
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-24 19:59:58")
            let checkIn = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(20)).first)
            try await server.invokeAction(id: checkIn.id, key: "mood-good")
            let thanked = try #require(try await server.waitForNotifications(count: 2, timeout: .seconds(20)).last)
            #expect(thanked.summary == "Checked in: 🙂 Good")
            #expect(thanked.actions.map(\.key) == ["inline-reply"], "\(thanked.actions)")
            #expect(thanked.hints["x-kde-reply-placeholder-text"]?.stringValue == "A note for today's check-in")

            try await server.reply(id: thanked.id, text: " Long day, but I went for a walk ")
            let kept = await pollUntil(timeout: .seconds(20)) { () -> [String: Any]? in
                let output = try? await fixture.hooray(
                    arguments: ["recovery", "--json"], fakeTime: "2026-11-24 20:01:00")
                let value = output.flatMap {
                    try? JSONSerialization.jsonObject(with: Data($0.standardOutput.utf8)) as? [String: Any]
                }
                let today = value?["todayCheckIn"] as? [String: Any]
                return today?["note"] is String ? today : nil
            }
            #expect(kept?["note"] as? String == "Long day, but I went for a walk")
            #expect(kept?["mood"] as? String == "good")
            await daemon.stop()
        }
    }

    @Test func aReplyOfOnlySpacesLogsNothing() async throws {
        try await HoorayFixture.with { fixture in
            let (server, daemon, prompt) = try await prompted(fixture)

            try await server.reply(id: prompt.id, text: "   ")
            let told = try await server.waitForNotifications(count: 2, timeout: .seconds(20))
            #expect(told.last?.summary == "Your reply was not saved")
            #expect(told.last?.body.hasPrefix("Nothing was logged: the reply had no words") == true)
            #expect(try await fixture.momentTexts().isEmpty)
            await daemon.stop()
        }
    }

    @Test func aReplyTooLongIsNotSavedAndANotificationSaysWhy() async throws {
        try await HoorayFixture.with { fixture in
            let (server, daemon, prompt) = try await prompted(fixture)

            try await server.reply(id: prompt.id, text: String(repeating: "a", count: 1001))
            let told = try await server.waitForNotifications(count: 2, timeout: .seconds(20))
            #expect(told.last?.summary == "Your reply was not saved")
            #expect(told.last?.body.contains("1000") == true, "\(told.last?.body ?? "")")
            #expect(try await fixture.momentTexts().isEmpty)
            await daemon.stop()
        }
    }

    @Test func withoutInlineReplyOrTheAppThePromptHasNoButtonThatCouldDoNothing() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(Self.evening)
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 21:29:57")
            let prompt = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(30)).first)
            #expect(prompt.summary == "What went well today?")
            #expect(prompt.body.hasSuffix("or log it with: hooray win"))
            #expect(prompt.actions.isEmpty, "\(prompt.actions)")
            await daemon.stop()
        }
    }
}
