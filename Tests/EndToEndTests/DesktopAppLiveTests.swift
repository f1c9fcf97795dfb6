import Foundation
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
