import Foundation
import HooraySystemTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One real `hoorayd`, run as the second user with its bus, notification server and keyring, with
/// the sandbox corpus (`Tests/Fixtures/plugins/sandbox`, see its README) installed in the user's
/// plugin folder and a built-in reminder due while the fork bomb and the memory hog are at it.
/// Shared by the tests of ``SandboxEscapeTests`` through ``current``.
final class SandboxRun: Sendable {
    /// The run of the suite being run.
    @TaskLocal static var current: SandboxRun?

    /// Sets up the run once for the whole suite, and stops it when every test is done.
    struct Scope: SuiteTrait, TestScoping {
        var isRecursive: Bool { false }

        func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            try await SecondUserWorld.with { world in
                let run = try await SandboxRun(world: world)
                do {
                    try await SandboxRun.$current.withValue(run) { try await function() }
                } catch {
                    await run.finish()
                    throw error
                }
                await run.finish()
            }
        }
    }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/plugins/sandbox").path

    let world: SecondUserWorld
    let server: TestNotificationServer
    let keyring: KeyringDaemon
    /// A server on loopback (TCP) and on an abstract Unix socket, run by the test.
    let listener: ChildProcess
    let daemon: ChildProcess
    let board = PluginBoard()
    let poller: Task<Void, Never>
    /// What makes this run's names unique: in secrets, markers and process names.
    let token: String
    /// The secret in `hoorayd`'s environment (`OPENAI_API_KEY`), and the one in the keyring.
    let environmentSecret: String
    let keyringSecret: String
    /// When the built-in reminder is due: a whole minute, 9 to 14 s after `hoorayd` starts, while the fork
    /// bomb is still being started again (it is given up some 15 s in).
    let due: Date
    /// `hooray moments --json` before any plugin ran.
    let momentsBefore: String

    init(world: SecondUserWorld) async throws {
        self.world = world
        token = String(UInt64.random(in: 1...UInt64.max), radix: 36)
        environmentSecret = "sk-probe-secret-\(token)"
        keyringSecret = "sk-probe-keyring-\(token)"
        server = try await world.startServer()
        keyring = try await world.startKeyring()
        try await keyring.store(
            label: "Hooray AI key (openai)",
            attributes: ["xdg:schema": "org.hooray.Secret", "kind": "ai-key", "provider": "openai"],
            value: keyringSecret)
        listener = try ChildProcess(
            "/usr/bin/python3", arguments: ["-c", Self.listenerScript, token],
            environment: .inherited(overriding: ["PYTHONUNBUFFERED": "1"]))
        guard await listener.waitForOutput(containing: "READY", timeout: .seconds(10)),
            let portLine = listener.standardOutput.split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }),
            let port = Int(portLine.dropFirst(5))
        else { throw SystemTestingError.notReady(what: "the loopback server", output: listener.standardError) }

        // The corpus, with the network probe's program copied in (it is a link in git).
        let plugins = world.home.appending("data/hooray/plugins")
        let copy = try await ProcessRunner.run("/bin/cp", arguments: ["-R", "-L", Self.corpus + "/.", plugins])
        #expect(copy.status == .exited(0), "\(copy.standardError)")
        try? FileManager.default.removeItem(atPath: plugins + "/README.md")
        for plugin in ["probe", "probe-net"] {
            try world.write("\(plugin)'s private diary, \(token)\n", to: "data/hooray/plugin-data/\(plugin)/diary.txt")
        }

        // A win logged before hoorayd starts, to find unchanged afterwards.
        let win = try await world.hooray(["win", "Kept safe while the probes tried"])
        #expect(win.status == .exited(0), "\(win.standardError)")
        momentsBefore = try await world.hooray(["moments", "--json"]).standardOutput

        let now = Date().timeIntervalSince1970
        var minute = (now / 60).rounded(.up) * 60
        if minute - now < 9 { minute += 60 }
        if minute - now > 14 {
            try await Task.sleep(for: .seconds(minute - 11 - Date().timeIntervalSince1970))
        }
        due = Date(timeIntervalSince1970: minute)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm"
        let reminder = reminderTOML(
            title: "Sandbox check", body: "Shown on time, whatever the plugins try.", at: formatter.string(from: due),
            extra: "id = \"sandbox-check\"")
        try world.write(
            reminder + Self.probeSection("probe", other: "probe-net", world: world, token: token, port: port)
                + Self.probeSection("probe-net", other: "probe", world: world, token: token, port: port)
                + "[plugins.fork-bomb]\ntoken = \"\(token)\"\n",
            to: "config/hooray/hooray.toml")

        daemon = try await world.startDaemon(environment: ["OPENAI_API_KEY": environmentSecret])
        poller = Task { [world, board] in
            await board.follow { try await world.hooray(["plugins", "--json"]) }
        }
    }

    /// The `[plugins.NAME]` section of a probe: every address an attacker could want.
    private static func probeSection(
        _ plugin: String, other: String, world: SecondUserWorld, token: String, port: Int
    ) -> String {
        let home = world.home
        return """
            [plugins.\(plugin)]
            token = "\(token)"
            bus = "\(world.bus.address)"
            control_socket = "\(home.appending("runtime/hooray/control.sock"))"
            database = "\(home.appending("data/hooray/hooray.sqlite"))"
            other_data = "\(home.appending("data/hooray/plugin-data/\(other)/diary.txt"))"
            config_file = "\(home.appending("config/hooray/hooray.toml"))"
            home = "\(home.path)"
            tcp_port = \(port)
            abstract_socket = "hooray-probe-\(token)"


            """
    }

    /// Runs a probe's command as the user, once the probe runs, and decodes what it got.
    func probe<Result: Decodable>(
        _ plugin: String, _ command: String, as type: Result.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Result {
        // Running, or settled where it will not run.
        let settled = await line(plugin, within: .seconds(30)) {
            ["running", "refused", "given up", "disabled"].contains($0.state)
        }
        try #require(
            settled?.state == "running", "\(plugin) is not running: \(settled.map { "\($0)" } ?? "not listed")",
            sourceLocation: sourceLocation)
        let output = try await world.hooray([plugin, command])
        try #require(
            output.status == .exited(0), "hooray \(plugin) \(command): \(output.standardError)",
            sourceLocation: sourceLocation)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(type, from: Data(output.standardOutput.utf8))
    }

    /// Waits until `hooray plugins` lists the plugin in a way that satisfies `condition`, and
    /// returns that line; `nil` when it did not in time.
    func line(
        _ name: String, within timeout: Duration = .seconds(30),
        where condition: @escaping @Sendable (PluginLine) -> Bool = { _ in true }
    ) async -> PluginLine? {
        await pollUntil(timeout: timeout, interval: .milliseconds(100)) {
            await board.lines.first { $0.name == name && condition($0) }
        }
    }

    /// Waits until `hoorayd`'s log has a line containing one of `texts`, and returns that line.
    func logLine(containing texts: [String], within timeout: Duration) async -> String? {
        await pollUntil(timeout: timeout, interval: .milliseconds(100)) {
            daemon.standardError.split(separator: "\n").first { line in texts.contains { line.contains($0) } }
                .map(String.init)
        }
    }

    /// A namespace of `hoorayd`'s, such as `net:[4026531840]`.
    func daemonNamespace(_ kind: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(daemon.pid)/ns/\(kind)")
    }

    /// Checks that `hoorayd` still runs and answers.
    func expectUp(sourceLocation: SourceLocation = #_sourceLocation) async {
        #expect(daemon.isRunning, "hoorayd ended: \(daemon.standardError)", sourceLocation: sourceLocation)
        let status = try? await world.hooray(["status"])
        #expect(
            status?.status == .exited(0), "hooray status: \(status?.standardError ?? "did not run")",
            sourceLocation: sourceLocation)
    }

    /// The pids of the processes, of any user, whose command line contains `text`.
    static func processes(matching text: String) -> [Int32] {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
        return pids.filter { pid in
            guard let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: command, as: UTF8.self).contains(text)
        }
    }

    /// The pids and command lines of the processes whose command line contains `text`, for messages.
    static func commandLines(matching text: String) -> [String] {
        processes(matching: text).map { pid in
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            let line = String(decoding: command, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
            return "\(pid) \(line.prefix(300))"
        }
    }

    /// Stops `hoorayd` while the probe has a `setsid` child running: the child is gone within a
    /// second of `hoorayd`'s exit. Then starts `hoorayd` again and kills it (`SIGKILL`): the same.
    /// Then ends whatever this run's plugins left behind.
    func finish() async {
        await expectSetsidChildGone(when: "hoorayd exited") {
            #expect(await daemon.stop(gracePeriod: .seconds(15)) == .exited(0), "\(daemon.standardError)")
        }
        if let again = try? await world.startDaemon(environment: ["OPENAI_API_KEY": environmentSecret]) {
            await expectSetsidChildGone(when: "hoorayd was killed") {
                again.send(SIGKILL)
                #expect(await again.waitForExit(timeout: .seconds(5)) == .signalled(SIGKILL))
            }
            await again.stop(gracePeriod: .seconds(1))
        }
        poller.cancel()
        // What a plugin left behind where nothing held it (plain main) is ended here, by its pid.
        for pid in Self.processes(matching: token) where pid != listener.pid { kill(pid, SIGKILL) }
        listener.send(SIGKILL)
        await keyring.stop()
        await server.stop()
    }

    /// Has the probe start a `setsid` child, does `stop`, and checks the child is gone within a second.
    private func expectSetsidChildGone(when stopped: String, _ stop: () async -> Void) async {
        // Asked again until the probe (of a hoorayd just started) answers.
        let escape = await pollUntil(timeout: .seconds(20), interval: .milliseconds(200)) { () -> EscapeProbe? in
            guard let output = try? await world.hooray(["probe", "escape"]), output.status == .exited(0) else {
                return nil
            }
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return try? decoder.decode(EscapeProbe.self, from: Data(output.standardOutput.utf8))
        }
        guard let escape, escape.started else {
            Issue.record("before \(stopped), the probe started no setsid child: \(String(describing: escape))")
            await stop()
            return
        }
        let seen = await pollUntil(timeout: .seconds(5)) { Self.processes(matching: escape.name).isEmpty ? nil : true }
        #expect(seen == true, "before \(stopped), its setsid child is not seen running")
        await stop()
        let gone = await pollUntil(timeout: .seconds(1)) { Self.processes(matching: escape.name).isEmpty ? true : nil }
        #expect(
            gone == true, "a setsid child outlived \(stopped) by a second: \(Self.processes(matching: escape.name))")
        // Nothing else of any plugin either, bubblewrap included: every one runs from the home.
        let home = world.home.path
        let none = await pollUntil(timeout: .seconds(1)) { Self.processes(matching: home).isEmpty ? true : nil }
        #expect(none == true, "outlived \(stopped) by a second: \(Self.commandLines(matching: home))")
    }

    /// The test's server: `PORT n` on standard output, then `READY`; every connection, on TCP
    /// loopback or on the abstract socket `hooray-probe-TOKEN`, is answered `hello TOKEN`.
    static let listenerScript = """
        import socket, sys, threading
        token = sys.argv[1]
        tcp = socket.socket()
        tcp.bind(("127.0.0.1", 0))
        tcp.listen(16)
        unix = socket.socket(socket.AF_UNIX)
        unix.bind("\\0hooray-probe-" + token)
        unix.listen(16)
        print("PORT %d" % tcp.getsockname()[1])
        print("READY")
        def serve(server, kind):
            while True:
                connection, _ = server.accept()
                print("CONNECTED " + kind)
                try:
                    connection.settimeout(2)
                    connection.recv(4096)
                    connection.sendall(b"HTTP/1.0 200 OK\\r\\n\\r\\nhello " + token.encode() + b"\\n")
                except Exception:
                    pass
                connection.close()
        threading.Thread(target=serve, args=(unix, "abstract"), daemon=True).start()
        serve(tcp, "tcp")
        """
}

/// What a probe's command answers (see `Tests/Fixtures/plugins/sandbox/probe/probe.py`).
struct FileTry: Decodable, Sendable {
    let path: String
    let got: String?
    let error: String?
    /// A folder's entries, when it could be listed.
    let entries: [String]?
}

struct Reach: Decodable, Sendable {
    let connected: Bool
    let answer: String?
    let error: String?
}

struct EnvironmentProbe: Decodable, Sendable {
    let own: [String]
    let ownLeaks: [String]
    let parent: FileTry
    let pid1: FileTry
    let scanned: Int
    let seen: [String]
    let processes: [String]
}

struct FilesProbe: Decodable, Sendable {
    let tried: [FileTry]
    let wrote: [String]
    let ownManifest: Bool
}

struct BusProbe: Decodable, Sendable {
    let given: Reach
    let usual: Reach
}

struct KeyringProbe: Decodable, Sendable {
    struct Try: Decodable, Sendable {
        let words: [String]
        let status: Int?
        let output: String
    }
    let tries: [Try]
}

struct NetworkProbe: Decodable, Sendable {
    let tcp: Reach
    let abstract: Reach
}

struct EscapeProbe: Decodable, Sendable {
    let name: String
    let started: Bool
}

struct LimitsProbe: Decodable, Sendable {
    let limits: [String: [Int]]
    let status: [String: String]
    let descriptors: [Int]
    let namespaces: [String: String]
}
