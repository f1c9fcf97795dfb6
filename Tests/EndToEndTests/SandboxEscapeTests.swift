import Foundation
import HooraySystemTesting
import Testing

/// A plugin in the user's plugin folder that tries every way out an attacker would gets nothing:
/// the sandbox corpus (`Tests/Fixtures/plugins/sandbox`, see its README) installed in one real
/// `hoorayd`, run with its session bus, notification server and keyring as an ordinary user
/// (``SecondUserWorld``: the kernel exempts root from the process-count limit), with a secret in `hoorayd`'s
/// environment and one in the keyring. Each test asks a probe to try one thing and checks what it
/// got; the fork bomb and the memory hog run from the start, and a built-in reminder is due while
/// they do. ``SandboxRun/finish()`` checks that a `setsid` child dies with `hoorayd`.
///
/// The tests share the one run and take turns (`serialized`): one restarts the probe.
@Suite(
    .serialized, .timeLimit(.minutes(3)),
    .enabled(if: SecondUser.isAvailable, "needs root and setpriv, to run the user's world as another user"),
    SandboxRun.Scope())
struct SandboxEscapeTests {
    /// Both probes: without the network, and with it (sharing the computer's network).
    static let probes = ["probe", "probe-net"]

    @Test(arguments: probes)
    func aPluginSeesNoSecretInItsOwnEnvironmentNorInAnyOtherProcesss(_ probe: String) async throws {
        let run = try #require(SandboxRun.current)
        // The secret is there to find: in hoorayd's environment.
        let daemonEnvironment = FileManager.default.contents(atPath: "/proc/\(run.daemon.pid)/environ") ?? Data()
        #expect(String(decoding: daemonEnvironment, as: UTF8.self).contains(run.environmentSecret))

        let found = try await run.probe(probe, "environment", as: EnvironmentProbe.self)
        let fixed: Set = ["PATH", "HOME", "LANG", "TZ", "PYTHONUNBUFFERED"]
        let more = found.own.filter { !fixed.contains($0) && !$0.hasPrefix("LC_") && !$0.hasPrefix("HOORAY_") }
        #expect(more.isEmpty, "variables beyond the fixed list: \(more)")
        #expect(found.ownLeaks.isEmpty)
        #expect(found.scanned >= 1, "it read not even its own environment")
        #expect(found.seen.isEmpty, "secrets it read: \(found.seen)")
        // No other process at all: not hoorayd, its bus or the keyring.
        let others = found.processes.filter {
            ["hoorayd", "dbus-daemon", "gnome-keyring", "notification_server"].contains(where: $0.contains)
        }
        #expect(others.isEmpty, "processes it sees: \(others)")
        await run.expectUp()
    }

    @Test(arguments: probes)
    func aPluginCannotReachTheSessionBusOrTheKeyringOnIt(_ probe: String) async throws {
        let run = try #require(SandboxRun.current)
        // The keyring holds the secret, unlocked, for the user's own programs.
        #expect(
            try await run.keyring.lookup(attributes: ["kind": "ai-key", "provider": "openai"]) == run.keyringSecret)

        let bus = try await run.probe(probe, "bus", as: BusProbe.self)
        #expect(!bus.given.connected, "it reached the bus at \(run.world.bus.address): \(bus.given.answer ?? "")")
        #expect(!bus.usual.connected, "it reached /run/user/\(run.world.uid)/bus: \(bus.usual.answer ?? "")")
        let keyring = try await run.probe(probe, "keyring", as: KeyringProbe.self)
        for attempt in keyring.tries {
            #expect(attempt.status != 0, "secret-tool \(attempt.words.joined(separator: " ")): \(attempt.output)")
            #expect(!attempt.output.contains(run.keyringSecret))
        }
        await run.expectUp()
    }

    @Test(arguments: probes)
    func aPluginCannotReadTheDatabaseTheConfigurationOrAnotherPluginsFiles(_ probe: String) async throws {
        let run = try #require(SandboxRun.current)
        let home = run.world.home
        for file in [
            "data/hooray/hooray.sqlite", "config/hooray/hooray.toml", "data/hooray/plugin-data/probe/diary.txt",
        ] {
            #expect(FileManager.default.fileExists(atPath: home.appending(file)), "\(file) is not there to read")
        }

        let files = try await run.probe(probe, "files", as: FilesProbe.self)
        // A folder on the way to its own may be there, holding only that way (bubblewrap makes
        // them to mount its folders on): nothing of the user's.
        let own = Set(
            ["data/hooray/plugins/\(probe)", "data/hooray/plugin-data/\(probe)"].flatMap { $0.split(separator: "/") }
                .map(String.init))
        for attempt in files.tried {
            if let entries = attempt.entries {
                #expect(Set(entries).isSubset(of: own), "it listed \(attempt.path): \(entries)")
            } else {
                #expect(attempt.got == nil, "it read \(attempt.path): \(attempt.got ?? "")")
            }
        }
        // Its own folder it may read, its own data folder it may write, and nothing else.
        #expect(files.ownManifest, "it could not read its own plugin.toml")
        #expect(files.wrote.contains { $0.hasSuffix("/\(probe)/mine") }, "it wrote \(files.wrote)")
        #expect(FileManager.default.fileExists(atPath: home.appending("data/hooray/plugin-data/\(probe)/mine")))
        for folder in [
            "", "data/hooray/plugins/\(probe)", "data/hooray/plugin-data/probe", "data/hooray/plugin-data/probe-net",
        ] {
            let planted = home.appending(folder + "/probe-was-here")
            #expect(!FileManager.default.fileExists(atPath: planted), "it wrote \(planted)")
        }
        await run.expectUp()
    }

    @Test(arguments: probes)
    func aPluginCannotReachTheControlSocketAndSavesNoMoment(_ probe: String) async throws {
        let run = try #require(SandboxRun.current)
        let control = try await run.probe(probe, "control", as: Reach.self)
        #expect(!control.connected, "it reached the control socket: \(control.answer ?? "")")
        let moments = try await run.world.hooray(["moments", "--json"])
        #expect(moments.status == .exited(0), "\(moments.standardError)")
        #expect(!moments.standardOutput.contains("Probe was here"))
        #expect(moments.standardOutput == run.momentsBefore)
        #expect(run.momentsBefore.contains("Kept safe while the probes tried"))
        await run.expectUp()
    }

    @Test func withoutTheNetworkPermissionAPluginReachesNoServerAndWithItOnlyTheNetwork() async throws {
        let run = try #require(SandboxRun.current)
        let without = try await run.probe("probe", "network", as: NetworkProbe.self)
        #expect(!without.tcp.connected, "without the permission it reached loopback: \(without.tcp.answer ?? "")")
        #expect(!without.abstract.connected, "it reached an abstract socket: \(without.abstract.answer ?? "")")

        let with = try await run.probe("probe-net", "network", as: NetworkProbe.self)
        #expect(with.tcp.answer?.contains("hello \(run.token)") == true, "\(with.tcp)")
        // The network is the computer's, but the abstract sockets of the user's programs (a
        // session bus may listen on one) stay out of reach.
        #expect(!with.abstract.connected, "with the network it reached an abstract socket: \(with.abstract)")
        await run.expectUp()
    }

    @Test(arguments: probes)
    func aPluginRunsWithLimitsWithoutNewPrivilegesAndWithOnlyItsOwnDescriptors(_ probe: String) async throws {
        let run = try #require(SandboxRun.current)
        let found = try await run.probe(probe, "limits", as: LimitsProbe.self)
        #expect(found.status["NoNewPrivs"] == "1", "\(found.status)")
        // Hard limits, which the plugin cannot raise: processes, open files and memory.
        let processes = found.limits["NPROC"]?.last ?? -1
        #expect(processes != -1 && processes <= 4096, "processes: \(processes)")
        let files = found.limits["NOFILE"]?.last ?? -1
        #expect(files != -1 && files <= 65536, "open files: \(files)")
        let memory = [found.limits["AS"]?.last ?? -1, found.limits["DATA"]?.last ?? -1].filter { $0 != -1 }
        #expect(!memory.isEmpty, "no memory limit: \(found.limits)")
        #expect(found.descriptors == [0, 1, 2], "open descriptors: \(found.descriptors)")
        // Its own processes and mounts; its own network unless it asked for the computer's.
        for kind in ["pid", "mnt"] {
            #expect(found.namespaces[kind] != run.daemonNamespace(kind), "it shares hoorayd's \(kind) namespace")
        }
        let network = found.namespaces["net"] == run.daemonNamespace("net")
        #expect(network == (probe == "probe-net"), "network namespace: \(String(describing: found.namespaces["net"]))")
        await run.expectUp()
    }

    @Test func aSetsidChildIsGoneWithinASecondOfThePluginsStop() async throws {
        let run = try #require(SandboxRun.current)
        let escape = try await run.probe("probe", "escape", as: EscapeProbe.self)
        #expect(escape.started)
        let seen = await pollUntil(timeout: .seconds(5)) {
            SandboxRun.processes(matching: escape.name).isEmpty ? nil : true
        }
        try #require(seen == true, "its setsid child is not seen running")

        let restarted = try await run.world.hooray(["plugins", "restart", "probe"])
        #expect(restarted.status == .exited(0), "\(restarted.standardError)")
        let gone = await pollUntil(timeout: .seconds(1)) {
            SandboxRun.processes(matching: escape.name).isEmpty ? true : nil
        }
        #expect(gone == true, "a setsid child outlived its plugin by a second")
        await run.expectUp()
    }

    @Test func aMemoryHogIsStoppedWithALineSayingItRanOutOfItsMemoryLimit() async throws {
        let run = try #require(SandboxRun.current)
        // Its last words are Python's MemoryError: the limit is the host's to name.
        let line = await run.line("memory-hog", within: .seconds(30)) { $0.state != "running" && $0.lastError != nil }
        let latest = await run.board.lines.first { $0.name == "memory-hog" }
        let said = line?.lastError ?? ""
        #expect(said.contains("memory limit"), "\(latest.map { "\($0)" } ?? "not listed")")
        #expect(!run.daemon.standardError.contains("memory-hog: took 1536 MiB and nothing stopped me"))
        await run.expectUp()
    }

    @Test func aForkBombIsStoppedWithALineSayingItTriedTooManyProcessesAndLeavesNone() async throws {
        let run = try #require(SandboxRun.current)
        // It never stops by itself, and says nothing but Python's BlockingIOError: the host stops
        // it, naming the limit, again after each restart, until it gives up.
        let line = await run.line("fork-bomb", within: .seconds(45)) {
            $0.lastError?.contains("processes") == true && $0.lastError?.contains("limit") == true
        }
        let latest = await run.board.lines.first { $0.name == "fork-bomb" }
        #expect(line != nil, "\(latest.map { "\($0)" } ?? "not listed")")
        #expect(!run.daemon.standardError.contains("nothing stopped me"))
        // Given up after its fifth run (each a few seconds on a loaded computer), it has no process
        // left: not one of those it forked.
        let givenUp = await run.line("fork-bomb", within: .seconds(60)) { $0.state == "given up" }
        let last = await run.board.lines.first { $0.name == "fork-bomb" }
        #expect(givenUp != nil, "\(last.map { "\($0)" } ?? "not listed")")
        let name = "hooray-fork-bomb-\(run.token)"
        let gone = await pollUntil(timeout: .seconds(2)) {
            SandboxRun.processes(matching: name).isEmpty ? true : nil
        }
        #expect(gone == true, "\(SandboxRun.processes(matching: name).count) of its processes are left")
        await run.expectUp()
    }

    @Test func theBuiltInReminderIsShownOnTimeWhileThePluginsTryTheirWorst() async throws {
        let run = try #require(SandboxRun.current)
        let wait = Duration.seconds(max(0, run.due.timeIntervalSinceNow) + 20)
        let shown = await pollUntil(timeout: wait, interval: .milliseconds(50)) {
            try? run.server.notifications().first { $0.summary == "Sandbox check" }
        }
        let notice = try #require(shown, "\(run.daemon.standardError)")
        let lateness = notice.realtime - run.due.timeIntervalSince1970
        #expect(lateness >= 0 && lateness <= 1, "shown \(lateness) s after its time")
        #expect(notice.body == "Shown on time, whatever the plugins try.")
        // It was due while the fork bomb was at it: started before, and given up after, in hoorayd's
        // own log.
        _ = await run.line("fork-bomb", within: .seconds(60)) { $0.state == "given up" }
        let log = run.daemon.standardError
        #expect(hoorayLog(log, says: "fork-bomb: started", before: "reminders/sandbox-check is due"), "\(log)")
        #expect(hoorayLog(log, says: "reminders/sandbox-check is due", before: "fork-bomb: gave up"), "\(log)")
        await run.expectUp()
    }
}
