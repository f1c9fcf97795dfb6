import Foundation
import HooraySystemTesting
import Testing

/// The launchers' way in, end to end: GNOME Shell's search provider and KRunner's runner called with
/// `gdbus` on the test's private session bus, as the shells call them, against the real `hoorayd`;
/// what they do is checked with the real `hooray` and the notification server.
@Suite(.timeLimit(.minutes(5)))
struct LauncherSearchTests {
    static let provider = [
        "--dest", "org.hooray.Hoorayd", "--object-path", "/org/hooray/Hoorayd/SearchProvider", "--method",
    ]
    static let runner = ["--dest", "org.hooray.Hoorayd", "--object-path", "/org/hooray/Hoorayd/KRunner", "--method"]

    /// Calls a method with `gdbus`, its arguments in GVariant's text form, and returns what it printed.
    func call(_ fixture: HoorayFixture, _ object: [String], _ method: String, _ arguments: String...) async throws
        -> String
    {
        let output = try await ProcessRunner.run(
            "gdbus", arguments: ["call", "--session"] + object + [method] + arguments,
            environment: fixture.environment(), timeout: .seconds(30))
        #expect(output.status == .exited(0), "\(method): \(output.standardError)")
        return output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts hoorayd and waits until the launchers can find it on the bus.
    func startDaemon(_ fixture: HoorayFixture) async throws -> ChildProcess {
        let daemon = try await fixture.startDaemon()
        let onTheBus = await daemon.waitForOutput(
            containing: "launchers find hoorayd on the session bus as org.hooray.Hoorayd", in: .standardError,
            timeout: .seconds(20))
        #expect(onTheBus, "\(daemon.standardError)")
        return daemon
    }

    @Test func gnomeShellsSearchLogsAWinAndTicksAHabitAsTheCommandLineWould() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let added = try await fixture.hooray("habit", "add", "Read 10 pages")
            #expect(added.status == .exited(0), "\(added.standardError)")
            let daemon = try await startDaemon(fixture)

            // "win took a walk", as GNOME Shell splits what is typed into terms.
            let found = try await call(
                fixture, Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet",
                "['win', 'took', 'a', 'walk']")
            #expect(found == "(['win:took a walk'],)")
            let metas = try await call(
                fixture, Self.provider, "org.gnome.Shell.SearchProvider2.GetResultMetas", "['win:took a walk']")
            #expect(metas.contains("'name': <'Log a win: took a walk'>"), "\(metas)")
            _ = try await call(
                fixture, Self.provider, "org.gnome.Shell.SearchProvider2.ActivateResult", "win:took a walk",
                "['win', 'took', 'a', 'walk']", "0")
            // The usual notification, as `hooray win` shows it.
            let logged = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            #expect(logged.first?.summary == "Moment logged")
            #expect(try await fixture.momentTexts() == ["took a walk"])

            // "habit read" offers the habit due today, and choosing it marks it done.
            let due = try await call(
                fixture, Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", "['habit', 'read']")
            #expect(due == "(['habit:Read 10 pages'],)")
            let narrowed = try await call(
                fixture, Self.provider, "org.gnome.Shell.SearchProvider2.GetSubsearchResultSet",
                "['habit:Read 10 pages']", "['habit', 'read', 'pages']")
            #expect(narrowed == "(['habit:Read 10 pages'],)")
            _ = try await call(
                fixture, Self.provider, "org.gnome.Shell.SearchProvider2.ActivateResult", "habit:Read 10 pages",
                "['habit', 'read']", "0")
            let celebrated = try await server.waitForNotifications(count: 2, timeout: .seconds(20))
            #expect(celebrated.last?.category == "hooray.celebration")
            #expect(try await fixture.habitStates().map(\.today) == ["done"])
            // Done today, it is no longer offered.
            let none = try await call(
                fixture, Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", "['habit', 'read']")
            #expect(none == "(@as [],)")
            await daemon.stop()
        }
    }

    @Test func kRunnerMatchesAndRunsTheSameOffers() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let added = try await fixture.hooray("habit", "add", "Stretch")
            #expect(added.status == .exited(0), "\(added.standardError)")
            let daemon = try await startDaemon(fixture)

            let matches = try await call(fixture, Self.runner, "org.kde.krunner1.Match", "win drank water")
            #expect(
                matches.hasPrefix("([('win:drank water', 'Log a win: drank water', 'hooray', 100, 1.0, {'subtext': <"))
            _ = try await call(fixture, Self.runner, "org.kde.krunner1.Run", "win:drank water", "")
            _ = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            #expect(try await fixture.momentTexts() == ["drank water"])

            let habit = try await call(fixture, Self.runner, "org.kde.krunner1.Match", "habit stretch")
            #expect(habit.hasPrefix("([('habit:Stretch', 'Done today: Stretch',"))
            _ = try await call(fixture, Self.runner, "org.kde.krunner1.Run", "habit:Stretch", "")
            let done = await pollUntil(timeout: .seconds(15)) { () -> Bool? in
                (try? await fixture.habitStates().first?.today == "done") == true ? true : nil
            }
            #expect(done == true)
            #expect(try await call(fixture, Self.runner, "org.kde.krunner1.Match", "walk") == "(@a(sssida{sv}) [],)")
            await daemon.stop()
        }
    }

    @Test func hoorayAloneTellsTheNextReminderAndTodaysCounts() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            try fixture.writeConfig(reminderTOML(title: "Stretch", body: "Stand up.", at: "15:00"))
            let logged = try await fixture.hooray("win", "Sent the email")
            #expect(logged.status == .exited(0), "\(logged.standardError)")
            let daemon = try await startDaemon(fixture)

            let found = try await call(
                fixture, Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", "['hooray']")
            #expect(found == "(['open:home:next', 'open:home:today'],)")
            let metas = try await call(
                fixture, Self.provider, "org.gnome.Shell.SearchProvider2.GetResultMetas", "['open:home:today']")
            #expect(metas.contains("Today"), "\(metas)")
            let matches = try await call(fixture, Self.runner, "org.kde.krunner1.Match", "hooray")
            #expect(matches.contains("'Next: Stretch'"), "\(matches)")
            #expect(matches.contains("'Today', 'hooray', 100, 1.0, {'subtext': <'"), "\(matches)")
            #expect(matches.contains("1 win today"), "\(matches)")
            await daemon.stop()
        }
    }

    /// Chooses the win "called mum" in GNOME Shell's provider and in KRunner's runner at once.
    static let bothAtOnce = """
        import asyncio
        from dbus_next import Message
        from dbus_next.aio import MessageBus

        async def main():
            bus = await MessageBus().connect()
            shell = Message(
                destination="org.hooray.Hoorayd", path="/org/hooray/Hoorayd/SearchProvider",
                interface="org.gnome.Shell.SearchProvider2", member="ActivateResult", signature="sasu",
                body=["win:called mum", [], 0])
            runner = Message(
                destination="org.hooray.Hoorayd", path="/org/hooray/Hoorayd/KRunner",
                interface="org.kde.krunner1", member="Run", signature="ss", body=["win:called mum", ""])
            replies = await asyncio.gather(bus.call(shell), bus.call(runner))
            print([reply.message_type.name for reply in replies])

        asyncio.run(main())
        """

    @Test func aChoiceMadeTwiceAtOnceIsDoneOnceAndAHabitGoneMeanwhileIsSaidInANotice() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let added = try await fixture.hooray("habit", "add", "Floss")
            #expect(added.status == .exited(0), "\(added.standardError)")
            let daemon = try await startDaemon(fixture)

            // GNOME Shell and KRunner at the same moment, for the same win: both calls leave one
            // process back to back.
            let both = try await ProcessRunner.run(
                "/usr/bin/python3", arguments: ["-c", Self.bothAtOnce], environment: fixture.environment(),
                timeout: .seconds(30))
            #expect(both.standardOutput == "['METHOD_RETURN', 'METHOD_RETURN']\n", "\(both.standardError)")
            _ = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            #expect(try await fixture.momentTexts() == ["called mum"])

            // Offered, then deleted from a terminal before it was chosen.
            let offered = try await call(
                fixture, Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", "['habit', 'floss']")
            #expect(offered == "(['habit:Floss'],)")
            let deleted = try await fixture.hooray("habit", "delete", "Floss", "--yes")
            #expect(deleted.status == .exited(0), "\(deleted.standardError)")
            _ = try await call(
                fixture, Self.provider, "org.gnome.Shell.SearchProvider2.ActivateResult", "habit:Floss", "[]", "0")
            let told = try await server.waitForNotifications(count: 2, timeout: .seconds(20))
            #expect(told.last?.summary == "That was not done")
            #expect(told.last?.body.contains("there is no habit \"Floss\"") == true, "\(told.last?.body ?? "")")

            // A search of 10,000 characters with control characters offers nothing, and hoorayd goes on.
            let long = "['win', '" + String(repeating: "a\\u0007", count: 5000) + "']"
            #expect(
                try await call(fixture, Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", long)
                    == "(@as [],)")
            #expect(try await fixture.momentTexts() == ["called mum"])
            #expect(daemon.exitStatus == nil)
            await daemon.stop()
        }
    }
}
