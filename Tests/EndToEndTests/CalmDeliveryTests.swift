import Foundation
import HooraySystemTesting
import Testing

/// Quiet hours, digests and "While you were away", with the real `hoorayd` and notification server.
@Suite(.timeLimit(.minutes(3)))
struct CalmDeliveryTests {
    static let five = ["Stretch", "Water", "Read 10 pages", "Night Prep", "Tea"]

    static func reminders(_ titles: [String], at time: String, extra: String = "") -> String {
        titles.map { reminderTOML(title: $0, body: "\($0), gently.", at: time, extra: extra) }.joined()
    }

    static func inboxJSON(_ fixture: HoorayFixture, all: Bool = false) async throws -> [[String: Any]] {
        let output = try await fixture.hooray(arguments: ["inbox", "--json"] + (all ? ["--all"] : []))
        return try #require(
            try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]],
            "\(output.standardOutput)\(output.standardError)")
    }

    @Test func fiveRemindersDueInQuietHoursArriveAsOneDigestWhenTheyEnd() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(
                "[delivery]\nquiet_hours = \"22:00-07:30\"\n\n" + Self.reminders(Self.five, at: "23:00")
                    + reminderTOML(
                        title: "Take the pills", body: "The evening ones.", at: "23:00", extra: "urgency = \"critical\""
                    ))

            // At 23:00, inside the quiet hours: the urgent one is shown at once, the five wait.
            var daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 22:59:57")
            let urgent = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            #expect(urgent.map(\.summary) == ["Take the pills"])
            let held = await pollUntil(timeout: .seconds(20)) { () -> [[String: Any]]? in
                let waiting = (try? await Self.inboxJSON(fixture))?.filter { $0["heldBecause"] is String } ?? []
                return waiting.count == 5 ? waiting : nil
            }
            let waiting = try #require(held, "\(daemon.standardError)")
            #expect(waiting.allSatisfy { ($0["heldBecause"] as? String) == "quiet hours until 07:30" })
            let inbox = try await fixture.hooray("inbox")
            #expect(inbox.standardOutput.contains("Held back: quiet hours until 07:30"))
            // `hooray next` says when they will come.
            let next = try await fixture.hooray("next", fakeTime: "2026-11-23 23:00:30")
            #expect(next.standardOutput.contains("tomorrow 07:30"), "\(next.standardOutput)")
            #expect(next.standardOutput.contains("waiting: quiet hours until 07:30"))
            #expect(try server.notifications().count == 1)

            // The computer sleeps through the night; hoorayd comes back just before the quiet hours end.
            #expect(await daemon.stop() == .exited(0))
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-24 07:29:56")
            let arrived = try await server.waitForNotifications(count: 2, timeout: .seconds(30))
            let digest = try #require(arrived.last)
            // Reminders due at the same instant are listed in the order of their ids.
            #expect(digest.summary == "5 reminders: Night Prep, Read 10 pages, Stretch, Tea, Water")
            #expect(digest.body.contains("quiet hours"))
            // Each of the five is in the inbox with its buttons, as shown in the digest (once hoorayd has
            // heard back from the server, the digest itself leaves the inbox).
            let settled = await pollUntil(timeout: .seconds(20)) { () -> [[String: Any]]? in
                let listed = (try? await Self.inboxJSON(fixture)) ?? []
                return listed.count == 5 ? listed : nil
            }
            let listed = try #require(settled, "the inbox never settled to the five reminders")
            #expect(listed.allSatisfy { ($0["state"] as? String) == "digested" && $0["digest"] is Int })
            let first = try #require(listed.last?["id"] as? Int)
            let pressed = try await fixture.hooray("act", "\(first)", "snooze", fakeTime: "2026-11-24 07:31:00")
            #expect(pressed.status == .exited(0), "\(pressed.standardError)")
            #expect(try await Self.inboxJSON(fixture).count == 4)
            #expect(try server.notifications().count == 2)
            await daemon.stop()
        }
    }

    @Test func fiveDueInTheSameMinuteArriveAsOneDigest() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(Self.reminders(Self.five, at: "15:00"))
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 14:59:57")
            let arrived = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            #expect(arrived.first?.summary == "5 reminders: Night Prep, Read 10 pages, Stretch, Tea, Water")
            #expect(arrived.first?.body.contains("`hooray inbox`") == true)
            // Settled: every reminder planned for tomorrow, and the five listed as shown in the digest.
            let settled = await pollUntil(timeout: .seconds(20)) { () -> Bool? in
                guard let next = try? await fixture.nextEntries(), next.count == 5,
                    next.allSatisfy({ $0.due > HoorayFixture.utc("2026-11-23 15:00:00") }),
                    let inbox = try? await Self.inboxJSON(fixture), inbox.count == 5
                else { return nil }
                return true
            }
            #expect(settled == true, "\(daemon.standardError)")
            #expect(try server.notifications().count == 1)
            let text = try await fixture.hooray("inbox")
            #expect(text.standardOutput.contains("shown in digest #"))
            #expect(text.standardOutput.contains("hooray act"))
            await daemon.stop()
        }
    }

    @Test func threeOrFewerInTheSameMinuteAreShownOneByOne() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(Self.reminders(Array(Self.five.prefix(3)), at: "15:00"))
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 14:59:57")
            let arrived = try await server.waitForNotifications(count: 3, timeout: .seconds(20))
            #expect(Set(arrived.map(\.summary)) == ["Stretch", "Water", "Read 10 pages"])
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-23 15:00:00"))
            #expect(try server.notifications().count == 3)
            await daemon.stop()
        }
    }

    @Test func threeDaysAsleepGiveOneWhileYouWereAwayNotice() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(
                reminderTOML(title: "Stretch", body: "Roll your shoulders.", at: "09:00")
                    + reminderTOML(title: "Water", body: "A glass of water?", at: "21:00"))
            var daemon = try await fixture.startDaemon(fakeTime: "2026-11-20 08:59:57")
            _ = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-20 09:00:00"))
            #expect(await daemon.stop() == .exited(0))

            // Three days later, at noon: three mornings and three evenings passed, all too late to show.
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 12:00:00")
            let arrived = try await server.waitForNotifications(count: 2, timeout: .seconds(20))
            let away = try #require(arrived.last)
            #expect(away.summary == "While you were away")
            #expect(away.body.contains("6 reminders"), "\(away.body)")
            #expect(away.body.contains("Stretch ×3"))
            #expect(away.body.contains("Water ×3"))
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-23 12:00:00"))
            #expect(try server.notifications().count == 2)

            let missed = try await fixture.hooray("missed", "--json", fakeTime: "2026-11-23 12:01:00")
            let entries = try #require(
                try JSONSerialization.jsonObject(with: Data(missed.standardOutput.utf8)) as? [[String: Any]])
            #expect(entries.count == 2)
            let byTitle = Dictionary(uniqueKeysWithValues: entries.map { ($0["title"] as? String ?? "", $0) })
            #expect(byTitle["Stretch"]?["count"] as? Int == 3)
            #expect(byTitle["Stretch"]?["firstDueAt"] as? String == "2026-11-21T09:00:00Z")
            #expect(byTitle["Stretch"]?["lastDueAt"] as? String == "2026-11-23T09:00:00Z")
            #expect(byTitle["Water"]?["count"] as? Int == 3)
            #expect(byTitle["Water"]?["firstDueAt"] as? String == "2026-11-20T21:00:00Z")
            #expect(byTitle["Water"]?["lastDueAt"] as? String == "2026-11-22T21:00:00Z")
            let documented = try #require(try SafeTextTests.documentedKeys()["missed"])
            #expect(entries.allSatisfy { Set($0.keys) == documented })
            let text = try await fixture.hooray("missed", "--days", "30", fakeTime: "2026-11-23 12:01:00")
            #expect(text.standardOutput.contains("Stretch"))
            #expect(text.standardOutput.contains("6 reminders passed while the computer was off or asleep"))

            // A restart tells nothing again.
            #expect(await daemon.stop() == .exited(0))
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 12:05:00")
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-23 12:05:00"))
            #expect(try server.notifications().count == 2)
            await daemon.stop()

            // --days 1 that evening: Water was last missed on the 22nd at 21:00, more than a day ago,
            // and is left out; Stretch, last missed this morning, is listed.
            let day = try await fixture.hooray("missed", "--days", "1", fakeTime: "2026-11-23 21:30:00")
            #expect(day.status == .exited(0), "\(day.standardError)")
            #expect(day.standardOutput.contains("Stretch"), "\(day.standardOutput)")
            #expect(!day.standardOutput.contains("Water"), "\(day.standardOutput)")
            #expect(day.standardOutput.contains("3 reminders passed"), "\(day.standardOutput)")
            let week = try await fixture.hooray("missed", "--days", "2", "--json", fakeTime: "2026-11-23 21:30:00")
            let titles = try #require(
                try JSONSerialization.jsonObject(with: Data(week.standardOutput.utf8)) as? [[String: Any]]
            ).compactMap { $0["title"] as? String }
            #expect(Set(titles) == ["Stretch", "Water"])
        }
    }

    @Test func theAwayNoticeIsNeverFoldedIntoADigestOfCatchUps() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let four = Array(Self.five.prefix(4))
            try fixture.writeConfig(Self.reminders(four, at: "09:00"))
            var daemon = try await fixture.startDaemon(fakeTime: "2026-11-20 08:59:57")
            _ = try await server.waitForNotifications(count: 1, timeout: .seconds(20))
            #expect(await daemon.stop() == .exited(0))

            // Three days later at 10:00: this morning's four are an hour late, still shown (as one
            // digest); the two mornings before are told apart, in a notice of their own.
            daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 10:00:00")
            let arrived = try await server.waitForNotifications(count: 3, timeout: .seconds(20))
            let summaries = arrived.dropFirst().map(\.summary)
            #expect(summaries.contains("4 reminders: Night Prep, Read 10 pages, Stretch, Water"), "\(summaries)")
            let away = try #require(arrived.first { $0.summary == "While you were away" })
            #expect(away.body.hasPrefix("8 reminders passed"), "\(away.body)")
            #expect(
                await daemon.waitForOutput(
                    containing: HoorayFixture.caughtUpLine, in: .standardError, timeout: .seconds(20)))
            let shown = await pollUntil(timeout: .seconds(20)) { () -> Bool? in
                let inbox = (try? await Self.inboxJSON(fixture)) ?? []
                return inbox.count == 4 && inbox.allSatisfy { ($0["state"] as? String) == "digested" } ? true : nil
            }
            #expect(shown == true)
            #expect(try server.notifications().count == 3)
            await daemon.stop()
        }
    }

    @Test func badQuietHoursAndBurstLimitAreRefusedWithTheFix() async throws {
        try await HoorayFixture.with { fixture in
            for (setting, expected) in [
                ("quiet_hours = \"22:00-07:30, 23:00-01:00\"", "overlap"),
                ("quiet_hours = \"22:00 to 07:30\"", "HH:MM-HH:MM"),
                ("quiet_hours = \"07:00-07:00\"", "same time"),
                ("burst_limit = 0", "burst_limit"),
            ] {
                try fixture.writeConfig("[delivery]\n\(setting)\n")
                let check = try await fixture.hooray("config", "check")
                #expect(check.status == .exited(78), "\(setting): \(check.standardOutput)\(check.standardError)")
                let said = check.standardOutput + check.standardError
                #expect(said.contains(expected), "\(setting): \(said)")
                #expect(said.contains("hooray.toml:2:"), "\(setting): \(said)")
            }
        }
    }
}
