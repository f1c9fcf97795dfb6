import Foundation
import HooraySystemTesting
import Testing

/// `hooray habit` end to end: the real binaries, libfaketime clocks, a real notification server.
@Suite(.timeLimit(.minutes(5)))
struct HabitsTests {
    struct ListedHabit: Decodable {
        let name: String
        let streak: Int
        let today: String
        let badge: Int?
    }

    func list(_ fixture: HoorayFixture, at time: String) async throws -> [ListedHabit] {
        let output = try await fixture.hooray("habit", "list", "--json", fakeTime: time)
        #expect(output.status == .exited(0), "\(output.standardError)")
        return try JSONDecoder().decode([ListedHabit].self, from: Data(output.standardOutput.utf8))
    }

    @discardableResult
    func habit(_ fixture: HoorayFixture, _ arguments: [String], at time: String) async throws -> ProcessOutput {
        let output = try await fixture.hooray(arguments: ["habit"] + arguments, fakeTime: time)
        #expect(output.status == .exited(0), "\(arguments): \(output.standardError)")
        return output
    }

    /// Waits until hoorayd (or, without one, the command that ran the plugin) has handled every reminder
    /// due by `time` and shown every notice it queued, and says whether no more than `count`
    /// notifications arrived.
    func nothingMoreArrives(
        _ fixture: HoorayFixture, _ daemon: ChildProcess?, _ server: TestNotificationServer, than count: Int,
        handledBy time: String? = nil
    ) async throws -> Bool {
        let settled = await fixture.waitUntilSettled(daemon, nothingDueBy: time)
        #expect(settled, "hoorayd did not settle: \(daemon?.standardError ?? "no daemon")")
        let shown = try server.notifications()
        if shown.count != count {
            print("Shown, where \(count) were expected: \(shown.map { "\($0.summary): \($0.body)" })")
        }
        return shown.count == count
    }

    // 2026-11-22 is a Sunday; 23 Monday, 24 Tuesday, 25 Wednesday, 27 Friday.

    @Test func aReminderArrivesOnADueDayAndItsDoneButtonCompletesTheHabit() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try await habit(
                fixture, ["add", "Run", "--on", "mon,wed,fri", "--remind", "07:30", "--why", "To sleep better."],
                at: "2026-11-22 12:00:00")

            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 07:29:57")
            let shown = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(20)).first)
            #expect(shown.summary == "Run")
            #expect(shown.body == "Don't forget to make time for Run today.")
            #expect(shown.actions.map(\.label) == ["Done", "Snooze 1 h"])

            try await server.invokeAction(id: shown.id, key: "done")
            let listed = await pollUntil(timeout: .seconds(15)) { () -> ListedHabit? in
                let habits = try? await list(fixture, at: "2026-11-23 07:31:00")
                return habits?.first { $0.today == "done" }
            }
            #expect(listed?.streak == 1)
            #expect(listed?.name == "Run")
            await daemon.stop()
        }
    }

    @Test func noReminderOnADayItIsNotDue() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            // Added on Monday after its time, so no reminder was missed while hoorayd was not running
            // (one missed would rightly be told in a "While you were away" notice).
            try await habit(
                fixture, ["add", "Run", "--on", "mon,wed,fri", "--remind", "07:30"], at: "2026-11-23 12:00:00")

            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-24 07:29:57")
            #expect(
                try await nothingMoreArrives(fixture, daemon, server, than: 0, handledBy: "2026-11-24 07:30:00"),
                "Tuesday is not a running day")
            struct Next: Decodable {
                let id: String
                let due: Date
            }
            let next = try await fixture.hooray("next", "--json", fakeTime: "2026-11-24 07:31:00")
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let entries = try decoder.decode([Next].self, from: Data(next.standardOutput.utf8))
            #expect(
                entries.first { $0.id.hasPrefix("habit.") }?.due
                    == ISO8601DateFormatter().date(from: "2026-11-25T07:30:00Z"))
            await daemon.stop()
        }
    }

    @Test func noReminderOnceDoneAndNoneWhilePaused() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            // Added on Tuesday, so no reminder was missed while hoorayd was not running.
            try await habit(
                fixture, ["add", "Run", "--on", "mon,wed,fri", "--remind", "07:30"], at: "2026-11-24 12:00:00")

            // Done on Wednesday morning before the reminder: it is withdrawn (the day's celebration is
            // all that comes).
            try await habit(fixture, ["done", "Run"], at: "2026-11-25 07:00:00")
            var daemon = try await fixture.startDaemon(fakeTime: "2026-11-25 07:29:57")
            #expect(
                try await nothingMoreArrives(fixture, daemon, server, than: 1, handledBy: "2026-11-25 07:30:00"),
                "already done")
            #expect(try server.notifications().map(\.category) == ["hooray.celebration"])
            await daemon.stop()

            // Paused on Friday: no reminder, and the streak stays.
            let paused = try await habit(fixture, ["pause", "Run", "--for", "3d"], at: "2026-11-27 07:00:00")
            #expect(paused.standardOutput.contains("Paused “Run” through Sun 29 Nov"))
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-27 07:29:57")
            #expect(
                try await nothingMoreArrives(fixture, daemon, server, than: 1, handledBy: "2026-11-27 07:30:00"),
                "paused")
            await daemon.stop()
            #expect(try await list(fixture, at: "2026-11-27 08:00:00").first?.today == "paused")
            #expect(try await list(fixture, at: "2026-11-27 08:00:00").first?.streak == 1)
        }
    }

    @Test(arguments: ["calm", "playful", "off"])
    func aMilestoneIsCelebratedOnceInTheUsersStyle(style: String) async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig("[celebrations]\nstyle = \"\(style)\"\n")
            try await habit(fixture, ["add", "Stretch", "--start", "2026-11-10"], at: "2026-11-16 09:00:00")
            for day in 16...21 {
                try await habit(fixture, ["done", "Stretch", "--date", "2026-11-\(day)"], at: "2026-11-22 09:00:00")
            }
            #expect(try await list(fixture, at: "2026-11-22 09:00:00").first?.streak == 6)
            #expect(try server.notifications().isEmpty, "no celebration before the milestone")

            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-22 09:00:00")
            let seventh = try await habit(fixture, ["done", "Stretch"], at: "2026-11-22 09:01:00")
            #expect(seventh.standardOutput.contains("Done: “Stretch” · 7 days"))
            if style == "off" {
                #expect(try await nothingMoreArrives(fixture, daemon, server, than: 0))
                #expect(seventh.standardOutput.contains("Stretch · 7 days"))
            } else {
                let celebration = try #require(
                    try await server.waitForNotifications(count: 1, timeout: .seconds(10)).first)
                #expect(celebration.summary.contains("Stretch · 7 days"))
                if style == "playful" {
                    #expect(celebration.summary.hasPrefix("🎉"))
                    #expect(celebration.hints["sound-name"]?.stringValue != nil)
                } else {
                    #expect(celebration.hints["urgency"]?.integerValue == 0)
                    #expect(celebration.hints["suppress-sound"] != nil)
                }
            }
            let before = try server.notifications().count
            // Undo and redo: the same run, so no second milestone; the day is celebrated small, as the
            // notification's Done button does.
            let small = style == "off" ? 0 : 1
            try await habit(fixture, ["undo", "Stretch"], at: "2026-11-22 09:02:00")
            try await habit(fixture, ["done", "Stretch"], at: "2026-11-22 09:03:00")
            #expect(try await nothingMoreArrives(fixture, daemon, server, than: before + small))
            await daemon.stop()
            // Nor on day 8 (the CLI hosts the plugin itself now, on the next day's clock).
            try await habit(fixture, ["done", "Stretch"], at: "2026-11-23 09:00:00")
            #expect(try await nothingMoreArrives(fixture, nil, server, than: before + 2 * small))
            #expect(try server.notifications().dropFirst(before).allSatisfy { $0.category == "hooray.celebration" })
            let listed = try #require(try await list(fixture, at: "2026-11-23 09:01:00").first)
            #expect(listed.streak == 8)
            #expect(listed.badge == 7)
        }
    }

    @Test func theCalendarShowsTheMonthWithoutColourWhenAsked() async throws {
        try await HoorayFixture.with { fixture in
            try await habit(
                fixture, ["add", "Read", "--why", "To become wiser and calmer."], at: "2026-11-01 09:00:00")
            try await habit(fixture, ["done", "Read", "--date", "2026-11-02"], at: "2026-11-10 09:00:00")
            let show = try await fixture.hooray(
                "habit", "show", "read", "--month", "2026-11", fakeTime: "2026-11-10 09:00:00")
            #expect(show.status == .exited(0), "\(show.standardError)")
            let text = show.standardOutput
            #expect(text.hasPrefix("Read\nRemember why: To become wiser and calmer.\n"))
            #expect(text.contains("November 2026"))
            #expect(text.contains("Mo  Tu  We  Th  Fr  Sa  Su"))
            #expect(text.contains("●"))
            #expect(!text.contains("\u{1B}["), "no colour when output is not a terminal")
        }
    }

    @Test func badInputGetsAClearErrorAndChangesNothing() async throws {
        try await HoorayFixture.with { fixture in
            let now = "2026-11-22 09:00:00"
            try await habit(fixture, ["add", "Read 10 pages"], at: now)
            // A value that cannot be used is a usage error (64); what cannot be done is a failure (1).
            let cases: [([String], String, Int32)] = [
                (["done", "Raed 10 pages"], "did you mean \"Read 10 pages\"", 1),
                (["add", "read 10 PAGES"], "already have a habit called \"Read 10 pages\"", 1),
                (["add", "Walk", "--every", "0d"], "use at least one day", 64),
                (["add", "Walk", "--on", "mon,funday"], "\"funday\" is not a day", 64),
                (["add", "Walk", "--remind", "25:00"], "HH:MM", 64),
                (["add", "Walk", "--every", "2d", "--on", "mon"], "either --every or --on", 64),
                (["pause", "Read 10 pages", "--until", "2026-11-01"], "in the past", 64),
                (["done", "Read 10 pages", "--date", "2026-12-01"], "in the future", 64),
                (["undo", "Read 10 pages"], "nothing to undo", 1),
            ]
            for (arguments, message, code) in cases {
                let output = try await fixture.hooray(arguments: ["habit"] + arguments, fakeTime: now)
                #expect(output.status == .exited(code), "\(arguments)")
                #expect(output.standardError.contains(message), "\(arguments): \(output.standardError)")
            }
            let habits = try await list(fixture, at: now)
            #expect(habits.map(\.name) == ["Read 10 pages"])
            #expect(habits.first?.streak == 0)

            // Done on a day it is not due: allowed, and said.
            try await habit(fixture, ["edit", "Read 10 pages", "--on", "mon"], at: now)
            let extra = try await habit(fixture, ["done", "Read 10 pages"], at: now)
            #expect(extra.standardOutput.contains("isn't due on Sun 22 Nov; it's counted as an extra"))
        }
    }
}
