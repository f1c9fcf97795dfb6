import Foundation
import HooraySystemTesting
import Testing

/// Item 3: listings take --limit, --since, --until and --search, page on a terminal, and stream.
@Suite(.timeLimit(.minutes(3)))
struct ListingTests {
    struct Listed: Decodable {
        let text: String
    }

    func listed(_ output: ProcessOutput) throws -> [String] {
        try JSONDecoder().decode([Listed].self, from: Data(output.standardOutput.utf8)).map(\.text)
    }

    @Test("Item 3: hooray moments takes --limit, --search, --since and --until, with hoorayd running")
    func momentsTakeTheListingOptions() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            // The search reads the praise too, and a line of the built-in pool says "Well walked".
            let praise = fixture.home.appending("praise.txt")
            try "Nicely done.\n".write(toFile: praise, atomically: true, encoding: .utf8)
            try fixture.writeConfig("[plugins.wins]\npraise_file = \"\(praise)\"\n")
            // At noon, so that an hour ago is today and the day before is yesterday at any time the
            // test runs (just after midnight, "1h ago" is yesterday).
            let noon = "2026-11-23 12:00:00"
            let daemon = try await fixture.startDaemon(fakeTime: noon)
            for (text, ago) in [("Cooked dinner", "50h"), ("A long walk", "26h"), ("Walked to work", "1h")] {
                let logged = try await fixture.hooray("win", text, "--ago", ago, fakeTime: noon)
                #expect(logged.status == .exited(0), "\(logged.standardError)")
                #expect(logged.standardOutput.contains("Nicely done."), "\(logged.standardOutput)")
            }
            #expect(try listed(try await fixture.hooray("moments", "--json", fakeTime: noon)).count == 3)
            #expect(
                try listed(try await fixture.hooray("moments", "--json", "--limit", "2", fakeTime: noon))
                    == ["Walked to work", "A long walk"])
            #expect(
                try listed(try await fixture.hooray("moments", "--search", "WALK", "--json", fakeTime: noon))
                    == ["Walked to work", "A long walk"])
            let yesterday = try listed(
                try await fixture.hooray(
                    "moments", "--json", "--since", "2d ago", "--until", "yesterday", fakeTime: noon))
            #expect(yesterday.contains("A long walk") && !yesterday.contains("Walked to work"), "\(yesterday)")
            let text = try await fixture.hooray("moments", "--limit", "1", fakeTime: noon)
            #expect(text.standardOutput.contains("Walked to work"))
            #expect(!text.standardOutput.contains("A long walk"))
            #expect(text.standardOutput.contains("The newest 1 are shown"))

            let refused = try await fixture.hooray("moments", "--limit", "0", fakeTime: noon)
            #expect(refused.status == .exited(64))
            #expect(refused.standardError.contains("--limit \"0\""), "\(refused.standardError)")
            #expect(!refused.standardError.contains("Error:"))
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test("Item 3: on a terminal hooray moments opens $PAGER; --no-pager and a pipe print straight")
    func momentsPageOnATerminal() async throws {
        try await HoorayFixture.with { fixture in
            #expect(try await fixture.hooray("win", "Watered the plants").status == .exited(0))
            let pager = "sed 's/^/paged: /'"
            func onTerminal(_ arguments: [String]) async throws -> String {
                let terminal = try PseudoTerminal()
                let child = try ChildProcess(
                    HoorayFixture.binDirectory + "/hooray", arguments: arguments,
                    environment: fixture.environment(overriding: ["TERM": "xterm", "PAGER": pager]),
                    terminal: terminal)
                #expect(await child.waitForExit(timeout: .seconds(30)) == .exited(0))
                await child.waitForOutputToEnd(timeout: .seconds(5))
                return child.standardOutput
            }
            let paged = try await onTerminal(["moments"])
            #expect(paged.contains("paged: Moments"), "\(paged)")
            #expect(paged.contains("paged: • Watered the plants"), "\(paged)")
            let straight = try await onTerminal(["moments", "--no-pager"])
            #expect(straight.contains("Watered the plants"), "\(straight)")
            #expect(!straight.contains("paged:"), "\(straight)")
            let piped = try await fixture.hooray("moments", environment: ["PAGER": pager])
            #expect(piped.standardOutput.hasPrefix("Moments\n"), "\(piped.standardOutput)")
        }
    }
}
