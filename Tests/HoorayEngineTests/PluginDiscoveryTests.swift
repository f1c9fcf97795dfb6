import Foundation
import HoorayCommands
import HoorayEngine
import HoorayExternalPlugins
import HoorayKit
import Testing
import WinsPlugin

@Suite struct PluginDiscoveryTests {
    @Test func theUserFolderComesBeforeTheSystemFolder() {
        #expect(
            PluginDiscovery.folders(environment: ["HOME": "/home/sam"])
                == ["/home/sam/.local/share/hooray/plugins", "/usr/lib/hooray/plugins"])
        #expect(
            PluginDiscovery.folders(environment: [
                "HOME": "/home/sam", "XDG_DATA_HOME": "/data/sam", "HOORAY_SYSTEM_PLUGIN_DIR": "/opt/hooray/plugins",
            ]) == ["/data/sam/hooray/plugins", "/opt/hooray/plugins"])
        // Relative paths would depend on the folder hoorayd was started from: they are ignored.
        #expect(
            PluginDiscovery.folders(environment: [
                "HOME": "/home/sam", "XDG_DATA_HOME": "data", "HOORAY_SYSTEM_PLUGIN_DIR": "plugins",
            ]) == ["/home/sam/.local/share/hooray/plugins", "/usr/lib/hooray/plugins"])
    }

    @Test func pluginFoldersAreReadInOrderAndWhatIsNotAPluginFolderIsSkipped() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        try scratch.plugin("user/timer", toml: PluginScratch.manifest(name: "timer"))
        try scratch.plugin("user/alarm", toml: PluginScratch.manifest(name: "alarm"))
        try scratch.plugin("user/.hidden", toml: PluginScratch.manifest(name: "hidden"))
        try scratch.file("user/README.md")

        let result = PluginDiscovery.discover(
            folders: [scratch.root + "/user", scratch.root + "/missing"], builtIns: [WinsPlugin()])

        #expect(result.found.map(\.name) == ["alarm", "timer"])
        #expect(result.found.map(\.folder) == [scratch.root + "/user/alarm", scratch.root + "/user/timer"])
        #expect(result.refused.isEmpty)
    }

    @Test func aPluginOthersMayWriteIsRefusedByNameWithTheFixAndTheOthersStillRun() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        try scratch.plugin("user/shared", toml: PluginScratch.manifest(name: "shared"))
        try scratch.plugin("user/loose", toml: PluginScratch.manifest(name: "loose"))
        try scratch.plugin("user/timer", toml: PluginScratch.manifest(name: "timer"))
        chmod(scratch.root + "/user/shared", 0o777)
        chmod(scratch.root + "/user/loose/plugin.toml", 0o664)
        // A group of others: group write on the user's own private group (umask 002) is theirs alone.
        chown(scratch.root + "/user/loose/plugin.toml", geteuid(), 4242)

        let result = PluginDiscovery.discover(folders: [scratch.root + "/user"], builtIns: [WinsPlugin()])

        #expect(result.found.map(\.name) == ["timer"])
        #expect(result.refused.map(\.name) == ["loose", "shared"])
        guard result.refused.count == 2 else { return }
        #expect(
            result.refused[0].reason.hasPrefix(
                "\(scratch.root)/user/loose/plugin.toml may be written by its group (mode 664), who could make the "
                    + "plugin run anything as you, so it is not started; fix it with `chmod go-w "))
        #expect(result.refused[1].reason.contains("/user/shared may be written by every user (mode 777)"))
    }

    @Test func aFolderWithABadManifestIsRefusedAndTheOthersStillRun() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        try scratch.plugin(
            "user/future",
            toml: PluginScratch.manifest(name: "future").replacing("api_version = 1", with: "api_version = 99"))
        try scratch.plugin("user/empty", toml: nil)
        try scratch.plugin("user/timer", toml: PluginScratch.manifest(name: "timer"))

        let result = PluginDiscovery.discover(folders: [scratch.root + "/user"], builtIns: [WinsPlugin()])

        #expect(result.found.map(\.name) == ["timer"])
        #expect(result.refused.map(\.name) == ["empty", "future"])
        #expect(result.refused.map(\.folder) == [scratch.root + "/user/empty", scratch.root + "/user/future"])
        #expect(
            result.refused[0].reason.hasPrefix("plugin.toml: there is no plugin.toml in \(scratch.root)/user/empty"))
        #expect(
            result.refused[1].reason
                == "plugin.toml:3:15: future speaks plugin API 99, and this Hooray speaks 1; install a version of the plugin made for API 1, or a newer Hooray"
        )
    }

    @Test func aBuiltInsNameIsRefused() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        try scratch.plugin("user/wins", toml: PluginScratch.manifest(name: "wins"))

        let result = PluginDiscovery.discover(folders: [scratch.root + "/user"], builtIns: [WinsPlugin()])

        #expect(result.found.isEmpty)
        #expect(
            result.refused == [
                RefusedPlugin(
                    folder: scratch.root + "/user/wins", name: "wins",
                    reason:
                        "the name `wins` belongs to a built-in plugin; rename the plugin in plugin.toml (and its [plugins.NAME] section, if it has one)"
                )
            ])
    }

    @Test func hoorayOwnWordsAreRefusedAsNames() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        try scratch.plugin("user/plugins", toml: PluginScratch.manifest(name: "plugins"))
        try scratch.plugin("user/help", toml: PluginScratch.manifest(name: "help"))

        let result = PluginDiscovery.discover(folders: [scratch.root + "/user"], builtIns: [WinsPlugin()])

        #expect(result.found.isEmpty)
        #expect(result.refused.map(\.name) == ["help", "plugins"])
        #expect(
            result.refused.last?.reason
                == "the name `plugins` is one of hooray's own commands (`hooray plugins`); rename the plugin in plugin.toml"
        )
    }

    @Test func aPluginNamedLikeABuiltInsCommandIsRefused() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        // The wins plugin's journey command is also `hooray journey`.
        try scratch.plugin(
            "user/journey",
            toml: PluginScratch.manifest(name: "journey", "[[commands]]\nname = \"show\"\nsummary = \"Show.\""))

        let result = PluginDiscovery.discover(folders: [scratch.root + "/user"], builtIns: [WinsPlugin()])

        #expect(result.found.isEmpty)
        #expect(
            result.refused.map(\.reason) == [
                "`hooray journey` already belongs to the wins plugin's command journey; rename the journey plugin in plugin.toml"
            ])
    }

    @Test func aliasesBelongToTheirPluginSoTwoPluginsMayUseTheSameOne() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        let command = "[[commands]]\nname = \"start\"\nsummary = \"Start.\"\naliases = [\"go\"]"
        try scratch.plugin("user/alarm", toml: PluginScratch.manifest(name: "alarm", command))
        try scratch.plugin("user/timer", toml: PluginScratch.manifest(name: "timer", command))

        let result = PluginDiscovery.discover(folders: [scratch.root + "/user"], builtIns: [WinsPlugin()])

        #expect(result.refused.isEmpty)
        let tree = try CommandTree(plugins: [WinsPlugin()] + result.found.map { ManifestPlugin(manifest: $0) })
        for plugin in ["alarm", "timer"] {
            guard case .command(_, let target, _) = tree.route([plugin, "go"]) else {
                Issue.record("`hooray \(plugin) go` runs nothing")
                continue
            }
            #expect(target.plugin == plugin && target.spec.name == "start")
        }
        #expect(tree.index(of: ["go"]) == nil)
    }

    @Test func thePluginInTheUserFolderHidesTheSystemsSilently() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        try scratch.plugin("user/pomodoro", toml: PluginScratch.manifest(name: "pomodoro"))
        try scratch.plugin("system/pomodoro", toml: PluginScratch.manifest(name: "pomodoro"))
        try scratch.plugin("system/timer", toml: PluginScratch.manifest(name: "timer"))

        let result = PluginDiscovery.discover(
            folders: [scratch.root + "/user", scratch.root + "/system"], builtIns: [WinsPlugin()])

        #expect(result.found.map(\.folder) == [scratch.root + "/user/pomodoro", scratch.root + "/system/timer"])
        #expect(result.refused.isEmpty)
    }

    @Test func aBrokenUserCopyStillHidesTheSystemsAndSaysWhy() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        try scratch.plugin("user/pomodoro", toml: PluginScratch.manifest(name: "pomodoro"), executable: false)
        try scratch.plugin("system/pomodoro", toml: PluginScratch.manifest(name: "pomodoro"))

        let result = PluginDiscovery.discover(
            folders: [scratch.root + "/user", scratch.root + "/system"], builtIns: [WinsPlugin()])

        #expect(result.found.isEmpty)
        #expect(result.refused.map(\.folder) == [scratch.root + "/user/pomodoro"])
        #expect(result.refused.first?.name == "pomodoro")
        #expect(result.refused.first?.reason.contains("main.py is not executable; make it so with chmod +x") == true)
    }

    @Test func twoUserFoldersWithOneNameKeepTheFirstAndNameItInTheRefusal() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        try scratch.plugin("user/pomodoro", toml: PluginScratch.manifest(name: "pomodoro"))
        try scratch.plugin("user/pomodoro-copy", toml: PluginScratch.manifest(name: "pomodoro"))

        let result = PluginDiscovery.discover(folders: [scratch.root + "/user"], builtIns: [WinsPlugin()])

        #expect(result.found.map(\.folder) == [scratch.root + "/user/pomodoro"])
        #expect(result.refused.map(\.folder) == [scratch.root + "/user/pomodoro-copy"])
        #expect(
            result.refused.first?.reason.contains("is taken by the plugin in \(scratch.root)/user/pomodoro;") == true)
    }
}
