import Foundation
import HooraySystemTesting
import Testing

/// Plugin commands as the user meets them: found, helped, completed and refused by the real `hooray`.
@Suite(.timeLimit(.minutes(2)))
struct PluginCommandTests {
    @Test func anUnknownPluginOrCommandNamesTheNearMatchesAndExits64() async throws {
        try await HoorayFixture.with { fixture in
            let plugin = try await fixture.hooray("habitz", "list")
            #expect(plugin.status == .exited(64))
            #expect(plugin.standardError.contains("there is no command \"habitz\""))
            #expect(plugin.standardError.contains("did you mean `hooray habit"))
            let command = try await fixture.hooray("habit", "dnoe", "Read")
            #expect(command.status == .exited(64))
            #expect(command.standardError.contains("did you mean `hooray habit done`?"))
            let help = try await fixture.hooray("help", "bogus")
            #expect(help.status == .exited(64))
            let option = try await fixture.hooray("win", "Walked", "--mod", "proud")
            #expect(option.status == .exited(64))
            #expect(option.standardError.contains("did you mean --mood?"))
            #expect(option.standardError.contains("Usage: hooray win"))
            // Nothing was logged by any of them.
            let moments = try await fixture.hooray("moments", "--json")
            #expect(moments.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        }
    }

    @Test func aValueThePluginRefusesSaysWhyExits64AndSavesNothing() async throws {
        try await HoorayFixture.with { fixture in
            let refused = try await fixture.hooray("win", "Walked", "--ago", "yesterday-ish")
            #expect(refused.status == .exited(64))
            #expect(refused.standardError.contains("hooray win: --ago \"yesterday-ish\" is not a time"))
            #expect(refused.standardError.contains("Usage: hooray win"))
            let moments = try await fixture.hooray("moments", "--json")
            #expect(moments.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        }
    }

    @Test func theSameCommandAnswersAlikeThroughTheDaemonAndWithout() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.hooray("habit", "add", "Read", "--remind", "20:00")
            let alone = try await fixture.hooray("habits", "list", "--json")
            #expect(alone.status == .exited(0))
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let viaDaemon = try await fixture.hooray("habit", "list", "--json")
            #expect(viaDaemon.status == .exited(0))
            #expect(viaDaemon.standardOutput == alone.standardOutput)
            #expect(viaDaemon.standardOutput.contains("\"name\" : \"Read\""))
            // Proof that the daemon runs them: a command given without any session bus is shown on
            // the daemon's notification server, which only hoorayd can reach.
            let busless = try await ProcessRunner.run(
                HoorayFixture.binDirectory + "/hooray", arguments: ["win", "Asked", "hoorayd"],
                environment: fixture.environment(withoutBus: true))
            #expect(busless.status == .exited(0))
            #expect(!busless.standardError.contains("No notification server answered"))
            let shown = try await server.waitForNotifications(count: 1, timeout: .seconds(15))
            #expect(shown.first?.body.contains("Asked hoorayd") == true)
            #expect(daemon.isRunning)
            await daemon.stop()
        }
    }

    @Test func aHooraydOfAnotherProtocolVersionIsNamedWithTheFixAndNothingIsDone() async throws {
        try await HoorayFixture.with { fixture in
            // A daemon from before the protocol had versions: it answers every request the old way.
            let socket = fixture.home.appending("runtime/hooray/control.sock")
            try FileManager.default.createDirectory(
                atPath: fixture.home.appending("runtime/hooray"), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            let old = try ChildProcess(
                "python3",
                arguments: [
                    "-c",
                    """
                    import socket, sys
                    server = socket.socket(socket.AF_UNIX); server.bind(sys.argv[1]); server.listen(4)
                    print("listening", flush=True)
                    while True:
                        connection, _ = server.accept(); connection.recv(65536)
                        connection.sendall(b'{"ok":false,"message":"unreadable request"}\\n'); connection.close()
                    """,
                    socket,
                ])
            #expect(await old.waitForOutput(containing: "listening", timeout: .seconds(10)))
            let win = try await fixture.hooray("win", "Took a walk")
            #expect(win.status == .exited(1))
            #expect(win.standardError.contains("speaks control protocol 0 and this hooray speaks 1"))
            #expect(win.standardError.contains("systemctl --user restart hooray"))
            #expect(win.standardError.contains("Nothing was saved."))
            _ = await old.stop()
            let moments = try await fixture.hooray("moments", "--json")
            #expect(moments.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        }
    }

    @Test func helpManPagesAndCompletionsIncludePluginCommands() async throws {
        try await HoorayFixture.with { fixture in
            let top = try await fixture.hooray("--help")
            #expect(top.status == .exited(0))
            for word in ["win", "moments", "journey", "habit", "next", "status"] {
                #expect(top.standardOutput.contains("\n  \(word) "), "\(word) is missing from hooray --help")
            }
            let win = try await fixture.hooray("help", "win")
            #expect(win.status == .exited(0))
            #expect(win.standardOutput.contains("USAGE: hooray win [<text> ...] [--ago <time>]"))
            #expect(win.standardOutput.contains("--photo <file>"))
            #expect(try await fixture.hooray("win", "--help").standardOutput == win.standardOutput)
            let group = try await fixture.hooray("habit", "--help")
            #expect(group.standardOutput.contains("list (default)"))
            // The man page is made from this dump: each plugin command with its options.
            let dump = try await fixture.hooray("--experimental-dump-help")
            #expect(
                dump.standardOutput.contains("\"commandName\" : \"win\"")
                    || dump.standardOutput.contains("\"commandName\":\"win\""))
            #expect(dump.standardOutput.contains("--mood <mood>"))
            // Shell completion: the script knows the commands, and asks hooray for their options.
            let script = try await fixture.hooray("--generate-completion-script", "bash")
            #expect(script.standardOutput.contains("_hooray_habit_done()"))
            let bash = try await ProcessRunner.run(
                "/bin/bash",
                arguments: [
                    "-c",
                    """
                    source <("$0" --generate-completion-script bash)
                    COMP_WORDS=("$0" win --mood p); COMP_CWORD=3; COMP_LINE="hooray win --mood p"; COMP_POINT=${#COMP_LINE}
                    _hooray; echo "[${COMPREPLY[*]}]"
                    """,
                    HoorayFixture.binDirectory + "/hooray",
                ], environment: fixture.environment())
            #expect(bash.standardOutput.contains("[proud]"))
        }
    }
}
