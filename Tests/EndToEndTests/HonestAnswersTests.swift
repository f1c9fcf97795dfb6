import Foundation
import HooraySystemTesting
import Testing

/// Every answer is true (issue 13, items 1, 2, 5, 11 and 12): a command given to a frozen daemon
/// runs once and says where, and only commands that write leave a request id behind; a broken part
/// of the configuration never stops logging or looking; `hooray act` says what a button did;
/// `hooray next` lists only what will be shown, in local time, and never an internal job; a plugin's
/// failure quoting stored text cannot drive the terminal.
@Suite(.timeLimit(.minutes(5)))
struct HonestAnswersTests {
    struct PrintedMoment: Decodable {
        let id: String
        let text: String
    }

    /// Two reminders, the first with its title's quote left open on line 5 of the file (after a
    /// three-line section): the reminders section of that file is left out.
    static let halfTypedReminders = """
        [[plugins.reminders.reminder]]
        title = "Stretch
        at = "15:00"

        [[plugins.reminders.reminder]]
        title = "Breathe"
        at = "16:00"
        """

    /// What a command says once about the reminders section it left out.
    static let remindersIgnored =
        "the reminders section is ignored until it is fixed; `hooray config check` shows what is wrong."

    struct PrintedStatus: Decodable {
        let nextDue: Date?
    }

    struct PrintedNext: Decodable {
        let plugin: String
        let id: String
        let title: String
        let due: Date
        let schedule: String
        let shown: Bool
        let notShownBecause: String?
    }

    func moments(_ fixture: HoorayFixture) async throws -> [PrintedMoment] {
        let output = try await fixture.hooray("moments", "--json")
        #expect(output.status == .exited(0), "\(output.standardError)")
        return try JSONDecoder().decode([PrintedMoment].self, from: Data(output.standardOutput.utf8))
    }

    func next(_ fixture: HoorayFixture, _ arguments: String..., fakeTime: String? = nil) async throws -> [PrintedNext] {
        let output = try await fixture.hooray(arguments: ["next", "--json"] + arguments, fakeTime: fakeTime)
        #expect(output.status == .exited(0), "\(output.standardError)")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([PrintedNext].self, from: Data(output.standardOutput.utf8))
    }

    // MARK: 1. A frozen daemon

    @Test func aWinGivenToAFrozenDaemonIsKeptAndRunsOnceWhenItGoesOn() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            #expect(await fixture.waitUntilSettled(daemon))

            daemon.send(SIGSTOP)
            let win = try await fixture.hooray("win", "Watered the plants")
            #expect(win.status == .exited(75), "\(win.standardError)")
            #expect(
                win.standardError.contains(
                    "hoorayd did not answer in 2 s (it is stopped); your moment is kept, and hoorayd saves it once when it goes on."
                ),
                "\(win.standardError)")
            #expect(!win.standardError.contains("Nothing was saved"))
            #expect(win.standardOutput.isEmpty)
            let habit = try await fixture.hooray("habit", "add", "Stretch", "--remind", "23:59")
            #expect(habit.status == .exited(75), "\(habit.standardError)")
            #expect(
                habit.standardError.contains("what you asked is kept, and hoorayd does it once when it goes on."),
                "\(habit.standardError)")
            // Both wait in the spool, and nothing ran outside hoorayd.
            #expect(try fixture.spoolFiles().count == 2)
            #expect(try server.notifications().filter { $0.body.contains("Watered the plants") }.isEmpty)
            // hooray's own commands say the daemon is there but not answering: busy, not "not running".
            let frozen = try await fixture.hooray("status")
            #expect(frozen.status == .exited(75), "\(frozen.standardError)")
            #expect(frozen.standardError.contains("did not answer"), "\(frozen.standardError)")
            #expect(
                frozen.standardError.contains(
                    "Kept for hoorayd: 2 commands typed while it did not answer; it runs each once when it goes on."),
                "\(frozen.standardError)")
            let inbox = try await fixture.hooray("inbox")
            #expect(!inbox.standardError.contains("not running"), "\(inbox.standardError)")

            // Once it runs again, hoorayd takes both from the spool and runs each once.
            daemon.send(SIGCONT)
            let shown = await pollUntil(timeout: .seconds(30)) { () -> Int? in
                let count = (try? server.notifications().filter { $0.body.contains("Watered the plants") }.count) ?? 0
                return count > 0 ? count : nil
            }
            #expect(shown == 1)
            let planned = try #require(try await next(fixture).first { $0.title == "Stretch" })
            let nextDue = await pollUntil(timeout: .seconds(30)) { () -> Date? in
                guard let output = try? await fixture.hooray("status", "--json") else { return nil }
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .iso8601
                let printed = try? decoder.decode(PrintedStatus.self, from: Data(output.standardOutput.utf8))
                return printed?.nextDue == planned.due ? planned.due : nil
            }
            #expect(nextDue != nil, "hoorayd did not schedule the habit added while it was frozen")

            #expect(try await moments(fixture).filter { $0.text == "Watered the plants" }.count == 1)
            #expect(try fixture.spoolFiles().isEmpty)
            #expect(await fixture.waitUntilSettled(daemon))
            #expect(try server.notifications().filter { $0.body.contains("Watered the plants") }.count == 1)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    // MARK: 1, 10. A daemon too busy to take the request

    @Test func aDaemonTooBusyToTakeTheRequestSaysSoExits75AndNothingIsSaved() async throws {
        try await HoorayFixture.with { fixture in
            let daemon = try await fixture.startDaemon()
            #expect(await fixture.waitUntilSettled(daemon))
            // Every connection slot taken by a client that says nothing (each is let go after 5 s).
            let path = fixture.home.appending("runtime/hooray/control.sock")
            var held = try (0..<64).map { _ in try RawControlConnection(path: path) }
            let win = try await fixture.hooray("win", "Too soon")
            #expect(win.status == .exited(75), "\(win.standardError)")
            #expect(win.standardError.contains("hoorayd is busy with 64 other connections, so nothing was done"))
            #expect(!win.standardError.contains("Nothing was saved.\nNothing"))
            // Once they are gone, hoorayd answers again, and nothing was saved.
            held.removeAll()
            let listed = await pollUntil(timeout: .seconds(20)) { () -> String? in
                guard let output = try? await fixture.hooray("moments", "--json"), output.status == .exited(0) else {
                    return nil
                }
                return output.standardOutput
            }
            #expect(listed?.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(String(describing: listed))")
            #expect(await daemon.stop() == .exited(0))
        }
    }

    // MARK: 5. A broken configuration

    @Test func aHalfTypedReminderNeverStopsLoggingButStillStopsTheDaemon() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(
                """
                [plugins.wins]
                retry_first = "1s"


                """ + Self.halfTypedReminders)
            // The fixture's XDG_CONFIG_HOME is ~/config.
            let place = "~/config/hooray/hooray.toml:5:"
            let ignored = Self.remindersIgnored

            let win = try await fixture.hooray("win", "Drank some water")
            #expect(win.status == .exited(0), "\(win.standardError)")
            #expect(win.standardOutput.hasPrefix("Moment logged"))
            #expect(win.standardError.components(separatedBy: ignored).count - 1 == 1, "\(win.standardError)")
            #expect(win.standardError.contains(place), "\(win.standardError)")
            #expect(try await moments(fixture).map(\.text) == ["Drank some water"])

            let add = try await fixture.hooray("habit", "add", "Read")
            #expect(add.status == .exited(0), "\(add.standardError)")
            let done = try await fixture.hooray("habit", "done", "Read")
            #expect(done.status == .exited(0), "\(done.standardError)")
            #expect(done.standardError.components(separatedBy: ignored).count - 1 == 1, "\(done.standardError)")
            #expect(done.standardError.contains(place))

            // hoorayd still refuses the file at start, naming the place.
            let daemon = try ChildProcess(
                HoorayFixture.binDirectory + "/hoorayd", arguments: [], environment: fixture.environment())
            let status = await daemon.waitForExit(timeout: .seconds(30))
            // Its last words may still be in the pipe when it has exited.
            await daemon.waitForOutputToEnd(timeout: .seconds(10))
            #expect(status == .exited(78), "\(daemon.standardError)")
            #expect(daemon.standardError.contains("hooray.toml:5:"), "\(daemon.standardError)")
            // The win was shown as usual.
            #expect(try server.notifications().filter { $0.summary == "Moment logged" }.count == 1)
        }
    }

    // MARK: 11 and 12. Buttons, and snoozes in local time

    @Test func actSaysWhatAButtonDidAndNextShowsTheSnoozeInLocalTime() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer(capabilities: ["body"])
            try fixture.writeConfig(
                "[plugins.wins]\nwelcome = true\n\n"
                    + reminderTOML(title: "Stretch", body: "Roll your shoulders.", at: "15:00"))
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 14:59:58")
            let shown = try await server.waitForNotifications(count: 2, timeout: .seconds(20))
            try #require(shown.count == 2)
            let inbox = try await fixture.hooray("inbox", "--all")
            let welcome = try #require(
                inbox.standardOutput.components(separatedBy: "hooray act ").dropFirst().first {
                    $0.contains("log-install")
                }?.split(separator: " ").first)
            let stretch = try #require(
                inbox.standardOutput.components(separatedBy: "hooray act ").dropFirst().first {
                    $0.contains("snooze")
                }?.split(separator: " ").first)

            // A snooze says until when, in local time; a second press says it changed nothing.
            let snooze = try await fixture.hooray("act", String(stretch), "snooze", fakeTime: "2026-11-23 15:00:30")
            #expect(snooze.status == .exited(0), "\(snooze.standardError)")
            #expect(snooze.standardOutput == "Snoozed until 16:00.\n", "\(snooze.standardOutput)")
            let again = try await fixture.hooray("act", String(stretch), "snooze", fakeTime: "2026-11-23 15:00:40")
            #expect(again.status == .exited(1))
            #expect(again.standardError.contains("is already snoozed until today 16:00; nothing changed"))
            #expect(!again.standardOutput.contains("Done."))

            let entries = try await next(fixture, fakeTime: "2026-11-23 15:01:00")
            let snoozed = try #require(entries.first { $0.id == "snoozed.stretch" })
            #expect(snoozed.schedule == "once, today 16:00")
            let table = try await fixture.hooray("next", fakeTime: "2026-11-23 15:01:00")
            #expect(table.standardOutput.contains("once, today 16:00"))
            #expect(!table.standardOutput.contains("Z"), "\(table.standardOutput)")

            // The welcome button logs the first moment once; pressed again, it has expired.
            let log = try await fixture.hooray("act", String(welcome), "log-install")
            #expect(log.status == .exited(0), "\(log.standardError)")
            #expect(log.standardOutput.contains("Pressed “Log it”"))
            let expired = try await fixture.hooray("act", String(welcome), "log-install")
            #expect(expired.status == .exited(1))
            #expect(expired.standardError.contains("That button has expired"), "\(expired.standardError)")
            #expect(!expired.standardOutput.contains("Done."))
            #expect(try await moments(fixture).count == 1)

            // Unknown notices and buttons are refused clearly; a malformed id is a usage error.
            let unknown = try await fixture.hooray("act", "999", "snooze")
            #expect(unknown.status == .exited(1))
            #expect(unknown.standardError.contains("there is no notice 999"))
            let button = try await fixture.hooray("act", String(stretch), "explode")
            #expect(button.status == .exited(1))
            #expect(button.standardError.contains("has no action \"explode\""))
            // A click on the notification itself is no button of this one: nothing to say it was handled.
            let body = try await fixture.hooray("act", String(stretch), "default")
            #expect(body.status == .exited(1))
            #expect(body.standardError.contains("has no action \"default\""), "\(body.standardError)")
            #expect(!body.standardOutput.contains("Pressed"))
            let malformed = try await fixture.hooray("act", "twelve", "snooze")
            #expect(malformed.status == .exited(64))
            #expect(await daemon.stop() == .exited(0))

            let stopped = try await fixture.hooray("act", String(stretch), "snooze")
            #expect(stopped.status == .exited(69))
            #expect(stopped.standardError.contains("hoorayd is not running"))
        }
    }

    // MARK: 2. What `next` lists

    @Test func nextListsOnlyWhatWillBeShownAndAllMarksTheRest() async throws {
        try await HoorayFixture.with { fixture in
            // The water plugin was on, so its reminders are planned in the user's database; then it
            // is turned off.
            try fixture.writeConfig("[plugins.water]\nenabled = true\n")
            let add = try await fixture.hooray("habit", "add", "Read", "--remind", "08:00")
            #expect(add.status == .exited(0), "\(add.standardError)")
            #expect(try await next(fixture).contains { $0.plugin == "water" })
            try fixture.writeConfig(reminderTOML(title: "Stretch", body: "", at: "15:00"))
            let pause = try await fixture.hooray("habit", "pause", "Read")
            #expect(pause.status == .exited(0), "\(pause.standardError)")

            let shown = try await next(fixture)
            #expect(shown.map(\.title) == ["Stretch"], "\(shown.map(\.title))")
            #expect(shown.allSatisfy { $0.shown })
            let table = try await fixture.hooray("next")
            #expect(table.standardOutput.contains("Stretch"))
            #expect(!table.standardOutput.contains("Read"))
            #expect(table.standardOutput.contains("`hooray next --all` lists them"))

            let all = try await next(fixture, "--all")
            #expect(all.first { $0.title == "Read" }?.notShownBecause == "paused")
            #expect(all.contains { $0.plugin == "water" && $0.notShownBecause == "plugin disabled" })
            #expect(all.first { $0.title == "Stretch" }?.shown == true)
            let allTable = try await fixture.hooray("next", "--all")
            #expect(allTable.standardOutput.contains("STATE"))
            #expect(allTable.standardOutput.contains("not shown: paused"))

            // Resumed, the habit's reminder is coming again.
            let resume = try await fixture.hooray("habit", "resume", "Read")
            #expect(resume.status == .exited(0), "\(resume.standardError)")
            #expect(try await next(fixture).contains { $0.title == "Read" })
        }
    }

    @Test func nextWithConfigUsesThatFileWhileTheDaemonRuns() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(reminderTOML(title: "Stretch", body: "", at: "15:00"))
            let daemon = try await fixture.startDaemon()
            let other = fixture.home.appending("other.toml")
            try reminderTOML(title: "Breathe", body: "", at: "16:00").write(
                toFile: other, atomically: true, encoding: .utf8)

            let planned = try await next(fixture, "--config", other)
            #expect(planned.contains { $0.title == "Breathe" }, "\(planned.map(\.title))")
            // The daemon's own plans are left as they were.
            #expect(try await next(fixture).map(\.title) == ["Stretch"])
            #expect(try server.notifications().isEmpty)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    // MARK: 5. A broken configuration, for the commands that only look

    @Test func aBrokenFileStillShowsNextHomeAndListsWithOneWarningEach() async throws {
        try await HoorayFixture.with { fixture in
            let add = try await fixture.hooray("habit", "add", "Read", "--remind", "08:00")
            #expect(add.status == .exited(0), "\(add.standardError)")
            try fixture.writeConfig(
                """
                [plugins.water]
                enabled = true


                """ + Self.halfTypedReminders)
            let place = "~/config/hooray/hooray.toml:5:"
            let ignored = Self.remindersIgnored
            func warnsOnce(_ output: ProcessOutput) -> Bool {
                output.standardError.components(separatedBy: ignored).count - 1 == 1
                    && output.standardError.contains(place)
            }

            // `next` plans the sections that read well: the habit's and the water plugin's reminders.
            let planned = try await fixture.hooray("next", "--json")
            #expect(planned.status == .exited(0), "\(planned.standardError)")
            #expect(warnsOnce(planned), "\(planned.standardError)")
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let entries = try decoder.decode([PrintedNext].self, from: Data(planned.standardOutput.utf8))
            #expect(entries.contains { $0.title == "Read" }, "\(entries.map(\.title))")
            #expect(entries.contains { $0.plugin == "water" })
            #expect(!entries.contains { $0.plugin == "reminders" })
            let table = try await fixture.hooray("next")
            #expect(table.status == .exited(0), "\(table.standardError)")
            #expect(table.standardOutput.contains("Read"))
            #expect(warnsOnce(table), "\(table.standardError)")

            // `hooray` alone shows its kind word, not the help.
            let home = try await fixture.hooray()
            #expect(home.status == .exited(0), "\(home.standardError)")
            #expect(home.standardOutput.contains("hooray win"), "\(home.standardOutput)")
            #expect(!home.standardOutput.contains("SUBCOMMANDS"), "\(home.standardOutput)")
            #expect(warnsOnce(home), "\(home.standardError)")

            // The other commands that only look work too, each with the one warning.
            for arguments in [["moments"], ["journey"], ["habit", "list"], ["water", "today"]] {
                let output = try await fixture.hooray(arguments: arguments)
                #expect(output.status == .exited(0), "\(arguments): \(output.standardError)")
                #expect(warnsOnce(output), "\(arguments): \(output.standardError)")
            }
            let plugins = try await fixture.hooray("plugins")
            #expect(plugins.status == .exited(0), "\(plugins.standardError)")
            #expect(
                plugins.standardOutput.split(separator: "\n").contains {
                    $0.hasPrefix("water") && $0.contains("enabled")
                },
                "\(plugins.standardOutput)")
            #expect(warnsOnce(plugins), "\(plugins.standardError)")
            let status = try await fixture.hooray("status")
            #expect(status.standardOutput.contains("hoorayd is not running"), "\(status.standardOutput)")
            #expect(warnsOnce(status), "\(status.standardError)")

            // `config check` still reports the file, and hoorayd still refuses it.
            let check = try await fixture.hooray("config", "check")
            #expect(check.status != .exited(0))
            #expect(check.standardError.contains("hooray.toml:5:"), "\(check.standardError)")
            let daemon = try ChildProcess(
                HoorayFixture.binDirectory + "/hoorayd", arguments: [], environment: fixture.environment())
            #expect(await daemon.waitForExit(timeout: .seconds(30)) == .exited(78), "\(daemon.standardError)")
        }
    }

    @Test func aKeyIsStoredForTheConfiguredProviderWhenAnotherPartIsBroken() async throws {
        try await AIKeyTests.withKeyring { fixture, keyring, ai in
            try fixture.writeConfig(
                """
                [ai]
                provider = "hooray"
                endpoint = "\(ai.endpoint("good").absoluteString)"

                [[plugins.reminders.reminder]]
                title = "Stretch
                at = "15:00"
                """)
            let key = AIKeyTests.makeKey()
            let stored = try await fixture.hooray(arguments: ["ai", "set-key"], input: key + "\n")
            #expect(stored.status == .exited(0), "\(stored.standardError)")
            #expect(stored.standardOutput.contains("Stored the hooray key"), "\(stored.standardOutput)")
            #expect(
                stored.standardError.components(separatedBy: "the reminders section is ignored").count - 1 == 1,
                "\(stored.standardError)")
            let attributes = AIKeyTests.openAIAttributes.merging(["provider": "hooray"]) { _, new in new }
            #expect(try await keyring.lookup(attributes: attributes) == key)
        }
    }

    // MARK: 3. A broken core section

    @Test func aBrokenLogSectionKeepsTheIdentityStoreTheUserChose() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(
                """
                [identity]
                store = "file"

                [log]
                level = "loud"
                """)
            let status = try await fixture.hooray("status")
            #expect(status.status == .exited(69), "\(status.standardError)")
            #expect(status.standardOutput.contains("Anonymous id: not made yet (file)"), "\(status.standardOutput)")
            let ignored = "the [log] section is ignored until it is fixed"
            #expect(
                status.standardError.components(separatedBy: ignored).count - 1 == 1
                    && status.standardError.contains("~/config/hooray/hooray.toml:5:"), "\(status.standardError)")
            #expect(!status.standardError.contains("[identity]"), "\(status.standardError)")
        }
    }

    // MARK: 10. A broken [ai] section

    @Test func aWinLoggedWhileTheAISectionIsBrokenGetsAIPraiseOnceItIsFixed() async throws {
        struct Synced: Decodable {
            let text: String
            let aiPraise: String?
            let sync: String
        }
        func moments(_ fixture: HoorayFixture) async throws -> [Synced] {
            let output = try await fixture.hooray("moments", "--json")
            #expect(output.status == .exited(0), "\(output.standardError)")
            return try JSONDecoder().decode([Synced].self, from: Data(output.standardOutput.utf8))
        }
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            try await withAIServer { ai in
                func config(timeout: String) -> String {
                    """
                    [ai]
                    provider = "hooray"
                    endpoint = "\(ai.endpoint("good").absoluteString)"
                    timeout = \(timeout)

                    [plugins.wins]
                    retry_first = "1s"
                    retry_max = "2s"
                    """
                }
                try fixture.writeConfig(config(timeout: "\"soon\""))
                let win = try await fixture.hooray("win", "Made the bed")
                #expect(win.status == .exited(0), "\(win.standardError)")
                #expect(
                    win.standardError.contains("the [ai] section is ignored until it is fixed"), "\(win.standardError)")
                let waiting = try await moments(fixture)
                #expect(waiting.map(\.sync) == ["pending"], "\(waiting)")
                #expect(try ai.requests().isEmpty)

                // Fixed: hoorayd asks for the praise the moment waited for.
                try fixture.writeConfig(config(timeout: "\"3s\""))
                let daemon = try await fixture.startDaemon()
                let synced = await pollUntil(timeout: .seconds(40)) { () -> [Synced]? in
                    guard let all = try? await moments(fixture), all.allSatisfy({ $0.sync == "synced" }) else {
                        return nil
                    }
                    return all
                }
                #expect(synced?.map(\.text) == ["Made the bed"], "\(daemon.standardError)")
                #expect(synced?.first?.aiPraise != nil)
                #expect(await daemon.stop() == .exited(0))
            }
        }
    }

    // MARK: 2. The internal AI-praise retry

    @Test func theAIPraiseRetryIsNeverListedAsComingAndIsGoneWhileAIIsOff() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            // An AI service that is down: the moment's praise is retried in an hour.
            let gone = try await TestAIServer()
            await gone.stop()
            let wins = "[plugins.wins]\nretry_first = \"1h\"\nretry_max = \"2h\"\n"
            try fixture.writeConfig(
                """
                [ai]
                provider = "hooray"
                endpoint = "\(gone.endpoint("good").absoluteString)"
                timeout = "2s"
                connect_timeout = "2s"

                \(wins)
                """)
            let win = try await fixture.hooray("win", "Made the bed")
            #expect(win.status == .exited(0), "\(win.standardError)")
            #expect(try await next(fixture, "--all").contains { $0.plugin == "wins" })

            let daemon = try await fixture.startDaemon()
            let shown = try await next(fixture)
            #expect(!shown.contains { $0.plugin == "wins" }, "\(shown)")
            let table = try await fixture.hooray("next")
            #expect(!table.standardOutput.contains("Retry AI praise"), "\(table.standardOutput)")
            let all = try await next(fixture, "--all")
            let retry = try #require(all.first { $0.plugin == "wins" }, "\(all)")
            #expect(retry.title == "Retry AI praise for logged moments")
            #expect(!retry.shown)
            #expect(retry.notShownBecause == "internal")
            #expect(await daemon.stop() == .exited(0))

            // AI turned off: no retry is planned, whether hoorayd plans or `next` does.
            try fixture.writeConfig(wins)
            #expect(try await next(fixture, "--all").allSatisfy { $0.plugin != "wins" })
            let again = try await fixture.startDaemon()
            #expect(try await next(fixture, "--all").allSatisfy { $0.plugin != "wins" })
            #expect(await again.stop() == .exited(0))
            // The moment still waits for its praise, for when AI is back.
            #expect(try await moments(fixture).map(\.text) == ["Made the bed"])
            let logged = try server.notifications().filter { $0.summary == "Moment logged" }
            #expect(Set(logged.map(\.id)).count == 1, "\(logged)")
        }
    }

    // MARK: 1. Only commands that write go through the spool

    @Test func readOnlyCommandsLeaveNothingInTheSpoolAndTheClaimsAreGone() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig("[plugins.water]\nenabled = true\n")
            let daemon = try await fixture.startDaemon()
            for arguments in [["win", "Watered the plants"], ["habit", "add", "Read"]] {
                let output = try await fixture.hooray(arguments: arguments)
                #expect(output.status == .exited(0), "\(arguments): \(output.standardError)")
            }
            #expect(try fixture.spoolFiles().isEmpty)
            #expect(try await tables(fixture).contains("record"))
            #expect(try await !tables(fixture).contains("request"))

            let looks = [
                [], ["home"], ["about"], ["moments"], ["moments", "--json"], ["journey"], ["habit"],
                ["habit", "list", "--json"], ["habit", "show", "Read"], ["water", "today"],
            ]
            for arguments in looks {
                let output = try await fixture.hooray(arguments: arguments)
                #expect(output.status == .exited(0), "\(arguments): \(output.standardError)")
                #expect(!output.standardOutput.isEmpty, "\(arguments)")
            }
            #expect(try fixture.spoolFiles().isEmpty)

            let drink = try await fixture.hooray("water", "drink")
            #expect(drink.status == .exited(0), "\(drink.standardError)")
            #expect(try fixture.spoolFiles().isEmpty)
            #expect(await fixture.waitUntilSettled(daemon))
            #expect(try server.notifications().filter { $0.summary == "Moment logged" }.count == 1)
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
