import Foundation
import HooraySystemTesting
import Testing

/// Night Prep and Morning Focus as a user meets them: the real `hoorayd` under libfaketime, a real
/// notification server and real clicks. Issue 15's "Done when": Night Prep at 21:00 and the next
/// Morning Focus at 08:00 showing "From last night:" with the prep items; pressing **I did my swap**
/// records a swap.
@Suite(.timeLimit(.minutes(3)))
struct SwapsRemindersTests {
    /// Both reminders on (the fixture's drop-in turns them off), at their default times.
    static let config = """
        [plugins.swaps]
        night_prep = "21:00"
        morning_focus = "08:00"

        """

    /// A swap as stored, read from the SQLite file by another program.
    struct StoredSwap: Decodable, Equatable {
        let text: String
        let day: String
        let fromPrep: Bool
    }

    /// The swaps in the real database, read-only.
    func storedSwaps(_ fixture: HoorayFixture) async throws -> [StoredSwap] {
        let read = try await ProcessRunner.run(
            "/usr/bin/python3",
            arguments: [
                "-c",
                """
                import sqlite3, sys, json
                db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
                rows = db.execute("SELECT value FROM record WHERE plugin = 'swaps' AND kind = 'swap'").fetchall()
                print(json.dumps([json.loads(row[0]) for row in rows]))
                """,
                fixture.home.appending("data/hooray/hooray.sqlite"),
            ])
        #expect(read.status == .exited(0), "\(read.standardError)")
        return try JSONDecoder().decode([StoredSwap].self, from: Data(read.standardOutput.utf8))
    }

    /// When hoorayd posted the newest notice titled `title`, by its own (faked) clock, from
    /// `hooray inbox --all --json`.
    func postedAt(_ fixture: HoorayFixture, _ title: String) async throws -> Date? {
        struct Posted: Decodable {
            let title: String
            let createdAt: Date
        }
        let inbox = try await fixture.hooray("inbox", "--all", "--json")
        #expect(inbox.status == .exited(0), "\(inbox.standardError)")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([Posted].self, from: Data(inbox.standardOutput.utf8)).first { $0.title == title }?
            .createdAt
    }

    /// When `hooray next --json`, run at `time`, says the swaps reminder `id` is due next.
    func nextDue(_ fixture: HoorayFixture, _ id: String, at time: String) async throws -> Date? {
        struct Entry: Decodable {
            let plugin: String
            let id: String
            let due: Date
        }
        let next = try await fixture.hooray("next", "--json", fakeTime: time)
        #expect(next.status == .exited(0), "\(next.standardError)")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([Entry].self, from: Data(next.standardOutput.utf8))
            .first { $0.plugin == "swaps" && $0.id == id }?.due
    }

    static func instant(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

    @Test func nightPrepThenMorningFocusWithThePrepAndIDidMySwapRecordsIt() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try fixture.writeConfig(Self.config)

            // Monday 15 June 2026, three seconds before 21:00: Night Prep.
            let nightPrep = try await nextDue(fixture, "night-prep", at: "2026-06-15 20:59:50")
            var daemon = try await fixture.startDaemon(fakeTime: "2026-06-15 20:59:50")
            let night = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(20)).last)
            #expect(night.summary == "Prep tonight: what's your swap for tomorrow?")
            // Due at 21:00, and shown then by hoorayd's clock, not when it started ten seconds before.
            #expect(nightPrep == Self.instant("2026-06-15T21:00:00Z"))
            #expect(
                try await postedAt(fixture, night.summary).map { $0 >= Self.instant("2026-06-15T21:00:00Z")! } == true)
            #expect(night.actions.map(\.label) == ["I did my swap", "Prep now", "I need help"])

            // Prepped from the terminal: two swaps for tomorrow.
            let prep = try await fixture.hooray("swap", "prep", "Oatmeal instead of a pastry", "Walk after lunch")
            #expect(prep.status == .exited(0), "\(prep.standardError)")
            #expect(prep.standardOutput.contains("🌙 Prepped for tomorrow, Tue 16 Jun:\n"))
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-06-15 21:00:00"))
            #expect(await daemon.stop() == .exited(0))

            // The next morning, three seconds before 08:00: Morning Focus, "From last night:" and the items.
            let morningFocus = try await nextDue(fixture, "morning-focus", at: "2026-06-16 07:59:57")
            daemon = try await fixture.startDaemon(fakeTime: "2026-06-16 07:59:57")
            let morning = try #require(try await server.waitForNotifications(count: 2, timeout: .seconds(20)).last)
            #expect(morning.summary == "Morning Focus")
            #expect(morningFocus == Self.instant("2026-06-16T08:00:00Z"))
            #expect(
                try await postedAt(fixture, morning.summary).map { $0 >= Self.instant("2026-06-16T08:00:00Z")! } == true
            )
            #expect(morning.body.hasPrefix("From last night:\n• Oatmeal instead of a pastry\n• Walk after lunch\n\n"))
            #expect(morning.actions.map(\.label) == ["Got it", "I need help"])
            #expect(await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-06-16 08:00:00"))
            #expect(await daemon.stop() == .exited(0))

            // That evening's Night Prep names the day's prep; I did my swap, clicked, records it.
            daemon = try await fixture.startDaemon(fakeTime: "2026-06-16 20:59:50")
            let evening = try #require(try await server.waitForNotifications(count: 3, timeout: .seconds(20)).last)
            #expect(evening.summary == "Prep tonight: what's your swap for tomorrow?")
            #expect(evening.body.hasPrefix("Today's prep: Oatmeal instead of a pastry.\n"))
            #expect(try await storedSwaps(fixture).isEmpty)
            try await server.invokeAction(id: evening.id, key: "did-swap")
            let saved = await pollUntil(timeout: .seconds(15)) { () -> [StoredSwap]? in
                let swaps = try? await storedSwaps(fixture)
                return swaps?.isEmpty == false ? swaps : nil
            }
            #expect(saved?.map(\.text) == ["Oatmeal instead of a pastry"])
            #expect(saved?.map(\.day) == ["2026-06-16"])
            #expect(saved?.map(\.fromPrep) == [true])

            // Pressed again from the terminal: said so, exit 1, and still one swap.
            let inbox = try await fixture.hooray("inbox", "--all", "--json")
            let notices = try JSONDecoder().decode(
                [PrintedNotice].self, from: Data(inbox.standardOutput.utf8))
            let notice = try #require(
                notices.filter { $0.title == "Prep tonight: what's your swap for tomorrow?" }.max { $0.id < $1.id })
            let again = try await fixture.hooray("act", String(notice.id), "did-swap")
            #expect(again.status == .exited(1))
            #expect(
                again.standardError.contains(
                    "Your swap for today is already saved: “Oatmeal instead of a pastry”."), "\(again.standardError)")
            #expect(try await storedSwaps(fixture).count == 1)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    /// A notice as `hooray inbox --all --json` prints it.
    struct PrintedNotice: Decodable {
        let id: Int64
        let title: String
    }
}
