import Foundation
import HooraySystemTesting
import Testing

/// Issue 29, item 6: `hooray next` and `hooray bar` read one plan and promise only what will come,
/// and item 11's `habit done` celebration. The real `hoorayd`, a private bus, a notification server
/// (or dunst) and libfaketime clocks.
@Suite(.timeLimit(.minutes(3)))
struct NextAndBarTests {
    /// A row of `hooray next --json`.
    struct Entry: Decodable {
        let title: String
        let due: Date
        let shown: Bool
        let notShownBecause: String?
        let heldBecause: String?
        let heldUntil: Date?
    }

    /// `hooray bar --json`.
    struct PrintedBar: Decodable {
        let text: String
        let tooltip: String
        let `class`: String
    }

    func next(_ fixture: HoorayFixture, _ extra: String..., at time: String? = nil) async throws -> [Entry] {
        let output = try await fixture.hooray(arguments: ["next", "--json"] + extra, fakeTime: time)
        #expect(output.status == .exited(0), "\(output.standardError)")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([Entry].self, from: Data(output.standardOutput.utf8))
    }

    func bar(_ fixture: HoorayFixture, at time: String? = nil) async throws -> PrintedBar {
        let output = try await fixture.hooray(arguments: ["bar", "--json"], fakeTime: time)
        #expect(output.status == .exited(0), "\(output.standardError)")
        return try JSONDecoder().decode(PrintedBar.self, from: Data(output.standardOutput.utf8))
    }

    @Test("Item 6: a habit done today is not listed as coming by next, nor on the bar")
    func aHabitDoneTodayIsNotComing() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-24 10:00:00")
            let added = try await fixture.hooray("habit", "add", "Read", "--remind", "20:00")
            #expect(added.status == .exited(0), "\(added.standardError)")
            #expect(try await next(fixture).contains { $0.title == "Read" })
            #expect(try await bar(fixture).text.contains("⏰ Read 20:00"))

            let done = try await fixture.hooray("habit", "done", "Read")
            #expect(done.status == .exited(0), "\(done.standardError)")
            #expect(try await next(fixture).allSatisfy { $0.title != "Read" })
            let all = try await next(fixture, "--all")
            #expect(all.first { $0.title == "Read" }?.notShownBecause == "done today")
            let table = try await fixture.hooray("next")
            #expect(!table.standardOutput.contains("Read"), "\(table.standardOutput)")
            #expect(try await !bar(fixture).text.contains("Read"))

            // Undone, it is coming again tonight.
            let undo = try await fixture.hooray("habit", "undo", "Read")
            #expect(undo.status == .exited(0), "\(undo.standardError)")
            #expect(try await next(fixture).contains { $0.title == "Read" && $0.shown })
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test("Item 11: habit done from the command line celebrates as the notification's Done button does")
    func habitDoneFromTheCommandLineCelebrates() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-24 10:00:00")
            _ = try await fixture.hooray("habit", "add", "Read")
            let done = try await fixture.hooray("habit", "done", "Read")
            #expect(done.status == .exited(0), "\(done.standardError)")
            #expect(done.standardOutput.hasPrefix("Done: “Read” · 1 day\n"))
            #expect(
                done.standardOutput.split(separator: "\n").count >= 2, "the celebration's line: \(done.standardOutput)")
            let celebration = try #require(try await server.waitForNotifications(count: 1).first)
            #expect(celebration.summary.contains("Read · 1 day"))
            #expect(celebration.category == "hooray.celebration")
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test("Item 6: a reminder due in quiet hours is held until they end, in next and on the bar alike")
    func quietHoursHoldTheReminderInNextAndBar() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            try fixture.writeConfig(
                "[delivery]\nquiet_hours = \"17:30-17:50\"\n\n"
                    + reminderTOML(title: "Stretch", body: "Roll your shoulders.", at: "17:40"))
            // 17:36, in the quiet hours: Stretch is due at 17:40 and shown at 17:50.
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-24 17:36:00")
            let first = try #require(try await next(fixture, at: "2026-11-24 17:36:05").first)
            #expect(first.title == "Stretch")
            #expect(first.due == HoorayFixture.utc("2026-11-24 17:50:00"))
            #expect(first.heldUntil == HoorayFixture.utc("2026-11-24 17:50:00"))
            #expect(first.heldBecause == "quiet hours until 17:50")
            let table = try await fixture.hooray("next", fakeTime: "2026-11-24 17:36:05")
            #expect(table.standardOutput.contains("today 17:50"), "\(table.standardOutput)")
            #expect(table.standardOutput.contains("held until 17:50 (quiet hours)"), "\(table.standardOutput)")

            // The bar says the same time, and is quiet rather than due soon.
            let line = try await bar(fixture, at: "2026-11-24 17:36:05")
            #expect(line.text.contains("⏰ Stretch 17:50"), "\(line.text)")
            #expect(line.class == "quiet")
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test("Item 6: while do-not-disturb is on, next says a reminder is held and the bar is not due-soon")
    func doNotDisturbHoldsTheReminder() async throws {
        try await HoorayFixture.with { fixture in
            let dunst = try await DunstServer(busAddress: fixture.bus.address)
            try await dunst.control("set-paused", "true")
            try fixture.writeConfig(reminderTOML(title: "Stretch", body: "Roll your shoulders.", at: "15:00"))
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 14:59:57")
            // Once due, it waits in the inbox for do-not-disturb to end:
            let waiting = await pollUntil(timeout: .seconds(20), interval: .milliseconds(100)) { () -> String? in
                let inbox = (try? await fixture.hooray("inbox").standardOutput) ?? ""
                return inbox.contains("Stretch") && inbox.lowercased().contains("do not disturb") ? inbox : nil
            }
            #expect(waiting != nil, "\(daemon.standardError)")
            // next lists it as held, not gone,
            let held = try #require(try await next(fixture).first { $0.title == "Stretch" })
            #expect(held.heldBecause?.contains("do not disturb") == true)
            let table = try await fixture.hooray("next")
            #expect(table.standardOutput.contains("held"), "\(table.standardOutput)")
            // and the bar shows it waiting, without the due-soon class.
            let line = try await bar(fixture)
            #expect(line.text.contains("Stretch"), "\(line.text)")
            #expect(line.class == "quiet")
            #expect(line.tooltip.contains("do not disturb"))
            #expect(await daemon.stop() == .exited(0))
            await dunst.stop()
        }
    }
}
