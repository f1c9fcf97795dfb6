import Foundation
import HooraySystemTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A plugin in another language as its sandbox holds it, through the real hoorayd and bubblewrap:
/// what it can see and write, its limits, that nothing it starts outlives it, and what happens where
/// no sandbox can be had.
@Suite(.timeLimit(.minutes(4)))
struct SandboxedPluginTests {
    /// Writes a plugin named `probe` in Python, with the SDK beside it: its commands are `body`'s.
    @discardableResult
    static func writeProbe(into fixture: HoorayFixture, commands: [String], body: String, limits: String = "")
        throws -> String
    {
        let folder = fixture.home.appending("data/hooray/plugins/probe")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let tables = commands.map { "[[commands]]\nname = \"\($0)\"\nsummary = \"\($0).\"\n" }.joined(separator: "\n")
        try """
        name = "probe"
        version = "1.0.0"
        api_version = 1
        description = "Looks around."
        exec = ["probe.py"]
        permissions = ["storage"]
        \(limits)

        \(tables)
        """.write(toFile: folder + "/plugin.toml", atomically: true, encoding: .utf8)
        try writeProgram(
            """
            #!/usr/bin/env python3
            import json, os, subprocess, sys, time
            from hooray_plugin import Plugin

            plugin = Plugin()

            \(body)

            plugin.run()

            """, to: folder + "/probe.py")
        try FileManager.default.copyItem(
            atPath: ExternalPluginTests.examples + "/pomodoro/hooray_plugin.py", toPath: folder + "/hooray_plugin.py")
        return folder
    }

    struct Looked: Decodable {
        let environment: [String: String]
        let seen: [String: Bool]
        let wroteOwnFolder: String
        let wroteData: String
        let noNewPrivs: String
        let processes: Int
    }

    @Test func aPluginSeesOnlyTheFixedEnvironmentItsOwnFolderReadOnlyItsDataWritableAndNoHome() async throws {
        try await HoorayFixture.with { fixture in
            let home = fixture.home.path
            let folder = try Self.writeProbe(
                into: fixture, commands: ["look"],
                body: """
                    def attempt(path):
                        try:
                            with open(path, "w") as handle:
                                handle.write("written")
                            return "written"
                        except OSError as error:
                            return error.strerror

                    @plugin.command("look")
                    def look(command, host):
                        places = ["\(home)/config/hooray", "\(home)/data/hooray/hooray.sqlite", "\(home)/runtime",
                                  "/run/user", "/run", "/root", "/home", "/etc/shadow-readable"]
                        seen = {place: os.path.exists(place) for place in places}
                        try:
                            seen["/etc/shadow-readable"] = len(open("/etc/shadow").read()) > 0
                        except OSError:
                            seen["/etc/shadow-readable"] = False
                        status = open("/proc/self/status").read()
                        return json.dumps({
                            "environment": dict(os.environ),
                            "seen": seen,
                            "wroteOwnFolder": attempt(os.path.join(os.getcwd(), "planted")),
                            "wroteData": attempt(os.path.join(os.environ["HOORAY_PLUGIN_DATA"], "kept")),
                            "noNewPrivs": [line.split()[1] for line in status.splitlines() if line.startswith("NoNewPrivs")][0],
                            "processes": len([name for name in os.listdir("/proc") if name.isdigit()]),
                        })
                    """)
            let daemon = try await fixture.startDaemon(environment: ["OPENAI_API_KEY": "sk-not-for-plugins"])
            let output = try await fixture.hooray("probe", "look")
            #expect(output.status == .exited(0), "\(output.standardError)\n\(daemon.standardError)")
            let looked = try JSONDecoder().decode(Looked.self, from: Data(output.standardOutput.utf8))

            let data = home + "/data/hooray/plugin-data/probe"
            #expect(
                looked.environment == [
                    "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC", "HOME": data,
                    "HOORAY_PLUGIN": "probe", "HOORAY_PLUGIN_DATA": data, "PYTHONUNBUFFERED": "1",
                ])
            #expect(looked.seen.values.allSatisfy { !$0 }, "\(looked.seen)")
            #expect(looked.wroteOwnFolder == "Read-only file system")
            #expect(!FileManager.default.fileExists(atPath: folder + "/planted"))
            #expect(looked.wroteData == "written")
            #expect((try? String(contentsOfFile: data + "/kept", encoding: .utf8)) == "written")
            #expect(looked.noNewPrivs == "1")
            // bubblewrap's init, the plugin: no process of the computer's.
            #expect(looked.processes <= 3, "\(looked.processes)")
            await daemon.stop()
        }
    }

    /// A plugin whose `spawn` command starts a grandchild in a session of its own that says it runs
    /// (a file in the plugin's data folder) and would sleep for a long time, named by `token`.
    static func writeSpawner(into fixture: HoorayFixture, token: String) throws {
        try writeProbe(
            into: fixture, commands: ["spawn"],
            body: """
                @plugin.command("spawn")
                def spawn(command, host):
                    marker = os.path.join(os.environ["HOORAY_PLUGIN_DATA"], "grandchild-up")
                    subprocess.Popen(
                        ["/usr/bin/python3", "-c",
                         "import sys, time; open(sys.argv[1], 'w').write('up'); time.sleep(1000)", marker, "\(token)"],
                        start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL)
                    return "spawned"
                """)
    }

    /// The processes of this computer whose command line holds `token`.
    static func processes(holding token: String) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap(Int32.init).filter { pid in
            guard let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else { return false }
            return String(decoding: line, as: UTF8.self).contains(token)
        }
    }

    /// Runs `spawn` and waits until the grandchild says it runs and is seen on the computer.
    static func spawnGrandchild(_ fixture: HoorayFixture, token: String) async throws -> Bool {
        let spawned = try await fixture.hooray("probe", "spawn")
        #expect(spawned.status == .exited(0), "\(spawned.standardError)")
        let marker = fixture.home.appending("data/hooray/plugin-data/probe/grandchild-up")
        return await pollUntil(timeout: .seconds(10), interval: .milliseconds(20)) { () -> Bool? in
            FileManager.default.fileExists(atPath: marker) && !processes(holding: token).isEmpty ? true : nil
        } ?? false
    }

    @Test func aSetsidGrandchildIsGoneWithinASecondOfThePluginsStop() async throws {
        try await HoorayFixture.with { fixture in
            let token = "hooray-grandchild-\(UUID().uuidString)"
            try Self.writeSpawner(into: fixture, token: token)
            let daemon = try await fixture.startDaemon()
            #expect(try await Self.spawnGrandchild(fixture, token: token), "\(daemon.standardError)")

            try fixture.writeConfig("[plugins.probe]\nenabled = false\n")
            let reload = try await fixture.hooray("reload")
            #expect(reload.status == .exited(0), "\(reload.standardError)")
            let stopped = await pollUntil(timeout: .seconds(10), interval: .milliseconds(20)) { () -> Bool? in
                (try? await ExternalPluginTests.plugins(fixture))?.first { $0.name == "probe" }?.state == "disabled"
                    ? true : nil
            }
            #expect(stopped == true)
            let gone = await pollUntil(timeout: .seconds(1), interval: .milliseconds(10)) { () -> Bool? in
                Self.processes(holding: token).isEmpty ? true : nil
            }
            #expect(gone == true, "the grandchild outlived the plugin: \(Self.processes(holding: token))")
            await daemon.stop()
        }
    }

    @Test func aSetsidGrandchildIsGoneWithinASecondOfHoorayDBeingKilled() async throws {
        try await HoorayFixture.with { fixture in
            let token = "hooray-grandchild-\(UUID().uuidString)"
            try Self.writeSpawner(into: fixture, token: token)
            let daemon = try await fixture.startDaemon()
            #expect(try await Self.spawnGrandchild(fixture, token: token), "\(daemon.standardError)")

            daemon.send(SIGKILL)
            #expect(await daemon.waitForExit(timeout: .seconds(10)) != nil)
            let gone = await pollUntil(timeout: .seconds(1), interval: .milliseconds(10)) { () -> Bool? in
                Self.processes(holding: token).isEmpty ? true : nil
            }
            #expect(gone == true, "the grandchild outlived hoorayd: \(Self.processes(holding: token))")
        }
    }

    @Test func aPluginThatRunsOutOfItsMemoryIsShownToHaveRunOutWithHowToRaiseIt() async throws {
        try await HoorayFixture.with { fixture in
            try Self.writeProbe(
                into: fixture, commands: ["look"], body: "hoard = bytearray(400 << 20)",
                limits: "[limits]\nmemory = \"128M\"")
            let daemon = try await fixture.startDaemon()
            let said = await pollUntil(timeout: .seconds(20), interval: .milliseconds(100)) { () -> String? in
                let probe = try? await ExternalPluginTests.plugins(fixture).first { $0.name == "probe" }
                return probe?.lastError.flatMap { $0.contains("ran out of its memory limit") ? $0 : nil }
            }
            let reason = try #require(said, "\(daemon.standardError)")
            #expect(reason.contains("of 128 MiB"), "\(reason)")
            #expect(reason.contains("memory under [limits]"), "\(reason)")
            await daemon.stop()
        }
    }

    @Test func aCallThatUsesMoreCPUThanItsLimitStopsThePlugin() async throws {
        try await HoorayFixture.with { fixture in
            try Self.writeProbe(
                into: fixture, commands: ["spin"],
                body: """
                    @plugin.command("spin")
                    def spin(command, host):
                        start = time.process_time()
                        while time.process_time() - start < 30:
                            pass
                        return "spun"
                    """, limits: "[limits]\ncpu_seconds = 1")
            let daemon = try await fixture.startDaemon()
            // The call times out before a busy computer gives it a second of CPU; it is watched until
            // it has used that second, whenever that is.
            _ = try await fixture.hooray("probe", "spin")
            let said = await pollUntil(timeout: .seconds(90), interval: .milliseconds(100)) { () -> String? in
                let probe = try? await ExternalPluginTests.plugins(fixture).first { $0.name == "probe" }
                return probe?.lastError.flatMap { $0.contains("of CPU in one call") ? $0 : nil }
            }
            let reason = try #require(said, "\(daemon.standardError)")
            #expect(reason.contains("more than its limit of 1 s"), "\(reason)")
            await daemon.stop()
        }
    }

    @Test func withoutBubblewrapThePluginIsNotStartedUntilAllowUnsandboxedSaysSo() async throws {
        try await HoorayFixture.with { fixture in
            try Self.writeProbe(
                into: fixture, commands: ["look"],
                body: """
                    @plugin.command("look")
                    def look(command, host):
                        return "looked"
                    """)
            let missing = ["HOORAY_BWRAP": "/nonexistent/bwrap"]
            let daemon = try await fixture.startDaemon(environment: missing)
            let refused = await pollUntil(timeout: .seconds(10), interval: .milliseconds(100)) {
                () -> ExternalPluginTests.PrintedPlugin? in
                try? await ExternalPluginTests.plugins(fixture).first {
                    $0.name == "probe" && $0.state == "not started"
                }
            }
            let reason = try #require(refused?.lastError, "\(daemon.standardError)")
            #expect(reason.contains("bubblewrap is not installed"), "\(reason)")
            #expect(reason.contains("sudo apt install bubblewrap"), "\(reason)")
            #expect(reason.contains("allow_unsandboxed = true"), "\(reason)")
            let command = try await fixture.hooray("probe", "look")
            #expect(command.status != .exited(0))
            #expect(command.standardError.contains("bubblewrap is not installed"), "\(command.standardError)")
            let doctor = try await fixture.hooray("doctor", environment: missing)
            let line = doctor.standardOutput.split(separator: "\n").first { $0.contains("Plugin sandbox") }
            #expect(line?.hasPrefix("✗") == true, "\(doctor.standardOutput)")

            try fixture.writeConfig("[plugins]\nallow_unsandboxed = true\n")
            let reload = try await fixture.hooray("reload")
            #expect(reload.status == .exited(0), "\(reload.standardError)")
            let running = await pollUntil(timeout: .seconds(10), interval: .milliseconds(100)) {
                () -> ExternalPluginTests.PrintedPlugin? in
                try? await ExternalPluginTests.plugins(fixture).first { $0.name == "probe" && $0.state == "running" }
            }
            #expect(running?.lastError?.contains("WITHOUT a sandbox") == true, "\(String(describing: running))")
            #expect(try await fixture.hooray("probe", "look").standardOutput.contains("looked"))
            #expect(daemon.standardError.contains("runs WITHOUT a sandbox"), "\(daemon.standardError)")
            await daemon.stop()
        }
    }
}
