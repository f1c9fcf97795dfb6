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
