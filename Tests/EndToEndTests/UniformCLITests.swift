import Foundation
import HoorayCalendar
import HooraySystemTesting
import Testing

/// One CLI: every command finds mistyped names, takes the global options, exits by one table and
/// completes its values, with the real `hooray` and `hoorayd`.
@Suite(.timeLimit(.minutes(6)))
struct UniformCLITests {
    // MARK: Unknown commands (issue 13, item 6)

    @Test func anUnknownWordNamesTheNearMatchAndNeverAnotherCommandsUsage() async throws {
        try await HoorayFixture.with { fixture in
            // Given words that name no command, at every level, and in `hooray help`.
            let cases: [([String], String)] = [
                (["wins", "typo"], "hooray wins: there is no command \"typo\""),
                (["wins", "mometns"], "did you mean `hooray wins moments`?"),
                (["moments", "fva"], "hooray moments: there is no command \"fva\""),
                (["nxet"], "did you mean `hooray next`?"),
                (["config", "chek"], "did you mean `hooray config check`?"),
                (["ai", "set-kye"], "did you mean `hooray ai set-key`?"),
                (["help", "bogus"], "hooray help: there is no command \"bogus\""),
                (["help", "nxt"], "did you mean `hooray help next`?"),
                (["help", "wins", "typo"], "hooray help wins: there is no command \"typo\""),
                (["help", "habit", "dnoe"], "did you mean `hooray help habit done`?"),
                (["help", "config", "chek"], "did you mean `hooray help config check`?"),
                (["help", "next", "bogus"], "hooray help next: there is no command \"bogus\""),
            ]
            for (words, message) in cases {
                let output = try await fixture.hooray(arguments: words)
                // Then each is a usage error that says so, prints no help and no other command's usage.
                #expect(output.status == .exited(64), "\(words)")
                #expect(output.standardError.contains(message), "\(words): \(output.standardError)")
                #expect(output.standardOutput.isEmpty, "\(words): \(output.standardOutput)")
                #expect(!output.standardError.contains("Usage: hooray home"), "\(words)")
            }
            // And the known ones still answer.
            let help = try await fixture.hooray("help", "habit", "done")
            #expect(help.status == .exited(0))
            #expect(help.standardOutput.contains("USAGE: hooray habit done <name>"))
            let moments = try await fixture.hooray("moments", "--json")
            #expect(moments.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        }
    }

    // MARK: Global options (item 7)

    @Test func configJSONAndNoColorWorkBeforeOrAfterEveryCommand() async throws {
        try await HoorayFixture.with { fixture in
            // Given an extra file that turns on the water plugin, which is off by default.
            let extra = try fixture.home.write("[plugins.water]\nenabled = true\n", to: "water.toml")
            for words in [
                ["--config", extra, "plugins"], ["plugins", "--config", extra], ["plugins", "--config=\(extra)"],
            ] {
                let plugins = try await fixture.hooray(arguments: words)
                #expect(plugins.status == .exited(0), "\(words): \(plugins.standardError)")
                #expect(plugins.standardOutput.contains("water      enabled"), "\(words): \(plugins.standardOutput)")
            }
            for words in [["--config", extra, "water", "drink"], ["water", "today", "--config", extra]] {
                let water = try await fixture.hooray(arguments: words)
                #expect(water.status == .exited(0), "\(words): \(water.standardError)")
            }
            let without = try await fixture.hooray("water", "today")
            #expect(without.status == .exited(1))
            #expect(without.standardError.contains("not enabled"))
            // `config check` with --config checks that file too.
            let broken = try fixture.home.write("[plugins.water\n", to: "broken.toml")
            let check = try await fixture.hooray("--config", broken, "config", "check")
            #expect(check.status == .exited(78))
            #expect(check.standardError.contains(broken + ":1:"))

            // --json before or after, for host and plugin commands alike.
            _ = try await fixture.hooray("habit", "add", "Read")
            let after = try await fixture.hooray("habit", "list", "--json")
            let before = try await fixture.hooray("--json", "habit", "list")
            #expect(before.status == .exited(0))
            #expect(before.standardOutput == after.standardOutput)
            #expect(before.standardOutput.contains("\"name\" : \"Read\""))
            let next = try await fixture.hooray("--json", "next")
            #expect(next.status == .exited(0))
            #expect(next.standardOutput.hasPrefix("["))
            // A command with no JSON output says so.
            for words in [["reload", "--json"], ["--json", "home"], ["habit", "done", "Read", "--json"]] {
                let refused = try await fixture.hooray(arguments: words)
                #expect(refused.status == .exited(64), "\(words)")
                #expect(refused.standardError.contains("no JSON output; leave out --json"), "\(words)")
            }
            // A command's own checks hold for --json wherever it is typed: refused with the command's
            // usage, and nothing written.
            let page = fixture.home.appending("week.pdf")
            for (words, problem) in [
                (["review", "--json", "--pdf", page], "hooray review: --json prints the week; --pdf and --html"),
                (["--json", "review", "--html", page], "hooray review: --json prints the week; --pdf and --html"),
                (["coach", "--json", "I want chocolate"], "hooray coach: --json goes with --history or --delete"),
                (
                    ["export", "--format", "csv", "-o", page, "--json"],
                    "hooray export: --json and --format csv disagree"
                ),
            ] {
                let refused = try await fixture.hooray(arguments: words)
                #expect(refused.status == .exited(64), "\(words)")
                #expect(refused.standardError.hasPrefix(problem), "\(words): \(refused.standardError)")
                let command = words.first { !$0.hasPrefix("-") } ?? ""
                #expect(refused.standardError.contains("\nUsage: hooray \(command) ["), "\(words)")
                #expect(!FileManager.default.fileExists(atPath: page), "\(words)")
            }
            // --no-color is taken everywhere.
            for words in [["--no-color", "plugins"], ["next", "--no-color"], ["habit", "list", "--no-color"]] {
                let plain = try await fixture.hooray(arguments: words)
                #expect(plain.status == .exited(0), "\(words): \(plain.standardError)")
                #expect(!plain.standardOutput.contains("\u{1B}["))
            }
            // On a terminal the calendar has colours; --no-color, before or after, takes them away.
            _ = try await fixture.hooray("habit", "done", "Read")
            let coloured = try await onTerminal(fixture, ["habit", "show", "Read"])
            #expect(coloured.contains("\u{1B}["), "the terminal run shows colours: \(coloured)")
            for words in [["habit", "show", "Read", "--no-color"], ["--no-color", "habit", "show", "Read"]] {
                let plain = try await onTerminal(fixture, words)
                #expect(plain.contains("Streak: 1 day"), "\(words): \(plain)")
                #expect(!plain.contains("\u{1B}["), "\(words)")
            }
            // --config with no file is a usage error.
            let bare = try await fixture.hooray("next", "--config")
            #expect(bare.status == .exited(64))
            #expect(bare.standardError.contains("--config needs a file"))
        }
    }

    @Test func aPluginCommandRunByHooraydSaysItDidNotReadTheGivenConfiguration() async throws {
        try await HoorayFixture.with { fixture in
            let extra = try fixture.home.write("[plugins.habits]\nmilestones = [3]\n", to: "extra.toml")
            let alone = try await fixture.hooray("habit", "list", "--config", extra)
            #expect(alone.status == .exited(0))
            #expect(!alone.standardError.contains("Note:"))
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let viaDaemon = try await fixture.hooray("--config", extra, "habit", "list")
            #expect(viaDaemon.status == .exited(0))
            #expect(
                viaDaemon.standardError.contains(
                    "hoorayd ran this with the configuration it started with, not \(extra)"))
            await daemon.stop()
            _ = server
        }
    }

    /// What `hooray WORDS…` prints on a terminal (`script` gives it one).
    func onTerminal(_ fixture: HoorayFixture, _ words: [String]) async throws -> String {
        let command = ([HoorayFixture.binDirectory + "/hooray"] + words).map { "'\($0)'" }.joined(separator: " ")
        let output = try await ProcessRunner.run(
            "/usr/bin/script", arguments: ["-qec", command, "/dev/null"],
            environment: fixture.environment(overriding: ["TERM": "xterm"], removing: ["NO_COLOR"]))
        return output.standardOutput
    }

    // MARK: One exit-code table (item 10)

    @Test func theSameKindOfMistakeExitsTheSameWithTheCommandsOwnUsage() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.hooray("habit", "add", "Read")
            let refusals: [([String], String, String)] = [
                (["win", "Walked", "--ago", "soon"], "--ago \"soon\" is not a time", "Usage: hooray win"),
                (["win", "Walked", "--mood", "grumpy"], "--mood \"grumpy\"", "Usage: hooray win"),
                (["moments", "--day", "someday"], "--day \"someday\" is not a day", "Usage: hooray moments"),
                (["journey", "--days", "-1"], "got -1", "Usage: hooray journey"),
                (["habit", "done", "Read", "--date", "soon"], "--date \"soon\"", "Usage: hooray habit done"),
                (["next", "--limit", "-1"], "got -1", "Usage: hooray next"),
                (["next", "-l", "-2"], "got -2", "Usage: hooray next"),
                (["inbox", "--limit", "-3"], "got -3", "Usage: hooray inbox"),
            ]
            let server = try await fixture.startServer()
            for daemonRunning in [false, true] {
                let daemon = daemonRunning ? try await fixture.startDaemon() : nil
                for (words, message, usage) in refusals {
                    let output = try await fixture.hooray(arguments: words)
                    #expect(output.status == .exited(64), "\(words) with daemon \(daemonRunning)")
                    #expect(output.standardError.contains(message), "\(words): \(output.standardError)")
                    #expect(output.standardError.contains(usage), "\(words): \(output.standardError)")
                    #expect(!output.standardError.contains("Missing value"), "\(words)")
                }
                // What cannot be done is a failure, not a usage error.
                let missing = try await fixture.hooray("habit", "done", "Nope")
                #expect(missing.status == .exited(1))
                await daemon?.stop()
            }
            #expect(try await fixture.hooray("moments", "--json").standardOutput.contains("[]"))
            _ = server
        }
    }

    @Test func statusExitsAlikeWithAndWithoutJSON() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let text = try await fixture.hooray("status")
            let json = try await fixture.hooray("status", "--json")
            #expect(text.status == .exited(69))
            #expect(json.status == .exited(69))
            #expect(json.standardOutput.contains("\"running\" : false"))
            let reload = try await fixture.hooray("reload")
            #expect(reload.status == .exited(69))
            #expect(reload.standardError.contains("hoorayd is not running"))
            let daemon = try await fixture.startDaemon()
            #expect(try await fixture.hooray("status").status == .exited(0))
            #expect(try await fixture.hooray("--json", "status").status == .exited(0))
            await daemon.stop()
            _ = server
        }
    }

    @Test func theExitStatusTableIsInTheHelpAndTheManualDump() async throws {
        try await HoorayFixture.with { fixture in
            let help = try await fixture.hooray("--help")
            let table = Self.exitTable(help.standardOutput)
            #expect(table.map(\.code) == [0, 1, 64, 69, 75, 78])
            // The man page is made from this dump.
            let dump = try await fixture.hooray("--experimental-dump-help")
            #expect(dump.standardOutput.contains("Exit status:"))
            #expect(dump.standardOutput.contains("78  configuration"))
        }
    }

    // MARK: config check of a folder (item 13)

    @Test func configCheckOfAFolderChecksItsFilesOrSaysThereAreNone() async throws {
        try await HoorayFixture.with { fixture in
            let folder = fixture.home.appending("drop-ins")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let empty = try await fixture.hooray("config", "check", folder)
            #expect(empty.status == .exited(64))
            #expect(empty.standardError.contains("is a folder, and it has no .toml files to check"))
            #expect(!empty.standardError.contains("no configuration files found"))

            try "[delivery]\n".write(toFile: folder + "/10-good.toml", atomically: true, encoding: .utf8)
            let good = try await fixture.hooray("config", "check", folder)
            #expect(good.status == .exited(0), "\(good.standardError)")
            #expect(good.standardError.contains("is a folder: checking the 1 .toml file in it"))
            #expect(good.standardOutput.contains("Configuration OK: checked 1 file"))

            try "[plugins.wins\n".write(toFile: folder + "/20-bad.toml", atomically: true, encoding: .utf8)
            let bad = try await fixture.hooray("config", "check", folder)
            #expect(bad.status == .exited(78))
            #expect(bad.standardError.contains(folder + "/20-bad.toml:1:"))
            #expect(bad.standardError.contains("checked 2 files: 1 error"))
        }
    }

    // MARK: Completions (item 17)

    @Test func completionsOfferMoodsFilesAndHabitNames() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.hooray("habit", "add", "Read books")
            _ = try await fixture.hooray("habit", "add", "Run")
            let names = try await fixture.hooray("habit", "list", "--names")
            #expect(names.standardOutput == "Read books\nRun\n")
            let folder = fixture.home.appending("pictures")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for file in ["walk.jpg", "wave.png", "rainy day.jpg"] {
                _ = FileManager.default.createFile(atPath: folder + "/" + file, contents: nil)
            }
            _ = FileManager.default.createFile(atPath: fixture.home.appending("extra.toml"), contents: nil)

            let moods = try await complete(fixture, ["win", "--mood", ""])
            #expect(moods == ["calm", "happy", "proud", "grateful", "hopeful", "relieved", "tired", "anxious", "sad"])
            #expect(try await complete(fixture, ["win", "Walked", "--mood", "gr"]) == ["grateful"])
            #expect(
                try await complete(fixture, ["win", "--photo", "pictures/w"]) == [
                    "pictures/walk.jpg", "pictures/wave.png",
                ])
            #expect(try await complete(fixture, ["win", "--config", "ext"]) == ["extra.toml"])
            #expect(try await complete(fixture, ["next", "--config", "ext"]) == ["extra.toml"])
            #expect(try await complete(fixture, ["--config", "ext"]) == ["extra.toml"])
            // bash inserts what it is offered as it is: spaces come escaped.
            // Habit names come from `hooray habit list --names`, given 5 s: a busy computer can take
            // longer, now and then (and the shell is offered nothing rather than kept waiting).
            #expect(await completeAsked(fixture, ["habit", "done", "R"]) == ["Read\\ books", "Run"])
            #expect(try await complete(fixture, ["win", "--photo", "pictures/r"]) == ["pictures/rainy\\ day.jpg"])
            #expect(await completeAsked(fixture, ["habit", "show", "Ru"]) == ["Run"])
            #expect(try await complete(fixture, ["win", "--no"]).contains("--no-color"))
            // zsh and fish scripts ask hooray the same way.
            for shell in ["zsh", "fish"] {
                let script = try await fixture.hooray("--generate-completion-script", shell)
                #expect(script.status == .exited(0))
                #expect(script.standardOutput.contains("---completion"), "\(shell)")
            }
        }
    }

    /// What bash offers for a word completed by asking `hooray` (a habit's name): asked again, for up
    /// to 90 s, while nothing is offered.
    func completeAsked(_ fixture: HoorayFixture, _ words: [String]) async -> [String]? {
        await pollUntil(timeout: .seconds(90), interval: .milliseconds(200)) { () -> [String]? in
            let offered = try? await complete(fixture, words)
            return offered?.isEmpty == false ? offered : nil
        }
    }

    /// What bash offers for the last word, from the real completion script, run in the fixture's home.
    func complete(_ fixture: HoorayFixture, _ words: [String]) async throws -> [String] {
        let output = try await ProcessRunner.run(
            "/bin/bash",
            arguments: [
                "-c",
                """
                cd "$HOME"
                source <("$0" --generate-completion-script bash)
                COMP_WORDS=("$0" "$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
                COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
                _hooray "$0" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """,
                HoorayFixture.binDirectory + "/hooray",
            ] + words, environment: fixture.environment())
        return output.standardOutput.split(separator: "\n").map(String.init)
    }

    // MARK: The command reference (docs/commands.md)

    @Test func theCommandsPageListsEveryCommandAndTheExitStatusTable() async throws {
        try await HoorayFixture.with { fixture in
            let page = try String(contentsOfFile: Self.root + "/docs/commands.md", encoding: .utf8)
            let help = try await fixture.hooray("--help").standardOutput
            // Every command `hooray --help` lists is in the command table of docs/commands.md.
            let commands = Self.subcommands(help)
            #expect(commands.count > 15)
            let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `hooray") }
            for command in commands {
                #expect(
                    rows.contains { $0.contains("`hooray \(command) ") || $0.contains("`hooray \(command)`") },
                    "docs/commands.md's table has no row for `hooray \(command)`")
            }
            // And every row names a command there is.
            for row in rows {
                // The word after `hooray`; empty for `hooray` alone.
                let after = row.dropFirst("| `hooray".count)
                let word = after.hasPrefix(" ") ? after.dropFirst().prefix { $0 != " " && $0 != "`" } : ""
                #expect(
                    commands.contains(String(word)) || ["", "PLUGIN", "--version"].contains(word),
                    "docs/commands.md's row \(row) names no command of `hooray --help`")
            }
            // The exit status table is the one `hooray --help` prints.
            for (code, meaning) in Self.exitTable(help) {
                #expect(
                    page.contains("| \(code) | \(meaning) |"),
                    "docs/commands.md's exit status table lacks \(code) \(meaning)")
            }
        }
    }

    /// The repository's folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The commands in the SUBCOMMANDS section of a help text.
    static func subcommands(_ help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "SUBCOMMANDS:") else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return String(line.dropFirst(2).prefix { $0 != " " })
        }
    }

    /// The rows of the "Exit status" section of a help text.
    static func exitTable(_ help: String) -> [(code: Int, meaning: String)] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "Exit status:") else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard let code = Int(trimmed.prefix { $0.isNumber }) else { return nil }
            return (code, String(trimmed.drop { $0.isNumber }.drop { $0 == " " }))
        }
    }
}
