import Foundation
import HooraySystemTesting
import Testing

/// Log a moment's details (a note, a time back, photos), what the window does with values hoorayd
/// cannot keep, Journey and the search of Moments: driven through the accessibility tree as in
/// DesktopAppTests, against a real hoorayd.
// The limit guards against a hang; the windows are slow to start on a loaded machine.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct DesktopAppLogTests {
    /// A moment as `hooray moments --json` lists it, with its details.
    struct Listed: Decodable {
        var text: String
        var note: String?
        var photos: [String]
        var happenedAt: Date
        var submittedAt: Date
    }

    static func moments(_ fixture: HoorayFixture) async throws -> [Listed] {
        let listing = try await fixture.hooray("moments", "--json")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([Listed].self, from: Data(listing.standardOutput.utf8))
    }

    /// The first bytes of a PNG file: all hoorayd reads of a photo is that it is one.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]

    @Test("A moment logged with a note, a time two hours back and a photo keeps all three")
    func aMomentKeepsItsNoteTimeAndPhoto() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let photo = fixture.home.appending("park.png")
            try Data(Self.png).write(to: URL(fileURLWithPath: photo))
            let (seen, context) = try await DesktopAppTests.drive(
                fixture, ["details", "Walked to the park", "Sunny and quiet", photo])
            let moments = try await Self.moments(fixture)
            await daemon.stop()
            await server.stop()
            let labels = seen.detailsLabels ?? []
            #expect(labels.contains("⏱ Happened 2 hours ago") && labels.contains("park.png"), "\(context)")
            let moment = try #require(moments.first, "\(context)")
            #expect(moments.count == 1 && moment.text == "Walked to the park", "\(moments)")
            #expect(moment.note == "Sunny and quiet")
            #expect(moment.photos == [photo])
            let back = moment.submittedAt.timeIntervalSince(moment.happenedAt)
            #expect(abs(back - 7200) < 90, "happened \(back) s before it was logged")
        }
    }

    @Test("A time further back than a moment may be is named in the sheet, and Done waits until it is fixed")
    func anImpossibleTimeIsNamedInTheSheet() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let (seen, context) = try await DesktopAppTests.drive(fixture, ["bad-time"])
            await daemon.stop()
            await server.stop()
            let problem = (seen.timeProblemLabels ?? []).first { $0.hasPrefix("That's more than 366 days ago.") }
            #expect(problem?.contains("choose a smaller number") == true, "\(context)")
            let after = seen.detailsLabels ?? []
            #expect(after.contains("⏱ Happened 5 minutes ago"), "\(context)")
            #expect(!after.contains("When did it happen?"), "Done closed the sheet: \(context)")
        }
    }

    @Test("A photo that is no image is named under Photos, the words stay, and the moment saves without it")
    func aPhotoThatIsNoImageIsNamedUnderPhotos() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let notes = fixture.home.appending("notes.jpg")
            try "just words, named like a photo\n".write(toFile: notes, atomically: true, encoding: .utf8)
            let (seen, context) = try await DesktopAppTests.drive(fixture, ["bad-photo", "Sorted my papers", notes])
            let moments = try await Self.moments(fixture)
            await daemon.stop()
            await server.stop()
            let problem = (seen.photoProblemLabels ?? []).first { $0.contains("not an image") }
            #expect(problem?.hasPrefix("\(notes) is a text file, not an image") == true, "\(context)")
            #expect(problem?.contains("give a PNG, JPEG") == true, "the fix is named: \(context)")
            #expect(seen.kept == "Sorted my papers", "what was typed stays: \(context)")
            #expect(moments.map(\.text) == ["Sorted my papers"], "\(moments)")
            #expect(moments.first?.photos == [])
        }
    }

    @Test("Journey shows a card for each day with moments: its mood, its count, its moments and a summary")
    func journeyShowsTheDays() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            for win in [["Cooked dinner", "--ago", "1d", "--mood", "proud"], ["Took a short walk"]] {
                let output = try await fixture.hooray(arguments: ["win"] + win)
                #expect(output.status == .exited(0), "\(output.standardError)")
            }
            let (seen, context) = try await DesktopAppTests.drive(fixture, ["journey"])
            await daemon.stop()
            await server.stop()
            let labels = seen.journeyLabels ?? []
            #expect(labels.contains("Your journey") && labels.contains("Tiny steps, day by day."), "\(context)")
            #expect(labels.contains("Yesterday 💪 Proud day"), "\(context)")
            #expect(labels.contains("Today 🌱 Gentle day"), "\(context)")
            #expect(labels.filter { $0 == "1 moment logged" }.count == 2, "\(context)")
            #expect(labels.contains("• Cooked dinner") && labels.contains("• Took a short walk"), "\(context)")
            #expect(labels.filter { $0.hasPrefix("Summary: “") }.count == 2, "\(context)")
        }
    }

    @Test("Ctrl+F searches the moments: those whose words match are listed, and none says so")
    func controlFSearchesTheMoments() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            for win in ["Took a short walk", "Called a friend"] {
                let output = try await fixture.hooray("win", win)
                #expect(output.status == .exited(0), "\(output.standardError)")
            }
            let (seen, context) = try await DesktopAppTests.drive(fixture, ["search", "WALK", "zebra"])
            await daemon.stop()
            await server.stop()
            let found = seen.searchLabels ?? []
            #expect(found.contains("Took a short walk") && !found.contains("Called a friend"), "\(context)")
            #expect((seen.noMatchLabels ?? []).contains("No moments match “zebra”"), "\(context)")
        }
    }

    @Test("With a translation for the user's language (gettext), the window speaks it")
    func theWindowSpeaksTheUsersLanguage() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let locale = fixture.home.appending("locale")
            try FileManager.default.createDirectory(
                atPath: locale + "/de/LC_MESSAGES", withIntermediateDirectories: true)
            let po = URL(fileURLWithPath: DesktopAppTests.script).deletingLastPathComponent().appendingPathComponent(
                "de.po")
            let compiled = try await ProcessRunner.run(
                "msgfmt", arguments: ["--check", "-o", locale + "/de/LC_MESSAGES/hooray.mo", po.path],
                timeout: .seconds(30))
            try #require(compiled.status.isSuccess, "\(compiled.standardError)")
            let (seen, context) = try await DesktopAppTests.drive(
                fixture, ["translated", "Ich hab was geschafft", "Momente"],
                environment: ["HOORAY_LOCALE_DIR": locale, "LANGUAGE": "de", "LANG": "C.UTF-8"])
            await daemon.stop()
            await server.stop()
            let labels = seen.translatedLabels ?? []
            #expect(
                labels.contains("Tippe, um festzuhalten, was du geschafft hast. Groß oder klein, es zählt."),
                "\(context)")
            #expect(!labels.contains("Tap to log something you did. Big or small, it counts."), "\(context)")
            // A text with no translation yet is shown as written.
            #expect(labels.contains("Journey"), "\(context)")
        }
    }

    @Test("Every control on every screen has a name a screen reader can say")
    func everyControlIsNamed() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            for step in [["win", "Took a short walk", "--mood", "calm"], ["habit", "add", "Stretch"]] {
                let output = try await fixture.hooray(arguments: step)
                #expect(output.status == .exited(0), "\(step): \(output.standardError)")
            }
            let (seen, context) = try await DesktopAppTests.drive(fixture, ["unnamed"])
            await daemon.stop()
            await server.stop()
            #expect(
                seen.visited == [
                    "Home", "Moments", "Journey", "Habits", "Today", "Recovery", "Log a moment", "When did it happen?",
                ],
                "\(context)")
            #expect(seen.unnamed == [], "\(context)")
        }
    }

    @Test("In a window 360 px wide, every control of Home, each view and Log a moment fits across it")
    func aNarrowWindowFitsEveryControl() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            for step in [
                ["win", "Replied to the email about the boiler, at last", "--mood", "relieved"],
                ["habit", "add", "Read ten pages of the library book"],
            ] {
                let output = try await fixture.hooray(arguments: step)
                #expect(output.status == .exited(0), "\(step): \(output.standardError)")
            }
            let (seen, context) = try await DesktopAppTests.drive(fixture, ["narrow", "360"])
            await daemon.stop()
            await server.stop()
            #expect(seen.frameWidth == 360, "\(context)")
            #expect(
                seen.visited == ["Home", "Moments", "Journey", "Habits", "Today", "Recovery", "Log a moment"],
                "\(context)")
            #expect(seen.overflowing == [], "\(context)")
            // The controls were there to measure: the bottom switcher's tabs, each view's buttons, Log's fields.
            let measured = seen.measured ?? []
            for control in [
                "Home: push button 'I Did a Thing'", "Home: page tab 'Habits'",
                "Moments: push button 'Delete “Replied to the email about the boiler, at last”'",
                "Habits: push button 'Done today: Read ten pages of the library book'",
                "Log a moment: text 'Note'", "Log a moment: push button 'Save this moment'",
            ] {
                #expect(measured.contains(control), "\(control) measured: \(context)")
            }
        }
    }
}
