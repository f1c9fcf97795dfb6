import Foundation
import HooraySystemTesting
import Testing

/// The recovery plugin as a user meets it: the real `hoorayd` and `hooray`, a private bus, a headless
/// notification server and libfaketime clocks. Issue 14's "Done when": the 24-hour follow-up is shown
/// exactly once across `kill -9` and a late restart, is cancelled by "I'm okay now", and several due
/// within the hour are one; the 20:00 check-in records the mood pressed.
@Suite(.timeLimit(.minutes(3)))
struct RecoveryTests {
    /// Only the follow-ups and the notices of logging: no check-in or challenge reminder in the way.
    static let quietConfig = """
        [plugins.recovery]
        checkin = false
        challenge_at = "off"

        """

    /// A rejection as `hooray recovery list --json` prints it.
    struct PrintedRejection: Decodable {
        let id: String
        let type: String
        let impact: Int
        let recoveredAt: Date?
        let recoverySeconds: Int?
        let followUpAt: Date?
        let encouragement: String
    }

    /// A notice as `hooray inbox --all --json` prints it.
    struct PrintedNotice: Decodable {
        let id: Int64
        let title: String
        let body: String
        let createdAt: Date
        let deliveredAt: Date?
    }

    @Test func aFollowUpMissedWhileKilledIsShownOnceAtOnceTheNextDay() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(Self.quietConfig)
            // A rejection of impact 8 at 10:00,
            var daemon = try await fixture.startDaemon(fakeTime: "2026-11-24 10:00:00")
            let logged = try await fixture.hooray(
                "reject", "--type", "dating", "--impact", "8", "Ghosted after three dates")
            #expect(logged.status == .exited(0), "\(logged.standardError)")
            #expect(logged.standardOutput.contains("Ghosted Again? You're Not Alone"))
            #expect(logged.standardOutput.contains("I'll check on you tomorrow at 10:00"))
            let first = try #require(try await server.waitForNotifications(count: 1).first)
            #expect(first.summary == "Ghosted Again? You're Not Alone")
            #expect(first.body.contains("5-Minute Recovery Plan:"))
            #expect(first.body.contains("Take 3 deep breaths - this is about them, not you"))
            #expect(first.actionList == ["show-plan", "Show plan", "okay", "I'm okay now"])
            // Shown, and hoorayd knows it (killed sooner, the notice would wait in the inbox as "may
            // not have been shown").
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-24 10:00:00"))
            // hoorayd killed with SIGKILL at 12:00,
            daemon.send(SIGKILL)
            _ = await daemon.waitForExit(timeout: .seconds(10))
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-24 12:00:00")
            #expect(
                await daemon.waitForOutput(
                    containing: HoorayFixture.caughtUpLine, in: .standardError, timeout: .seconds(20)))
            daemon.send(SIGKILL)
            #expect(await daemon.waitForExit(timeout: .seconds(10)) == .signalled(SIGKILL))
            #expect(try server.notifications().count == 1, "nothing is due before tomorrow 10:00")

            // and started again at 11:00 the next day: the follow-up comes at once, once.
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-25 11:00:00")
            let arrived = try await server.waitForNotifications(count: 2, timeout: .seconds(20))
            let followUp = try #require(arrived.last)
            #expect(followUp.summary == "How are you doing?")
            #expect(followUp.body == "Yesterday was tough. You're stronger than you know.")
            #expect(followUp.actionList == ["okay", "I'm okay now", "still-hard", "Still hard"])
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-25 11:00:00"))
            // Exactly once: restarted, hoorayd does not show it again; `hooray act` still reaches its buttons.
            #expect(await daemon.stop() == .exited(0))
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-25 11:00:30")
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-25 11:00:30"))
            #expect(try server.notifications().count == 2)
            let notice = try #require(try await allNotices(fixture).first { $0.title == "How are you doing?" })
            let pressed = try await fixture.hooray("act", String(notice.id), "still-hard")
            #expect(pressed.status == .exited(0), "\(pressed.standardError)")
            let viaCLI = try #require(try await server.waitForNotifications(count: 3, timeout: .seconds(10)).last)
            #expect(viaCLI.summary == "That's okay. One step at a time.")
            // "Still hard" shows the plan again with the crisis help; "I'm okay now" keeps the recovery time.
            #expect(viaCLI.body.contains("Take 3 deep breaths - this is about them, not you"))
            #expect(viaCLI.body.contains("988"))
            let okay = try await fixture.hooray("act", String(notice.id), "okay")
            #expect(okay.status == .exited(0), "\(okay.standardError)")
            let recovered = try #require(
                await pollUntil(timeout: .seconds(10)) { () -> PrintedRejection? in
                    try? await list(fixture).first { $0.recoveredAt != nil }
                })
            // Logged at 10:00 yesterday, okay a day and a minute or so later.
            let seconds = try #require(recovered.recoverySeconds)
            #expect(seconds >= 25 * 3600 && seconds < 25 * 3600 + 300)
            #expect(try await allNotices(fixture).map(\.title).filter { $0 == "How are you doing?" }.count == 1)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func sayingOkayFirstCancelsTheFollowUp() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(Self.quietConfig)
            var daemon = try await fixture.startDaemon(fakeTime: "2026-11-24 10:00:00")
            let logged = try await fixture.hooray("reject", "--type", "job", "--impact", "8")
            #expect(logged.status == .exited(0), "\(logged.standardError)")
            #expect(try await fixture.nextEntries(all: true).contains { $0.id.hasPrefix("follow-up-") })
            let okay = try await fixture.hooray("recovery", "okay")
            #expect(okay.status == .exited(0), "\(okay.standardError)")
            #expect(okay.standardOutput.contains("Glad you're okay"))
            #expect(try await fixture.nextEntries(all: true).allSatisfy { !$0.id.hasPrefix("follow-up-") })
            #expect(await daemon.stop() == .exited(0))

            // The next day, past the hour it would have come: nothing but the logged notice.
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-25 10:30:00")
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-25 10:30:00"))
            #expect(try server.notifications().map(\.summary) == ["Another 'No'? Let's Rebuild Your Confidence"])
            let again = try await fixture.hooray("recovery", "okay")
            #expect(again.status == .exited(1))
            #expect(again.standardError.contains("nothing to recover from"))
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func theButtonsOfALoggedRejectionShowThePlanAndMarkItOkay() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(Self.quietConfig)
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-24 10:00:00")
            let logged = try await fixture.hooray("reject", "--type", "academic", "--impact", "7", "--json")
            #expect(logged.status == .exited(0), "\(logged.standardError)")
            let notice = try #require(try await server.waitForNotifications(count: 1).first)
            #expect(notice.summary == "Rejection Builds Character")
            try await server.invokeAction(id: notice.id, key: "show-plan")
            let plan = try #require(try await server.waitForNotifications(count: 2).last)
            #expect(plan.summary == "Rejection Builds Character")
            #expect(plan.body.hasPrefix("5-Minute Recovery Plan:\n✓ Acknowledge the feeling without judgment"))
            #expect(plan.actionList == ["okay", "I'm okay now"])
            try await server.invokeAction(id: plan.id, key: "okay")
            let recovered = try #require(
                await pollUntil(timeout: .seconds(10)) { () -> PrintedRejection? in
                    try? await list(fixture).first { $0.recoveredAt != nil }
                })
            #expect(recovered.type == "academic" && recovered.impact == 7)
            #expect(try await fixture.nextEntries(all: true).allSatisfy { !$0.id.hasPrefix("follow-up-") })
            _ = daemon
        }
    }

    @Test(arguments: [["5m", "0m"], ["0m", "5m"]])
    func twoHardRejectionsFiveMinutesApartGetOneFollowUpNamingTwo(agos: [String]) async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(Self.quietConfig)
            var daemon = try await fixture.startDaemon(fakeTime: "2026-11-24 10:00:00")
            for ago in agos {
                let logged = try await fixture.hooray("reject", "--type", "social", "--impact", "9", "--ago", ago)
                #expect(logged.status == .exited(0), "\(logged.standardError)")
            }
            let followUps = try await fixture.nextEntries(all: true).filter { $0.id.hasPrefix("follow-up-") }
            #expect(followUps.count == 1)
            #expect(await daemon.stop() == .exited(0))

            daemon = try await fixture.startDaemon(fakeTime: "2026-11-25 10:01:00")
            let arrived = try await server.waitForNotifications(count: 3, timeout: .seconds(20))
            #expect(arrived.last?.summary == "How are you doing?")
            #expect(arrived.last?.body.contains("2 hard moments") == true)
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-25 10:01:00"))
            #expect(try server.notifications().count == 3)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func theEveningCheckInRecordsTheMoodPressed() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig("[plugins.recovery]\ncheckin = true\n")
            // Before it comes, `hooray next` lists it for 20:00 that day.
            let eight = HoorayFixture.utc("2026-11-24 20:00:00")
            let next = try await fixture.hooray(arguments: ["next", "--json"], fakeTime: "2026-11-24 19:59:00")
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let planned = try decoder.decode([HoorayFixture.NextEntry].self, from: Data(next.standardOutput.utf8))
            #expect(planned.first { $0.plugin == "recovery" && $0.id == "checkin" }?.due == eight, "\(planned)")
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-24 19:59:58")
            let checkIn = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(20)).first)
            #expect(checkIn.summary == "How are you feeling today?")
            #expect(checkIn.body == "Take 30 seconds to check in with yourself")
            #expect(
                checkIn.actionList == [
                    "mood-low", "😔 Low", "mood-okay", "😐 Okay", "mood-good", "🙂 Good", "mood-strong", "💪 Strong",
                ])
            try await server.invokeAction(id: checkIn.id, key: "mood-strong")
            let mood = try #require(
                await pollUntil(timeout: .seconds(10)) { () -> String? in
                    try? await todayCheckIn(fixture)?["mood"] as? String
                })
            #expect(mood == "strong")
            // `hooray act` presses a mood too: the latest counts.
            let notice = try #require(try await allNotices(fixture).first { $0.title == "How are you feeling today?" })
            // Shown at 20:00 or after, never before.
            #expect(notice.createdAt >= eight, "posted \(notice.createdAt)")
            #expect(try #require(notice.deliveredAt) >= eight)
            let act = try await fixture.hooray("act", String(notice.id), "mood-good")
            #expect(act.status == .exited(0), "\(act.standardError)")
            #expect(try await todayCheckIn(fixture)?["mood"] as? String == "good")
            _ = daemon
        }
    }

    @Test func aCheckInInTheMorningHoldsTonightsReminderAndAnotherChangesIt() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig("[plugins.recovery]\ncheckin = true\n")
            let morning = "2026-11-24 09:00:00"
            let before = try await fixture.hooray(arguments: ["next"], fakeTime: morning)
            #expect(before.standardOutput.contains("How are you feeling today?"), "\(before.standardOutput)")
            let first = try await fixture.hooray(arguments: ["recovery", "checkin", "okay"], fakeTime: morning)
            #expect(first.status == .exited(0), "\(first.standardError)")
            #expect(first.standardOutput == "Checked in: 😐 Okay. Thanks for taking 30 seconds for yourself.\n")
            let after = try await fixture.hooray(arguments: ["next"], fakeTime: morning)
            #expect(!after.standardOutput.contains("How are you feeling today?"), "\(after.standardOutput)")
            let all = try await fixture.hooray(arguments: ["next", "--all"], fakeTime: morning)
            #expect(all.standardOutput.contains("not shown: checked in today"))
            let again = try await fixture.hooray(
                arguments: ["recovery", "checkin", "strong", "--note", "Went for a run", "--json"], fakeTime: morning)
            let value = try #require(
                try JSONSerialization.jsonObject(with: Data(again.standardOutput.utf8)) as? [String: Any])
            #expect(value["mood"] as? String == "strong" && value["note"] as? String == "Went for a run")
            #expect(value["day"] as? String == "2026-11-24")
        }
    }

    @Test func badInputIsRefusedWithTheFixAndNothingIsSaved() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(Self.quietConfig)
            let long = String(repeating: "a", count: 2001)
            let cases: [([String], Int32, String)] = [
                (["reject", "--type", "job", "--impact", "0"], 64, "give 1 (barely stung) to 10"),
                (["reject", "--type", "job", "--impact", "11"], 64, "give 1 (barely stung) to 10"),
                (["reject", "--type", "job", "--impact", "high"], 64, "is not a number"),
                (["reject", "--type", "datng", "--impact", "5"], 64, "did you mean dating?"),
                (["reject", "--type", "job"], 64, "--impact"),
                (["reject", "--impact", "4"], 64, "--type dating, job, social, academic or other"),
                (["reject", "--type", "job", "--impact", "5", "--screenshot", "/nowhere/shot.png"], 1, "no such file"),
                (["reject", "--type", "job", "--impact", "5", "--note", long], 64, "at most 2000"),
                (["recovery", "okay"], 1, "nothing to recover from"),
                (["recovery", "checkin", "ecstatic"], 64, "Give one of low, okay, good, strong"),
                (["recovery", "checkin", "god"], 64, "did you mean good?"),
            ]
            for (arguments, status, message) in cases {
                let output = try await fixture.hooray(arguments: arguments)
                #expect(output.status == .exited(status), "\(arguments): \(output.standardError)")
                #expect(output.standardError.contains(message), "\(arguments): \(output.standardError)")
            }
            #expect(try await list(fixture).isEmpty)
            let dashboard = try await fixture.hooray("recovery", "--json")
            let value = try #require(
                try JSONSerialization.jsonObject(with: Data(dashboard.standardOutput.utf8)) as? [String: Any])
            #expect(value["todayCheckIn"] is NSNull, "no check-in was saved")
        }
    }

    @Test(arguments: ["hooray", "openai"])
    func withAIOnTheEncouragingLineIsReplacedInPlaceAndOnlyTypeAndImpactAreSent(provider: String) async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try await withAIServer { ai in
                try fixture.writeConfig(
                    """
                    [ai]
                    provider = "\(provider)"
                    endpoint = "\(ai.endpoint("good").absoluteString)"
                    timeout = "3s"
                    \(provider == "openai" ? "model = \"test-model\"\napi_key_env = \"HOORAY_TEST_KEY\"" : "")

                    \(Self.quietConfig)
                    ai = true
                    """)
                let daemon = try await fixture.startDaemon(environment: ["HOORAY_TEST_KEY": "sk-test-key"])
                let shot = fixture.home.appending("secret-chat.png")
                try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: shot))
                let logged = try await fixture.hooray(
                    "reject", "--type", "job", "--impact", "6", "--note", "Acme Corp said no to Sam", "--screenshot",
                    shot)
                #expect(logged.status == .exited(0), "\(logged.standardError)")
                // The AI line replaces the encouraging line in place; when the service answers before
                // the first Notify, the one notification already carries it.
                let praised = await pollUntil(timeout: .seconds(15)) { () -> [RecordedNotification]? in
                    let all = (try? server.notifications()) ?? []
                    return all.contains { $0.body.hasPrefix("You made space for yourself.\n") } ? all : nil
                }
                let shown = try #require(praised, "\((try? server.notifications()) ?? [])")
                #expect(Set(shown.map(\.id)).count == 1, "the same notification, updated in place: \(shown)")
                let last = try #require(shown.last)
                #expect(last.summary == "Another 'No'? Let's Rebuild Your Confidence")
                #expect(last.body.hasPrefix("You made space for yourself.\n"))
                #expect(last.body.contains("5-Minute Recovery Plan:"))
                let request = try #require(try ai.requests().first)
                let told = "I logged a job rejection that hurt 6 out of 10."
                let body = try #require(
                    try JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [String: Any])
                if provider == "hooray" {
                    // Exactly these fields: the sentence, a random id, and the day with no time of day.
                    #expect(Set(body.keys) == ["clientId", "text", "happenedAt", "submittedAt", "tz", "timeAgo"])
                    #expect(body["text"] as? String == told)
                    let happened = try #require(body["happenedAt"] as? String)
                    #expect(happened.hasSuffix("T00:00:00Z"), "\(happened)")
                    #expect(body["submittedAt"] as? String == happened)
                    #expect(body["tz"] as? String == "UTC")
                    #expect(body["timeAgo"] as? Int == 0)
                    let listed = try #require(try await list(fixture).first)
                    #expect(body["clientId"] as? String != listed.id, "a fresh id, not the rejection's")
                } else {
                    #expect(Set(body.keys) == ["model", "messages", "max_tokens"])
                    let messages = try #require(body["messages"] as? [[String: String]])
                    #expect(messages.map { $0["role"] } == ["system", "user"])
                    // The user's message is the sentence alone; the prompt speaks of a rejection, not a win.
                    #expect(messages.last?["content"] == told)
                    let system = try #require(messages.first?["content"])
                    #expect(system.contains("rejection") && !system.contains("small win"), "\(system)")
                }
                for secret in ["Acme", "Sam", "secret-chat", fixture.home.path] {
                    #expect(!request.body.contains(secret), "\(secret) left the machine")
                }
                let stored = try #require(try await list(fixture).first)
                #expect(stored.encouragement == "You made space for yourself.")
                _ = daemon
            }
        }
    }

    @Test func editingAndDeletingKeepTheFollowUpsInLine() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(Self.quietConfig)
            let now = "2026-11-24 10:00:00"
            func followUps() async throws -> Int {
                try await fixture.nextEntries(all: true).filter { $0.id.hasPrefix("follow-up-") }.count
            }
            for (type, impact) in [("job", "5"), ("dating", "9")] {
                let output = try await fixture.hooray(
                    arguments: ["reject", "--type", type, "--impact", impact], fakeTime: now)
                #expect(output.status == .exited(0), "\(output.standardError)")
            }
            #expect(try await followUps() == 1)
            let rejections = try await list(fixture)
            let job = try #require(rejections.first { $0.type == "job" })
            let dating = try #require(rejections.first { $0.type == "dating" })

            // The job one now hurt 8: it joins tomorrow's follow-up; the dating one 4: it leaves it.
            let raised = try await fixture.hooray(
                arguments: ["recovery", "edit", String(job.id.prefix(8)), "--impact", "8"], fakeTime: now)
            #expect(raised.status == .exited(0), "\(raised.standardError)")
            #expect(raised.standardOutput.contains("I'll check on you tomorrow at 10:00"))
            #expect(try await followUps() == 1)
            let lowered = try await fixture.hooray(
                arguments: ["recovery", "edit", String(dating.id.prefix(8)), "--impact", "4", "--type", "social"],
                fakeTime: now)
            #expect(lowered.status == .exited(0), "\(lowered.standardError)")
            #expect(lowered.standardOutput.contains("👥 Social"))
            #expect(try await followUps() == 1, "the job one still waits for it")

            // Deleting asks first; without a terminal it needs --yes, and then the follow-up goes with it.
            let unasked = try await fixture.hooray("recovery", "delete", String(job.id.prefix(8)))
            #expect(unasked.status == .exited(64))
            #expect(unasked.standardError.contains("--yes"))
            #expect(try await list(fixture).count == 2)
            let deleted = try await fixture.hooray("recovery", "delete", String(job.id.prefix(8)), "--yes")
            #expect(deleted.status == .exited(0), "\(deleted.standardError)")
            #expect(try await list(fixture).map(\.type) == ["social"])
            #expect(try await followUps() == 0)

            let nothing = try await fixture.hooray("recovery", "edit", String(dating.id.prefix(8)))
            #expect(nothing.status == .exited(64))
            #expect(nothing.standardError.contains("say what to change"))
            let unknown = try await fixture.hooray("recovery", "edit", "ffffffff", "--impact", "3")
            #expect(unknown.status == .exited(1))
            #expect(unknown.standardError.contains("no rejection has an id starting with ffffffff"))
            let plan = try await fixture.hooray("recovery", "plan")
            #expect(plan.standardOutput.hasPrefix("👥 Awkward Moment? Everyone Has Them\n\n5-Minute Recovery Plan:"))
        }
    }

    func list(_ fixture: HoorayFixture) async throws -> [PrintedRejection] {
        let output = try await fixture.hooray("recovery", "list", "--json")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([PrintedRejection].self, from: Data(output.standardOutput.utf8))
    }

    /// `todayCheckIn` of `hooray recovery --json`; `nil` when it is `null`.
    func todayCheckIn(_ fixture: HoorayFixture) async throws -> [String: Any]? {
        let output = try await fixture.hooray("recovery", "--json")
        let value = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
        return value?["todayCheckIn"] as? [String: Any]
    }

    func allNotices(_ fixture: HoorayFixture) async throws -> [PrintedNotice] {
        let output = try await fixture.hooray("inbox", "--all", "--json")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([PrintedNotice].self, from: Data(output.standardOutput.utf8))
    }
}
