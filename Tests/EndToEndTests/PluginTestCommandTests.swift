import Foundation
import HooraySystemTesting
import Testing

/// `hooray plugin test PATH`, the conformance kit, as a plugin author runs it.
// The limit guards against a hang: the hostile plugins take 30 s alone, minutes on a loaded machine.
@Suite(.timeLimit(.minutes(6)))
struct PluginTestCommandTests {
    /// The repository's root, where `examples/` is.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Writes a plugin folder whose program answers `initialize` and `shutdown`, and breaks
    /// `command hello` in the way `hello` says.
    static func writePlugin(in folder: String, hello: String, name: String = "greeter") throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
        name = "\(name)"
        version = "0.1.0"
        api_version = 1
        description = "Says hello."
        exec = ["greeter.py"]

        [[commands]]
        name = "hello"
        summary = "Say hello."
        """.write(toFile: folder + "/plugin.toml", atomically: true, encoding: .utf8)
        try writeProgram(
            """
            #!/usr/bin/env python3
            import json, sys
            def send(message):
                body = json.dumps(message).encode()
                sys.stdout.buffer.write(b"Content-Length: %d\\r\\n\\r\\n" % len(body) + body)
                sys.stdout.buffer.flush()
            while True:
                length = None
                while True:
                    line = sys.stdin.buffer.readline()
                    if not line:
                        sys.exit(0)
                    if not line.strip():
                        break
                    name, _, value = line.decode().partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                message = json.loads(sys.stdin.buffer.read(length))
                method, ident = message.get("method"), message.get("id")
                if ident is None or method is None:
                    continue
                if method == "initialize":
                    send({"jsonrpc": "2.0", "id": ident, "result": {"api_version": 1}})
                elif method == "command" and isinstance(message["params"].get("values"), dict):
                    \(hello)
                elif method == "command":
                    send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32602, "message": "values"}})
                elif method in ("shutdown", "actionInvoked"):
                    send({"jsonrpc": "2.0", "id": ident, "result": {}})
                else:
                    send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "no " + method}})
            """, to: folder + "/greeter.py")
    }

    static let goodHello =
        #"send({"jsonrpc": "2.0", "id": ident, "result": {"text": "Hello!", "exit_code": 0}})"#
    static let helloWithoutExitCode = #"send({"jsonrpc": "2.0", "id": ident, "result": {"text": "Hello!"}})"#

    @Test func aGoodPluginPassesEveryStepAndExits0() async throws {
        try await HoorayFixture.with { fixture in
            let folder = fixture.home.appending("greeter")
            try Self.writePlugin(in: folder, hello: Self.goodHello)

            let output = try await fixture.hooray("plugin", "test", folder)

            #expect(output.status == .exited(0), "\(output.standardOutput)\(output.standardError)")
            let lines = output.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.first == "✓ plugin.toml: greeter 0.1.0, plugin API 1, 1 command")
            #expect(lines.contains { $0.hasPrefix("✓ handshake: answered initialize in ") })
            #expect(lines.contains { $0.hasPrefix("✓ command hello: exit 0 in ") })
            #expect(
                lines.contains { $0.hasPrefix("✓ due reminder: it scheduled no reminder, so a made-up one came due") })
            #expect(lines.contains { $0.hasPrefix("– action round trip: skipped: the plugin posted no notice") })
            #expect(
                lines.contains(
                    "✓ bad input: an unknown method: answered a request for an unknown method with error -32601"))
            #expect(lines.contains { $0.hasPrefix("✓ shutdown: answered shutdown in ") })
            #expect(lines.last == "10 passed, 0 failed.")
            // Nothing was made in the user's data folder.
            let data = try FileManager.default.contentsOfDirectory(atPath: fixture.home.appending("data"))
            #expect(data.isEmpty, "\(data)")
        }
    }

    @Test func aBrokenAnswerFailsItsStepWithTheReasonAndExits1() async throws {
        try await HoorayFixture.with { fixture in
            let folder = fixture.home.appending("greeter")
            try Self.writePlugin(in: folder, hello: Self.helloWithoutExitCode)

            let output = try await fixture.hooray("plugin", "test", folder)

            #expect(output.status == .exited(1))
            #expect(
                output.standardOutput.contains(
                    "✗ command hello: the answer has no `exit_code` from 0 to 255; answer {\"text\": \"…\", \"exit_code\": 0}, or a non-zero exit_code when the command fails"
                ), "\(output.standardOutput)")
            #expect(output.standardOutput.hasSuffix("9 passed, 1 failed.\n"))
        }
    }

    @Test func aCrashShowsItsStandardErrorAndTheStepsNotRun() async throws {
        try await HoorayFixture.with { fixture in
            let folder = fixture.home.appending("greeter")
            try Self.writePlugin(in: folder, hello: #"raise SystemExit("greeter: no greeting today")"#)

            let output = try await fixture.hooray("plugin", "test", folder)

            #expect(output.status == .exited(1))
            #expect(
                output.standardOutput.contains(
                    "✗ command hello: while it ran the command, the plugin exited with status 1\n    its standard error ended with:\n    greeter: no greeting today\n"
                ), "\(output.standardOutput)")
            #expect(output.standardOutput.contains("– shutdown: not run: the plugin stopped at command hello"))
            #expect(output.standardOutput.hasSuffix("2 passed, 1 failed.\n"))
        }
    }

    @Test func theJSONReportHasEveryStep() async throws {
        try await HoorayFixture.with { fixture in
            let folder = fixture.home.appending("greeter")
            try Self.writePlugin(in: folder, hello: Self.helloWithoutExitCode)

            let output = try await fixture.hooray("plugin", "test", folder, "--json")

            #expect(output.status == .exited(1))
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
            #expect(report["passed"] as? Int == 9)
            #expect(report["failed"] as? Int == 1)
            let steps = try #require(report["steps"] as? [[String: Any]])
            #expect(steps.count == 11)
            let hello = try #require(steps.first { $0["name"] as? String == "command hello" })
            #expect(hello["passed"] as? Bool == false)
            #expect((hello["detail"] as? String)?.hasPrefix("the answer has no `exit_code`") == true)
            let skipped = try #require(steps.first { $0["name"] as? String == "action round trip" })
            #expect(skipped["passed"] is NSNull)
        }
    }

    @Test func aPathThatIsNoFolderIsAUsageError() async throws {
        try await HoorayFixture.with { fixture in
            let missing = try await fixture.hooray("plugin", "test", fixture.home.appending("nowhere"))
            #expect(missing.status == .exited(64))
            #expect(missing.standardError.contains("does not exist; give the plugin's folder"))
            let file = fixture.home.appending("config/hooray/hooray.toml")
            try fixture.writeConfig("")
            let notFolder = try await fixture.hooray("plugin", "test", file)
            #expect(notFolder.status == .exited(64))
            #expect(notFolder.standardError.contains("is not a folder"))
            #expect(notFolder.standardOutput.isEmpty)
        }
    }

    @Test func aFolderWithoutPluginTomlFailsTheFirstStepWithTheReadersError() async throws {
        try await HoorayFixture.with { fixture in
            let folder = fixture.home.appending("empty-plugin")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

            let output = try await fixture.hooray("plugin", "test", folder)

            #expect(output.status == .exited(1))
            let first = try #require(output.standardOutput.split(separator: "\n").first)
            #expect(first.hasPrefix("✗ plugin.toml: there is no plugin.toml in "), "\(first)")
            #expect(output.standardOutput.hasSuffix("0 passed, 1 failed.\n"))
        }
    }

    @Test func aPluginHoorayWouldRefuseFailsTheFirstStepWithTheReason() async throws {
        try await HoorayFixture.with { fixture in
            let folder = fixture.home.appending("habits")
            try Self.writePlugin(in: folder, hello: Self.goodHello, name: "habits")

            let output = try await fixture.hooray("plugin", "test", folder)

            #expect(output.status == .exited(1))
            #expect(
                output.standardOutput.hasPrefix(
                    "✗ plugin.toml: the name `habits` belongs to a built-in plugin; rename the plugin in plugin.toml"),
                "\(output.standardOutput)")
            #expect(output.standardOutput.contains("– handshake: not run: hoorayd would not start this plugin"))
        }
    }

    @Test(arguments: ["python", "sh"])
    func aNewPluginsScaffoldPasses(language: String) async throws {
        try await HoorayFixture.with { fixture in
            let made = try await fixture.hooray(
                "plugin", "new", "focus-timer", "--lang", language, "--dir", fixture.home.path)
            #expect(made.status == .exited(0), "\(made.standardError)")

            let output = try await fixture.hooray("plugin", "test", fixture.home.appending("focus-timer"))

            #expect(output.status == .exited(0), "\(output.standardOutput)\(output.standardError)")
            #expect(output.standardOutput.contains("✓ action round trip: pressed "))
            #expect(output.standardOutput.hasSuffix("11 passed, 0 failed.\n"))
        }
    }

    /// Each plugin of the hostile corpus, and the words of the line that fails it: the same reason
    /// `hooray plugins` gives. Which step meets a plugin that fails on its own clock may vary, so
    /// the words are looked for in any failed step.
    static let hostile: [(folder: String, reason: String)] = [
        ("missing-program", "✗ plugin.toml:6:9: `exec` names missing-program.py, and there is no such file"),
        ("not-executable", "is not executable; make it so with chmod +x"),
        ("api-99", "✗ plugin.toml:4:15: api-99 speaks plugin API 99, and this Hooray speaks 1"),
        ("builtin-command", "✗ plugin.toml: `hooray win` already belongs to the wins plugin"),
        ("builtin-name", "✗ plugin.toml: the name `wins` belongs to a built-in plugin"),
        (
            "crashes-at-start",
            "✗ handshake: during the handshake, the plugin exited with status 3\n    its standard error ended with:\n    crashes-at-start: my settings file is missing"
        ),
        ("crashes-in-a-loop", "the plugin exited with status 1\n    its standard error ended with:"),
        ("garbage-on-stdout", "✗ handshake: during the handshake, the plugin wrote “"),
        ("not-json", "the plugin sent a message that is not JSON"),
        (
            "log-line-on-stdout",
            "the plugin wrote “[info] ready, waiting for reminders” to standard output outside a frame"
        ),
        ("never-initializes", "✗ handshake: during the handshake, the plugin did not answer initialize within 10 s"),
        ("answers-late", "✗ command ping: did not answer within 5 s"),
        ("sends-100mb", "the plugin sent a message of 104857600 bytes; the most is 1048576 bytes (1 MiB)"),
        (
            "million-reminders",
            "✗ calls to the host: 1 of its calls was refused as its own fault; the first: it called scheduleReminder and was refused: the plugin has 1000 reminders"
        ),
        ("reads-other-storage", "a plugin reaches only its own storage and reminders"),
        ("initializes-as-api-99", "the plugin answered initialize with api_version 99"),
    ]

    @Test func everyHostilePluginIsInTheList() throws {
        let corpus = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/Tests/Fixtures/plugins/hostile")
            .filter { !$0.hasSuffix(".md") }
        #expect(Set(corpus) == Set(Self.hostile.map(\.folder)))
    }

    @Test(arguments: PluginTestCommandTests.hostile.map(\.folder))
    func eachHostilePluginFailsWithItsReason(folder: String) async throws {
        let reason = try #require(Self.hostile.first { $0.folder == folder }?.reason)
        try await HoorayFixture.with { fixture in
            // A plugin that answers nothing in time takes each step's whole time limit.
            let output = try await ProcessRunner.run(
                HoorayFixture.binDirectory + "/hooray",
                arguments: ["plugin", "test", Self.root + "/Tests/Fixtures/plugins/hostile/" + folder],
                environment: fixture.environment(), timeout: .seconds(90))

            #expect(output.status == .exited(1))
            #expect(output.standardOutput.contains(reason), "\(output.standardOutput)")
            #expect(output.standardOutput.hasSuffix(" failed.\n"))
            #expect(!output.standardOutput.hasSuffix(" 0 failed.\n"))
        }
    }

    @Test(arguments: ["pomodoro", "stretch"])
    func theExamplePluginsPass(example: String) async throws {
        try await HoorayFixture.with { fixture in
            let output = try await fixture.hooray("plugin", "test", Self.root + "/examples/plugins/" + example)

            #expect(output.status == .exited(0), "\(output.standardOutput)\(output.standardError)")
            #expect(!output.standardOutput.contains("✗"))
            #expect(output.standardOutput.hasSuffix(" passed, 0 failed.\n"))
        }
    }
}
