import Foundation
import HooraySystemTesting
import Testing

/// The hostile plugin corpus (`Tests/Fixtures/plugins/hostile`, see its README) end to end: all of
/// it installed at once in the user's plugin folder of one real `hoorayd`, with a built-in reminder
/// due while the plugins are at their worst. Each test checks one plugin's line in `hooray plugins`
/// and what its case demands; every test also checks that `hoorayd` is still up.
///
/// The tests share the one run (``HostileRun``), so that the crash loops' backoff, the longest
/// wait, is waited once. The daemon runs on the real clock, not under libfaketime: libfaketime
/// moves the absolute deadlines of every timer by the faked offset, monotonic ones too, so
/// `hoorayd`'s time limits and backoff sleeps would not fire when due and the test would see a
/// supervisor that never wakes. The reminder is at a whole minute instead, and the run starts
/// 11 to 15 seconds before it.
@Suite(.timeLimit(.minutes(3)), HostileRun.Scope())
struct HostilePluginTests {
    /// One plugin of the corpus and the line `hooray plugins` must give it once it has settled.
    struct HostileCase: Sendable, CustomTestStringConvertible {
        /// Its folder in the corpus.
        let folder: String
        /// Its name in `plugin.toml`.
        let name: String
        /// The states it may settle in.
        let states: Set<String>
        /// What its reason must say.
        let reason: [String]
        /// A `hooray` command that makes it show its fault, when it shows none by itself.
        let command: [String]

        init(
            _ folder: String, name: String? = nil, _ states: Set<String>, _ reason: [String],
            command: [String] = []
        ) {
            self.folder = folder
            self.name = name ?? folder
            self.states = states
            self.reason = reason
            self.command = command
        }

        var testDescription: String { folder }

        /// Whether a line of `hooray plugins` is the one this plugin must settle in.
        @Sendable func isSettled(_ line: PluginLine) -> Bool {
            states.contains(line.state) && reason.allSatisfy { line.lastError?.contains($0) == true }
        }
    }

    static let corpus: [HostileCase] = [
        .init("missing-program", ["refused"], ["`exec` names missing-program.py, and there is no such file in"]),
        .init("not-executable", ["refused"], ["not-executable.py is not executable; make it so with chmod +x"]),
        .init("crashes-at-start", ["given up"], ["exited with status 3"]),
        .init("crashes-in-a-loop", ["given up"], ["exited with status 1"]),
        .init("garbage-on-stdout", ["given up"], ["to standard output outside a frame"]),
        .init("not-json", ["given up"], ["sent a message that is not JSON"]),
        .init(
            "log-line-on-stdout", ["given up"],
            ["wrote “[info] ready, waiting for reminders” to standard output outside a frame", "log to standard error"]),
        // Tried again and again, 10 s each, until it is given up after five tries (about 65 s in): a
        // test that looks late on a loaded machine sees that.
        .init("never-initializes", ["starting", "restarting", "given up"], ["did not answer initialize within 10 s"]),
        .init(
            "answers-late", ["running"], ["did not answer command within 5 s"], command: ["answers-late", "ping"]),
        .init("sends-100mb", ["given up"], ["sent a message of 104857600 bytes; the most is 1048576 bytes (1 MiB)"]),
        .init(
            "million-reminders", ["running"],
            ["called scheduleReminder and was refused: the plugin has 1000 reminders, the most it may keep"]),
        .init(
            "reads-other-storage", ["running"],
            ["and was refused", "a plugin reaches only its own storage and reminders"]
        ),
        .init("api-99", ["refused"], ["api-99 speaks plugin API 99, and this Hooray speaks 1"]),
        .init(
            "initializes-as-api-99", ["given up"],
            ["answered initialize with api_version 99, and this Hooray speaks plugin API 1"]),
        .init("builtin-command", name: "win", ["refused"], ["`hooray win` already belongs to the wins plugin"]),
        .init("builtin-name", name: "wins", ["refused"], ["the name `wins` belongs to a built-in plugin"]),
    ]

    @Test(arguments: corpus)
    func eachPluginGetsALineSayingWhatIsWrong(_ hostile: HostileCase) async throws {
        let run = try #require(HostileRun.current)
        if !hostile.command.isEmpty {
            _ = try await run.hooray(hostile.command)
        }
        let line = await run.line(hostile.folder, within: .seconds(60), where: hostile.isSettled)
        let seen = await run.latest(hostile.folder)
        #expect(line != nil, "\(hostile.folder): \(seen.map { "\($0)" } ?? "not listed")")
        #expect(seen?.name == hostile.name)
        #expect(seen?.kind == "external")
        await run.expectUp()
    }

    @Test func theCrashLoopIsGivenUpAfterFiveExitsWithBackoffAndSaidOnceInANotice() async throws {
        let run = try #require(HostileRun.current)
        let line = await run.line("crashes-in-a-loop", within: .seconds(60)) { $0.state == "given up" }
        // Started, then started again after 1, 2, 4 and 8 s, each run a second long: at least 19 s.
        #expect(ContinuousClock.now - run.started >= .seconds(19))
        #expect(line?.restarts == 4)
        #expect(line?.pid == nil)
        #expect(
            line?.lastError
                == "exited with status 1; its last words: “crashes-in-a-loop: lost my footing a second after starting”")

        let title = "The crashes-in-a-loop plugin has stopped"
        let notice = await pollUntil(timeout: .seconds(20), interval: .milliseconds(100)) {
            try? run.server.notifications().first { $0.summary == title }
        }
        #expect(notice?.body.contains("It stopped 5 times in 3 minutes, so Hooray let it rest.") == true)
        #expect(notice?.body.contains("`hooray plugins restart crashes-in-a-loop` starts it again") == true)
        // Every notice queued so far has reached the server: the one is all there is.
        #expect(await run.fixture.waitUntilSettled(nil), "\(run.daemon.standardError)")
        #expect(try run.server.notifications().filter { $0.summary == title }.count == 1)
        await run.expectUp()
    }

    @Test func aPluginThatNeverInitializesIsStoppedAfterTenSecondsAndTriedAgain() async throws {
        let run = try #require(HostileRun.current)
        let line = await run.line("never-initializes", within: .seconds(40)) { $0.lastError != nil }
        #expect(ContinuousClock.now - run.started >= .seconds(10))
        #expect(line?.lastError == "did not answer initialize within 10 s")
        // Started again (or, seen late, started again until it was given up).
        let again = await run.line("never-initializes", within: .seconds(20)) {
            ($0.restarts ?? 0) >= 1 && (($0.state == "starting" && $0.pid != nil) || $0.state == "given up")
        }
        let latest = await run.latest("never-initializes")
        #expect(again != nil, "\(String(describing: latest))")
        await run.expectUp()
    }

    @Test func aCommandAnsweredLateFailsAfterFiveSecondsAndThePluginRunsOn() async throws {
        let run = try #require(HostileRun.current)
        let before = try #require(await run.line("answers-late") { $0.state == "running" })

        let started = ContinuousClock.now
        let ping = try await run.hooray(["answers-late", "ping"])
        let took = ContinuousClock.now - started
        #expect(ping.status == .exited(1))
        #expect(ping.standardError.contains("the answers-late plugin did not answer command within 5 s"))
        #expect(ping.standardOutput.isEmpty)
        // Not before the 5 s call limit, and not after hoorayd's own 10 s limit for a plugin's command.
        #expect(took >= .seconds(4.5) && took < .seconds(10), "it took \(took)")

        // Its answer, seven seconds after the question, is dropped with a line in the log.
        #expect(
            await run.daemon.waitForOutput(
                containing: "answers-late: answered request", in: .standardError, timeout: .seconds(10)))
        // The plugins' board follows hoorayd a moment later: wait for its line to name the error.
        let after = await run.line("answers-late", within: .seconds(10)) { $0.lastError != nil }
        #expect(after?.state == "running")
        #expect(after?.pid == before.pid)
        #expect(after?.lastError == "did not answer command within 5 s")
        await run.expectUp()
    }

    @Test func aHundredMegabyteMessageStopsThePluginWithoutHoorayDHoldingIt() async throws {
        let run = try #require(HostileRun.current)
        let line = await run.line("sends-100mb", within: .seconds(60)) { $0.state == "given up" }
        #expect(line?.restarts == 4)
        #expect(line?.lastError == "sent a message of 104857600 bytes; the most is 1048576 bytes (1 MiB)")
        // Five 100 MB messages later, hoorayd's peak memory is its own: a debug build peaks near
        // 60 MiB here, and one that had read a message would have passed 160.
        let peak = try #require(run.peakMemory())
        #expect(peak < 128 << 20, "hoorayd's peak resident memory: \(peak >> 20) MiB")
        await run.expectUp()
    }

    @Test func aMillionRemindersEndAtAThousandAndThePluginHearsWhy() async throws {
        let run = try #require(HostileRun.current)
        #expect(
            await run.daemon.waitForOutput(
                containing:
                    "million-reminders: scheduled 1000 reminders, then the host refused the next with -32002: scheduleReminder: the plugin has 1000 reminders, the most it may keep; cancel some first",
                in: .standardError, timeout: .seconds(60)), "\(run.daemon.standardError)")
        let output = try await run.hooray(["next", "--all", "--json", "--limit", "5000"])
        #expect(output.status == .exited(0), "\(output.standardError)")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let planned = try decoder.decode([HoorayFixture.NextEntry].self, from: Data(output.standardOutput.utf8))
        let kept = planned.filter { $0.plugin == "million-reminders" }.map(\.id)
        #expect(kept.count == 1000)
        #expect(Set(kept) == Set((0..<1000).map { "r\($0)" }))
        #expect(planned.contains { $0.plugin == "reminders" }, "the built-in reminder is still planned")
        await run.expectUp()
    }

    @Test func anotherPluginsStorageAndRemindersStayOutOfReach() async throws {
        let run = try #require(HostileRun.current)
        #expect(
            await run.daemon.waitForOutput(
                containing:
                    "reads-other-storage: kept to my own storage: the host refused all 7 calls naming another plugin",
                in: .standardError, timeout: .seconds(60)), "\(run.daemon.standardError)")
        #expect(!run.daemon.standardError.contains("SAW WHAT IS NOT MINE"))
        // The wins plugin's moments are as they were before any plugin ran, the one that took its
        // name included.
        let moments = try await run.hooray(["moments", "--json"])
        #expect(moments.status == .exited(0), "\(moments.standardError)")
        #expect(moments.standardOutput == run.momentsBefore)
        #expect(run.momentsBefore.contains("Kept going while the plugins misbehaved"))
        await run.expectUp()
    }

    @Test func theBuiltInReminderIsShownOnTimeWhileTheWholeCorpusMisbehaves() async throws {
        let run = try #require(HostileRun.current)
        let wait = Duration.seconds(max(0, run.due.timeIntervalSinceNow) + 20)
        let shown = await pollUntil(timeout: wait, interval: .milliseconds(50)) {
            try? run.server.notifications().first { $0.summary == "Chaos check" }
        }
        let notice = try #require(shown, "\(run.daemon.standardError)")
        // The server's wall clock when the notice arrived, against the reminder's minute.
        let lateness = notice.realtime - run.due.timeIntervalSince1970
        #expect(lateness >= 0 && lateness <= 1, "shown \(lateness) s after its time")
        #expect(notice.body == "Shown on time, whatever the plugins do.")
        #expect(run.daemon.standardError.contains("reminders/chaos-check is due; queued notice"))

        // Once the crash loops are over, every plugin of the corpus is listed with its reason, and
        // each one given up was said once in a notice.
        _ = await run.line("crashes-in-a-loop", within: .seconds(60)) { $0.state == "given up" }
        // The reminder was due in the thick of it: the crash loop was started before, and given up
        // after, in hoorayd's own log.
        let log = run.daemon.standardError
        #expect(hoorayLog(log, says: "crashes-in-a-loop: started", before: "reminders/chaos-check is due"), "\(log)")
        #expect(hoorayLog(log, says: "reminders/chaos-check is due", before: "crashes-in-a-loop: gave up"), "\(log)")
        #expect(log.contains("crashes-in-a-loop: gave up after"), "\(log)")
        _ = await run.line("never-initializes", within: .seconds(30)) { $0.lastError != nil }
        #expect(await run.fixture.waitUntilSettled(nil), "\(run.daemon.standardError)")
        let lines = await run.board.lines
        for hostile in Self.corpus where hostile.command.isEmpty {
            let line = lines.first { $0.folderName == hostile.folder }
            #expect(line?.lastError?.isEmpty == false, "\(hostile.folder): \(String(describing: line))")
        }
        for line in lines where line.state == "given up" {
            let title = "The \(line.name) plugin has stopped"
            let said = await pollUntil(timeout: .seconds(10), interval: .milliseconds(100)) {
                try? run.server.notifications().filter { $0.summary == title }.count > 0 ? true : nil
            }
            #expect(said == true, "no notice that \(line.name) stopped")
        }
        // Every notice queued so far has reached the server: one each is all there is.
        #expect(await run.fixture.waitUntilSettled(nil), "\(run.daemon.standardError)")
        let notices = try run.server.notifications()
        for line in lines where line.state == "given up" {
            let said = notices.filter { $0.summary == "The \(line.name) plugin has stopped" }
            #expect(said.count == 1, "\(line.name): \(said.count) notices")
        }
        #expect(notices.filter { $0.summary == "Chaos check" }.count == 1)
        await run.expectUp()
    }
}

/// A line of `hooray plugins --json`.
struct PluginLine: Decodable, Sendable, CustomStringConvertible {
    let name: String
    let kind: String
    let state: String
    let version: String?
    let apiVersion: String?
    let pid: Int32?
    let restarts: Int?
    let lastError: String?
    let folder: String?

    /// The name of its folder, such as `crashes-at-start`.
    var folderName: String? { folder.map { URL(fileURLWithPath: $0).lastPathComponent } }

    var description: String {
        "\(name) \(state), pid \(pid.map(String.init) ?? "—"), restarts \(restarts.map(String.init) ?? "—"): "
            + (lastError ?? "no error")
    }
}

/// Whether hoorayd's log has a line containing `first` before any line containing `then` (or none
/// with `then` at all): the order in which one process saw two things happen, whatever the load.
func hoorayLog(_ log: String, says first: String, before then: String) -> Bool {
    guard let said = log.range(of: first) else { return false }
    guard let later = log.range(of: then) else { return true }
    return said.lowerBound < later.lowerBound
}

/// What `hooray plugins --json` said, as often as it is asked.
actor PluginBoard {
    /// The latest lines.
    private(set) var lines: [PluginLine] = []

    /// Keeps the latest reading of `hooray plugins --json`.
    func record(_ lines: [PluginLine]) {
        self.lines = lines
    }

    /// Runs `hooray plugins --json` every 300 ms in `read`'s world, keeping each reading, until cancelled.
    func follow(_ read: @escaping @Sendable () async throws -> ProcessOutput) async {
        while !Task.isCancelled {
            if let output = try? await read(), output.status == .exited(0),
                let lines = try? JSONDecoder().decode([PluginLine].self, from: Data(output.standardOutput.utf8))
            {
                record(lines)
            }
            try? await Task.sleep(for: .milliseconds(300))
        }
    }
}

/// One real `hoorayd` with the whole hostile corpus installed, shared by the tests of
/// ``HostilePluginTests`` through ``current``.
final class HostileRun: Sendable {
    /// The run of the suite being run.
    @TaskLocal static var current: HostileRun?

    /// Sets up the run once for the whole suite, and stops it when every test is done.
    struct Scope: SuiteTrait, TestScoping {
        var isRecursive: Bool { false }

        func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            try await HoorayFixture.with { fixture in
                let run = try await HostileRun(fixture: fixture)
                do {
                    try await HostileRun.$current.withValue(run) { try await function() }
                } catch {
                    await run.finish()
                    throw error
                }
                await run.finish()
            }
        }
    }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/plugins/hostile").path

    let fixture: HoorayFixture
    let server: TestNotificationServer
    let daemon: ChildProcess
    let board = PluginBoard()
    let poller: Task<Void, Never>
    /// The user's plugin folder.
    let pluginFolder: String
    /// When the built-in reminder is due: a whole minute, 11 to 15 s after `hoorayd` starts.
    let due: Date
    /// When `hoorayd` was started.
    let started: ContinuousClock.Instant
    /// `hooray moments --json` before any plugin ran.
    let momentsBefore: String

    init(fixture: HoorayFixture) async throws {
        self.fixture = fixture
        server = try await fixture.startServer()
        pluginFolder = fixture.home.appending("data/hooray/plugins")
        try FileManager.default.createDirectory(atPath: pluginFolder, withIntermediateDirectories: true)
        let copy = try await ProcessRunner.run("/bin/cp", arguments: ["-R", "-p", Self.corpus + "/.", pluginFolder])
        #expect(copy.status == .exited(0), "\(copy.standardError)")
        try? FileManager.default.removeItem(atPath: pluginFolder + "/README.md")

        // A win logged before hoorayd starts, to find unchanged afterwards.
        let win = try await fixture.hooray("win", "Kept going while the plugins misbehaved")
        #expect(win.status == .exited(0), "\(win.standardError)")
        momentsBefore = try await fixture.hooray("moments", "--json").standardOutput

        // The reminder's minute, and hoorayd started 11 to 15 s before it.
        let now = Date().timeIntervalSince1970
        var minute = (now / 60).rounded(.up) * 60
        if minute - now < 11 { minute += 60 }
        if minute - now > 15 {
            try await Task.sleep(for: .seconds(minute - 13 - Date().timeIntervalSince1970))
        }
        due = Date(timeIntervalSince1970: minute)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm"
        try fixture.writeConfig(
            reminderTOML(
                title: "Chaos check", body: "Shown on time, whatever the plugins do.", at: formatter.string(from: due),
                extra: "id = \"chaos-check\""))

        started = ContinuousClock.now
        daemon = try await fixture.startDaemon()
        // Plugins start beside hoorayd, not before it: not even one that never answers holds it up.
        let log = daemon.standardError
        #expect(log.contains("hoorayd is running") && !log.contains("did not answer initialize"), "\(log)")

        poller = Task { [fixture, board] in
            await board.follow { try await fixture.hooray("plugins", "--json") }
        }
    }

    /// Runs `hooray` in the run's world.
    func hooray(_ arguments: [String]) async throws -> ProcessOutput {
        try await fixture.hooray(arguments: arguments)
    }

    /// Waits until `hooray plugins` lists the plugin of a corpus folder in a way that satisfies
    /// `condition`, and returns that line; `nil` when it did not in time.
    func line(
        _ folder: String, within timeout: Duration = .seconds(30),
        where condition: @escaping @Sendable (PluginLine) -> Bool = { _ in true }
    ) async -> PluginLine? {
        await pollUntil(timeout: timeout, interval: .milliseconds(100)) {
            await board.lines.first { $0.folderName == folder && condition($0) }
        }
    }

    /// The latest line of the plugin of a corpus folder.
    func latest(_ folder: String) async -> PluginLine? {
        await board.lines.first { $0.folderName == folder }
    }

    /// `hoorayd`'s peak resident memory so far, in bytes (`VmHWM`).
    func peakMemory() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(daemon.pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).dropLast(3))
        else { return nil }
        return kilobytes * 1024
    }

    /// Checks that `hoorayd` still runs and answers.
    func expectUp(sourceLocation: SourceLocation = #_sourceLocation) async {
        #expect(daemon.isRunning, "hoorayd ended: \(daemon.standardError)", sourceLocation: sourceLocation)
        let status = try? await hooray(["status"])
        #expect(
            status?.status == .exited(0), "hooray status: \(status?.standardError ?? "did not run")",
            sourceLocation: sourceLocation)
    }

    /// Stops `hoorayd`, which stops every plugin it started: none is left running in the plugin folder.
    func finish() async {
        poller.cancel()
        #expect(await daemon.stop(gracePeriod: .seconds(15)) == .exited(0), "\(daemon.standardError)")
        let left = await pollUntil(timeout: .seconds(8), interval: .milliseconds(100)) {
            let running = Self.processes(workingIn: pluginFolder)
            return running.isEmpty ? [] : nil
        }
        #expect(left != nil, "still running in the plugin folder: \(Self.processes(workingIn: pluginFolder))")
    }

    /// The processes whose working directory is inside `folder`: plugins start in their own folder.
    static func processes(workingIn folder: String) -> [String] {
        let real = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { Int($0) != nil }
        return pids.compactMap { pid in
            guard let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd"),
                cwd.hasPrefix(real + "/") || cwd.hasPrefix(folder + "/")
            else { return nil }
            let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
            return "\(pid) \(command.replacingOccurrences(of: "\0", with: " "))"
        }
    }
}

/// `hooray plugins restart` on plugins of the hostile corpus: each answer says what became of it.
@Suite(.timeLimit(.minutes(2)))
struct HostilePluginRestartTests {
    @Test func restartingAPluginSaysWhetherItCameBackAndIfNotWhy() async throws {
        try await HoorayFixture.with { fixture in
            let plugins = fixture.home.appending("data/hooray/plugins")
            try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
            for folder in ["answers-late", "crashes-at-start", "never-initializes", "api-99"] {
                let copy = try await ProcessRunner.run(
                    "/bin/cp", arguments: ["-R", "-p", HostileRun.corpus + "/" + folder, plugins + "/" + folder])
                #expect(copy.status == .exited(0), "\(copy.standardError)")
            }
            let daemon = try await fixture.startDaemon()
            func line(_ name: String) async -> PluginLine? {
                let output = try? await fixture.hooray("plugins", "--json")
                let lines = try? JSONDecoder().decode(
                    [PluginLine].self, from: Data((output?.standardOutput ?? "").utf8))
                return lines?.first { $0.name == name }
            }

            // One that runs comes back as a new process.
            let before = await pollUntil(timeout: .seconds(20), interval: .milliseconds(100)) { () -> Int32? in
                await line("answers-late")?.pid
            }
            let restarted = try await fixture.hooray("plugins", "restart", "answers-late")
            #expect(restarted.status == .exited(0), "\(restarted.standardError)")
            let after = await line("answers-late")
            #expect(after?.state == "running")
            #expect(after?.pid != nil && after?.pid != before)
            #expect(restarted.standardOutput == "Restarted answers-late (pid \(after?.pid ?? 0)).\n")

            // One that exits as it starts says so, with its last words (not a time-out of its own).
            let crashed = try await fixture.hooray("plugins", "restart", "crashes-at-start")
            #expect(crashed.status == .exited(1))
            #expect(
                crashed.standardError
                    == "hooray plugins restart: crashes-at-start was started again but is not running: exited with status 3; its last words: “crashes-at-start: my settings file is missing, so I stop here”\n"
            )

            // One that never answers says so once `initialize` has had its 10 s, not "hoorayd did not answer".
            let started = ContinuousClock.now
            let silent = try await fixture.hooray("plugins", "restart", "never-initializes")
            #expect(ContinuousClock.now - started >= .seconds(10))
            #expect(silent.status == .exited(1))
            #expect(
                silent.standardError
                    == "hooray plugins restart: never-initializes was started again but is not running: did not answer initialize within 10 s\n"
            )

            // A folder that is not loaded is named as such, with the reason and the fix.
            let refused = try await fixture.hooray("plugins", "restart", "api-99")
            #expect(refused.status == .exited(1))
            #expect(
                refused.standardError.hasPrefix(
                    "hooray plugins restart: the api-99 plugin in \(plugins)/api-99 is not loaded: plugin.toml:4:15: api-99 speaks plugin API 99, and this Hooray speaks 1"
                ), "\(refused.standardError)")
            #expect(refused.standardError.hasSuffix("; fix it, then `hooray reload`\n"))
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
