import Foundation
import HoorayCalendar
import HooraySystemTesting
import Testing

/// The window shows what changed elsewhere at once, pushed by hoorayd (its `changes`), never polled.
// One window at a time, as in DesktopAppTests: two X servers, accessibility buses and dogtails side by
// side are more than a loaded machine (the whole suite at once) serves within the scripts' deadlines.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct DesktopAppLiveTests {
    @Test("A win typed in a terminal appears in the open Moments view with nothing clicked")
    func aWinTypedInATerminalAppearsInMoments() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let (seen, context) = try await DesktopAppTests.drive(
                fixture, ["live", HoorayFixture.binDirectory + "/hooray", "Typed in a terminal"])
            let moments = try await DesktopAppTests.moments(fixture)
            await daemon.stop()
            await server.stop()
            #expect(moments.map(\.text) == ["Typed in a terminal"], "\(moments)")
            let listed = seen.momentsLabels ?? []
            #expect(listed.contains("Today") && listed.contains("Typed in a terminal"), "\(context)")
            // The figure, for the record (not asserted: this machine's load decides it).
            if let line = context.rawValue.split(separator: "\n").first(where: { $0.contains("after `hooray win`") }) {
                print("Moments: \(line)")
            }
        }
    }

    @Test("A paused habit resumed in a terminal: its check in the open Habits view works again with nothing clicked")
    func aHabitResumedInATerminalCanBeCheckedInHabits() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            for step in [["habit", "add", "Stretch"], ["habit", "pause", "Stretch"]] {
                let output = try await fixture.hooray(arguments: step)
                #expect(output.status == .exited(0), "\(step): \(output.standardError)")
            }
            let (seen, context) = try await DesktopAppTests.drive(
                fixture, ["resumed", HoorayFixture.binDirectory + "/hooray", "Stretch"])
            await daemon.stop()
            await server.stop()
            #expect((seen.pausedLabels ?? []).contains("0 days · paused"), "\(context)")
            #expect((seen.resumedLabels ?? []).contains("0 days"), "the row says paused no more: \(context)")
            #expect(!(seen.resumedLabels ?? []).contains("0 days · paused"), "\(context)")
        }
    }

    @Test(
        "Habits: a habit added with its \"remember why\", paused and resumed from its row, ticked, and started again with what happened"
    )
    func aHabitIsAddedPausedResumedAndStartedAgainInTheWindow() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let why = "To become wiser and calmer."
            let note = "Came home late and tired from work"
            let (seen, context) = try await DesktopAppTests.drive(
                fixture, ["again", HoorayFixture.binDirectory + "/hooray", "Read 10 pages", why, note])
            let shown = try await fixture.hooray(arguments: ["habit", "show", "Read 10 pages"])
            await daemon.stop()
            await server.stop()
            #expect((seen.addedLabels ?? []).contains("Read 10 pages"), "added: \(context)")
            #expect((seen.pausedLabels ?? []).contains("0 days · paused"), "\(context)")
            // Paused for a week, as the dialog offered: hoorayd says through which day.
            #expect(seen.pauseSaid?.hasPrefix("Paused “Read 10 pages” through ") == true, "\(context)")
            #expect((seen.resumedLabels ?? []).contains("0 days"), "resumed: \(context)")
            #expect((seen.doneLabels ?? []).contains("1 day · done today"), "ticked: \(context)")
            let asked = seen.askedLabels ?? []
            #expect(asked.contains("Start “Read 10 pages” again?"), "\(context)")
            #expect(
                asked.contains { $0.contains("You started because: “To become wiser and calmer.”") },
                "the dialog shows why the user started: \(context)")
            // What the window did is what a terminal sees: the habit with its "remember why", reset with the note.
            #expect(shown.standardOutput.contains("Remember why: \(why)"), "\(shown.standardOutput)")
            let lastReset = shown.standardOutput.split(separator: "\n").first { $0.contains("Last reset: ") }
            #expect(lastReset?.hasSuffix("— “\(note)”") == true, "\(shown.standardOutput)")
            // Its calendar names today as the day it started again.
            let today = LocalDate(instant: Date(), in: TimeZone(identifier: "UTC")!)
            #expect(seen.calendarDays?.contains("Started again: \(today.day)") == true, "\(context)")
            #expect(seen.error == nil, "\(context)")
        }
    }

    @Test(
        "Habits: a habit's month drawn in the window, each day's state in words, a tick from a terminal shown at once, its rhythm and reminder edited with what is wrong named"
    )
    func aHabitsMonthIsShownAndItsRhythmEdited() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            // Days lived from a terminal, each on its own (faked) day: a Monday-to-Friday habit from
            // Monday 2 November 2026, started again on Thursday the 12th, paused the 16th to the 18th.
            func live(on time: String, _ commands: [[String]]) async throws {
                let daemon = try await fixture.startDaemon(fakeTime: time)
                for command in commands {
                    let output = try await fixture.hooray(arguments: command, fakeTime: time)
                    #expect(output.status == .exited(0), "\(command): \(output.standardError)")
                }
                #expect(await daemon.stop() == .exited(0))
            }
            let doneOn = { (day: String) in ["habit", "done", "Run", "--date", "2026-11-" + day] }
            try await live(
                on: "2026-11-12 09:00:00",
                [["habit", "add", "Run", "--why", "To sleep better.", "--on", "mon-fri", "--start", "2026-11-02"]]
                    + ["02", "03", "04", "06", "09", "10"].map(doneOn)
                    + [["habit", "reset", "Run", "--note", "Travelled for work"], ["habit", "done", "Run"]])
            try await live(
                on: "2026-11-16 09:00:00", [doneOn("13"), ["habit", "pause", "Run", "--until", "2026-11-18"]])
            let friday = "2026-11-20 09:00:00"
            let daemon = try await fixture.startDaemon(fakeTime: friday)
            _ = try await fixture.hooray(arguments: doneOn("19"), fakeTime: friday)
            let (seen, context) = try await DesktopAppTests.drive(
                fixture, ["calendar", HoorayFixture.binDirectory + "/hooray", "Run"])
            await daemon.stop()
            await server.stop()
            #expect(seen.calendar == "Calendar of November 2026", "\(context)")
            #expect(
                seen.calendarDays
                    == "November 2026. Today: 20. Done: 2, 3, 4, 6, 9, 10, 13, 19. Started again: 12. Paused: 16, 17, 18. Missed: 5, 11. Due today, not done yet: 20. Coming up: 23, 24, 25, 26, 27, 30.",
                "\(context)")
            let labels = seen.habitLabels ?? []
            #expect(labels.contains("You started because: “To sleep better.”"), "\(context)")
            #expect(labels.contains { $0.hasPrefix("3 days · ") }, "the streak: \(context)")
            #expect(labels.contains("7 Day badge: 4 days to go"), "\(context)")
            // Ticked from a terminal while the month is open: done today, with nothing clicked.
            #expect(seen.tickedDays?.contains("Done: 2, 3, 4, 6, 9, 10, 13, 19, 20.") == true, "\(context)")
            #expect(seen.previousMonth == "Calendar of October 2026", "\(context)")
            #expect(seen.previousDays == "October 2026. No due days.", "\(context)")
            // No day chosen: named in the dialog, nothing sent; a time hoorayd refuses: its words
            // under the reminder, marked invalid, the days chosen kept.
            #expect((seen.noDaysLabels ?? []).contains("Choose at least one day, or make it every day."), "\(context)")
            #expect(
                (seen.badTimeLabels ?? []).contains {
                    $0.contains("--remind 25:00 is not a time; write it as HH:MM in 24-hour form")
                }, "\(context)")
            #expect(seen.badTimeInvalid == true && seen.badTimeFocused == true, "\(context)")
            #expect(seen.keptDays == ["Monday", "Wednesday", "Friday"], "\(context)")
            #expect(seen.edited?.schedule == "mon, wed, fri" && seen.edited?.remindAt == "07:30", "\(context)")
            #expect(seen.editedDays?.contains("Coming up: 23, 25, 27, 30.") == true, "\(context)")
            #expect(seen.error == nil, "\(context)")
        }
    }

    @Test(
        "Recovery: a rejection logged with the impact slider shows its plan; I'm okay now changes the dashboard; a template is copied, a check-in with its note and the challenge done"
    )
    func aRejectionLoggedWithTheSliderShowsItsPlanAndOkayChangesTheDashboard() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let note = "They went with another candidate"
            let (seen, context) = try await DesktopAppTests.drive(
                fixture, ["recovery", HoorayFixture.binDirectory + "/hooray", note])
            await daemon.stop()
            await server.stop()
            #expect(seen.error == nil, "\(context)")
            #expect(
                (seen.beforeLabels ?? []).contains(
                    "Nothing logged yet. When a rejection stings, log it in 30 seconds."),
                "\(context)")
            // The slider's face follows it, as the seed's.
            #expect((seen.logLabels ?? []).contains("How much did this hurt? 8/10 😣"), "\(context)")
            // Logged as chosen: the kind, the slider's value and the note.
            let logged = seen.logged?.first
            #expect(logged?.type == "job" && logged?.impact == 8 && logged?.note == note, "\(context)")
            #expect(seen.logged?.count == 1, "\(context)")
            // Its encouraging line, then the plan that fits what the note says: a "no" from a job.
            let plan = seen.planLabels ?? []
            #expect(logged.map { plan.contains($0.encouragement) } == true, "\(context)")
            #expect(plan.contains("💼 Another 'No'? Let's Rebuild Your Confidence"), "\(context)")
            #expect(plan.contains("✓ Apply to 2 more positions today"), "\(context)")
            #expect(plan.contains("Words for a reply: Responding to Rejection"), "\(context)")
            #expect((seen.okayLabels ?? []).contains { $0.hasPrefix("Glad you're okay. 💼 Job · 8/10") }, "\(context)")
            // The dashboard changed: bouncing back raised the score, which the ring shows, and this
            // week has one said okay.
            if let before = seen.scoreLogged, let after = seen.scoreOkay {
                #expect(after > before, "\(context)")
                #expect(seen.scoreAfter == "Resilience Score: \(after) of 100", "\(context)")
            } else {
                Issue.record("no scores: \(context)")
            }
            let after = seen.afterLabels ?? []
            #expect(after.contains("1 of 1") && after.contains("Average time to okay"), "\(context)")
            #expect(after.contains("You said you're okay about every rejection you logged. 🌱"), "\(context)")
            // The template fitting the note first, its words on the clipboard.
            #expect((seen.templatesLabels ?? []).contains("Responding to Rejection"), "\(context)")
            #expect(seen.copiedButton == "Copy “Responding to Rejection”", "\(context)")
            #expect(
                seen.clipboard?.hasPrefix("Thank you for letting me know. While I'm disappointed") == true, "\(context)"
            )
            #expect(
                (seen.checkedLabels ?? []).contains("Checked in today: 🙂 Good. Checking in again changes it."),
                "\(context)")
            #expect(seen.dashboard?.todayCheckIn?.mood == "good", "\(context)")
            #expect(seen.dashboard?.todayCheckIn?.note == "Long day, went for a walk", "\(context)")
            #expect(seen.dashboard?.streaks.challenge == 1, "\(context)")
            #expect(seen.dashboard?.thisWeek.recovered == 1 && seen.dashboard?.thisWeek.total == 1, "\(context)")
        }
    }

    @Test(
        "Settings' About has the crisis note; Your data shows the anonymous id, exports everything through the save dialog and deletes my data once confirmed"
    )
    func yourDataIsExportedAndDeletedFromSettings() async throws {
        try await HoorayFixture.with { fixture in
            // No id yet, and asking with --existing makes none.
            for _ in 0..<2 {
                let none = try await fixture.hooray("identity", "--existing", "--json")
                #expect(none.status == .exited(0) && none.standardOutput == "null\n", "\(none.standardError)")
            }
            let said = try await fixture.hooray("identity", "--existing")
            #expect(said.standardOutput.hasPrefix("No anonymous id yet"), "\(said.standardOutput)")
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let win = try await fixture.hooray("win", "Called my sister")
            #expect(win.status == .exited(0), "\(win.standardError)")
            // An id made, as AI praise would have.
            let made = try await fixture.hooray("identity")
            #expect(made.status == .exited(0), "\(made.standardError)")
            let export = fixture.home.appending("my-hooray.json")
            let (seen, context) = try await DesktopAppTests.drive(
                fixture, ["your-data", HoorayFixture.binDirectory + "/hooray", export])
            await daemon.stop()
            await server.stop()
            #expect(seen.error == nil, "\(context)")
            #expect((seen.aboutLabels ?? []).contains { $0.contains("988") }, "the crisis lines: \(context)")
            #expect(seen.suggestedName?.hasPrefix("hooray-export-") == true, "\(context)")
            // The file a user would import again: Hooray's export, with the moment in it.
            let written = (try? String(contentsOfFile: export, encoding: .utf8)) ?? ""
            #expect(written.contains("Called my sister") && written.contains("hooray-export"), "\(context)")
            #expect(seen.keptAfterCancel?.map(\.text) == ["Called my sister"], "cancelled, nothing deleted: \(context)")
            #expect((seen.deletedLabels ?? []).contains { $0.contains("and your anonymous id.") }, "\(context)")
            // The deleted id is gone; the window made none (hoorayd makes a new one as it reloads).
            if let before = seen.identityBefore {
                #expect(seen.identityAfter?.contains(before) == false, "\(context)")
                #expect((seen.dataLabels ?? []).contains(before), "the id shown before: \(context)")
            } else {
                Issue.record("no id read: \(context)")
            }
        }
    }

    @Test(
        "Settings' AI praise: a model saved is one line of [ai], comments kept; a key pasted is stored in the real keyring, and Test asks the service with it"
    )
    func anAIKeyPastedInSettingsIsKeptInTheKeyringAndUsed() async throws {
        try await AIKeyTests.withKeyring { fixture, _, ai in
            let config = try fixture.writeConfig(
                """
                # My AI: a local service.
                [ai]
                provider = "openai"
                endpoint = "\(ai.endpoint("good").absoluteString)"
                model = "gpt-4o-mini"  # for now
                """)
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let key = "sk-desktop-0123456789"
            let (seen, context) = try await DesktopAppTests.drive(fixture, ["ai-settings", config, "llama3.2", key])
            await daemon.stop()
            await server.stop()
            #expect(seen.error == nil, "\(context)")
            let written = seen.afterModel ?? ""
            #expect(written.hasPrefix("# My AI: a local service.\n[ai]\n"), "\(context)")
            #expect(written.hasSuffix("model = \"llama3.2\"  # for now") && !written.contains(key), "\(context)")
            #expect((seen.keyLabels ?? []).contains { $0.hasPrefix("Stored the openai key in ") }, "\(context)")
            #expect(seen.keyField == "", "the key field emptied once kept: \(context)")
            for labels in [seen.keyLabels, seen.testLabels] {
                #expect(!(labels ?? []).contains { $0.contains(key) }, "the key shown: \(context)")
            }
            #expect(!((try? String(contentsOfFile: config, encoding: .utf8)) ?? key).contains(key), "\(context)")
            // Test asked the service with the stored key, and said what it answered.
            let tested = (seen.testLabels ?? []).first { $0.hasPrefix("Provider: openai, model llama3.2") } ?? ""
            #expect(tested.contains("HTTP 200") && tested.contains("Praise:"), "\(context)")
            let requests = (try? ai.requests()) ?? []
            #expect(
                requests.last?.headers["authorization"] == "Bearer \(key)",
                "\(requests.map { $0.headers["authorization"] ?? "none" })")
        }
    }

    @Test(
        "Settings' Plugins page: the check-in time shows its default, 25:00 is named and nothing written, 19:30 is one line that the running hoorayd schedules at once; a switch turns the daily inspiration off"
    )
    func aPluginsTimeAndSwitchAreChangedInSettings() async throws {
        try await HoorayFixture.with { fixture in
            let original = """
                # Evenings are busy.
                [plugins.recovery]
                checkin = true
                follow_up_min_impact = 8

                [plugins.swaps]
                """
            let config = try fixture.writeConfig(original)
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let (seen, context) = try await DesktopAppTests.drive(
                fixture, ["plugin-settings", HoorayFixture.binDirectory + "/hooray", config])
            await daemon.stop()
            await server.stop()
            #expect(seen.error == nil, "\(context)")
            let labels = seen.pluginsLabels ?? []
            #expect(
                labels.contains("Recovery") && labels.contains("Swaps")
                    && labels.contains("Night Prep reminder (HH:MM, or off; from your first swap)"),
                "\(context)")
            #expect(seen.checkinBefore == "20:00", "the default, which the file does not set: \(context)")
            #expect((seen.badLabels ?? []).contains { $0.contains("25:00") }, "\(context)")
            #expect(seen.afterBad == original, "nothing written for 25:00: \(context)")
            // One line added where it belongs, the comment and the other key kept; applied at once.
            #expect(
                seen.afterTime
                    == "# Evenings are busy.\n[plugins.recovery]\ncheckin = true\nfollow_up_min_impact = 8\ncheckin_at = \"19:30\"\n\n[plugins.swaps]",
                "\(context)")
            #expect(seen.checkin?.schedule.contains("19:30") == true, "\(context)")
            #expect(seen.inspirationWasOn == true, "\(context)")
            #expect(seen.afterSwitch?.hasSuffix("[plugins.swaps]\ninspiration = false") == true, "\(context)")
        }
    }

    @Test(
        "Settings: a switch is one changed line in hooray.toml, comments kept, applied by the running hoorayd at once; a bad time and a file broken by hand are named, the file untouched"
    )
    func aSettingChangedInTheWindowIsOneLineOfHoorayTOML() async throws {
        try await HoorayFixture.with { fixture in
            let original = """
                # My own settings for Hooray.
                [plugins.water]
                # I forget to drink during the day.
                enabled = false   # off for now

                [celebrations]
                style = "calm"
                """
            let config = try fixture.writeConfig(original)
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let before = try await fixture.hooray(arguments: ["water", "today"])
            let (seen, context) = try await DesktopAppTests.drive(
                fixture, ["settings", HoorayFixture.binDirectory + "/hooray", config])
            await daemon.stop()
            await server.stop()
            #expect(before.status != .exited(0), "the plugin is off at first: \(before.standardOutput)")
            #expect(seen.waterWasOn == false && seen.waterOn == true, "\(context)")
            // One changed line: the value, its comment and every other line as they were.
            let changed = original.replacingOccurrences(
                of: "enabled = false   # off for now", with: "enabled = true   # off for now")
            #expect(seen.afterWater == changed, "\(context)")
            let differing = zip(
                original.split(separator: "\n", omittingEmptySubsequences: false),
                (seen.afterWater ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            ).filter { $0 != $1 }
            #expect(differing.count == 1, "\(differing)")
            // A time that is not one: named, nothing written.
            #expect((seen.quietLabels ?? []).contains { $0.contains("25:00") }, "\(context)")
            #expect(seen.afterQuiet == seen.afterWater, "\(context)")
            // Broken by hand while Settings is open: the line to fix is named, the file left as the user
            // left it, the switch back to what the file holds.
            let broken = try #require(seen.broken, "\(context)")
            let brokenLine = broken.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            #expect(
                (seen.brokenLabels ?? []).contains { $0.contains("~/config/hooray/hooray.toml, line \(brokenLine):") },
                "the line, \(brokenLine), is named: \(context)")
            #expect(seen.afterBroken == broken, "\(context)")
            #expect(seen.waterAfterBroken == true, "\(context)")
            #expect(seen.error == nil, "\(context)")
        }
    }

    @Test(
        "Today: tonight's swap grows the sprout and the streak; a Night Prep shows under \"From last night:\" the next morning"
    )
    func tonightsSwapGrowsTheSproutAndThePrepShowsTheNextMorning() async throws {
        try await HoorayFixture.with { fixture in
            let clock = fixture.home.appending("clock")
            try HoorayFixture.setFakeTime("2026-11-23 20:30:00", in: clock)
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon(environment: HoorayFixture.fakeTimeVariables(file: clock))
            let (seen, context) = try await DesktopAppTests.drive(
                fixture, ["today", HoorayFixture.binDirectory + "/hooray", clock])
            await daemon.stop()
            await server.stop()
            #expect(seen.sproutBefore == "Your sprout: a seed, waiting for your first swap", "\(context)")
            #expect(
                (seen.beforeLabels ?? []).contains("No swap in a row yet: tonight can be the first."), "\(context)")
            #expect(seen.sproutAfter == "Your sprout: 1 day in a row", "\(context)")
            #expect((seen.swappedLabels ?? []).contains("1 day in a row · today's swap logged ✓"), "\(context)")
            #expect(seen.prep == ["Oatmeal instead of a pastry", "Walk after lunch"], "\(context)")
            // I need help: the top swap and the breathing, which went on to its next step.
            let help = seen.helpLabels ?? []
            #expect(help.contains("Back to my day"), "the dialog opened: \(context)")
            #expect(
                help.contains { $0.contains("Your top swap:") && $0.contains("1. Sparkling water instead of soda") },
                "\(context)")
            let morning = seen.morningLabels ?? []
            #expect(morning.contains("From last night:"), "\(context)")
            #expect(
                morning.contains("Oatmeal instead of a pastry") && morning.contains("Walk after lunch"), "\(context)")
            // Yesterday's swap still counts: a morning without one yet does not end the streak.
            #expect(morning.contains("1 day in a row"), "\(context)")
            // And tomorrow's prep starts empty.
            #expect(seen.morningPrep == ["", "", ""], "\(context)")
            #expect(seen.error == nil, "\(context)")
        }
    }

    @Test("Today: a plugin in another language shows its card from plugin.toml, and its button runs its command")
    func anExternalPluginsCardShowsAndItsButtonRunsItsCommand() async throws {
        try await HoorayFixture.with { fixture in
            try ExternalPluginTests.install("stretch", into: fixture)
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let running = await pollUntil(timeout: .seconds(20), interval: .milliseconds(100)) { () -> Bool? in
                (try? await ExternalPluginTests.plugins(fixture).contains {
                    $0.name == "stretch" && $0.state == "running"
                })
                    == true ? true : nil
            }
            #expect(running == true, "\(daemon.standardError)")
            let answer = "A stretch notice is on its way. Go gently."
            let (seen, context) = try await DesktopAppTests.drive(
                fixture,
                ["card", "Stretch", "Stand up and roll your shoulders: a minute is enough.", "Stretch now", answer])
            // The command ran in the plugin: its notice reached the desktop.
            let shown = try? await server.waitForNotifications(count: 1, timeout: .seconds(20))
            await daemon.stop()
            await server.stop()
            #expect((seen.cardLabels ?? []).contains("Stretch"), "\(context)")
            #expect((seen.answeredLabels ?? []).contains(answer), "\(context)")
            #expect(
                shown?.contains { $0.summary.contains("stretch") || $0.summary.contains("Stretch") } == true,
                "\(shown ?? [])")
            #expect(seen.error == nil, "\(context)")
        }
    }

    @Test("hooray-app refuses GApplication's options other than --gapplication-service, saying which it takes")
    func otherGApplicationOptionsAreRefused() async throws {
        for option in ["--gapplication-app-id=org.example.Other", "--bogus"] {
            let output = try await ProcessRunner.run(
                HoorayFixture.binDirectory + "/hooray-app", arguments: [option], timeout: .seconds(30))
            #expect(output.status == .exited(2), "\(option): \(output)")
            #expect(
                output.standardError.contains(
                    "hooray-app: unknown option \(option); hooray-app takes --quick or nothing"),
                "\(option): \(output.standardError)")
        }
    }
}
