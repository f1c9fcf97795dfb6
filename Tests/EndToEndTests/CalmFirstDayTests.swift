import Foundation
import HooraySystemTesting
import Testing

/// Issue 28's first "Done when": a fresh install is calm. With the shipped configuration and
/// nothing logged, `hoorayd` shows the one-time welcome and nothing else for a day and more; a
/// plugin's daily notices start with the user's first use of it, which says in one line what is
/// now scheduled and how to turn it off.
///
/// One `hoorayd` runs throughout on a clock that a file sets (libfaketime): the test moves the
/// clock forward and sends SIGHUP, after which `hoorayd` plans again from the new time, as it does
/// when it wakes up on time.
@Suite(.timeLimit(.minutes(3)))
struct CalmFirstDayTests {
    /// The shipped `Config/hooray.toml`.
    static let shippedConfiguration: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent("Config/hooray.toml").path
    }()

    static let welcomeTitle = "Hey. Glad you're here."
    static let checkInTitle = "How are you feeling today?"
    static let nightPrepTitle = "Prep tonight: what's your swap for tomorrow?"

    /// A fresh install: the shipped file as /etc/hooray/hooray.toml, and nothing else.
    static func freshInstall(_ fixture: HoorayFixture) throws {
        try FileManager.default.removeItem(atPath: fixture.home.appending("etc/conf.d/10-tests.toml"))
        try FileManager.default.copyItem(
            atPath: shippedConfiguration, toPath: fixture.home.appending("etc/hooray.toml"))
    }

    @Test func aFreshInstallShowsTheWelcomeAloneAndFirstUsesStartTheDailyNotices() async throws {
        try await HoorayFixture.with { fixture in
            try Self.freshInstall(fixture)
            // As messages name it: the home folder as `~`.
            let userFile = "~/config/hooray/hooray.toml"
            let clock = fixture.home.appending("fake-time")
            let time = HoorayFixture.fakeTimeVariables(file: clock)
            func hooray(_ arguments: String...) async throws -> ProcessOutput {
                try await fixture.hooray(arguments: arguments, environment: time)
            }
            func next() async throws -> [HoorayFixture.NextEntry] {
                let output = try await hooray("next", "--json")
                #expect(output.status == .exited(0), "\(output.standardError)")
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .iso8601
                return try decoder.decode([HoorayFixture.NextEntry].self, from: Data(output.standardOutput.utf8))
            }
            /// Moves the clock and lets hoorayd plan from there.
            func moveClock(to moment: String, _ daemon: ChildProcess) async throws {
                let reloads = daemon.standardError.components(separatedBy: "configuration reloaded").count
                try HoorayFixture.setFakeTime(moment, in: clock)
                #expect(kill(daemon.pid, SIGHUP) == 0)
                let reloaded = await pollUntil(timeout: .seconds(15)) { () -> Bool? in
                    daemon.standardError.components(separatedBy: "configuration reloaded").count > reloads ? true : nil
                }
                #expect(reloaded == true, "\(daemon.standardError)")
            }
            func shown(_ server: TestNotificationServer, _ title: String) async -> RecordedNotification? {
                await pollUntil(timeout: .seconds(20)) { () -> RecordedNotification? in
                    try? server.notifications().first { $0.summary == title }
                }
            }

            let server = try await fixture.startServer()
            // Monday 15 June 2026, 07:55. Before anything runs, `hooray next` lists the welcome only.
            try HoorayFixture.setFakeTime("2026-06-15 07:55:00", in: clock)
            #expect(try await next().map(\.id) == ["welcome"])
            let daemon = try await fixture.startDaemon(environment: time)
            let welcome = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(20)).first)
            #expect(welcome.summary == Self.welcomeTitle)
            #expect(await fixture.waitUntilSettled(daemon, planned: { $0.isEmpty }))

            // 26 hours on, Tuesday 09:55: the evening and the morning passed with nothing more.
            try await moveClock(to: "2026-06-16 09:55:00", daemon)
            #expect(
                await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-06-16 09:55:00", planned: { $0.isEmpty }))
            #expect(try await next().isEmpty)
            #expect(try server.notifications().map(\.summary) == [Self.welcomeTitle])

            // The first rejection starts the check-in and the challenge, and says so once.
            let reject = try await hooray("reject", "--type", "job", "--impact", "4")
            #expect(reject.status == .exited(0), "\(reject.standardError)")
            #expect(
                reject.standardOutput.hasSuffix(
                    "\nNow scheduled: a check-in at 20:00 and today's challenge at 09:00, each day. To turn them off, "
                        + "set checkin = false and challenge_at = \"off\" under [plugins.recovery] in \(userFile).\n"),
                "\(reject.standardOutput)")
            let planned = try await next()
            #expect(planned.map(\.id) == ["checkin", "challenge"])
            #expect(planned.first?.due == HoorayFixture.utc("2026-06-16 20:00:00"))
            let again = try await hooray("reject", "--type", "social", "--impact", "3")
            #expect(again.status == .exited(0), "\(again.standardError)")
            #expect(!again.standardOutput.contains("Now scheduled"), "\(again.standardOutput)")

            // The next 20:00 shows the check-in.
            try await moveClock(to: "2026-06-16 19:59:55", daemon)
            let checkIn = await shown(server, Self.checkInTitle)
            #expect(checkIn?.actions.count == 4, "the four moods")
            #expect(try server.notifications().contains { $0.summary == Self.nightPrepTitle } == false)

            // The first swap starts Night Prep and Morning Focus; the next 21:00 shows Night Prep.
            let swap = try await hooray("swap", "Tea instead of wine")
            #expect(swap.status == .exited(0), "\(swap.standardError)")
            #expect(
                swap.standardOutput.hasSuffix(
                    "\nNow scheduled: Morning Focus at 08:00 and Night Prep at 21:00, each day. To turn them off, "
                        + "set morning_focus = \"off\" and night_prep = \"off\" under [plugins.swaps] in \(userFile).\n"
                ),
                "\(swap.standardOutput)")
            #expect(try await next().first?.id == "night-prep")
            try await moveClock(to: "2026-06-16 20:59:55", daemon)
            let nightPrep = await shown(server, Self.nightPrepTitle)
            #expect(nightPrep?.body.hasPrefix("Today's swap is saved: “Tea instead of wine”.") == true)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func aFirstUseWhileHoorayDIsStoppedIsPlannedAndShownOnceItStarts() async throws {
        try await HoorayFixture.with { fixture in
            try Self.freshInstall(fixture)
            let server = try await fixture.startServer()
            // Monday evening, hoorayd not running: `hooray swap` runs the plugin itself.
            let swap = try await fixture.hooray("swap", "Tea instead of wine", fakeTime: "2026-06-15 20:30:00")
            #expect(swap.status == .exited(0), "\(swap.standardError)")
            #expect(
                swap.standardOutput.hasSuffix(
                    "Now scheduled: Morning Focus at 08:00 and Night Prep at 21:00, each day. To turn them off, set "
                        + "morning_focus = \"off\" and night_prep = \"off\" under [plugins.swaps] in "
                        + "~/config/hooray/hooray.toml.\n"),
                "\(swap.standardOutput)")
            // `hooray next` lists them at once, beside the welcome still to come.
            let next = try await fixture.hooray("next", "--json", fakeTime: "2026-06-15 20:31:00")
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let planned = try decoder.decode([HoorayFixture.NextEntry].self, from: Data(next.standardOutput.utf8))
            #expect(planned.map(\.id) == ["welcome", "night-prep", "morning-focus"])
            // hoorayd, started before 21:00, shows Night Prep then.
            let daemon = try await fixture.startDaemon(fakeTime: "2026-06-15 20:59:50")
            let shown = await pollUntil(timeout: .seconds(20)) { () -> RecordedNotification? in
                try? server.notifications().first { $0.summary == Self.nightPrepTitle }
            }
            #expect(shown != nil, "\((try? server.notifications().map(\.summary)) ?? [])")
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
