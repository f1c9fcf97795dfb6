import Foundation
import HoorayCalendar
import HoorayConfig
import HoorayKit
import Testing

@Suite struct CoreSettingsTests {
    @Test func theDefaultsAreThoseDocumented() {
        let defaults = CoreSettings.defaults

        #expect(defaults.scheduler.catchUpWithin.description == "2h")
        #expect(defaults.delivery.icon == "hooray")
        #expect(defaults.delivery.serverTimeout.description == "5s")
        #expect(defaults.delivery.retryEvery.description == "30s")
        #expect(defaults.log.level == .info)
        #expect(defaults.celebrations.style == .calm)
    }

    @Test func settingsInAFileOverrideTheDefaults() throws {
        let directory = try TemporaryDirectory()
        let (root, _) = try parseFile(
            """
            [scheduler]
            catch_up_within = "1h30m"
            [delivery]
            icon = "/usr/share/icons/party.png"
            server_timeout = 2
            [log]
            level = "warning"
            """, in: directory)

        let (settings, warnings) = try CoreSettings.decode(from: root)

        #expect(settings.scheduler.catchUpWithin == ConfigDuration(seconds: 5400))
        #expect(settings.delivery.icon == "/usr/share/icons/party.png")
        #expect(settings.delivery.serverTimeout == ConfigDuration(seconds: 2))
        #expect(settings.delivery.retryEvery == CoreSettings.defaults.delivery.retryEvery)
        #expect(settings.log.level == .warning)
        #expect(warnings.isEmpty)
    }

    @Test func aDurationThatCannotBeReadIsAnErrorAtTheValue() throws {
        let directory = try TemporaryDirectory()
        let (root, file) = try parseFile("[scheduler]\ncatch_up_within = \"two hours\"\n", in: directory)

        let found = diagnostics { try CoreSettings.decode(from: root) }

        #expect(
            found.description
                == "\(file):2:19: error: scheduler.catch_up_within: \"two hours\" is not a duration; "
                + "write it like \"30s\", \"5m\", \"2h\", \"90d\" or \"1h30m\"")
    }

    @Test(arguments: [
        (
            "[delivery]\nserver_timeout = \"0s\"\n",
            "delivery.server_timeout: 0s is out of range; use a duration from 1s to 1m"
        ),
        ("[delivery]\nretry_every = -5\n", "delivery.retry_every: -5s is out of range; use a duration from 1s to 1d"),
        (
            "[scheduler]\ncatch_up_within = \"31d\"\n",
            "scheduler.catch_up_within: 31d is out of range; use a duration from 1s to 30d"
        ),
        (
            "[storage]\nkeep_delivered = \"12h\"\n",
            "storage.keep_delivered: 12h is out of range; use a duration from 1d to 36500d"
        ),
        (
            // A bare number counts seconds, as for every duration: 90 meant as days is shown how to write it.
            "[storage]\nkeep_delivered = 90\n",
            "storage.keep_delivered: 90 is read as seconds (1m30s) and is out of range; use a duration from 1d to "
                + "36500d with its unit, such as \"90d\""
        ),
        (
            "[storage]\nkeep_delivered = \"3 months\"\n",
            "storage.keep_delivered: \"3 months\" is not a duration; write it like \"30s\", \"5m\", \"2h\", \"90d\" or "
                + "\"1h30m\""
        ),
        (
            "[delivery]\nicon = \" \"\n",
            "delivery.icon: the icon is empty; give an icon-theme name such as \"hooray\" or an absolute path to an image"
        ),
    ])
    func valuesOutOfRangeAreErrors(text: String, message: String) throws {
        let directory = try TemporaryDirectory()
        let (root, file) = try parseFile(text, in: directory)

        let found = diagnostics { try CoreSettings.decode(from: root) }

        #expect(found.map(\.message) == [message])
        #expect(found.first?.location?.file == file)
        #expect(found.first?.location?.line == 2)
    }

    @Test func keepDeliveredIsNinetyDaysUnlessSetInDaysOrAnyUnit() throws {
        #expect(CoreSettings.defaults.storage.keepDelivered.description == "90d")
        let directory = try TemporaryDirectory()
        for (text, seconds) in [
            ("\"30d\"", 30 * 86400), ("\"36h\"", 36 * 3600), ("\"1 day\"", 86400), ("864000", 864000),
        ] {
            let (root, _) = try parseFile("[storage]\nkeep_delivered = \(text)\n", in: directory)
            let (settings, warnings) = try CoreSettings.decode(from: root)
            #expect(settings.storage.keepDelivered == ConfigDuration(seconds: seconds), "\(text)")
            #expect(warnings.isEmpty)
        }
    }

    @Test func aBadLogLevelListsTheLevels() throws {
        let directory = try TemporaryDirectory()
        let (root, _) = try parseFile("[log]\nlevel = \"verbose\"\n", in: directory)

        let found = diagnostics { try CoreSettings.decode(from: root) }

        #expect(
            found.first?.message
                == "log.level: \"verbose\" is not one of \"trace\", \"debug\", \"info\", \"notice\", \"warning\", "
                + "\"error\" or \"critical\"")
    }

    @Test func errorsInSeveralSettingsAreAllReported() throws {
        let directory = try TemporaryDirectory()
        let (root, _) = try parseFile(
            """
            [scheduler]
            catch_up_within = true
            [delivery]
            icon = 3
            server_timeout = "soon"
            retry_every = "0s"
            [log]
            level = 1
            """, in: directory)

        let found = diagnostics { try CoreSettings.decode(from: root) }

        #expect(found.map(\.location?.line) == [2, 4, 5, 6, 8])
        #expect(
            found.first?.message
                == "scheduler.catch_up_within: expected a duration such as \"30s\", \"5m\", \"2h\" or \"90d\", found boolean true"
        )
    }

    @Test func unknownSectionsAndKeysAreWarnedAboutWithSuggestions() throws {
        let directory = try TemporaryDirectory()
        let (root, file) = try parseFile(
            """
            [delivry]
            icon = "x"
            [delivery]
            retry_evry = "1m"
            [weather]
            city = "Oslo"
            """, in: directory)

        let (_, warnings) = try CoreSettings.decode(from: root)

        #expect(
            warnings.map(\.description) == [
                "\(file):1:2: warning: unknown key `delivry`\n    hint: did you mean `delivery`?",
                "\(file):4:1: warning: delivery: unknown key `retry_evry`\n    hint: did you mean `retry_every`?",
                "\(file):5:2: warning: unknown key `weather`\n    hint: remove it or check its spelling; "
                    + "this table takes `scheduler`, `delivery`, `log`, `celebrations`, `identity`, `storage`, `plugins`",
            ])
    }
}

@Suite struct PluginSectionTests {
    @Test func eachKnownPluginGetsItsSectionAndEnabledFlag() throws {
        let directory = try TemporaryDirectory()
        let (root, _) = try parseFile(
            """
            [plugins.reminders]
            enabled = false
            """, in: directory)

        let (sections, found) = pluginSections(in: root, knownPlugins: ["reminders", "quiet"])

        #expect(found.isEmpty)
        #expect(sections["reminders"]?.isEnabled == false)
        #expect(sections["reminders"]?.node?.table?.keys == ["enabled"])
        #expect(sections["quiet"] == PluginSection(name: "quiet", node: nil, isEnabled: true))
    }

    @Test func anUnknownPluginNameIsWarnedAboutWithASuggestion() throws {
        let directory = try TemporaryDirectory()
        let (root, file) = try parseFile(
            """
            [plugins.remindrs]
            enabled = true

            [plugins.weather]
            """, in: directory)

        let (_, found) = pluginSections(in: root, knownPlugins: ["reminders", "quiet"])

        #expect(
            found.map(\.description) == [
                "\(file):1:10: warning: plugins: unknown plugin `remindrs`\n    hint: did you mean `reminders`?",
                "\(file):4:10: warning: plugins: unknown plugin `weather`\n    hint: the installed plugins are `quiet`, `reminders`",
            ])
    }

    @Test func enabledMustBeABoolean() throws {
        let directory = try TemporaryDirectory()
        let (root, file) = try parseFile("[plugins.reminders]\nenabled = \"no\"\n", in: directory)

        let (_, found) = pluginSections(in: root, knownPlugins: ["reminders"])

        #expect(
            found.map(\.description) == [
                "\(file):2:11: error: plugins.reminders.enabled: expected true or false, found string \"no\""
            ])
    }

    @Test func aPluginWithoutASectionDecodesFromAnEmptyTable() throws {
        let (configuration, warnings) = try decodeConfiguration(of: TestRemindersPlugin(), from: nil)

        #expect(configuration.reminder == nil)
        #expect(warnings.isEmpty)
    }

    @Test func aPluginWithoutSettingsWarnsAboutAnyKeyButEnabled() throws {
        let directory = try TemporaryDirectory()
        let (root, file) = try parseFile("[plugins.quiet]\nenabled = true\nvolume = 3\n", in: directory)

        let (_, warnings) = try decodeConfiguration(of: QuietPlugin(), from: root.node(at: ["plugins", "quiet"]))

        #expect(
            warnings.map(\.description) == [
                "\(file):3:1: warning: plugins.quiet: unknown key `volume`\n    hint: the quiet plugin takes no settings besides `enabled` and `celebrations`"
            ])
    }
}

@Suite struct CheckTests {
    @Test func checkReportsEveryProblemAndTheFilesRead() throws {
        let directory = try TemporaryDirectory()
        let system = try directory.write("etc/hooray/hooray.toml", "[log]\nlevel = \"loud\"\n")
        let user = try directory.write(
            "config/hooray/hooray.toml",
            """
            [[plugins.reminders.reminder]]
            title = "Stretch"
            at = "3pm"

            [plugins.remindrs]
            """)
        let loader = ConfigLoader(paths: directory.paths, plugins: [TestRemindersPlugin(), QuietPlugin()])

        let report = loader.check()

        #expect(report.files == [system, user])
        #expect(report.hasErrors)
        #expect(report.diagnostics.map(\.location?.file) == [system, user, user])
        #expect(report.diagnostics.map(\.severity) == [.error, .error, .warning])
        #expect(report.summary == "checked 2 files: 2 errors, 1 warning")
        #expect(report.description.hasSuffix("\nchecked 2 files: 2 errors, 1 warning"))
    }

    @Test func checkingOneFileReadsOnlyThatFile() throws {
        let directory = try TemporaryDirectory()
        try directory.write("etc/hooray/hooray.toml", "[log]\nlevel = \"loud\"\n")
        let single = try directory.write("single.toml", "[log]\nlevel = \"debug\"\n")

        let report = ConfigLoader(paths: directory.paths).check(onlyFile: single)

        #expect(report.files == [single])
        #expect(!report.hasErrors)
        #expect(report.description == "checked 1 file: no problems found")
    }

    @Test func aLoadWithOnlyWarningsSucceedsAndKeepsThem() throws {
        let directory = try TemporaryDirectory()
        try directory.write("config/hooray/hooray.toml", "[plugins.quiet]\nenabled = false\n[plugins.qiet]\n")

        let loaded = try ConfigLoader(paths: directory.paths, plugins: [QuietPlugin()]).load()

        #expect(!loaded.isEnabled("quiet"))
        #expect(loaded.warnings.map(\.message) == ["plugins: unknown plugin `qiet`"])
    }

    @Test func aPluginOffByDefaultRunsOnlyWhenItsSectionEnablesIt() throws {
        let directory = try TemporaryDirectory()
        let loader = ConfigLoader(paths: directory.paths, plugins: [ExamplePlugin(), QuietPlugin()])

        // Without a section, or with one that leaves `enabled` out, it is off; the others are on.
        #expect(try !loader.load().isEnabled("example"))
        #expect(try loader.load().isEnabled("quiet"))
        try directory.write("config/hooray/hooray.toml", "[plugins.example]\ncelebrations = \"off\"\n")
        #expect(try !loader.load().isEnabled("example"))

        try directory.write("config/hooray/hooray.toml", "[plugins.example]\nenabled = true\n")
        #expect(try loader.load().isEnabled("example"))
    }
}
