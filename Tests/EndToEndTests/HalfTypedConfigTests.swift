import Foundation
import HooraySystemTesting
import Testing

/// Configuration files nobody on the project wrote — the toml-test corpus — and the half-typed
/// ones an editor saves mid-edit, given to the real `hooray` and `hoorayd`.
// The limit guards against a hang: the 777 processes of the corpus take a minute alone and more
// than five beside 31 other tests on two loaded cores.
@Suite(.timeLimit(.minutes(12)))
struct HalfTypedConfigTests {
    /// The corpus documents that made toml++ abort the process before Hooray guarded against them.
    static let abortedTOMLKit = [
        "invalid/key/single-open-bracket.toml",
        "invalid/table/bare-invalid-character-01.toml",
        "invalid/table/dot.toml",
        "invalid/table/dotdot.toml",
        "invalid/table/no-close-04.toml",
    ]

    /// The corpus documents TOML 1.0 refuses and TOML 1.1, which Hooray reads, allows.
    static let validInTOML11: Set<String> = {
        let list = try? String(contentsOfFile: corpus + "/valid-in-toml-1.1", encoding: .utf8)
        return Set((list ?? "").split(separator: "\n").map(String.init))
    }()

    static let corpus: String = {
        // Tests/EndToEndTests/this file → Tests/Fixtures/toml-test.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/toml-test").path
    }()

    @Test func configCheckRefusesEveryInvalidCorpusFileWithALocationAndCrashesOnNone() async throws {
        try await HoorayFixture.with { fixture in
            let names = try FileManager.default.subpathsOfDirectory(atPath: Self.corpus)
                .filter { $0.hasSuffix(".toml") }.sorted()
            #expect(names.count == 509 + 268)

            // A few at a time: each is a real process.
            var problems: [String] = []
            var refusedValid = 0
            var pending = names[...]
            try await withThrowingTaskGroup(of: (String, ProcessOutput).self) { group in
                func startNext() {
                    guard let name = pending.popFirst() else { return }
                    group.addTask {
                        (name, try await fixture.hooray("config", "check", Self.corpus + "/" + name))
                    }
                }
                for _ in 0..<4 { startNext() }
                while let (name, output) = try await group.next() {
                    startNext()
                    let path = Self.corpus + "/" + name
                    let placed = output.standardError.contains(path + ":") && output.standardError.contains(": error: ")
                    let invalid = name.hasPrefix("invalid/") && !Self.validInTOML11.contains(name)
                    switch (invalid, output.status) {
                    case (true, .exited(78)) where placed, (false, .exited(0)):
                        break
                    case (false, .exited(78)) where placed:
                        refusedValid += 1
                    default:
                        problems.append("\(name): \(output.status)\n\(output.standardError.prefix(300))")
                    }
                }
            }
            #expect(problems.isEmpty, "\(problems.count) files:\n\(problems.joined(separator: "\n"))")
            #expect(refusedValid == 0)
        }
    }

    @Test func aHalfTypedFileOnReloadNeverStopsTheScheduler() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let good = reminderTOML(title: "Stretch", body: "Roll your shoulders.", at: "15:00")
            let file = try fixture.writeConfig(good)
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 14:59:40")

            // Each of the five files the parser used to abort on is saved over the configuration and
            // reloaded, by SIGHUP and by `hooray reload`.
            for (number, name) in Self.abortedTOMLKit.enumerated() {
                try Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/" + name)).write(
                    to: URL(fileURLWithPath: file))
                if number.isMultiple(of: 2) {
                    daemon.send(SIGHUP)
                } else {
                    let reload = try await fixture.hooray("reload")
                    #expect(reload.status == .exited(78), "\(name)")
                    #expect(
                        reload.standardError.contains("\(file):1:2: error: the table header has no name"), "\(name)")
                }
                let refused = await pollUntil(timeout: .seconds(15)) { () -> Bool? in
                    daemon.standardError.components(separatedBy: "still running on the last good one").count - 1
                        > number ? true : nil
                }
                #expect(refused == true, "\(name): \(daemon.standardError)")
                #expect(daemon.isRunning, "\(name)")
            }
            #expect(daemon.standardError.contains("\(file):1:2: error: the table header has no name"))

            // The reminder of the last good configuration still comes, once.
            let arrived = try await server.waitForNotifications(count: 1, timeout: .seconds(40))
            #expect(arrived.map(\.summary) == ["Stretch"])
            #expect(daemon.isRunning)

            // Finishing the edit is picked up at the next reload.
            try fixture.writeConfig(reminderTOML(title: "Breathe", body: "", at: "16:00"))
            daemon.send(SIGHUP)
            #expect(
                await daemon.waitForOutput(
                    containing: "configuration reloaded", in: .standardError, timeout: .seconds(15)))
            let next = try await fixture.hooray("next", fakeTime: "2026-11-23 15:01:00")
            #expect(next.standardOutput.contains("Breathe"))
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func aFileNestedTenThousandDeepIsRefusedAndTheSchedulerKeepsRunning() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let file = try fixture.writeConfig(reminderTOML(title: "Stretch", body: "", at: "15:00"))
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-23 14:59:40")
            let deep = "a = " + String(repeating: "{b = ", count: 10_000) + "1" + String(repeating: "}", count: 10_000)

            let deepFile = fixture.home.appending("deep.toml")
            try deep.write(toFile: deepFile, atomically: true, encoding: .utf8)
            let check = try await fixture.hooray("config", "check", deepFile)
            #expect(check.status == .exited(78))
            #expect(
                check.standardError.contains(
                    "deep.toml:1:645: error: lists, inline tables and dotted keys are nested more"))

            try deep.write(toFile: file, atomically: true, encoding: .utf8)
            daemon.send(SIGHUP)
            #expect(
                await daemon.waitForOutput(
                    containing: "still running on the last good one", in: .standardError, timeout: .seconds(15)))
            let arrived = try await server.waitForNotifications(count: 1, timeout: .seconds(40))
            #expect(arrived.map(\.summary) == ["Stretch"])
            #expect(daemon.isRunning)
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
