import Foundation
import HoorayEngine
import HooraySystemTesting
import Testing

@testable import HoorayConformance

/// A plugin in a temporary folder: a `plugin.toml` and a Python program speaking the protocol with
/// raw framing, whose behaviour each test picks.
struct ScriptedPlugin {
    let folder: String

    /// Writes the plugin.
    ///
    /// - Parameters:
    ///   - flaw: What the program does wrong, one of the names in ``program``; `nil` for a good plugin.
    ///   - manifest: Extra lines for the end of `plugin.toml`.
    init(flaw: String? = nil, manifest extra: String = "") throws {
        folder =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "hooray-kit-\(UUID().uuidString.prefix(8))"
            ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
        name = "focus"
        version = "1.2.0"
        api_version = 1
        description = "Focus sessions, for the conformance kit's tests."
        exec = ["focus.py"]
        permissions = ["notify", "schedule", "storage"]

        [[commands]]
        name = "start"
        summary = "Start a focus session."

        [[commands]]
        name = "status"
        summary = "Say whether a session runs."
        json = true
        \(extra)
        """.write(toFile: folder + "/plugin.toml", atomically: true, encoding: .utf8)
        try writeProgram(Self.program(flaw: flaw ?? "none"), to: folder + "/focus.py")
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    static func program(flaw: String) -> String {
        """
        #!/usr/bin/env python3
        import json, sys, time
        FLAW = "\(flaw)"
        inp, out = sys.stdin.buffer, sys.stdout.buffer
        waiting = []
        next_id = [0]

        def send(message):
            body = json.dumps(message).encode()
            out.write(b"Content-Length: %d\\r\\n\\r\\n" % len(body) + body)
            out.flush()

        def read():
            length = None
            while True:
                line = inp.readline()
                if not line:
                    return None
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode().partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            return json.loads(inp.read(length))

        def request(method, params):
            next_id[0] += 1
            mine = next_id[0]
            send({"jsonrpc": "2.0", "id": mine, "method": method, "params": params})
            while True:
                message = read()
                if message is None:
                    sys.exit(0)
                if message.get("id") == mine and "method" not in message:
                    return message.get("result")
                waiting.append(message)

        def handle(message):
            method, ident, params = message.get("method"), message.get("id"), message.get("params") or {}
            if method is None:
                return
            def answer(result):
                send({"jsonrpc": "2.0", "id": ident, "result": result})
            def error(code, text):
                send({"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": text}})
            if method == "initialize":
                if FLAW == "silent-initialize":
                    return
                if FLAW == "huge-frame":
                    out.write(b"Content-Length: 104857600\\r\\n\\r\\n")
                    out.flush()
                    return
                answer({"api_version": 1})
            elif method == "command":
                if FLAW == "crash-on-command":
                    print("about to divide", file=sys.stderr, flush=True)
                    1 / 0
                if not isinstance(params.get("values"), dict):
                    return error(-32602, "command: `values` must be an object")
                if FLAW == "log-line":
                    print("starting a session")
                    sys.stdout.flush()
                if FLAW == "slow-start" and params["command"] == "start":
                    time.sleep(4)
                if params["command"] == "start":
                    request("scheduleReminder", {
                        "id": "session-end", "schedule": {"in": 1500},
                        "notice": {"title": "Time for a break", "actions": [
                            {"id": "snooze-10m", "label": "Later"}, {"id": "break", "label": "Break"}]}})
                    answer({"text": "Focus session started.", "exit_code": 0})
                elif params["command"] == "status":
                    reply = {"text": "A session runs.", "exit_code": 0}
                    if params.get("json") and FLAW != "no-json":
                        reply["json"] = {"running": True}
                    answer(reply)
                else:
                    answer({"text": "There is no such command.", "exit_code": 64})
            elif method == "actionInvoked":
                answer({})
            elif method == "shutdown":
                if FLAW == "ignore-shutdown":
                    return
                answer({})
            elif ident is not None and FLAW != "silent-unknown":
                error(-32601, "no such method: " + method)

        if FLAW == "garbage":
            print("hello from focus")
            sys.stdout.flush()
        while True:
            message = waiting.pop(0) if waiting else read()
            if message is None:
                if FLAW == "ignore-shutdown":
                    time.sleep(60)
                break
            handle(message)
        """
    }
}

@Suite struct ConformanceKitTests {
    /// Short limits, so that a plugin that stays silent costs the test little; a busy machine may
    /// take seconds to start Python, so `initialize` keeps the protocol's.
    static var quick: ConformanceKit.Options {
        var options = ConformanceKit.Options()
        options.callTimeout = 3
        options.shutdownTimeout = 6
        options.exitTimeout = 3
        return options
    }

    func run(_ plugin: ScriptedPlugin, options: ConformanceKit.Options = ConformanceKitTests.quick) async
        -> ConformanceReport
    {
        await ConformanceKit(
            folder: plugin.folder, options: options, hostVersion: "0.0.0-test",
            environment: ProcessInfo.processInfo.environment
        ).run()
    }

    @Test func aGoodPluginPassesEveryStep() async throws {
        let plugin = try ScriptedPlugin()
        defer { plugin.remove() }
        let report = await run(plugin, options: ConformanceKit.Options())

        #expect(
            report.steps.map(\.name) == [
                "plugin.toml", "handshake", "command start", "command status", "command status --json",
                "due reminder", "action round trip", "bad input: an unknown method", "bad input: wrong params",
                "bad input: an answer to no request", "bad input: an unknown notification", "shutdown",
                "calls to the host",
            ])
        for step in report.steps {
            #expect(step.outcome == .passed, "\(step.name): \(step.detail)")
        }
        #expect(report.failed == 0)
        #expect(report.step("plugin.toml")?.detail == "focus 1.2.0, plugin API 1, 2 commands")
        #expect(report.step("handshake")?.detail.hasPrefix("answered initialize in ") == true)
        // The reminder `start` scheduled came due, and its notice's own button (not the host's
        // snooze before it) reached the plugin.
        #expect(report.step("due reminder")?.detail.contains("“session-end” came due") == true)
        #expect(report.step("action round trip")?.detail.hasPrefix("pressed “Break” on “Time for a break”") == true)
        #expect(report.step("bad input: wrong params")?.detail.contains("error -32602") == true)
        #expect(report.step("shutdown")?.detail.contains("exited") == true)
    }

    @Test func aMissingPluginTomlEndsTheRunWithTheReadersError() async throws {
        let plugin = try ScriptedPlugin()
        defer { plugin.remove() }
        try FileManager.default.removeItem(atPath: plugin.folder + "/plugin.toml")

        let report = await run(plugin)

        #expect(report.steps.first?.name == "plugin.toml")
        #expect(report.steps.first?.outcome == .failed)
        #expect(report.steps.first?.detail.contains("plugin.toml") == true)
        #expect(report.steps.dropFirst().allSatisfy { $0.outcome == .notRun })
        #expect(report.failed == 1)
    }

    @Test func bytesOutsideAFrameFailTheHandshakeWithTheSupervisorsReason() async throws {
        let plugin = try ScriptedPlugin(flaw: "garbage")
        defer { plugin.remove() }

        let report = await run(plugin)

        let handshake = try #require(report.step("handshake"))
        #expect(handshake.outcome == .failed)
        #expect(handshake.detail.contains("wrote “hello from focus"), "\(handshake.detail)")
        #expect(handshake.detail.contains("outside a frame"))
        #expect(report.step("shutdown")?.outcome == .notRun)
    }

    @Test func aPluginThatNeverAnswersInitializeFailsTheHandshakeWithinItsLimit() async throws {
        let plugin = try ScriptedPlugin(flaw: "silent-initialize")
        defer { plugin.remove() }
        var options = Self.quick
        options.initializeTimeout = 1

        let report = await run(plugin, options: options)

        let handshake = try #require(report.step("handshake"))
        #expect(handshake.outcome == .failed)
        #expect(handshake.detail.contains("did not answer initialize within 1 s"), "\(handshake.detail)")
        #expect(handshake.detail.contains("answer initialize first"))
        #expect(report.steps.filter { $0.outcome == .notRun }.count == 11)
    }

    @Test func aCrashOnACommandFailsThatStepWithItsStandardErrorAndEndsTheRun() async throws {
        let plugin = try ScriptedPlugin(flaw: "crash-on-command")
        defer { plugin.remove() }

        let report = await run(plugin)

        #expect(report.step("handshake")?.outcome == .passed)
        let start = try #require(report.step("command start"))
        #expect(start.outcome == .failed)
        #expect(start.detail.hasPrefix("while it ran the command, the plugin exited with status 1"), "\(start.detail)")
        #expect(start.detail.contains("ZeroDivisionError"))
        #expect(report.step("command status")?.outcome == .notRun)
        #expect(report.step("command status")?.detail == "not run: the plugin stopped at command start")
        #expect(report.step("shutdown")?.outcome == .notRun)
        #expect(report.failed == 1)
    }

    @Test func noAnswerToAnUnknownMethodFailsThatProbeAndTheRunGoesOn() async throws {
        let plugin = try ScriptedPlugin(flaw: "silent-unknown")
        defer { plugin.remove() }

        let report = await run(plugin)

        let probe = try #require(report.step("bad input: an unknown method"))
        #expect(probe.outcome == .failed)
        #expect(
            probe.detail
                == "did not answer a request for an unknown method within 3 s; answer every request, with error -32601 when it does not know the method"
        )
        #expect(report.step("bad input: wrong params")?.outcome == .passed)
        #expect(report.step("shutdown")?.outcome == .passed, "\(report.step("shutdown")?.detail ?? "")")
        #expect(report.failed == 1)
    }

    @Test func aPluginThatIgnoresShutdownFailsTheShutdownStep() async throws {
        let plugin = try ScriptedPlugin(flaw: "ignore-shutdown")
        defer { plugin.remove() }

        let report = await run(plugin)

        let shutdown = try #require(report.step("shutdown"))
        #expect(shutdown.outcome == .failed)
        #expect(shutdown.detail.hasPrefix("did not answer shutdown within 6 s"), "\(shutdown.detail)")
        #expect(shutdown.detail.contains("so it was killed"))
        #expect(shutdown.detail.contains("answer shutdown with {}, and exit when its standard input closes"))
        #expect(report.failed == 1)
    }

    @Test func aScriptWhoseInterpreterIsMissingFailsTheHandshakeNamingItsFirstLine() async throws {
        let plugin = try ScriptedPlugin()
        defer { plugin.remove() }
        try writeProgram("#!/nowhere/python3\nprint('hello')\n", to: plugin.folder + "/focus.py")

        let report = await run(plugin)

        // In the sandbox the program's start fails inside it, and what hooray-sandbox said follows.
        #expect(
            report.step("handshake")?.detail.hasPrefix(
                "during the handshake, the plugin could not be started: its first line asks for /nowhere/python3, which is not there; fix its #! line (such as #!/usr/bin/env python3)"
            ) == true)
    }

    @Test func aFrameOver1MiBFailsTheHandshakeWithTheLimit() async throws {
        let plugin = try ScriptedPlugin(flaw: "huge-frame")
        defer { plugin.remove() }

        let report = await run(plugin)

        let handshake = try #require(report.step("handshake"))
        #expect(handshake.outcome == .failed)
        #expect(
            handshake.detail
                == "during the handshake, the plugin sent a message of 104857600 bytes; the most is 1048576 bytes (1 MiB)"
        )
    }

    @Test func aLogLineOnStandardOutputFailsTheCommandThatPrintedIt() async throws {
        let plugin = try ScriptedPlugin(flaw: "log-line")
        defer { plugin.remove() }

        let report = await run(plugin)

        #expect(report.step("handshake")?.outcome == .passed)
        let start = try #require(report.step("command start"))
        #expect(start.outcome == .failed)
        #expect(
            start.detail.hasPrefix(
                "while it ran the command, the plugin wrote “starting a session"),
            "\(start.detail)")
        #expect(start.detail.contains("log to standard error"))
        #expect(report.step("shutdown")?.outcome == .notRun)
    }

    @Test func aCommandAnsweredAfterTheLimitFailsAndTheRunGoesOn() async throws {
        let plugin = try ScriptedPlugin(flaw: "slow-start")
        defer { plugin.remove() }

        let report = await run(plugin)

        let start = try #require(report.step("command start"))
        #expect(start.outcome == .failed)
        #expect(start.detail.hasPrefix("did not answer within 3 s; answer every `command` request in time"))
        // Its late answer is dropped, and the later steps run as usual.
        #expect(report.step("command status")?.outcome == .passed)
        #expect(report.step("shutdown")?.outcome == .passed, "\(report.step("shutdown")?.detail ?? "")")
        #expect(report.failed == 1)
    }

    @Test func aJSONCommandWithoutJSONFailsNamingWhatPluginTomlPromised() async throws {
        let plugin = try ScriptedPlugin(flaw: "no-json")
        defer { plugin.remove() }

        let report = await run(plugin)

        #expect(report.step("command status")?.outcome == .passed)
        let step = try #require(report.step("command status --json"))
        #expect(step.outcome == .failed)
        #expect(
            step.detail
                == "the answer has no `json`, though plugin.toml says json = true; answer {\"text\": \"\", \"json\": …, \"exit_code\": 0}"
        )
    }
}

/// The kit waits for a plugin to be quiet before it stops it: a plugin that is running or waiting
/// for the processor (as on a loaded computer) is not quiet, whether it runs itself or in a
/// program started by the one the host started (bubblewrap).
@Suite struct PluginRunStateTests {
    @Test func aSpinningProgramIsRunnableAndOneWaitingForInputIsNot() async throws {
        let waiting = try ChildProcess(
            "/bin/sh", arguments: ["-c", "echo ready; read line"], keepsStandardInputOpen: true)
        let spinning = try ChildProcess("/bin/sh", arguments: ["-c", "echo ready; while :; do :; done"])
        // The spinning program is started by another, which waits for it, as bubblewrap does.
        let parent = try ChildProcess(
            "/bin/sh", arguments: ["-c", "echo ready; sh -c 'while :; do :; done'; exit 0"])
        defer {
            for child in [waiting, spinning, parent] { child.send(SIGKILL, toProcessGroup: true) }
        }
        for child in [waiting, spinning, parent] {
            #expect(await child.waitForOutput(containing: "ready", timeout: .seconds(30)))
        }
        // The one that waits for input is asleep once it reads: asked until it is, for up to 30 s.
        let asleep = await pollUntil(timeout: .seconds(30), interval: .milliseconds(50)) { () -> Bool? in
            ConformanceRun.isRunnable(waiting.pid) ? nil : true
        }
        #expect(asleep == true)
        #expect(ConformanceRun.isRunnable(spinning.pid))
        let childRuns = await pollUntil(timeout: .seconds(30), interval: .milliseconds(50)) { () -> Bool? in
            ConformanceRun.isRunnable(parent.pid) ? true : nil
        }
        #expect(childRuns == true)
        #expect(!ConformanceRun.isRunnable(Int32.max - 1), "a process that is not there does not run")
    }
}
