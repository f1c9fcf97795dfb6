import Foundation
import HooraySystemTesting
import Testing

/// `hooray remind`: reminders added from the command line, with the real `hooray` and `hoorayd`
/// and a real notification server.
@Suite(.timeLimit(.minutes(5)))
struct RemindCommandTests {
    /// A reminder as `hooray remind list --json` prints it.
    struct Listed: Decodable, Equatable {
        let id: String
        let title: String
        let source: String
        let editable: Bool
    }

    func listed(_ fixture: HoorayFixture, fakeTime: String? = nil) async throws -> [Listed] {
        let output = try await fixture.hooray(arguments: ["remind", "list", "--json"], fakeTime: fakeTime)
        #expect(output.status == .exited(0), "\(output.standardError)")
        return try JSONDecoder().decode([Listed].self, from: Data(output.standardOutput.utf8))
    }

    @Test func aOneOffInAMinuteIsShownOnceAndIsThenGone() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            // The real clock: libfaketime would slow the daemon's timers (see NOTES.md).
            var daemon = try await fixture.startDaemon()
            let before = Date()
            let added = try await fixture.hooray("remind", "Tea", "--in", "1m")
            let after = Date()
            #expect(added.status == .exited(0), "\(added.standardError)")
            #expect(added.standardOutput.hasPrefix("Added r1: Tea, once, "))
            #expect(added.standardOutput.contains("`hooray remind remove r1` removes it."))
            // The daemon planned it at once.
            let planned = try await fixture.nextEntries().filter { $0.title == "Tea" }
            #expect(planned.map(\.id) == ["r1"])
            let due = try #require(planned.first?.due)
            // On the whole minute nearest to a minute after the command was given: the minute it shows.
            #expect(due.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) == 0, "\(due)")
            #expect(due >= before.addingTimeInterval(29) && due <= after.addingTimeInterval(91), "\(due)")

            let shown = try await server.waitForNotifications(count: 1, timeout: .seconds(150))
            #expect(shown.map(\.summary) == ["Tea"])
            // Not before it was due.
            #expect(Date() >= due)
            #expect(await fixture.waitUntilSettled(daemon), "\(daemon.standardError)")
            #expect(try await fixture.nextEntries().filter { $0.title == "Tea" }.isEmpty)
            #expect(try await listed(fixture).isEmpty)

            // Neither a reload nor a restart brings it back.
            let reload = try await fixture.hooray("reload")
            #expect(reload.status == .exited(0), "\(reload.standardError)")
            #expect(await daemon.stop() == .exited(0))
            daemon = try await fixture.startDaemon()
            #expect(await fixture.waitUntilSettled(daemon), "\(daemon.standardError)")
            #expect(try await fixture.nextEntries().filter { $0.title == "Tea" }.isEmpty)
            #expect(try server.notifications().count == 1)
            await daemon.stop()
        }
    }

    @Test func aTimeThatIsNoTimeIsRefusedWithTheFix() async throws {
        try await HoorayFixture.with { fixture in
            for running in [false, true] {
                let daemon: ChildProcess? = if running { try await fixture.startDaemon() } else { nil }
                let refused = try await fixture.hooray("remind", "Tea", "--at", "25:00")
                #expect(refused.status == .exited(64))
                #expect(
                    refused.standardError.contains(
                        #"--at "25:00" is not a time of day; write it as HH:MM, e.g. "15:00""#),
                    "\(refused.standardError)")
                let both = try await fixture.hooray("remind", "Tea", "--at", "10:00", "--days", "mon", "--every", "2d")
                #expect(both.status == .exited(64))
                #expect(both.standardError.contains("use either --days or --every in one reminder, not both"))
                #expect(try await listed(fixture).isEmpty)
                await daemon?.stop()
            }
        }
    }

    @Test func addedRemindersAreEditedRemovedAndOutliveReloadAndRestart() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(reminderTOML(title: "Stretch", body: "", at: "15:00"))
            let morning = "2026-11-24 10:00:00"

            // Without hoorayd: added here, planned for today at 18:00.
            let added = try await fixture.hooray("remind", "Call mom", "--at", "18:00", fakeTime: morning)
            #expect(added.status == .exited(0), "\(added.standardError)")
            #expect(
                added.standardOutput
                    == "Added r1: Call mom, every day at 18:00 — next: today 18:00. `hooray remind remove r1` removes it.\n"
            )

            // hoorayd starts and keeps it beside the file's.
            var daemon = try await fixture.startDaemon(fakeTime: morning)
            func due() async throws -> [String: Date] {
                Dictionary(uniqueKeysWithValues: try await fixture.nextEntries().map { ($0.id, $0.due) })
            }
            #expect(
                try await due() == [
                    "stretch": HoorayFixture.utc("2026-11-24 15:00:00"), "r1": HoorayFixture.utc("2026-11-24 18:00:00"),
                ])

            // With hoorayd: planned at once, changed and replanned.
            let read = try await fixture.hooray(
                "remind", "Read", "--at", "21:00", "--days", "mon-fri", fakeTime: morning)
            #expect(read.status == .exited(0), "\(read.standardError)")
            #expect(try await due()["r2"] == HoorayFixture.utc("2026-11-24 21:00:00"))
            let edited = try await fixture.hooray("remind", "edit", "r2", "--at", "20:00", fakeTime: morning)
            #expect(edited.standardOutput == "Changed r2: Read, mon-fri at 20:00 — next: today 20:00.\n")
            #expect(try await due()["r2"] == HoorayFixture.utc("2026-11-24 20:00:00"))

            // The file's reminder is listed as such, and changed only in the file.
            #expect(
                try await listed(fixture, fakeTime: morning) == [
                    Listed(id: "stretch", title: "Stretch", source: "hooray.toml", editable: false),
                    Listed(id: "r1", title: "Call mom", source: "hooray remind", editable: true),
                    Listed(id: "r2", title: "Read", source: "hooray remind", editable: true),
                ])
            let table = try await fixture.hooray("remind", "list", fakeTime: morning).standardOutput
            let stretchRow = try #require(table.split(separator: "\n").first { $0.hasPrefix("stretch ") })
            #expect(stretchRow.hasSuffix("hooray.toml"))
            for words in [["remind", "edit", "stretch", "--at", "16:00"], ["remind", "remove", "stretch"]] {
                let refused = try await fixture.hooray(arguments: words)
                #expect(refused.status == .exited(1))
                #expect(refused.standardError.contains("stretch is written in hooray.toml, so it is changed there"))
            }

            // A reload and a restart keep them all.
            #expect(try await fixture.hooray("reload").status == .exited(0))
            #expect(Set(try await due().keys) == ["stretch", "r1", "r2"])
            #expect(await daemon.stop() == .exited(0))
            daemon = try await fixture.startDaemon(fakeTime: morning)
            #expect(
                try await due() == [
                    "stretch": HoorayFixture.utc("2026-11-24 15:00:00"), "r1": HoorayFixture.utc("2026-11-24 18:00:00"),
                    "r2": HoorayFixture.utc("2026-11-24 20:00:00"),
                ])

            // Removed, it is gone from the plan.
            let removed = try await fixture.hooray("remind", "remove", "r1")
            #expect(removed.standardOutput == "Removed r1: Call mom.\n")
            #expect(Set(try await due().keys) == ["stretch", "r2"])
            let unknown = try await fixture.hooray("remind", "remove", "r1")
            #expect(unknown.status == .exited(1))
            #expect(unknown.standardError.contains("there is no reminder r1; yours are r2"))
            await daemon.stop()
        }
    }

    @Test func aReminderAddedWithTZInTheShellKeepsItsTimeWhenTheDaemonReloads() async throws {
        try await HoorayFixture.with { fixture in
            let morning = "2026-11-24 10:00:00"
            // hoorayd in UTC (as the service, without TZ); the shell exports TZ=America/New_York.
            let daemon = try await fixture.startDaemon(fakeTime: morning)
            let shell = ["TZ": "America/New_York"]
            let added = try await fixture.hooray(
                "remind", "Call mom", "--at", "18:00", fakeTime: morning, environment: shell)
            #expect(added.status == .exited(0), "\(added.standardError)")
            #expect(added.standardOutput.hasPrefix("Added r1: Call mom, every day at 18:00 — next: today 18:00."))
            // 18:00 in New York, which is 23:00 UTC in November, before and after a reload.
            let evening = HoorayFixture.utc("2026-11-24 23:00:00")
            #expect(try await fixture.nextEntries().first { $0.id == "r1" }?.due == evening)
            let reload = try await fixture.hooray("reload")
            #expect(reload.status == .exited(0), "\(reload.standardError)")
            #expect(await fixture.waitUntilSettled(daemon), "\(daemon.standardError)")
            #expect(try await fixture.nextEntries().first { $0.id == "r1" }?.due == evening)
            // Read in another zone, the list says which zone it keeps.
            let table = try await fixture.hooray("remind", "list", fakeTime: morning).standardOutput
            let row = try #require(table.split(separator: "\n").first { $0.hasPrefix("r1 ") })
            #expect(row.contains("every day at 18:00 (America/New_York)"), "\(table)")
            await daemon.stop()
        }
    }

    @Test func aTitleThatIsACommandWordIsShownTheCommandsFullName() async throws {
        try await HoorayFixture.with { fixture in
            let refused = try await fixture.hooray("remind", "list", "--at", "18:00")
            #expect(refused.status == .exited(64))
            #expect(
                refused.standardError.contains(
                    #"--at belongs to `hooray remind`; for <title> "list", write it in full: hooray reminders add "list" --at 18:00"#
                ), "\(refused.standardError)")
            let removeWord = try await fixture.hooray("remind", "remove", "--in", "20m")
            #expect(removeWord.status == .exited(64))
            #expect(removeWord.standardError.contains(#"hooray reminders add "remove" --in 20m"#))
            let added = try await fixture.hooray("reminders", "add", "list", "--at", "18:00")
            #expect(added.status == .exited(0), "\(added.standardError)")
            #expect(added.standardOutput.hasPrefix("Added r1: list, every day at 18:00"))
        }
    }

    @Test func removingAOneOffHeldForQuietHoursSaysWhenItWillStillBeShown() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig("[delivery]\nquiet_hours = \"22:00-07:30\"\n")
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 22:59:50")
            let added = try await fixture.hooray(
                "remind", "Tea", "--on", "2026-11-23", "--at", "23:00", fakeTime: "2026-11-23 22:59:50")
            #expect(added.status == .exited(0), "\(added.standardError)")
            // It comes due inside the quiet hours and waits in the inbox.
            let held = await pollUntil(timeout: .seconds(40)) { () -> Bool? in
                let inbox = try? await fixture.hooray("inbox", "--json")
                return inbox?.standardOutput.contains("quiet hours until 07:30") == true ? true : nil
            }
            #expect(held == true, "\(daemon.standardError)")
            #expect(try await listed(fixture).isEmpty)

            let removed = try await fixture.hooray("remind", "remove", "r1", fakeTime: "2026-11-23 23:01:00")
            #expect(removed.status == .exited(0), "\(removed.standardError)")
            #expect(
                removed.standardOutput
                    == "Removed r1: Tea. It came due today 23:00 and waits: quiet hours until 07:30 (shown at "
                    + "tomorrow 07:30). That notice will still be shown then; `hooray inbox` has it meanwhile.\n")
            #expect(try server.notifications().isEmpty)
            await daemon.stop()
        }
    }
}
