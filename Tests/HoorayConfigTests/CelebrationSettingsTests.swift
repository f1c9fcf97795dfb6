import HoorayConfig
import HoorayKit
import Testing

/// `[celebrations] style` and each plugin's `[plugins.NAME] celebrations`.
@Suite struct CelebrationSettingsTests {
    @Test(arguments: CelebrationStyle.allCases)
    func theStyleIsReadFromItsSection(style: CelebrationStyle) throws {
        let directory = try TemporaryDirectory()
        let (root, _) = try parseFile("[celebrations]\nstyle = \"\(style.rawValue)\"\n", in: directory)

        let (settings, warnings) = try CoreSettings.decode(from: root)

        #expect(settings.celebrations.style == style)
        #expect(warnings.isEmpty)
    }

    @Test(arguments: [
        ("party", nil),
        ("playfull", "did you mean \"playful\"?"),
        ("Calm", "did you mean \"calm\"?"),
    ])
    func aBadStyleIsAnErrorAtItsPlaceListingTheStyles(style: String, hint: String?) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("config/hooray/hooray.toml", "[celebrations]\nstyle = \"\(style)\"\n")

        let report = ConfigLoader(paths: directory.paths).check()

        let found = try #require(report.diagnostics.first)
        #expect(report.diagnostics.count == 1)
        #expect(report.hasErrors)
        #expect(found.location == Location(file: file, line: 2, column: 9))
        #expect(found.message == "celebrations.style: \"\(style)\" is not one of \"calm\", \"playful\" or \"off\"")
        #expect(found.hint == hint)
        #expect(report.description.hasPrefix("\(file):2:9: error: celebrations.style: \"\(style)\" is not one of"))
    }

    @Test func aStyleThatIsNotAStringIsAnError() throws {
        let directory = try TemporaryDirectory()
        let (root, file) = try parseFile("[celebrations]\nstyle = true\n", in: directory)

        let found = diagnostics { try CoreSettings.decode(from: root) }

        #expect(
            found.map(\.description) == [
                "\(file):2:9: error: celebrations.style: expected one of \"calm\", \"playful\" or \"off\", found boolean true"
            ])
    }

    @Test func theCelebrationWindowIsOnUnlessTurnedOff() throws {
        let directory = try TemporaryDirectory()
        let (unset, _) = try parseFile("[celebrations]\nstyle = \"calm\"\n", in: directory)
        let (off, _) = try parseFile("[celebrations]\nwindow = false\n", in: directory)

        #expect(try CoreSettings.decode(from: unset).0.celebrations.window)
        let (settings, warnings) = try CoreSettings.decode(from: off)
        #expect(!settings.celebrations.window)
        #expect(settings.celebrations.style == .calm)
        #expect(warnings.isEmpty)
    }

    @Test func aWindowThatIsNotTrueOrFalseIsAnErrorAtItsPlace() throws {
        let directory = try TemporaryDirectory()
        let (root, file) = try parseFile("[celebrations]\nwindow = \"no\"\n", in: directory)

        let found = diagnostics { try CoreSettings.decode(from: root) }

        #expect(found.count == 1)
        #expect(
            found.first?.description.hasPrefix("\(file):2:10: error: celebrations.window: expected") == true, "\(found)"
        )
    }

    @Test func aPluginsOwnStyleOverridesTheGlobalOne() throws {
        let directory = try TemporaryDirectory()
        try directory.write("etc/hooray/hooray.toml", "[celebrations]\nstyle = \"playful\"\n")
        try directory.write(
            "config/hooray/hooray.toml",
            """
            [plugins.reminders]
            celebrations = "off"
            """)

        let loaded = try ConfigLoader(paths: directory.paths, plugins: [TestRemindersPlugin(), QuietPlugin()]).load()

        #expect(loaded.core.celebrations.style == .playful)
        #expect(loaded.pluginSections["reminders"]?.celebrationStyle == .off)
        #expect(loaded.pluginSections["quiet"]?.celebrationStyle == nil)
        #expect(loaded.celebrationStyle(of: "reminders") == .off)
        #expect(loaded.celebrationStyle(of: "quiet") == .playful)
        #expect(loaded.warnings.isEmpty)
    }

    @Test func withNothingSetEveryPluginCelebratesCalmly() throws {
        let directory = try TemporaryDirectory()

        let loaded = try ConfigLoader(paths: directory.paths, plugins: [TestRemindersPlugin(), QuietPlugin()]).load()

        #expect(loaded.celebrationStyle(of: "reminders") == .calm)
        #expect(loaded.celebrationStyle(of: "quiet") == .calm)
    }

    @Test func theOverrideIsNeverAnUnknownKeyWhateverThePluginsConfiguration() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "config/hooray/hooray.toml",
            """
            [plugins.reminders]
            celebrations = "playful"
            [plugins.quiet]
            celebrations = "calm"
            """)

        let report = ConfigLoader(paths: directory.paths, plugins: [TestRemindersPlugin(), QuietPlugin()]).check()

        #expect(report.diagnostics.isEmpty, "\(report)")
    }

    @Test func aBadOverrideIsAnErrorAtItsPlace() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "config/hooray/hooray.toml",
            """
            [plugins.quiet]
            enabled = true
            celebrations = "ofF"
            """)

        let report = ConfigLoader(paths: directory.paths, plugins: [QuietPlugin()]).check()

        #expect(
            report.diagnostics.map(\.description) == [
                "\(file):3:16: error: plugins.quiet.celebrations: \"ofF\" is not one of \"calm\", \"playful\" or \"off\""
                    + "\n    hint: did you mean \"off\"?"
            ])
        let found = diagnostics { try ConfigLoader(paths: directory.paths, plugins: [QuietPlugin()]).load() }
        #expect(found.errors.count == 1)
    }
}
