import Foundation
import HoorayCalendar
import HoorayConfig
import HoorayKit
import Testing

@Suite struct LayeringTests {
    @Test func pathsComeFromTheEnvironment() {
        let custom = ConfigPaths(environment: ["HOORAY_SYSCONFDIR": "/opt/etc/hooray/", "XDG_CONFIG_HOME": "/x/config"])
        let defaults = ConfigPaths(environment: ["HOME": "/home/ann"])
        let relativeXDG = ConfigPaths(environment: ["HOME": "/home/ann", "XDG_CONFIG_HOME": "config"])

        #expect(custom.systemFile == "/opt/etc/hooray/hooray.toml")
        #expect(custom.systemDropInDirectory == "/opt/etc/hooray/conf.d")
        #expect(custom.userFile == "/x/config/hooray/hooray.toml")
        #expect(custom.userDropInDirectory == "/x/config/hooray/conf.d")
        #expect(defaults.systemFile == "/etc/hooray/hooray.toml")
        #expect(defaults.userFile == "/home/ann/.config/hooray/hooray.toml")
        #expect(relativeXDG.userFile == "/home/ann/.config/hooray/hooray.toml")
    }

    @Test func laterLayersOverrideEarlierOnesKeyByKey() throws {
        let directory = try TemporaryDirectory()
        let system = try directory.write(
            "etc/hooray/hooray.toml",
            """
            [delivery]
            icon = "system"
            server_timeout = "10s"
            retry_every = "1m"
            [scheduler]
            catch_up_within = "1h"
            """)
        let systemDropIn = try directory.write("etc/hooray/conf.d/50-site.toml", "[delivery]\nicon = \"site\"\n")
        let user = try directory.write(
            "config/hooray/hooray.toml", "[delivery]\nserver_timeout = \"20s\"\nicon = \"user\"\n")
        let userDropIn = try directory.write("config/hooray/conf.d/10-mine.toml", "[delivery]\nicon = \"drop-in\"\n")

        let loaded = try ConfigLoader(paths: directory.paths).load()

        #expect(loaded.files == [system, systemDropIn, user, userDropIn])
        #expect(loaded.core.delivery.icon == "drop-in")
        #expect(loaded.core.delivery.serverTimeout == ConfigDuration(seconds: 20))
        #expect(loaded.core.delivery.retryEvery == ConfigDuration(seconds: 60))
        #expect(loaded.core.scheduler.catchUpWithin == ConfigDuration(seconds: 3600))
    }

    @Test func dropInsAreReadInByteOrderOfTheirNames() throws {
        let directory = try TemporaryDirectory()
        let names = ["20-c.toml", "10-a.toml", "2-b.toml", "Z-upper.toml"]
        for name in names {
            try directory.write("etc/hooray/conf.d/\(name)", "[delivery]\nicon = \"\(name)\"\n")
        }
        try directory.write("etc/hooray/conf.d/notes.txt", "not toml")
        try directory.write("etc/hooray/conf.d/.hidden.toml", "[delivery]\nicon = \"hidden\"\n")

        let loaded = try ConfigLoader(paths: directory.paths).load()

        let order = loaded.files.map { ($0 as NSString).lastPathComponent }
        #expect(order == ["10-a.toml", "2-b.toml", "20-c.toml", "Z-upper.toml"])
        #expect(loaded.core.delivery.icon == "Z-upper.toml")
    }

    @Test func arraysOfTablesAreAddedUpAcrossFilesEachElementKeepingItsFile() throws {
        let directory = try TemporaryDirectory()
        let system = try directory.write(
            "etc/hooray/hooray.toml",
            """
            [[plugins.reminders.reminder]]
            title = "Stretch"
            at = "15:00"
            """)
        let user = try directory.write(
            "config/hooray/hooray.toml",
            """
            # Mine.

            [[plugins.reminders.reminder]]
            title = "Water"
            at = "11:00"
            """)

        let loaded = try ConfigLoader(paths: directory.paths, plugins: [TestRemindersPlugin()]).load()

        let configuration = try loaded.configuration(of: TestRemindersPlugin())
        #expect(configuration.reminder?.map(\.title) == ["Stretch", "Water"])
        let elements = try #require(loaded.root.node(at: ["plugins", "reminders", "reminder"])?.array)
        #expect(
            elements.map(\.location) == [
                Location(file: system, line: 1, column: 1), Location(file: user, line: 3, column: 1),
            ])
    }

    @Test func anErrorInAnAddedElementNamesItsOwnFile() throws {
        let directory = try TemporaryDirectory()
        try directory.write("etc/hooray/hooray.toml", "[[plugins.reminders.reminder]]\ntitle = \"A\"\nat = \"15:00\"\n")
        let user = try directory.write(
            "config/hooray/hooray.toml", "[[plugins.reminders.reminder]]\ntitle = \"B\"\nat = 9\n")

        let found = diagnostics { try ConfigLoader(paths: directory.paths, plugins: [TestRemindersPlugin()]).load() }

        #expect(found.count == 1)
        #expect(found.first?.location == Location(file: user, line: 3, column: 6))
        #expect(found.first?.message.hasPrefix("plugins.reminders.reminder[1].at: expected a string") == true)
    }

    @Test func aPlainArrayIsReplacedNotAddedTo() throws {
        let directory = try TemporaryDirectory()
        let (base, _) = try parseFile("days = [\"mon\", \"tue\"]\n", in: directory, name: "a.toml")
        let (top, _) = try parseFile("days = [\"sun\"]\n", in: directory, name: "b.toml")

        let merged = base.merging(top)

        #expect(merged["days"]?.array?.map(\.value) == [.string("sun")])
    }

    @Test func theConfigFileOptionIsTheLastLayer() throws {
        let directory = try TemporaryDirectory()
        try directory.write("etc/hooray/hooray.toml", "[log]\nlevel = \"debug\"\n[delivery]\nicon = \"system\"\n")
        try directory.write("config/hooray/conf.d/99-last.toml", "[log]\nlevel = \"error\"\n")
        let explicit = try directory.write("elsewhere/test.toml", "[log]\nlevel = \"trace\"\n")

        let loaded = try ConfigLoader(paths: directory.paths, explicitFile: explicit).load()

        #expect(loaded.files.last == explicit)
        #expect(loaded.core.log.level == .trace)
        #expect(loaded.core.delivery.icon == "system")
    }

    @Test func aMissingConfigFileOptionIsAnError() throws {
        let directory = try TemporaryDirectory()
        let absent = directory.path + "/absent.toml"

        let found = diagnostics { try ConfigLoader(paths: directory.paths, explicitFile: absent).load() }

        #expect(
            found.description
                == "\(absent): error: cannot read \(absent): no such file\n"
                + "    hint: check the path given with --config, or leave --config out")
    }

    @Test func noFilesAtAllMeansTheBuiltInDefaults() throws {
        let directory = try TemporaryDirectory()

        let loaded = try ConfigLoader(paths: directory.paths).load()

        #expect(loaded.files.isEmpty)
        #expect(loaded.core == CoreSettings.defaults)
        #expect(loaded.warnings.isEmpty)
    }

    @Test func aBrokenLayerFailsTheLoadButTheOthersAreStillChecked() throws {
        let directory = try TemporaryDirectory()
        let system = try directory.write("etc/hooray/hooray.toml", "[delivery\n")
        let user = try directory.write("config/hooray/hooray.toml", "[delivery]\nretry_every = \"soon\"\n")

        let found = diagnostics { try ConfigLoader(paths: directory.paths).load() }
        let report = ConfigLoader(paths: directory.paths).check()

        #expect(found.map(\.location?.file) == [system, user])
        #expect(report.files == [system, user])
        #expect(report.diagnostics == found)
        #expect(found.allSatisfy { $0.isError })
    }
}
