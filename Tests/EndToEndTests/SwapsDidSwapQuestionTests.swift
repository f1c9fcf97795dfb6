import Foundation
import HooraySystemTesting
import Testing

/// **I did my swap** on a Night Prep without a prep, as a user meets it: the real `hoorayd` under
/// libfaketime, a real notification server, and the real `hooray act` on a pseudo-terminal, where
/// the button asks what the swap was; without a terminal `--answer` gives it, and a click on the
/// notification, which cannot ask, saves "A healthy swap".
@Suite(.timeLimit(.minutes(3)))
struct SwapsDidSwapQuestionTests {
    static let config = """
        [plugins.swaps]
        night_prep = "21:00"
        morning_focus = "off"

        """
    static let question = "What was your swap? (Enter saves “A healthy swap”)"
    static let title = "Prep tonight: what's your swap for tomorrow?"

    /// A swap as stored, read from the SQLite file by another program.
    typealias StoredSwap = SwapsRemindersTests.StoredSwap

    /// The swaps in the real database, read-only.
    func storedSwaps(_ fixture: HoorayFixture) async throws -> [StoredSwap] {
        try await SwapsRemindersTests().storedSwaps(fixture)
    }

    /// A notice as `hooray inbox --all --json` prints it.
    struct PrintedNotice: Decodable {
        struct Button: Decodable {
            let id: String
            let prompt: String?
        }
        let id: Int64
        let title: String
        let actions: [Button]
    }

    /// Starts the server and `hoorayd` ten seconds before Night Prep on Monday 15 June 2026, with no
    /// prep for the day, and waits for Night Prep; returns its id as `hooray act` takes it.
    func nightPrep(_ fixture: HoorayFixture) async throws -> (TestNotificationServer, ChildProcess, Int64, UInt32) {
        let server = try await fixture.startServer()
        try fixture.writeConfig(Self.config)
        let daemon = try await fixture.startDaemon(fakeTime: "2026-06-15 20:59:50")
        let shown = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(20)).last)
        #expect(shown.summary == Self.title)
        #expect(shown.actions.map(\.label) == ["I did my swap", "Prep now", "I need help"])
        let inbox = try await fixture.hooray("inbox", "--all", "--json")
        #expect(inbox.status == .exited(0), "\(inbox.standardError)")
        let notice = try #require(
            try JSONDecoder().decode([PrintedNotice].self, from: Data(inbox.standardOutput.utf8))
                .first { $0.title == Self.title })
        // The inbox tells a script which button asks, and what.
        #expect(notice.actions.map(\.prompt) == [Self.question, nil, nil])
        let listed = try await fixture.hooray("inbox", "--all")
        #expect(
            listed.standardOutput.contains("I did my swap (`hooray act \(notice.id) did-swap`, asks a question)"),
            "\(listed.standardOutput)")
        return (server, daemon, notice.id, shown.id)
    }

    @Test func onATerminalTheButtonAsksAndTheTypedSwapIsSaved() async throws {
        try await HoorayFixture.with { fixture in
            let (_, daemon, id, _) = try await nightPrep(fixture)
            let terminal = try PseudoTerminal()
            let act = try ChildProcess(
                HoorayFixture.binDirectory + "/hooray", arguments: ["act", String(id), "did-swap"],
                environment: fixture.environment(overriding: ["TERM": "xterm"]), terminal: terminal)
            #expect(await act.waitForOutput(containing: Self.question, timeout: .seconds(30)), "\(act.standardOutput)")
            #expect(try await storedSwaps(fixture).isEmpty, "nothing is pressed before the answer")
            try act.write(toStandardInput: "Tea instead of wine\n")
            #expect(await act.waitForExit(timeout: .seconds(30)) == .exited(0))
            await act.waitForOutputToEnd(timeout: .seconds(5))
            #expect(act.standardOutput.contains("Pressed “I did my swap”"), "\(act.standardOutput)")
            #expect(
                try await storedSwaps(fixture)
                    == [StoredSwap(text: "Tea instead of wine", day: "2026-06-15", fromPrep: false)])
            #expect(try terminal.modes() == terminal.initialModes)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func enterOnTheTerminalGivesNoAnswerAndSavesAHealthySwap() async throws {
        try await HoorayFixture.with { fixture in
            let (_, daemon, id, _) = try await nightPrep(fixture)
            let terminal = try PseudoTerminal()
            let act = try ChildProcess(
                HoorayFixture.binDirectory + "/hooray", arguments: ["act", String(id), "did-swap"],
                environment: fixture.environment(overriding: ["TERM": "xterm"]), terminal: terminal)
            #expect(await act.waitForOutput(containing: Self.question, timeout: .seconds(30)), "\(act.standardOutput)")
            try act.write(toStandardInput: "\n")
            #expect(await act.waitForExit(timeout: .seconds(30)) == .exited(0))
            #expect(
                try await storedSwaps(fixture) == [
                    StoredSwap(text: "A healthy swap", day: "2026-06-15", fromPrep: false)
                ])
            #expect(await daemon.stop() == .exited(0))
        }
    }

    /// Starts `hooray act ID did-swap` on a pseudo-terminal and waits for the question.
    func askOnATerminal(_ fixture: HoorayFixture, id: Int64) async throws -> (ChildProcess, PseudoTerminal) {
        let terminal = try PseudoTerminal()
        let act = try ChildProcess(
            HoorayFixture.binDirectory + "/hooray", arguments: ["act", String(id), "did-swap"],
            environment: fixture.environment(overriding: ["TERM": "xterm"]), terminal: terminal)
        #expect(await act.waitForOutput(containing: Self.question, timeout: .seconds(30)), "\(act.standardOutput)")
        return (act, terminal)
    }

    @Test func ctrlDAtTheQuestionPressesNothing() async throws {
        try await HoorayFixture.with { fixture in
            let (_, daemon, id, _) = try await nightPrep(fixture)
            let (act, terminal) = try await askOnATerminal(fixture, id: id)
            try act.write(toStandardInput: "\u{04}")
            #expect(await act.waitForExit(timeout: .seconds(30)) == .exited(1))
            await act.waitForOutputToEnd(timeout: .seconds(5))
            #expect(act.standardOutput.contains("Nothing pressed."), "\(act.standardOutput)")
            #expect(!act.standardOutput.contains("Pressed"), "\(act.standardOutput)")
            #expect(try terminal.modes() == terminal.initialModes)
            #expect(try await storedSwaps(fixture).isEmpty, "Ctrl-D saves no swap")
            // Nothing reached hoorayd: the button still works, and the answer given now is saved.
            let pressed = try await fixture.hooray("act", String(id), "did-swap", "--answer", "Tea instead of wine")
            #expect(pressed.status == .exited(0), "\(pressed.standardError)")
            #expect(
                try await storedSwaps(fixture)
                    == [StoredSwap(text: "Tea instead of wine", day: "2026-06-15", fromPrep: false)])
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func anArrowKeyTypedAtTheQuestionIsRefusedAndNothingIsPressed() async throws {
        try await HoorayFixture.with { fixture in
            let (_, daemon, id, _) = try await nightPrep(fixture)
            let (act, _) = try await askOnATerminal(fixture, id: id)
            // The left arrow at a plain prompt types ESC [ D into the line.
            try act.write(toStandardInput: "Tea\u{1b}[D\n")
            #expect(await act.waitForExit(timeout: .seconds(30)) == .exited(64))
            await act.waitForOutputToEnd(timeout: .seconds(5))
            #expect(
                act.standardOutput.contains("nothing was pressed: the answer holds a control character"),
                "\(act.standardOutput)")
            #expect(act.standardOutput.contains("give it again as plain text on one line"), "\(act.standardOutput)")
            // Without a terminal the same answer is refused before it is sent.
            let given = try await fixture.hooray("act", String(id), "did-swap", "--answer", "Tea\u{1b}[D")
            #expect(given.status == .exited(64), "\(given.standardError)")
            #expect(given.standardError.contains("the answer holds a control character"), "\(given.standardError)")
            let long = try await fixture.hooray(
                "act", String(id), "did-swap", "--answer", String(repeating: "x", count: 1001))
            #expect(long.status == .exited(64), "\(long.standardError)")
            #expect(
                long.standardError.contains("the answer is 1001 characters long, and an answer may have at most 1000"),
                "\(long.standardError)")
            #expect(try await storedSwaps(fixture).isEmpty)
            let pressed = try await fixture.hooray("act", String(id), "did-swap", "--answer", "Tea instead of wine")
            #expect(pressed.status == .exited(0), "\(pressed.standardError)")
            #expect(try await storedSwaps(fixture).map(\.text) == ["Tea instead of wine"])
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func withoutATerminalAndWithoutAnswerNothingIsAskedAndPipedTextIsNotTheSwap() async throws {
        try await HoorayFixture.with { fixture in
            let (_, daemon, id, _) = try await nightPrep(fixture)
            let piped = try await fixture.hooray(
                arguments: ["act", String(id), "did-swap"], input: "Tea instead of wine\n")
            #expect(piped.status == .exited(0), "\(piped.standardError)")
            #expect(piped.standardOutput.contains("Pressed “I did my swap”"), "\(piped.standardOutput)")
            #expect(!piped.standardOutput.contains("What was your swap?"), "\(piped.standardOutput)")
            #expect(!piped.standardError.contains("What was your swap?"), "\(piped.standardError)")
            #expect(
                try await storedSwaps(fixture) == [
                    StoredSwap(text: "A healthy swap", day: "2026-06-15", fromPrep: false)
                ])
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func aStoppedHooraydIsSaidBeforeTheQuestion() async throws {
        try await HoorayFixture.with { fixture in
            let (_, daemon, id, _) = try await nightPrep(fixture)
            #expect(await daemon.stop() == .exited(0))
            let terminal = try PseudoTerminal()
            let act = try ChildProcess(
                HoorayFixture.binDirectory + "/hooray", arguments: ["act", String(id), "did-swap"],
                environment: fixture.environment(overriding: ["TERM": "xterm"]), terminal: terminal)
            #expect(await act.waitForExit(timeout: .seconds(30)) == .exited(69))
            await act.waitForOutputToEnd(timeout: .seconds(5))
            #expect(act.standardOutput.contains("hoorayd is not running"), "\(act.standardOutput)")
            #expect(act.standardOutput.contains("systemctl --user start hooray"), "\(act.standardOutput)")
            #expect(!act.standardOutput.contains("What was your swap?"), "\(act.standardOutput)")
            #expect(try terminal.modes() == terminal.initialModes)
        }
    }

    @Test func aHooraydFromBeforeAnswersIsToldToBeRestartedAndTheAnswerIsNotSent() async throws {
        try await HoorayFixture.with { fixture in
            // A hoorayd from before answers: it does not say it takes them, and it notes every request.
            let script = """
                import json, os, socket, sys
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.bind(sys.argv[1])
                s.listen(8)
                print("listening", flush=True)
                while True:
                    c, _ = s.accept()
                    data = b""
                    while not data.endswith(b"\\n"):
                        part = c.recv(65536)
                        if not part:
                            break
                        data += part
                    method = json.loads(data)["method"]
                    print("got " + method, flush=True)
                    if method == "status":
                        answer = {"api_version": 1, "ok": True, "status": {"pid": os.getpid(), "version": sys.argv[2], "started_at": "2026-06-15T18:00:00Z", "waiting_notices": 0, "plugins": ["swaps"], "config_files": []}}
                    elif method == "act":
                        answer = {"api_version": 1, "ok": True, "message": "pressed without the answer"}
                    else:
                        answer = {"api_version": 1, "ok": True, "hand_over": True}
                    c.sendall(json.dumps(answer).encode() + b"\\n")
                    c.close()
                """
            let version = try await fixture.hooray("--version").standardOutput
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let older = try await fixture.startStandInDaemon(script, arguments: [version])
            let given = try await fixture.hooray("act", "3", "did-swap", "--answer", "Tea instead of wine")
            #expect(given.status == .exited(69), "\(given.standardError)")
            // It reports this hooray's own version (every build so far is 0.1.0), but not that it
            // takes answers.
            #expect(
                given.standardError.contains("the running hoorayd is from before buttons could ask a question"),
                "\(given.standardError)")
            #expect(
                given.standardError.contains("restart hoorayd (`systemctl --user restart hooray`)"),
                "\(given.standardError)")
            #expect(older.standardOutput.contains("got status"), "\(older.standardOutput)")
            #expect(!older.standardOutput.contains("got act"), "\(older.standardOutput)")
            // Without an answer nothing is lost, so the button is pressed as before.
            let plain = try await fixture.hooray("act", "3", "did-swap")
            #expect(plain.status == .exited(0), "\(plain.standardError)")
            #expect(await older.waitForOutput(containing: "got act", in: .standardOutput, timeout: .seconds(10)))
            older.send(SIGKILL)
            _ = await older.waitForExit(timeout: .seconds(5))
        }
    }

    @Test func withoutATerminalNothingIsAskedAndAnswerGivesTheSwap() async throws {
        try await HoorayFixture.with { fixture in
            let (_, daemon, id, _) = try await nightPrep(fixture)
            // An answer for a button that asks nothing: a usage error, nothing pressed.
            let stray = try await fixture.hooray("act", String(id), "prep-now", "--answer", "Tea")
            #expect(stray.status == .exited(64), "\(stray.standardError)")
            #expect(stray.standardError.contains("“Prep now” asks no question"), "\(stray.standardError)")
            // An answer that names no swap: said so, exit 1, nothing saved.
            let empty = try await fixture.hooray("act", String(id), "did-swap", "--answer", "  ")
            #expect(empty.status == .exited(1), "\(empty.standardError)")
            #expect(
                empty.standardError.contains("The answer names no swap, so nothing was saved."),
                "\(empty.standardError)")
            let long = try await fixture.hooray(
                "act", String(id), "did-swap", "--answer", String(repeating: "x", count: 201))
            #expect(long.status == .exited(1), "\(long.standardError)")
            #expect(long.standardError.contains("at most 200"), "\(long.standardError)")
            #expect(try await storedSwaps(fixture).isEmpty)
            // No question is asked on standard input that is no terminal.
            let answered = try await fixture.hooray(
                arguments: ["act", String(id), "did-swap", "--answer", "Sparkling water instead of soda"],
                input: "ignored\n")
            #expect(answered.status == .exited(0), "\(answered.standardError)")
            #expect(!answered.standardOutput.contains("What was your swap?"), "\(answered.standardOutput)")
            #expect(!answered.standardError.contains("What was your swap?"), "\(answered.standardError)")
            #expect(
                try await storedSwaps(fixture)
                    == [StoredSwap(text: "Sparkling water instead of soda", day: "2026-06-15", fromPrep: false)])
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func aClickOnTheNotificationCannotAskAndSavesAHealthySwap() async throws {
        try await HoorayFixture.with { fixture in
            let (server, daemon, _, shown) = try await nightPrep(fixture)
            try await server.invokeAction(id: shown, key: "did-swap")
            let saved = await pollUntil(timeout: .seconds(15)) { () -> [StoredSwap]? in
                let swaps = try? await storedSwaps(fixture)
                return swaps?.isEmpty == false ? swaps : nil
            }
            #expect(saved == [StoredSwap(text: "A healthy swap", day: "2026-06-15", fromPrep: false)])
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
