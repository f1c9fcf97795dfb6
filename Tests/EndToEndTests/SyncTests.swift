import Foundation
import HooraySystemTesting
import Testing

/// Sync between two computers, each with its own home, session bus and `hoorayd`, through one folder
/// they share (here the same directory; Syncthing between two folders is the next step's test).
@Suite(.timeLimit(.minutes(5)))
struct SyncTests {
    /// A folder both computers reach, removed at the end.
    static func sharedFolder() throws -> (String, () -> Void) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-sync-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return (path, { try? FileManager.default.removeItem(atPath: path) })
    }

    /// The pairing phrase in what `hooray sync setup` printed.
    static func phrase(in output: String) -> String? {
        guard let range = output.range(of: "Pairing phrase: ") else { return nil }
        return output[range.upperBound...].split(separator: "\n").first.map(String.init)
    }

    /// One clock for every computer of a test, run on from noon on a Wednesday (UTC) when the test
    /// began, so that a habit's evening reminder is still to come: each hoorayd is offset by the same
    /// seconds, and the order of edits is the order they were made in.
    /// (1_795_608_000 is 2026-11-25 12:00:00 UTC.)
    static let noon = HoorayFixture.fakeTimeVariables(offsetTo: Date(timeIntervalSince1970: 1_795_608_000))

    @Test func aReminderOnScreenIsWithdrawnWhenTheOtherComputerDidTheHabit() async throws {
        let (folder, cleanUp) = try Self.sharedFolder()
        defer { cleanUp() }
        try await HoorayFixture.with { laptop in
            try await HoorayFixture.with { desktop in
                _ = try await laptop.startServer()
                let desktopScreen = try await desktop.startServer()
                // 19:59:15 on both: the habit's 20:00 reminder comes due 45 s from now.
                let clock = HoorayFixture.fakeTimeVariables(
                    offsetTo: Date(timeIntervalSince1970: 1_795_608_000 + 8 * 3_600 - 45))
                let onLaptop = try await laptop.startDaemon(environment: clock)
                let onDesktop = try await desktop.startDaemon(environment: clock)
                let first = try await laptop.hooray("sync", "setup", folder)
                let phrase = try #require(Self.phrase(in: first.standardOutput), "\(first.standardOutput)")
                let second = try await desktop.hooray(
                    arguments: ["sync", "setup", folder, "--phrase", "-"], input: phrase + "\n")
                #expect(second.status == .exited(0), "\(second.standardError)")
                let added = try await laptop.hooray("habit", "add", "Read 10 pages", "--remind", "20:00")
                #expect(added.status == .exited(0), "\(added.standardError)")

                // At 20:00 the desktop shows the reminder, planned from the habit that arrived.
                let shown = await pollUntil(timeout: .seconds(90)) { () -> RecordedNotification? in
                    try? desktopScreen.notifications().first { $0.summary == "Read 10 pages" }
                }
                let reminder = try #require(shown, "\(onDesktop.standardError)")
                #expect(try desktopScreen.closeRequests().isEmpty)

                // Done on the laptop: the desktop takes its reminder off the screen.
                let done = try await laptop.hooray("habit", "done", "Read 10 pages")
                #expect(done.status == .exited(0), "\(done.standardError)")
                let withdrawn = await pollUntil(timeout: .seconds(30)) { () -> Bool? in
                    (try? desktopScreen.closeRequests())?.contains(reminder.id) == true ? true : nil
                }
                #expect(withdrawn == true, "\(onDesktop.standardError)")
                await onLaptop.stop()
                await onDesktop.stop()
            }
        }
    }

    /// What `hooray export` prints on each computer.
    static func exports(_ fixtures: [HoorayFixture]) async -> [String] {
        var printed: [String] = []
        for fixture in fixtures { printed.append((try? await fixture.hooray("export"))?.standardOutput ?? "") }
        return printed
    }

    @Test func aWinAndAHabitLoggedOnOneComputerAppearOnTheOtherAndAThirdCatchesUp() async throws {
        let (folder, cleanUp) = try Self.sharedFolder()
        defer { cleanUp() }
        try await HoorayFixture.with { laptop in
            try await HoorayFixture.with { desktop in
                _ = try await laptop.startServer()
                _ = try await desktop.startServer()
                // The laptop compacts after three segments: the third computer joins from its snapshot.
                let onLaptop = try await laptop.startDaemon(
                    environment: Self.noon.merging(["HOORAY_SYNC_COMPACT_AFTER": "3"]) { $1 })
                let onDesktop = try await desktop.startDaemon(environment: Self.noon)
                let logged = try await laptop.hooray("win", "Logged before sync")
                #expect(logged.status == .exited(0), "\(logged.standardError)")

                let first = try await laptop.hooray("sync", "setup", folder)
                #expect(first.status == .exited(0), "\(first.standardError)\(onLaptop.standardError)")
                #expect(first.standardOutput.hasPrefix("Sync is on through \(folder)."), "\(first.standardOutput)")
                let phrase = try #require(Self.phrase(in: first.standardOutput), "\(first.standardOutput)")

                // A phrase typed wrong is refused, and nothing is set up.
                var typo = Array(phrase)
                typo[2] = typo[2] == "A" ? "B" : "A"
                let refused = try await desktop.hooray("sync", "setup", folder, "--phrase", String(typo))
                #expect(refused.status == .exited(64))
                #expect(refused.standardError.contains("the phrase has a typo"), "\(refused.standardError)")
                // Without a phrase, a folder set up by another computer is not taken over.
                let without = try await desktop.hooray("sync", "setup", folder)
                #expect(without.status == .exited(64))
                #expect(without.standardError.contains("--phrase"), "\(without.standardError)")

                // Given on standard input, lowercase: the phrase stays out of the process list.
                let second = try await desktop.hooray(
                    arguments: ["sync", "setup", folder, "--phrase", "-"], input: phrase.lowercased() + "\n")
                #expect(second.status == .exited(0), "\(second.standardError)\(onDesktop.standardError)")
                #expect(!second.standardOutput.contains("Pairing phrase"), "\(second.standardOutput)")

                // What was logged before sync, and a win logged now, reach the desktop.
                let now = try await laptop.hooray("win", "Took a walk")
                #expect(now.status == .exited(0), "\(now.standardError)")
                let arrived = await pollUntil(timeout: .seconds(30)) { () -> [String]? in
                    let texts = (try? await desktop.momentTexts()) ?? []
                    return texts.count == 2 ? texts : nil
                }
                #expect(Set(arrived ?? []) == ["Logged before sync", "Took a walk"], "\(onDesktop.standardError)")

                // A habit made on the desktop, with its evening reminder, is reminded on the laptop too.
                let added = try await desktop.hooray("habit", "add", "Read 10 pages", "--remind", "20:00")
                #expect(added.status == .exited(0), "\(added.standardError)")
                #expect(try await desktop.nextEntries().contains { $0.title == "Read 10 pages" })
                let known = await pollUntil(timeout: .seconds(30)) { () -> Bool? in
                    let planned = (try? await laptop.nextEntries())?.contains { $0.title == "Read 10 pages" } == true
                    return (try? await laptop.habitStates().first?.today) == "due" && planned ? true : nil
                }
                #expect(known == true, "\(onLaptop.standardError)")
                let ticked = try await laptop.hooray("habit", "done", "Read 10 pages")
                #expect(ticked.status == .exited(0), "\(ticked.standardError)")
                let done = await pollUntil(timeout: .seconds(30)) { () -> Bool? in
                    (try? await desktop.habitStates().first?.today) == "done" ? true : nil
                }
                #expect(done == true, "\(onDesktop.standardError)")
                // Done on the laptop: the desktop's reminder for it this evening is not to come.
                let held = await pollUntil(timeout: .seconds(30)) { () -> Bool? in
                    (try? await desktop.nextEntries())?.contains { $0.title == "Read 10 pages" } == false ? true : nil
                }
                let stillListed = (try? await desktop.nextEntries().map(\.title)) ?? []
                #expect(held == true, "\(stillListed)")

                // The laptop wrote a snapshot in place of its first segments.
                let compacted = await pollUntil(timeout: .seconds(30)) { () -> [String]? in
                    let files = FileManager.default.enumerator(atPath: folder)?.allObjects.compactMap { $0 as? String }
                    let snapshots = (files ?? []).filter { $0.hasSuffix(".snap") }
                    return snapshots.isEmpty ? nil : snapshots
                }
                #expect(compacted != nil, "\(onLaptop.standardError)")
                let laptopFolder = folder + "/" + (compacted?.first?.split(separator: "/").first.map(String.init) ?? "")
                let laptopFiles = try FileManager.default.contentsOfDirectory(atPath: laptopFolder)
                #expect(laptopFiles.filter { $0.hasSuffix(".seg") }.count < 3, "\(laptopFiles)")

                // A third computer joins late with the phrase and reaches the same data; the
                // others receive what it had.
                try await HoorayFixture.with { late in
                    _ = try await late.startServer()
                    let onLate = try await late.startDaemon(environment: Self.noon)
                    #expect(try await late.hooray("win", "Logged on the third").status == .exited(0))
                    let joined = try await late.hooray(
                        arguments: ["sync", "setup", folder, "--phrase", "-"], input: phrase + "\n")
                    #expect(joined.status == .exited(0), "\(joined.standardError)\(onLate.standardError)")
                    let same = await pollUntil(timeout: .seconds(30)) { () -> Bool? in
                        let printed = await Self.exports([laptop, desktop, late])
                        return Set(printed).count == 1 && printed[0].contains("Logged on the third") ? true : nil
                    }
                    #expect(same == true, "\(onLate.standardError)")
                    let lateHabit = try? await late.habitStates().first?.today
                    #expect(lateHabit == "done")
                    await onLate.stop()
                }

                // delete-my-data on the laptop deletes on the desktop too, and the laptop's segments
                // give way to a snapshot without the words.
                let wiped = try await laptop.hooray("delete-my-data", "--yes")
                #expect(wiped.status == .exited(0), "\(wiped.standardError)")
                #expect(wiped.standardOutput.contains("Your other computers delete it too"), "\(wiped.standardOutput)")
                let gone = await pollUntil(timeout: .seconds(30)) { () -> Bool? in
                    let texts = (try? await desktop.momentTexts()) ?? ["?"]
                    let files = (try? FileManager.default.contentsOfDirectory(atPath: laptopFolder)) ?? []
                    return texts.isEmpty && !files.isEmpty && files.allSatisfy { $0.hasSuffix(".snap") } ? true : nil
                }
                let laptopLeft = (try? FileManager.default.contentsOfDirectory(atPath: laptopFolder)) ?? []
                #expect(gone == true, "\(laptopLeft) \(onLaptop.standardError)")

                let status = try await desktop.hooray("sync", "status", "--json")
                #expect(status.status == .exited(0))
                #expect(status.standardOutput.contains("\"folder_present\" : true"), "\(status.standardOutput)")
                #expect(status.standardOutput.contains("\"peers\" : ["), "\(status.standardOutput)")
                await onLaptop.stop()
                await onDesktop.stop()
            }
        }
    }

    static let pair = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/sync/syncthing_pair.py").path

    /// The moments as `hooray moments --json` lists them: id and text.
    static func moments(_ fixture: HoorayFixture) async throws -> [(id: String, text: String)] {
        let output = try await fixture.hooray("moments", "--json")
        let listed = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]] ?? []
        return listed.compactMap { moment in
            guard let id = moment["id"] as? String, let text = moment["text"] as? String else { return nil }
            return (id, text)
        }
    }

    @Test func twoComputersThroughRealSyncthingEndWithTheSameDataAfterEditingOffline() async throws {
        let (work, cleanUp) = try Self.sharedFolder()
        defer { cleanUp() }
        let (laptopFolder, desktopFolder) = (work + "/laptop-sync", work + "/desktop-sync")
        for folder in [laptopFolder, desktopFolder, work + "/syncthing"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try await HoorayFixture.with { laptop in
            try await HoorayFixture.with { desktop in
                let syncthing = try ChildProcess(
                    "/usr/bin/python3", arguments: [Self.pair, work + "/syncthing", laptopFolder, desktopFolder],
                    environment: laptop.environment(withoutBus: true), keepsStandardInputOpen: true)
                let linked = await syncthing.waitForOutput(
                    containing: "ready", in: .standardOutput, timeout: .seconds(90))
                #expect(linked, "\(syncthing.standardError)")
                _ = try await laptop.startServer()
                _ = try await desktop.startServer()
                let onLaptop = try await laptop.startDaemon(environment: Self.noon)
                let onDesktop = try await desktop.startDaemon(environment: Self.noon)

                let first = try await laptop.hooray("sync", "setup", laptopFolder)
                #expect(first.status == .exited(0), "\(first.standardError)")
                let phrase = try #require(Self.phrase(in: first.standardOutput))
                // Syncthing brings the folder's marker over; then the desktop joins.
                let marker = await pollUntil(timeout: .seconds(60)) { () -> Bool? in
                    FileManager.default.fileExists(atPath: desktopFolder + "/hooray-sync.json") ? true : nil
                }
                #expect(marker == true, "\(syncthing.standardError)")
                let second = try await desktop.hooray("sync", "setup", desktopFolder, "--phrase", phrase)
                #expect(second.status == .exited(0), "\(second.standardError)")

                // A habit added on the laptop with its evening reminder is reminded on the desktop too.
                let added = try await laptop.hooray("habit", "add", "Read 10 pages", "--remind", "20:00")
                #expect(added.status == .exited(0), "\(added.standardError)")
                let planned = await pollUntil(timeout: .seconds(60)) { () -> Bool? in
                    (try? await desktop.nextEntries())?.contains { $0.title == "Read 10 pages" } == true ? true : nil
                }
                #expect(planned == true, "\(onDesktop.standardError)")

                // A win logged and the habit ticked on the laptop reach the desktop.
                #expect(try await laptop.hooray("win", "Took a walk").status == .exited(0))
                #expect(try await laptop.hooray("win", "Drank water").status == .exited(0))
                #expect(try await laptop.hooray("habit", "done", "Read 10 pages").status == .exited(0))
                let arrived = await pollUntil(timeout: .seconds(60)) { () -> Bool? in
                    let texts = Set(((try? await Self.moments(desktop)) ?? []).map(\.text))
                    let done = (try? await desktop.habitStates().first?.today) == "done"
                    return texts == ["Took a walk", "Drank water"] && done ? true : nil
                }
                #expect(arrived == true, "\(onDesktop.standardError)")
                // Done on the laptop: the desktop's reminder for it this evening is not to come.
                let held = await pollUntil(timeout: .seconds(30)) { () -> Bool? in
                    (try? await desktop.nextEntries())?.contains { $0.title == "Read 10 pages" } == false ? true : nil
                }
                #expect(held == true, "\(onDesktop.standardError)")

                // The link goes down; both edit the same moment, the desktop last.
                try syncthing.write(toStandardInput: "pause\n")
                #expect(await syncthing.waitForOutput(containing: "paused", in: .standardOutput, timeout: .seconds(60)))
                let walk = try #require(try await Self.moments(laptop).first { $0.text == "Took a walk" }?.id)
                let water = try #require(try await Self.moments(laptop).first { $0.text == "Drank water" }?.id)
                let edited = try await laptop.hooray("moments", "edit", walk, "--text", "Took a long walk")
                #expect(edited.status == .exited(0), "\(edited.standardError)")
                try await Task.sleep(for: .milliseconds(50))
                let other = try await desktop.hooray("moments", "edit", walk, "--text", "Took a walk in the park")
                #expect(other.status == .exited(0), "\(other.standardError)")
                // And the laptop deletes the other one.
                #expect(try await laptop.hooray("moments", "delete", water, "--yes").status == .exited(0))

                try syncthing.write(toStandardInput: "resume\n")
                #expect(
                    await syncthing.waitForOutput(containing: "resumed", in: .standardOutput, timeout: .seconds(60)))
                let merged = await pollUntil(timeout: .seconds(60)) { () -> Bool? in
                    let here = ((try? await Self.moments(laptop)) ?? []).map(\.text)
                    let there = ((try? await Self.moments(desktop)) ?? []).map(\.text)
                    return here == ["Took a walk in the park"] && there == here ? true : nil
                }
                #expect(merged == true, "laptop: \(onLaptop.standardError)\ndesktop: \(onDesktop.standardError)")

                // Byte for byte, the two computers hold the same data.
                let laptopExport = try await laptop.hooray("export")
                let desktopExport = try await desktop.hooray("export")
                #expect(laptopExport.status == .exited(0) && desktopExport.status == .exited(0))
                #expect(laptopExport.standardOutput == desktopExport.standardOutput)
                try syncthing.write(toStandardInput: "quit\n")
                _ = await syncthing.waitForExit(timeout: .seconds(30))
                await onLaptop.stop()
                await onDesktop.stop()
            }
        }
    }
}
