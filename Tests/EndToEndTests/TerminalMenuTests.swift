import Foundation
import HooraySystemTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One-key menus on a real pseudo-terminal: the real `hooray` asks what was left out, one key
/// answers, and the terminal is left as it was found however the menu ends.
@Suite(.timeLimit(.minutes(3)))
struct TerminalMenuTests {
    static let typeQuestion = "What kind of rejection?"
    static let impactQuestion = "How much did this hurt? (1–10)"
    static let cancelled = "Cancelled; nothing was saved."
    static let hint = "Press one of the keys above"

    /// A `hooray` command running on a terminal of its own.
    struct OnTerminal {
        let terminal: PseudoTerminal
        let hooray: ChildProcess

        /// Waits until the terminal shows `text`.
        func sees(_ text: String) async -> Bool {
            await hooray.waitForOutput(containing: text, timeout: .seconds(30))
        }

        /// Presses keys, as bytes typed on the keyboard.
        func press(_ keys: String) throws {
            try hooray.write(toStandardInput: keys)
        }

        /// What the terminal showed, once the command has ended.
        func screen() async -> String {
            await hooray.waitForOutputToEnd(timeout: .seconds(5))
            return hooray.standardOutput
        }
    }

    /// Starts `hooray ARGUMENTS…` on a new terminal, 100 columns wide.
    func onTerminal(_ fixture: HoorayFixture, _ arguments: String...) throws -> OnTerminal {
        let terminal = try PseudoTerminal()
        let hooray = try ChildProcess(
            HoorayFixture.binDirectory + "/hooray", arguments: arguments,
            environment: fixture.environment(overriding: ["TERM": "xterm"]), terminal: terminal)
        return OnTerminal(terminal: terminal, hooray: hooray)
    }

    /// The latest rejection as stored, read back by marking it okay (without a terminal).
    struct StoredRejection: Decodable, Equatable {
        let type: String
        let impact: Int
    }

    func latestRejection(_ fixture: HoorayFixture) async throws -> StoredRejection {
        let list = try await fixture.hooray("recovery", "list", "--json")
        #expect(list.status == .exited(0), "\(list.standardError)")
        return try #require(
            try JSONDecoder().decode([StoredRejection].self, from: Data(list.standardOutput.utf8)).first)
    }

    @Test func twoKeysLogARejectionWithoutTheDaemon() async throws {
        try await HoorayFixture.with { fixture in
            let session = try onTerminal(fixture, "reject")
            #expect(await session.sees(Self.typeQuestion))
            #expect(await session.sees("  1 💔 Dating   2 💼 Job   3 👥 Social   4 📚 Academic   5 😔 Other"))
            try session.press("2")
            #expect(await session.sees("→ 💼 Job"))
            #expect(await session.sees(Self.impactQuestion))
            // A label that starts with its key is not shown with the key twice; 0 is 10.
            #expect(await session.sees("  1 🙂   2 🙂   3 😕"))
            #expect(await session.sees("9 😭   0 10 😭"))
            try session.press("8")
            #expect(await session.sees("→ 8/10 😣"))
            #expect(await session.hooray.waitForExit(timeout: .seconds(30)) == .exited(0))
            let screen = await session.screen()
            #expect(screen.contains("Another 'No'? Let's Rebuild Your Confidence"), "\(screen)")
            #expect(screen.contains("Logged job · 8/10"), "\(screen)")
            // Type first, then impact: the options' order.
            let type = try #require(screen.range(of: Self.typeQuestion))
            let impact = try #require(screen.range(of: Self.impactQuestion))
            #expect(type.upperBound <= impact.lowerBound)

            #expect(try await latestRejection(fixture) == StoredRejection(type: "job", impact: 8))
            #expect(try session.terminal.modes() == session.terminal.initialModes)
        }
    }

    @Test func theRunningDaemonSavesItAndShowsTheTypesNotification() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let session = try onTerminal(fixture, "reject")
            #expect(await session.sees(Self.typeQuestion))
            try session.press("2")
            #expect(await session.sees(Self.impactQuestion))
            try session.press("8")
            #expect(await session.hooray.waitForExit(timeout: .seconds(30)) == .exited(0))
            let screen = await session.screen()
            #expect(screen.contains("Logged job · 8/10"), "\(screen)")

            let shown = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(20)).first)
            #expect(shown.summary.contains("Another 'No'? Let's Rebuild Your Confidence"), "\(shown.summary)")
            #expect(try await latestRejection(fixture) == StoredRejection(type: "job", impact: 8))
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func aKeyThatIsNotInTheMenuGetsAHintAndTheMenuWaits() async throws {
        try await HoorayFixture.with { fixture in
            let session = try onTerminal(fixture, "reject", "--note", "no reply")
            #expect(await session.sees(Self.typeQuestion))
            try session.press("x")
            #expect(await session.sees(Self.hint))
            // An arrow key's escape sequence is a key not in the menu either, not Esc.
            try session.press("\u{1B}[A")
            try session.press("1")
            #expect(await session.sees("→ 💔 Dating"))
            #expect(await session.sees(Self.impactQuestion))
            try session.press("0")
            #expect(await session.sees("→ 10/10 😭"))
            #expect(await session.hooray.waitForExit(timeout: .seconds(30)) == .exited(0))
            #expect(try await latestRejection(fixture) == StoredRejection(type: "dating", impact: 10))
        }
    }

    @Test func enterDoesNotLeaveOutARequiredValue() async throws {
        try await HoorayFixture.with { fixture in
            let session = try onTerminal(fixture, "reject")
            #expect(await session.sees(Self.typeQuestion))
            try session.press("\r")
            #expect(await session.sees(Self.hint))
            #expect(await !session.screen().contains("Enter leaves it out"), "the kind is required")
            try session.press("4")
            #expect(await session.sees("→ 📚 Academic"))
            try session.press("\r")
            try session.press("3")
            #expect(await session.hooray.waitForExit(timeout: .seconds(30)) == .exited(0))
            #expect(try await latestRejection(fixture) == StoredRejection(type: "academic", impact: 3))
        }
    }

    @Test func keysTypedAheadAnswerTheMenusInTurn() async throws {
        try await HoorayFixture.with { fixture in
            let session = try onTerminal(fixture, "reject")
            #expect(await session.sees(Self.typeQuestion))
            try session.press("38")
            #expect(await session.hooray.waitForExit(timeout: .seconds(30)) == .exited(0))
            let screen = await session.screen()
            #expect(screen.contains("→ 👥 Social") && screen.contains("→ 8/10 😣"), "\(screen)")
            #expect(try await latestRejection(fixture) == StoredRejection(type: "social", impact: 8))
        }
    }

    @Test(arguments: [("Ctrl-C", "\u{03}"), ("Ctrl-D", "\u{04}"), ("Esc", "\u{1B}")])
    func cancellingAtTheMenuSavesNothingAndRestoresTheTerminal(key: String, bytes: String) async throws {
        try await HoorayFixture.with { fixture in
            let session = try onTerminal(fixture, "reject")
            #expect(await session.sees(Self.typeQuestion))
            // While the menu waits, the terminal reads single keys without showing them.
            let during = try session.terminal.modes()
            #expect(!during.isCanonical && !during.echoes, "\(during)")
            #expect(session.terminal.initialModes.isCanonical && session.terminal.initialModes.echoes)

            try session.press(bytes)
            #expect(await session.hooray.waitForExit(timeout: .seconds(30)) == .exited(1), "\(key)")
            let screen = await session.screen()
            #expect(screen.contains(Self.cancelled), "\(key): \(screen)")
            #expect(!screen.contains(Self.impactQuestion))
            #expect(try session.terminal.modes() == session.terminal.initialModes, "\(key)")

            let okay = try await fixture.hooray("recovery", "okay")
            #expect(okay.status == .exited(1))
            #expect(okay.standardError.contains("nothing to recover from"), "\(okay.standardError)")
        }
    }

    @Test func terminatedAtTheMenuItLeavesTheTerminalAsItWas() async throws {
        try await HoorayFixture.with { fixture in
            let session = try onTerminal(fixture, "reject")
            #expect(await session.sees(Self.typeQuestion))
            #expect(try !session.terminal.modes().echoes)
            session.hooray.send(SIGTERM)
            #expect(await session.hooray.waitForExit(timeout: .seconds(30)) == .signalled(SIGTERM))
            #expect(try session.terminal.modes() == session.terminal.initialModes)
        }
    }

    @Test func ctrlZStopsItWithTheTerminalAsItWasAndFgAsksAgain() async throws {
        try await HoorayFixture.with { fixture in
            // A shell with job control, so that Ctrl-Z stops the job and `fg` continues it. Not bash:
            // bash puts its own terminal modes back when a job stops, which would hide ours.
            let terminal = try PseudoTerminal()
            let shell = try ChildProcess(
                "dash", arguments: ["-i", "-m"],
                environment: fixture.environment(overriding: ["TERM": "dumb", "PS1": "$ "]), terminal: terminal)
            let session = OnTerminal(terminal: terminal, hooray: shell)
            try session.press("\(HoorayFixture.binDirectory)/hooray reject --impact 4\n")
            #expect(await session.sees(Self.typeQuestion))
            try session.press("\u{1A}")
            #expect(await session.sees("Stopped"))
            // What the shell's terminal is while the job is stopped: canonical, echoing, with signal keys.
            try session.press("stty -a | tr ' ' '\\n' | grep -x -e isig -e icanon -e echo | tr '\\n' +; echo\n")
            #expect(await session.sees("isig+icanon+echo+"))
            try session.press("fg\n")
            let askedAgain = await pollUntil(timeout: .seconds(30)) {
                shell.standardOutput.components(separatedBy: Self.typeQuestion).count == 3 ? true : nil
            }
            #expect(askedAgain == true, "\(shell.standardOutput)")
            try session.press("1")
            #expect(await session.sees("Logged dating · 4/10"))
            try session.press("exit\n")
            #expect(await shell.waitForExit(timeout: .seconds(30)) == .exited(0))
        }
    }

    @Test func oneKeyChecksIn() async throws {
        try await HoorayFixture.with { fixture in
            let session = try onTerminal(fixture, "recovery", "checkin")
            #expect(await session.sees("How are you feeling today?"))
            #expect(await session.sees("  1 😔 Low   2 😐 Okay   3 🙂 Good   4 💪 Strong"))
            try session.press("4")
            #expect(await session.sees("→ 💪 Strong"))
            #expect(await session.hooray.waitForExit(timeout: .seconds(30)) == .exited(0))
            #expect(await session.screen().contains("Checked in: 💪 Strong."))

            // Today's check-in is there: another one changes it.
            let again = try await fixture.hooray("recovery", "checkin", "good")
            #expect(again.standardOutput.contains("Today's check-in is now 🙂 Good."), "\(again.standardOutput)")
        }
    }

    @Test func theMenuWrapsToTheTerminalsWidth() async throws {
        try await HoorayFixture.with { fixture in
            let terminal = try PseudoTerminal(columns: 40)
            let hooray = try ChildProcess(
                HoorayFixture.binDirectory + "/hooray", arguments: ["reject", "--impact", "3"],
                environment: fixture.environment(), terminal: terminal)
            let session = OnTerminal(terminal: terminal, hooray: hooray)
            #expect(await session.sees("3 👥 Social"))
            try session.press("5")
            #expect(await hooray.waitForExit(timeout: .seconds(30)) == .exited(0))
            let lines = await session.screen().components(separatedBy: "\r\n")
            #expect(lines.contains("  1 💔 Dating   2 💼 Job   3 👥 Social"), "\(lines)")
            #expect(lines.contains("  4 📚 Academic   5 😔 Other"), "\(lines)")
        }
    }

    @Test func withOutputToAFileTheMenuIsAnsweredWithALine() async throws {
        try await HoorayFixture.with { fixture in
            let output = fixture.home.appending("out.txt")
            let terminal = try PseudoTerminal()
            let hooray = try ChildProcess(
                "/bin/sh",
                arguments: [
                    "-c", "exec \"$0\" reject --impact 3 > \"$1\"", "\(HoorayFixture.binDirectory)/hooray", output,
                ],
                environment: fixture.environment(), terminal: terminal)
            let session = OnTerminal(terminal: terminal, hooray: hooray)
            // On standard error, which is the terminal.
            #expect(await session.sees(Self.typeQuestion))
            try session.press("Job\n")
            #expect(await hooray.waitForExit(timeout: .seconds(30)) == .exited(0))
            let saved = try String(contentsOfFile: output, encoding: .utf8)
            #expect(saved.contains("Logged job · 3/10"), "\(saved)")
            #expect(!saved.contains(Self.typeQuestion))
        }
    }

    @Test func aQuestionWithoutAMenuIsStillAnsweredWithALine() async throws {
        try await HoorayFixture.with { fixture in
            let added = try await fixture.hooray("habit", "add", "Stretch")
            #expect(added.status == .exited(0), "\(added.standardError)")
            let session = try onTerminal(fixture, "habit", "reset", "Stretch")
            #expect(await session.sees("What happened?"))
            try session.press("slept in\n")
            #expect(await session.hooray.waitForExit(timeout: .seconds(30)) == .exited(0))
            let shown = try await fixture.hooray("habit", "show", "Stretch")
            #expect(shown.standardOutput.contains("slept in"), "\(shown.standardOutput)")
        }
    }

    @Test func withoutATerminalTheTypeIsRequired() async throws {
        try await HoorayFixture.with { fixture in
            let output = try await fixture.hooray("reject", "--impact", "5")
            #expect(output.status == .exited(64))
            #expect(output.standardError.contains("--type dating, job, social, academic or other"))
            #expect(!output.standardOutput.contains(Self.typeQuestion))
        }
    }
}
