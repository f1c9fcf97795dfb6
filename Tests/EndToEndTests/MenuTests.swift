import Foundation
import HooraySystemTesting
import Testing

/// `hooray menu` end to end: the real rofi under Xvfb in script mode, rofi's protocol turn by turn,
/// and a dmenu-style menu, each against the real `hoorayd`.
@Suite(.timeLimit(.minutes(5)))
struct MenuTests {

    /// The environment rofi runs `hooray menu` in: the fixture's, with the built `hooray` first on PATH.
    func menuEnvironment(_ fixture: HoorayFixture, _ extra: [String: String] = [:]) -> ProcessEnvironment {
        let path = HoorayFixture.binDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return fixture.environment(overriding: ["PATH": path].merging(extra) { _, new in new })
    }

    @Test func realRofiLogsAWinTypedAndTicksAHabitPicked() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            let added = try await fixture.hooray("habit", "add", "Stretch")
            #expect(added.status == .exited(0), "\(added.standardError)")
            let daemon = try await fixture.startDaemon()
            let display = try await XvfbDisplay()
            let environment = menuEnvironment(fixture, ["DISPLAY": display.name])

            // A habit picked: the filter leaves one row, which rofi chooses by itself.
            let picked = try await ProcessRunner.run(
                "rofi",
                arguments: [
                    "-show", "hooray", "-modi", "hooray:hooray menu --", "-filter", "Done today: Stretch",
                    "-auto-select",
                ],
                environment: environment, timeout: .seconds(60))
            #expect(picked.status == .exited(0), "\(picked.standardError)")
            #expect(try await fixture.habitStates().map(\.today) == ["done"])

            // A win typed: rofi has the words, and Enter hands them to `hooray menu`.
            let rofi = try ChildProcess(
                "/usr/bin/rofi",
                arguments: ["-show", "hooray", "-modi", "hooray:hooray menu --", "-filter", "win took a walk"],
                environment: environment)
            let shown = try await ProcessRunner.run(
                "xdotool", arguments: ["search", "--sync", "--onlyvisible", "--class", "rofi"],
                environment: environment,
                timeout: .seconds(30))
            #expect(shown.status == .exited(0), "rofi's window did not appear: \(shown.standardError)")
            let pressed = try await ProcessRunner.run(
                "xdotool", arguments: ["key", "Return"], environment: environment, timeout: .seconds(30))
            #expect(pressed.status == .exited(0), "\(pressed.standardError)")
            let ended = await rofi.waitForExit(timeout: .seconds(30))
            #expect(ended == .exited(0), "\(rofi.standardError)")
            #expect(try await fixture.momentTexts() == ["took a walk"])
            await display.stop()
            await daemon.stop()
        }
    }

    @Test func rofisScriptModeListsTheDueHabitsAndSaysWhatWentWrong() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            for name in ["Read 10 pages", "Run"] {
                let added = try await fixture.hooray("habit", "add", name)
                #expect(added.status == .exited(0), "\(added.standardError)")
            }
            let daemon = try await fixture.startDaemon()

            let first = try await fixture.hooray("menu", environment: ["ROFI_RETV": "0"])
            #expect(first.status == .exited(0), "\(first.standardError)")
            let rows = first.standardOutput.split(separator: "\n").map(String.init)
            #expect(rows.contains("Done today: Read 10 pages\0info\u{1F}habit:Read 10 pages"), "\(rows)")
            #expect(rows.contains("Done today: Run\0info\u{1F}habit:Run"), "\(rows)")
            #expect(rows.first == "\0prompt\u{1F}Hooray")

            // Typed words that fit no offer: the message says how to start, and the rows stay.
            let nothing = try await fixture.hooray("menu", "took a walk", environment: ["ROFI_RETV": "2"])
            #expect(nothing.status == .exited(0))
            #expect(nothing.standardOutput.contains("\0message\u{1F}Nothing matches “took a walk”: start with “win”"))
            #expect(try await fixture.momentTexts().isEmpty)

            // "habits" alone asks which; words that look like an option are words.
            let bare = try await fixture.hooray("menu", "--", "habits", environment: ["ROFI_RETV": "2"])
            #expect(bare.standardOutput.contains("\0message\u{1F}Which one?"))
            #expect(try await fixture.habitStates().map(\.today) == ["due", "due"])
            let option = try await fixture.hooray("menu", "--", "--help", environment: ["ROFI_RETV": "2"])
            #expect(option.status == .exited(0))
            #expect(option.standardOutput.contains("Nothing matches “--help”"))

            // A row chosen whose habit was deleted meanwhile: said in rofi, nothing done.
            let deleted = try await fixture.hooray("habit", "delete", "Run", "--yes")
            #expect(deleted.status == .exited(0), "\(deleted.standardError)")
            let gone = try await fixture.hooray(
                "menu", "Done today: Run", environment: ["ROFI_RETV": "1", "ROFI_INFO": "habit:Run"])
            #expect(
                gone.standardOutput.contains("\0message\u{1F}Not done: there is no habit \"Run\""),
                "\(gone.standardOutput.replacing("\0", with: "␀"))")

            // A reply of only spaces logs nothing.
            let spaces = try await fixture.hooray("menu", "win    ", environment: ["ROFI_RETV": "2"])
            #expect(spaces.standardOutput.contains("Type what you did after “win”"))
            #expect(try await fixture.momentTexts().isEmpty)
            await daemon.stop()
        }
    }

    @Test func aDmenuStyleMenuGetsTheLinesAndItsChoiceIsDone() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            let added = try await fixture.hooray("habit", "add", "Floss")
            #expect(added.status == .exited(0), "\(added.standardError)")
            let daemon = try await fixture.startDaemon()
            // A stand-in menu: keeps the lines it was given, and answers with what the test wrote.
            let offered = fixture.home.appending("offered.txt")
            let menu = "cat > '\(offered)'; printf '%s\\n' \"$CHOICE\""

            let ticked = try await fixture.hooray(
                arguments: ["menu", "--dmenu", "--launcher", menu], environment: ["CHOICE": "Done today: Floss"])
            #expect(ticked.status == .exited(0), "\(ticked.standardError)")
            let lines = try String(contentsOfFile: offered, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(lines.first == "Done today: Floss")
            #expect(try await fixture.habitStates().map(\.today) == ["done"])

            let typed = try await fixture.hooray(
                arguments: ["menu", "--dmenu", "--launcher", menu], environment: ["CHOICE": "win flossed twice"])
            #expect(typed.status == .exited(0), "\(typed.standardError)")
            #expect(try await fixture.momentTexts() == ["flossed twice"])

            let unknown = try await fixture.hooray(
                arguments: ["menu", "--dmenu", "--launcher", menu], environment: ["CHOICE": "walk"])
            #expect(unknown.status == .exited(1))
            #expect(
                unknown.standardError.contains("nothing matches “walk”; start with “win”"), "\(unknown.standardError)")

            let words = try await fixture.hooray("menu", "win", "drank", "water")
            #expect(words.status == .exited(0), "\(words.standardError)")
            #expect(Set(try await fixture.momentTexts()) == ["flossed twice", "drank water"])
            await daemon.stop()
        }
    }
}
