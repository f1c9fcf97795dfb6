import Foundation
import HooraySystemTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `hooray coach` end to end: the real binaries, a real hoorayd keeping the conversation, and a
/// loopback OpenAI-compatible server that streams its answer (server-sent events) or misbehaves.
@Suite(.timeLimit(.minutes(6)))
struct CoachTests {
    static let craving = "I really want chocolate right now"
    static let firstHalf = "You don't have to eat perfectly. A glass "
    static let lastWords = "then see how you feel."
    static let breatheCommand = "`hooray swap help` guides you through 90 seconds of calm breathing."

    func config(_ endpoint: URL, timeout: String = "3s") -> String {
        """
        [ai]
        provider = "openai"
        endpoint = "\(endpoint.absoluteString)"
        model = "test-model"
        timeout = "\(timeout)"
        connect_timeout = "2s"
        """
    }

    /// `hooray coach WORDS…` started, not waited for.
    func coach(_ fixture: HoorayFixture, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(
            HoorayFixture.binDirectory + "/hooray", arguments: ["coach"] + arguments, environment: fixture.environment()
        )
    }

    /// The kept conversation, as `hooray coach --history --json` prints it.
    func turns(_ fixture: HoorayFixture) async throws -> [[String: Any]] {
        let output = try await fixture.hooray("coach", "--history", "--json")
        #expect(output.status == .exited(0), "\(output.standardError)")
        return try #require(JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]])
    }

    /// The answers of the built-in coach's pool for one intent, with `{swap}` still in them.
    static func pool(_ section: String) throws -> [String] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Config/pools/coach-replies.txt")
        var current = ""
        var lines: [String] = []
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("[") {
                current = String(line.dropFirst().dropLast())
            } else if current == section, !line.hasPrefix("#") {
                lines.append(String(line))
            }
        }
        return lines
    }

    /// Whether `output` holds one of the pool's answers for `section`, naming one of `swaps`.
    static func answers(_ output: String, from section: String, naming swaps: [String]) throws -> Bool {
        try pool(section).contains { line in
            swaps.contains { output.contains(line.replacingOccurrences(of: "{swap}", with: $0)) }
        }
    }

    @Test func theAnswerStreamsAsItArrivesWithTheSwapContextAndTheConversationIsKept() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            _ = server
            try await withAIServer { ai in
                try fixture.writeConfig(config(ai.endpoint("stream-gated")))
                let daemon = try await fixture.startDaemon()
                #expect(try await fixture.hooray("swap", "Sparkling water instead of soda").status == .exited(0))
                #expect(
                    try await fixture.hooray("swap", "Tea instead of wine", "--date", "yesterday").status == .exited(0))
                #expect(try await fixture.hooray("win", "Told my boss about the private plan").status == .exited(0))

                let coach = try coach(fixture, [Self.craving])
                // The first words are on screen while the server still holds the rest back.
                #expect(
                    await coach.waitForOutput(containing: Self.firstHalf, timeout: .seconds(30)),
                    "\(coach.standardError)")
                #expect(!coach.standardOutput.contains(Self.lastWords))
                #expect(coach.isRunning)
                ai.openGate()
                #expect(await coach.waitForExit(timeout: .seconds(30)) == .exited(0), "\(coach.standardError)")
                await coach.waitForOutputToEnd(timeout: .seconds(5))
                #expect(coach.standardOutput.contains(Self.firstHalf + "of sparkling water first, " + Self.lastWords))
                #expect(coach.standardOutput.contains(Self.breatheCommand))

                let request = try #require(try ai.requests().last)
                #expect(request.path == "/stream-gated/v1/chat/completions")
                let body = try #require(JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [String: Any])
                #expect(body["stream"] as? Bool == true)
                let messages = try #require(body["messages"] as? [[String: String]])
                #expect(messages.first?["role"] == "system")
                let system = messages.first?["content"] ?? ""
                #expect(system.contains("Swaps logged today: “Sparkling water instead of soda”"), "\(system)")
                #expect(system.contains("“Tea instead of wine”"))
                #expect(system.contains("Swap streak: 2 days in a row."))
                #expect(system.contains("Swaps that worked most often for them"))
                #expect(system.contains("You are the Hooray swap coach"))
                #expect(messages.last == ["role": "user", "content": Self.craving])
                // Nothing of the user's other data: the win's words are not sent.
                #expect(!request.body.contains("private plan"))

                let kept = try await turns(fixture)
                #expect(kept.count == 1)
                #expect(kept.first?["said"] as? String == Self.craving)
                #expect((kept.first?["answer"] as? String)?.hasSuffix(Self.lastWords) == true)
                #expect(kept.first?["voice"] as? String == "ai")
                #expect(kept.first?["intent"] as? String == "craving")

                // The next message goes on with the same conversation, which travels with it.
                try ai.script("good")
                let again = try await fixture.hooray("coach", "Thanks, that helps")
                #expect(again.status == .exited(0), "\(again.standardError)")
                let second = try #require(try ai.requests().last)
                let secondMessages = try #require(
                    (JSONSerialization.jsonObject(with: Data(second.body.utf8)) as? [String: Any])?["messages"]
                        as? [[String: String]])
                #expect(secondMessages.map { $0["role"] ?? "" } == ["system", "user", "assistant", "user"])
                #expect(secondMessages[1]["content"] == Self.craving)

                let export = try await fixture.hooray("export")
                #expect(export.status == .exited(0))
                #expect(export.standardOutput.contains("\"coach\""))
                #expect(export.standardOutput.contains(Self.craving))
                #expect(export.standardOutput.contains("Thanks, that helps"))
                #expect(daemon.isRunning)
                await daemon.stop()
            }
        }
    }

    @Test func ctrlCStopsTheAnswerAndKeepsWhatArrived() async throws {
        try await HoorayFixture.with { fixture in
            try await withAIServer { ai in
                try fixture.writeConfig(config(ai.endpoint("stream-gated")))
                let coach = try coach(fixture, [Self.craving])
                #expect(
                    await coach.waitForOutput(containing: Self.firstHalf, timeout: .seconds(30)),
                    "\(coach.standardError)")
                coach.send(SIGINT)
                #expect(await coach.waitForExit(timeout: .seconds(10)) == .exited(130), "\(coach.standardError)")
                await coach.waitForOutputToEnd(timeout: .seconds(5))
                #expect(coach.standardOutput.contains(" (stopped)"))
                #expect(!coach.standardOutput.contains(Self.lastWords))
                let kept = try await turns(fixture)
                #expect(kept.count == 1)
                #expect(kept.first?["stoppedEarly"] as? Bool == true)
                #expect((kept.first?["answer"] as? String)?.hasPrefix("You don't have to eat perfectly.") == true)
            }
        }
    }

    @Test func aServerThatMisbehavesGetsAClearMessageAndTheConversationStaysWhole() async throws {
        try await HoorayFixture.with { fixture in
            try await withAIServer { ai in
                try fixture.writeConfig(config(ai.endpoint("scripted"), timeout: "2s"))
                #expect(try await fixture.hooray("swap", "Sparkling water instead of soda").status == .exited(0))
                // mode: (exit status, what the message says, whether the built-in coach answered instead)
                let cases: [(String, Int32, String, Bool)] = [
                    ("stream-garbage", 1, "could not be read: a chunk is not a JSON object", true),
                    ("stream-html", 1, "a line is not a server-sent event", true),
                    ("stream-cut", 75, "stopped in the middle of its answer", false),
                    ("stream-huge", 1, "larger than 64 KiB", true),
                    ("stream-nodone", 75, "sent nothing more for 2 s", false),
                    ("stream-markup", 1, "held markup", false),
                    ("stream-error", 1, "reported an error: the model is overloaded", false),
                    ("status-500", 75, "HTTP status 500", true),
                ]
                for (index, (mode, status, message, builtIn)) in cases.enumerated() {
                    try ai.script(mode)
                    let said = "Craving number \(index) for chips"
                    let output = try await fixture.hooray("coach", said)
                    #expect(output.status == .exited(status), "\(mode): \(output.standardError)")
                    #expect(output.standardError.contains(message), "\(mode): \(output.standardError)")
                    #expect(!output.standardOutput.contains("<b>"), "\(mode)")
                    #expect(
                        output.standardOutput.contains("The built-in coach answers meanwhile:") == builtIn,
                        "\(mode): \(output.standardOutput)")
                    if builtIn {
                        #expect(
                            try Self.answers(
                                output.standardOutput, from: "craving", naming: ["Sparkling water instead of soda"]),
                            "\(mode): \(output.standardOutput)")
                    } else {
                        #expect(
                            output.standardOutput.hasPrefix("You don't")
                                || output.standardOutput.hasPrefix("Try this: "), "\(mode)")
                        #expect(output.standardError.contains("What arrived is kept."), "\(mode)")
                    }
                }
                let kept = try await turns(fixture)
                #expect(kept.map { $0["said"] as? String } == cases.indices.map { "Craving number \($0) for chips" })
                #expect(kept.allSatisfy { !($0["answer"] as? String ?? "").isEmpty })

                // A message of 100,000 characters is refused before anything is sent.
                let asked = try ai.requests().count
                let long = try await fixture.hooray("coach", String(repeating: "a", count: 100_000))
                #expect(long.status == .exited(64))
                #expect(long.standardError.contains("is 100000 characters long; it takes at most 2000"))
                #expect(long.standardError.contains("nothing was sent"))
                #expect(try ai.requests().count == asked)
                #expect(try await turns(fixture).count == cases.count)
            }
        }
    }

    @Test func withAIOffTheBuiltInCoachAnswersCravingAndStressWithTheUsersOwnSwaps() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            _ = server
            let daemon = try await fixture.startDaemon()
            let swaps = ["Sparkling water instead of soda", "Fruit for dessert"]
            for swap in swaps { #expect(try await fixture.hooray("swap", swap).status == .exited(0)) }

            let craving = try await fixture.hooray("coach", Self.craving)
            #expect(craving.status == .exited(0), "\(craving.standardError)")
            #expect(
                try Self.answers(craving.standardOutput, from: "craving", naming: swaps), "\(craving.standardOutput)")
            #expect(craving.standardOutput.contains(Self.breatheCommand))

            let stress = try await fixture.hooray("coach", "I'm so stressed")
            #expect(stress.status == .exited(0), "\(stress.standardError)")
            #expect(try Self.answers(stress.standardOutput, from: "stress", naming: swaps), "\(stress.standardOutput)")

            // Lines on standard input are one message each, in the same conversation.
            let piped = try await fixture.hooray(
                arguments: ["coach"], input: "so bored tonight\n\nI want to hurt myself\n")
            #expect(piped.status == .exited(0), "\(piped.standardError)")
            #expect(try Self.answers(piped.standardOutput, from: "boredom", naming: swaps), "\(piped.standardOutput)")
            #expect(piped.standardOutput.contains("Hooray is not a crisis service."))
            #expect(piped.standardOutput.contains("988"))

            let history = try await fixture.hooray("coach", "--history")
            #expect(history.status == .exited(0))
            #expect(history.standardOutput.contains("You: " + Self.craving))
            #expect(history.standardOutput.contains("Coach (built-in): "))
            #expect(try await turns(fixture).count == 4)

            // --new starts another conversation; --delete removes them all, through hoorayd.
            #expect(try await fixture.hooray("coach", "--new", "hello").status == .exited(0))
            let conversations = Set(try await turns(fixture).compactMap { $0["conversation"] as? String })
            #expect(conversations.count == 2)
            let refused = try await fixture.hooray("coach", "--delete")
            #expect(refused.status == .exited(64))
            #expect(try await turns(fixture).count == 5)
            let deleted = try await fixture.hooray("coach", "--delete", "--yes")
            #expect(deleted.status == .exited(0), "\(deleted.standardError)")
            #expect(deleted.standardOutput.contains("Deleted your conversations with the coach (5 messages)."))
            #expect(try await turns(fixture).isEmpty)
            #expect(try await fixture.hooray("swap", "list", "--ids").standardOutput.split(separator: "\n").count == 2)
            #expect(daemon.isRunning)
            await daemon.stop()
        }
    }

    @Test func onATerminalItTalksBackAndForthUntilCtrlD() async throws {
        try await HoorayFixture.with { fixture in
            #expect(try await fixture.hooray("swap", "Fruit for dessert").status == .exited(0))
            let terminal = try PseudoTerminal()
            let coach = try ChildProcess(
                HoorayFixture.binDirectory + "/hooray", arguments: ["coach"],
                environment: fixture.environment(overriding: ["TERM": "xterm"]), terminal: terminal)
            #expect(await coach.waitForOutput(containing: "You: ", timeout: .seconds(30)), "\(coach.standardOutput)")
            #expect(coach.standardOutput.contains("I'm here. What's going on"))
            try coach.write(toStandardInput: Self.craving + "\r")
            #expect(await coach.waitForOutput(containing: "Type /breathe", timeout: .seconds(30)))
            #expect(try Self.answers(coach.standardOutput, from: "craving", naming: ["Fruit for dessert"]))
            #expect(coach.standardOutput.contains("Coach: "))
            try coach.write(toStandardInput: "/new\r")
            #expect(await coach.waitForOutput(containing: "A fresh start.", timeout: .seconds(10)))
            try coach.write(toStandardInput: "\u{04}")
            #expect(await coach.waitForExit(timeout: .seconds(10)) == .exited(0))
            await coach.waitForOutputToEnd(timeout: .seconds(5))
            #expect(coach.standardOutput.contains("Take care."))
            #expect(try await turns(fixture).count == 1)
        }
    }
}
