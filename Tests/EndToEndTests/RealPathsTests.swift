import Foundation
import HooraySystemTesting
import Testing

/// Issue 29, items 7 and 9: advice and help name this user's real files (the fixture sets
/// `XDG_CONFIG_HOME` to `~/config` and `XDG_DATA_HOME` to `~/data`, so a guessed `~/.config/hooray`
/// or `~/.local/share/hooray` is wrong there), `hooray config path` lists what is read, a missing
/// `--config` file is an error, and a command prints no raw log line.
@Suite(.timeLimit(.minutes(3)))
struct RealPathsTests {
    /// The user's configuration file as messages show it in the fixture.
    static let configFile = "~/config/hooray/hooray.toml"
    /// The user's plugin folder as messages show it in the fixture.
    static let pluginFolder = "~/data/hooray/plugins"

    /// Whether `text` names a guessed default folder instead of the real one.
    static func guesses(_ text: String) -> Bool {
        text.contains("~/.config/hooray") || text.contains("~/.local/share/hooray")
    }

    @Test("Item 7: plugin new's next steps make the plugin folder under $XDG_DATA_HOME, and following them works")
    func pluginNewNamesTheRealPluginFolder() async throws {
        try await HoorayFixture.with { fixture in
            let made = try await fixture.hooray(
                "plugin", "new", "greeter", "--lang", "sh", "--dir", fixture.home.appending("src"))
            #expect(made.status == .exited(0), "\(made.standardError)")
            #expect(made.standardOutput.contains("  mkdir -p \(Self.pluginFolder)\n"), "\(made.standardOutput)")
            #expect(made.standardOutput.contains(" \(Self.pluginFolder)/    (or copy"), "\(made.standardOutput)")
            #expect(!Self.guesses(made.standardOutput), "\(made.standardOutput)")

            // Following the steps as printed (the shell expands `~`) installs the plugin.
            try FileManager.default.createDirectory(
                atPath: fixture.home.appending("data/hooray/plugins"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: fixture.home.appending("data/hooray/plugins/greeter"),
                withDestinationPath: fixture.home.appending("src/greeter"))
            let plugins = try await fixture.hooray("plugins", "--json")
            #expect(plugins.standardOutput.contains("\"name\" : \"greeter\""), "\(plugins.standardOutput)")
        }
    }

    @Test("Item 7: hooray plugins says where it looks for plugins")
    func pluginsSaysWhereItLooks() async throws {
        try await HoorayFixture.with { fixture in
            let plugins = try await fixture.hooray("plugins")
            #expect(plugins.status == .exited(0), "\(plugins.standardError)")
            #expect(
                plugins.standardOutput.contains(
                    "Plugins in other languages are looked for in \(Self.pluginFolder) and ~/system-plugins"),
                "\(plugins.standardOutput)")
            let help = try await fixture.hooray("plugins", "list", "--help")
            #expect(help.standardOutput.contains("\(Self.pluginFolder)/"), "\(help.standardOutput)")
            #expect(!Self.guesses(help.standardOutput), "\(help.standardOutput)")
        }
    }

    @Test("Item 7: remind list, water and the help name the configuration file under $XDG_CONFIG_HOME")
    func adviceNamesTheRealConfigurationFile() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig(
                """
                [[plugins.reminders.reminder]]
                title = "Stretch"
                at = "10:00"
                """)
            let list = try await fixture.hooray("remind", "list")
            #expect(list.status == .exited(0), "\(list.standardError)")
            #expect(
                list.standardOutput.contains("Those from hooray.toml are changed in \(Self.configFile)."),
                "\(list.standardOutput)")

            // The water plugin is off by default: the advice to turn it on names the real file.
            let water = try await fixture.hooray("water", "drink")
            #expect(water.status != .exited(0))
            #expect(water.standardError.contains("enabled = true` in \(Self.configFile)"), "\(water.standardError)")

            let help = try await fixture.hooray("--help")
            #expect(help.standardOutput.contains("Configuration: \(Self.configFile)"), "\(help.standardOutput)")
            #expect(help.standardOutput.contains("Data: ~/data/hooray/"), "\(help.standardOutput)")
            for output in [list, water, help] {
                #expect(!Self.guesses(output.standardOutput + output.standardError))
            }
        }
    }

    @Test("Item 7: the help dumped for the man page names the XDG paths, not the packager's")
    func theManualNamesThePathsForEveryone() async throws {
        try await HoorayFixture.with { fixture in
            let dump = try await fixture.hooray("--experimental-dump-help")
            #expect(dump.status == .exited(0), "\(dump.standardError)")
            // JSON writes `/` as `\/`.
            let text = dump.standardOutput.replacingOccurrences(of: "\\/", with: "/")
            #expect(text.contains("Configuration: $XDG_CONFIG_HOME/hooray/hooray.toml"))
            #expect(text.contains("$XDG_DATA_HOME/hooray/plugins/"))
            #expect(!text.contains(fixture.home.path), "the packager's home is nobody else's")
            #expect(!text.contains("~/config/hooray"), "the packager's XDG folders are nobody else's")
        }
    }

    @Test("Item 7: config path lists every file read, in order, and which exist")
    func configPathListsTheFiles() async throws {
        try await HoorayFixture.with { fixture in
            try fixture.writeConfig("")
            let missing = fixture.home.appending("extra.toml")
            let text = try await fixture.hooray("config", "path", "--config", missing)
            #expect(text.status == .exited(0), "\(text.standardError)")
            let lines = text.standardOutput.split(separator: "\n").map(String.init)
            let order = [
                "~/etc/hooray.toml", "~/etc/conf.d/*.toml", "~/etc/conf.d/10-tests.toml",
                Self.configFile, "~/config/hooray/conf.d/*.toml", "~/extra.toml",
            ]
            let found = order.map { path in lines.firstIndex { $0.contains(" \(path) ") } }
            #expect(found.allSatisfy { $0 != nil } && found == found.sorted { ($0 ?? 0) < ($1 ?? 0) }, "\(lines)")
            func line(_ path: String) -> String { lines.first { $0.contains(" \(path) ") } ?? "" }
            #expect(line("~/etc/hooray.toml").hasSuffix("not there"))
            #expect(line("~/etc/conf.d/*.toml").hasSuffix("1 file"))
            #expect(line(Self.configFile).hasSuffix("read"))
            #expect(line("~/config/hooray/conf.d/*.toml").hasSuffix("no such folder"))
            #expect(line("~/extra.toml").hasSuffix("missing (an error)"))

            let json = try await fixture.hooray("config", "path", "--json")
            #expect(json.status == .exited(0), "\(json.standardError)")
            let files = try #require(
                try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
            let documented = try SafeTextTests.documentedKeys()
            #expect(files.allSatisfy { Set($0.keys) == documented["configFile"] }, "differs from docs/json.md")
            #expect(
                files.map { $0["path"] as? String }
                    == [
                        fixture.home.appending("etc/hooray.toml"), fixture.home.appending("etc/conf.d"),
                        fixture.home.appending("etc/conf.d/10-tests.toml"),
                        fixture.home.appending("config/hooray/hooray.toml"),
                        fixture.home.appending("config/hooray/conf.d"),
                    ])
            #expect(files.map { $0["exists"] as? Bool } == [false, true, true, true, false])
            #expect(
                files.map { $0["layer"] as? String } == [
                    "system", "system-drop-in", "system-drop-in", "user", "user-drop-in",
                ])
            #expect(files.map { $0["folder"] as? Bool } == [false, true, false, false, true])
        }
    }

    @Test("Item 9: a --config file that does not exist is an error that names it, and nothing is done")
    func aMissingConfigFileIsAnError() async throws {
        try await HoorayFixture.with { fixture in
            let missing = fixture.home.appending("nonexistent.toml")
            for arguments in [
                ["--config", missing, "next"], ["next", "--config", missing], ["--config", missing, "win", "Tea"],
            ] {
                let run = try await fixture.hooray(arguments: arguments)
                #expect(run.status == .exited(78), "\(arguments): \(run.standardError)")
                #expect(
                    run.standardError.contains(
                        "the configuration file given with --config, \(missing), does not exist"),
                    "\(run.standardError)")
                #expect(run.standardError.contains("leave out --config"), "\(run.standardError)")
                #expect(!run.standardError.contains("ignored until"), "\(run.standardError)")
            }
            // The win was not saved.
            let moments = try await fixture.hooray("moments", "--json")
            #expect(moments.status == .exited(0), "\(moments.standardError)")
            #expect(moments.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        }
    }

    @Test("Item 9: with hoorayd stopped and the AI unreachable, win prints no log line")
    func aWinWithTheAIUnreachablePrintsNoLogLine() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            let gone = try await TestAIServer()
            let endpoint = gone.endpoint("good")
            await gone.stop()
            try fixture.writeConfig(
                """
                [ai]
                provider = "hooray"
                endpoint = "\(endpoint.absoluteString)"
                timeout = "3s"
                connect_timeout = "2s"
                """)
            let win = try await fixture.hooray("win", "Made the bed")
            #expect(win.status == .exited(0), "\(win.standardError)")
            // The moment was logged and praised offline (the positive signal), and nothing of the
            // logger reached the terminal.
            #expect(win.standardOutput.contains("Made the bed") || !win.standardOutput.isEmpty)
            #expect(!win.standardError.contains("ai.host="), "\(win.standardError)")
            #expect(!win.standardError.contains(" warning ai:"), "\(win.standardError)")
            #expect(
                !win.standardError.split(separator: "\n").contains { $0.first?.isNumber == true && $0.contains("T") },
                "\(win.standardError)")
            let moments = try await fixture.hooray("moments", "--json")
            #expect(moments.standardOutput.contains("Made the bed"))
        }
    }
}
