import Foundation
import HooraySystemTesting
import Testing

/// The recovery plugin's daily challenge and response templates end to end: the real `hoorayd`
/// under libfaketime, a real notification server, and the user's clipboard tool.
@Suite(.timeLimit(.minutes(3)))
struct RecoveryChallengeTests {
    /// What `hooray challenge --json` prints.
    struct PrintedChallenge: Decodable {
        struct Challenge: Decodable {
            let id: String
            let title: String
            let points: Int
        }
        let day: String
        let challenge: Challenge
        let status: String
        let points: Int
        let totalPoints: Int
        let streak: Int
    }

    func challenge(_ fixture: HoorayFixture) async throws -> PrintedChallenge? {
        let output = try await fixture.hooray("challenge", "--json")
        guard output.status == .exited(0) else { return nil }
        return try? JSONDecoder().decode(PrintedChallenge.self, from: Data(output.standardOutput.utf8))
    }

    @Test func theMorningChallengeComesWithButtonsAndDoneCountsItsPoints() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            // Tuesday 16 June 2026, three seconds before the 09:00 challenge. Nothing logged yet: a
            // self-care challenge, and 16 June's pick of those is the seed's Self-Care Check.
            try fixture.writeConfig("[plugins.recovery]\nchallenge_at = \"09:00\"\n")
            let daemon = try await fixture.startDaemon(fakeTime: "2026-06-16 08:59:57")
            let shown = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(20)).first)
            #expect(shown.summary == "Today's challenge: Self-Care Check")
            #expect(
                shown.body == "Do one thing today that makes you feel good about yourself\n10 points · about 15 minutes"
            )
            #expect(shown.actions.map(\.label) == ["Done", "Skip today"])
            let open = try #require(try await challenge(fixture))
            #expect(open.status == "open")
            #expect(open.totalPoints == 0)

            try await server.invokeAction(id: shown.id, key: "challenge-done")
            let done = await pollUntil(timeout: .seconds(15)) { () -> PrintedChallenge? in
                let printed = try? await challenge(fixture)
                return printed?.status == "done" ? printed : nil
            }
            #expect(done?.day == "2026-06-16")
            #expect(done?.challenge.id == "self-care-check")
            #expect(done?.points == 10)
            #expect(done?.totalPoints == 10)
            #expect(done?.streak == 1)
            // Celebrated in the user's style, by the shared engine.
            let celebration = try #require(
                try await server.waitForNotifications(count: 2, timeout: .seconds(15)).last)
            #expect(celebration.summary == "Challenge done: Self-Care Check")

            // Done again from the terminal: nothing changes.
            let again = try await fixture.hooray("challenge", "done")
            #expect(again.status == .exited(0), "\(again.standardError)")
            #expect(again.standardOutput.hasPrefix("Today's challenge is already done: Self-Care Check."))
            #expect(try await challenge(fixture)?.totalPoints == 10)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    static let filledJobTemplate =
        "Hi Sam, I wanted to follow up on my application for Designer. I'm still very interested and would love to discuss how my skills could contribute to Acme. Thank you for your time."

    static let copyJobTemplate = [
        "recovery", "templates", "--type", "job", "--fill", "Name=Sam", "--fill", "Position=Designer", "--fill",
        "Company=Acme", "--copy",
    ]

    @Test func templatesCopyWithTheUsersClipboardToolThoughHoorayDRunsTheCommand() async throws {
        try await HoorayFixture.with { fixture in
            // A wl-copy that writes what it is given to a file of the fixture's home.
            let tools = fixture.home.appending("tools")
            try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
            let clipboard = fixture.home.appending("clipboard.txt")
            try "#!/bin/sh\ncat > \"$HOME/clipboard.txt\"\n".write(
                toFile: tools + "/wl-copy", atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tools + "/wl-copy")
            let empty = fixture.home.appending("no-tools")
            try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)

            // hoorayd runs the command, outside any desktop session; hooray copies in the user's.
            let daemon = try await fixture.startDaemon()
            let copied = try await fixture.hooray(
                arguments: Self.copyJobTemplate,
                environment: ["WAYLAND_DISPLAY": "wayland-test", "PATH": tools + ":/usr/bin:/bin"])
            #expect(copied.status == .exited(0), "\(copied.standardError)")
            #expect(copied.standardOutput.contains("1. Following Up After Silence · Professional persistence"))
            #expect(copied.standardOutput.contains("   " + Self.filledJobTemplate + "\n"))
            #expect(copied.standardOutput.hasSuffix("Copied to the clipboard with wl-copy.\n"))
            #expect(try String(contentsOfFile: clipboard, encoding: .utf8) == Self.filledJobTemplate)

            // No clipboard tool: the text is printed, and the message says how to install one.
            let noTool = try await fixture.hooray(
                arguments: Self.copyJobTemplate, environment: ["WAYLAND_DISPLAY": "wayland-test", "PATH": empty])
            #expect(noTool.status == .exited(1))
            #expect(noTool.standardOutput.contains("   " + Self.filledJobTemplate + "\n"))
            #expect(noTool.standardError.contains("nothing was copied: wl-copy is not installed"))
            #expect(noTool.standardError.contains("`sudo apt install wl-clipboard`"))

            // No desktop session at all: said so, exit 1.
            let noSession = try await fixture.hooray(arguments: Self.copyJobTemplate, environment: ["PATH": tools])
            #expect(noSession.status == .exited(1))
            #expect(noSession.standardError.contains("there is no desktop session here"))
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func anUnknownPlaceholderIsAUsageError() async throws {
        try await HoorayFixture.with { fixture in
            let output = try await fixture.hooray("recovery", "templates", "--type", "job", "--fill", "Event=party")
            #expect(output.status == .exited(64))
            #expect(
                output.standardError.contains(
                    "no template shown has a [Event] placeholder; the placeholders are [Name], [Position], [Company]"))
        }
    }
}
