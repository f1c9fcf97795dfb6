import Foundation
import HooraySystemTesting
import Testing

/// Restarting hoorayd with a drop-in of many reminders: an unchanged file is not read again and its
/// reminders are kept as stored, and anything that changed — the file, a `hooray remind` record,
/// the time zone — is picked up at the next start. Real binaries, libfaketime clocks.
@Suite(.timeLimit(.minutes(4)))
struct UnchangedRestartTests {
    /// What the reminders plugin logs (at debug level) when it kept what it declared before.
    static let keptLine = "kept as stored"

    /// A reminder of the drop-in.
    struct Entry {
        var id: String
        var title: String
        var at: String
    }

    /// Three hundred reminders between 12:00 and 16:59 UTC, every day.
    static let many = (0..<300).map { index in
        Entry(
            id: String(format: "r%03d", index), title: "Reminder \(index)",
            at: String(format: "%02d:%02d", 12 + index / 60, index % 60))
    }

    static func dropInText(_ entries: [Entry]) -> String {
        "# many reminders\n\n"
            + entries.map {
                "[[plugins.reminders.reminder]]\nid = \"\($0.id)\"\ntitle = \"\($0.title)\"\nat = \"\($0.at)\"\n"
            }
            .joined(separator: "\n")
    }

    /// Writes the user's drop-in of reminders and a `hooray.toml` that logs at debug level.
    @discardableResult
    static func writeDropIn(_ text: String, in fixture: HoorayFixture) throws -> String {
        try fixture.writeConfig("[log]\nlevel = \"debug\"\n")
        let folder = fixture.home.appending("config/hooray/conf.d")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/50-many.toml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A start of hoorayd, once the reminders plugin said how many reminders it scheduled.
    struct Start {
        var daemon: ChildProcess
        /// The count in "N reminder(s) scheduled".
        var scheduled: Int?
        /// Whether the plugin kept its reminders as stored.
        var kept: Bool
    }

    static func start(
        _ fixture: HoorayFixture, fakeTime: String, environment: [String: String] = [:]
    ) async throws -> Start {
        let daemon = try await fixture.startDaemon(fakeTime: fakeTime, environment: environment)
        #expect(
            await daemon.waitForOutput(containing: "reminder(s) scheduled", in: .standardError, timeout: .seconds(30)))
        // The note of files of nothing but a list is written off the start's path: the next start
        // finds it only once it is there.
        #expect(
            await daemon.waitForOutput(
                containing: "hold nothing but a list", in: .standardError, timeout: .seconds(30)))
        let log = daemon.standardError
        let line = log.split(separator: "\n").first { $0.contains("reminder(s) scheduled") }
        let count = line.flatMap { line in
            line.components(separatedBy: " reminder(s) scheduled").first?.split(separator: " ").last.flatMap { Int($0) }
        }
        return Start(daemon: daemon, scheduled: count, kept: log.contains(keptLine))
    }

    static func titles(_ fixture: HoorayFixture) async throws -> [String: String] {
        let output = try await fixture.hooray(arguments: ["next", "--json", "--limit", "1000"])
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let entries = try decoder.decode([HoorayFixture.NextEntry].self, from: Data(output.standardOutput.utf8))
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.id, $0.title) })
    }

    static func dues(_ fixture: HoorayFixture) async throws -> [String: Date] {
        let output = try await fixture.hooray(arguments: ["next", "--json", "--limit", "1000"])
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let entries = try decoder.decode([HoorayFixture.NextEntry].self, from: Data(output.standardOutput.utf8))
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.id, $0.due) })
    }

    @Test("A restart with an unchanged drop-in keeps its reminders, and one due soon still comes")
    func anUnchangedDropInIsKeptAndStillFires() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let soon = Entry(id: "soon", title: "Soon", at: "09:01")
            try Self.writeDropIn(Self.dropInText(Self.many + [soon]), in: fixture)

            // Given a first start that read the drop-in and declared its reminders,
            let first = try await Self.start(fixture, fakeTime: "2026-11-24 08:00:00")
            #expect(first.scheduled == 301)
            #expect(!first.kept)
            let planned = try await Self.dues(fixture)
            #expect(planned.count == 301)
            #expect(await first.daemon.stop() == .exited(0))

            // a restart keeps them all as they were planned,
            let again = try await Self.start(fixture, fakeTime: "2026-11-24 09:00:50")
            #expect(again.kept, "\(again.daemon.standardError)")
            #expect(again.scheduled == 301)
            // (All but the one due at 09:01, which a loaded machine may have shown by the time
            // `hooray next` answers, and which is then due again tomorrow: the notice is checked below.)
            let kept = try await Self.dues(fixture)
            #expect(kept.filter { $0.key != soon.id } == planned.filter { $0.key != soon.id })
            #expect(
                kept[soon.id].map { [planned[soon.id], planned[soon.id]?.addingTimeInterval(86_400)].contains($0) }
                    == true)
            #expect(try await Self.titles(fixture)["r123"] == "Reminder 123")
            // and the one due a few seconds later comes.
            let shown = try await server.waitForNotifications(count: 1, timeout: .seconds(30))
            #expect(shown.map(\.summary) == ["Soon"])
            #expect(await again.daemon.stop() == .exited(0))

            // A deleted cache, then a corrupt one, change nothing but the speed.
            let cache = fixture.home.appending(".cache/hooray/config-lists")
            #expect(FileManager.default.fileExists(atPath: cache))
            try FileManager.default.removeItem(atPath: cache)
            let uncached = try await Self.start(fixture, fakeTime: "2026-11-24 09:05:00")
            #expect(!uncached.kept)
            #expect(uncached.scheduled == 301)
            #expect(try await Self.titles(fixture).count == 301)
            #expect(await uncached.daemon.stop() == .exited(0))
            try "hooray config-lists 1 garbage\nnot a line\n".write(toFile: cache, atomically: true, encoding: .utf8)
            let corrupt = try await Self.start(fixture, fakeTime: "2026-11-24 09:06:00")
            #expect(!corrupt.kept)
            #expect(corrupt.scheduled == 301)
            #expect(try await Self.titles(fixture).count == 301)
            #expect(await corrupt.daemon.stop() == .exited(0))
            let healed = try await Self.start(fixture, fakeTime: "2026-11-24 09:07:00")
            #expect(healed.kept, "the cache was written again")
            #expect(healed.scheduled == 301)
            #expect(await healed.daemon.stop() == .exited(0))
        }
    }

    @Test(
        "An edited drop-in, a `hooray remind` made or edited while stopped, another time zone and a core setting in the drop-in are each picked up at the next start"
    )
    func everyChangeIsPickedUpAtTheNextStart() async throws {
        try await HoorayFixture.with { fixture in
            let path = try Self.writeDropIn(Self.dropInText(Self.many), in: fixture)
            let first = try await Self.start(fixture, fakeTime: "2026-11-24 08:00:00")
            #expect(first.scheduled == 300)
            let planned = try await Self.dues(fixture)
            #expect(await first.daemon.stop() == .exited(0))

            // One title edited, one entry removed, one added.
            var edited = Self.many
            edited[5].title = "Edited five"
            edited.remove(at: 10)
            edited.append(Entry(id: "added", title: "Added", at: "11:00"))
            try Self.dropInText(edited).write(toFile: path, atomically: true, encoding: .utf8)
            let changed = try await Self.start(fixture, fakeTime: "2026-11-24 08:10:00")
            #expect(!changed.kept)
            #expect(changed.scheduled == 300)
            let titles = try await Self.titles(fixture)
            #expect(titles["r005"] == "Edited five")
            #expect(titles["r010"] == nil)
            #expect(titles["added"] == "Added")
            #expect(titles.count == 300)
            #expect(await changed.daemon.stop() == .exited(0))

            // Unchanged since: kept.
            let unchanged = try await Self.start(fixture, fakeTime: "2026-11-24 08:20:00")
            #expect(unchanged.kept, "\(unchanged.daemon.standardError)")
            #expect(unchanged.scheduled == 300)
            #expect(await unchanged.daemon.stop() == .exited(0))

            // A reminder added with `hooray remind` while hoorayd is stopped, then edited.
            let tea = try await fixture.hooray("remind", "Tea", "--at", "17:30", fakeTime: "2026-11-24 08:25:00")
            #expect(tea.status == .exited(0), "\(tea.standardError)")
            let withTea = try await Self.start(fixture, fakeTime: "2026-11-24 08:30:00")
            #expect(!withTea.kept)
            #expect(withTea.scheduled == 301)
            #expect(try await Self.titles(fixture)["r1"] == "Tea")
            #expect(await withTea.daemon.stop() == .exited(0))
            let renamed = try await fixture.hooray(
                "remind", "edit", "r1", "--title", "Green tea", fakeTime: "2026-11-24 08:35:00")
            #expect(renamed.status == .exited(0), "\(renamed.standardError)")
            let withGreenTea = try await Self.start(fixture, fakeTime: "2026-11-24 08:40:00")
            #expect(!withGreenTea.kept)
            #expect(try await Self.titles(fixture)["r1"] == "Green tea")
            #expect(await withGreenTea.daemon.stop() == .exited(0))

            // Another time zone: the reminders that follow the computer's zone move.
            let berlin = try await Self.start(
                fixture, fakeTime: "2026-11-24 08:45:00", environment: ["TZ": "Europe/Berlin"])
            #expect(!berlin.kept)
            #expect(berlin.scheduled == 301)
            let moved = try await Self.dues(fixture)
            #expect(
                moved["r000"] == planned["r000"].map { $0.addingTimeInterval(-3600) }, "12:00 in Berlin is 11:00 UTC")
            #expect(await berlin.daemon.stop() == .exited(0))

            // A core setting in the drop-in: the file is read at every start from now on.
            try (Self.dropInText(edited) + "\n[scheduler]\ncatch_up_within = \"2h\"\n").write(
                toFile: path, atomically: true, encoding: .utf8)
            for minute in ["08:50:00", "08:55:00"] {
                let start = try await Self.start(fixture, fakeTime: "2026-11-24 " + minute)
                #expect(!start.kept)
                #expect(start.scheduled == 301)
                #expect(try await Self.titles(fixture)["r005"] == "Edited five")
                #expect(await start.daemon.stop() == .exited(0))
            }
        }
    }

    /// How often the daemon logged `text`, once it logged "configuration reloaded" `reloads` times.
    static func count(_ text: String, in daemon: ChildProcess, afterReloads reloads: Int) async -> Int? {
        await pollUntil(timeout: .seconds(30)) { () -> Int? in
            // The note of files of nothing but a list is written off the start's path: the next start
            // finds it only once it is there.
            #expect(
                await daemon.waitForOutput(
                    containing: "hold nothing but a list", in: .standardError, timeout: .seconds(30)))
            let log = daemon.standardError
            guard log.components(separatedBy: "configuration reloaded").count - 1 >= reloads else { return nil }
            return log.components(separatedBy: text).count - 1
        }
    }

    @Test("A reload after a restart that kept the reminders keeps them again, and picks up an edited drop-in")
    func aReloadStaysRight() async throws {
        try await HoorayFixture.with { fixture in
            let path = try Self.writeDropIn(Self.dropInText(Self.many), in: fixture)
            let first = try await Self.start(fixture, fakeTime: "2026-11-24 08:00:00")
            #expect(await first.daemon.stop() == .exited(0))
            let again = try await Self.start(fixture, fakeTime: "2026-11-24 08:05:00")
            #expect(again.kept)

            #expect(try await fixture.hooray("reload").status == .exited(0))
            #expect(await Self.count(Self.keptLine, in: again.daemon, afterReloads: 1) == 2)
            #expect(try await Self.titles(fixture).count == 300)

            var edited = Self.many
            edited[7].title = "Edited seven"
            try Self.dropInText(edited).write(toFile: path, atomically: true, encoding: .utf8)
            #expect(try await fixture.hooray("reload").status == .exited(0))
            #expect(await Self.count(Self.keptLine, in: again.daemon, afterReloads: 2) == 2, "read and declared")
            #expect(await Self.count("300 reminder(s) scheduled", in: again.daemon, afterReloads: 2) == 3)
            let titles = try await Self.titles(fixture)
            #expect(titles["r007"] == "Edited seven")
            #expect(titles.count == 300)
            #expect(await again.daemon.stop() == .exited(0))
        }
    }
}
