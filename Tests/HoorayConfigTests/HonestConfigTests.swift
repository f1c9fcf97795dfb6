import Foundation
import HoorayConfig
import HoorayKit
import Testing

/// Issue 29: what the loader says about files and keys is true and complete.
@Suite struct HonestConfigTests {
    @Test("Item 9: a --config file that does not exist stops a lenient load, naming the file and the fix")
    func aMissingExplicitFileIsNotLeftOutQuietly() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path + "/nonexistent.toml"
        let loader = ConfigLoader(paths: directory.paths, explicitFile: missing)
        #expect {
            _ = try loader.loadLeniently(for: nil)
        } throws: { error in
            let text = "\(error)"
            return text.contains("cannot read \(missing): no such file") && text.contains("leave --config out")
        }
    }

    @Test("Item 9: a file that cannot be read is left out as \"the file\", not as the settings at its top")
    func anUnreadableFileIsNamedAsAFile() throws {
        let directory = try TemporaryDirectory()
        // A folder where a drop-in file is expected cannot be read as one.
        try FileManager.default.createDirectory(
            atPath: directory.path + "/config/hooray/conf.d/broken.toml", withIntermediateDirectories: true)
        let lenient = try ConfigLoader(paths: directory.paths).loadLeniently(for: nil)
        #expect(lenient.ignored.map(\.part) == ["the file"])
    }

    @Test("Item 9: a syntax error before any section leaves out the top of the file, in words that read right")
    func aBrokenTopIsNamedInWordsThatReadRight() throws {
        let directory = try TemporaryDirectory()
        try directory.write("config/hooray/hooray.toml", "oops = = 1\n\n[log]\nlevel = \"debug\"\n")
        let lenient = try ConfigLoader(paths: directory.paths).loadLeniently(for: nil)
        #expect(lenient.ignored.map(\.part) == ["the top of the file (before any [section])"])
        #expect(lenient.loaded.core.log.level == .debug)
    }

    @Test("Item 11: an unknown top-level table is reported even when another section has an error")
    func unknownTablesAreReportedBesideErrors() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "config/hooray/hooray.toml",
            """
            [log]
            level = "loud"

            [colours]
            theme = "dark"

            [pluginz.wins]
            welcome = false
            """)
        let report = ConfigLoader(
            paths: directory.paths,
            extraSections: [
                ExtraSection(name: "ai", as: Bool.self, default: false)
            ]
        ).check()
        #expect(report.diagnostics.errors.count == 1)
        let warnings = report.diagnostics.warnings
        let pluginz = try #require(warnings.first { $0.message.contains("unknown key `pluginz`") }, "\(report)")
        #expect(pluginz.hint == "did you mean `plugins`?")
        #expect(pluginz.location?.line == 7)
        let colours = try #require(warnings.first { $0.message.contains("unknown key `colours`") }, "\(report)")
        let hint = try #require(colours.hint)
        for key in ["scheduler", "delivery", "log", "celebrations", "identity", "storage", "ai", "plugins"] {
            #expect(hint.contains("`\(key)`"), "\(hint)")
        }
    }

    @Test("Item 7: the places list every layer in order, with each drop-in file after its folder")
    func placesListEveryLayerInOrder() throws {
        let directory = try TemporaryDirectory()
        let dropIn = try directory.write("etc/hooray/conf.d/20-b.toml", "")
        let earlier = try directory.write("etc/hooray/conf.d/10-a.toml", "")
        let user = try directory.write("config/hooray/hooray.toml", "")
        let extra = directory.path + "/extra.toml"
        let places = ConfigLoader(paths: directory.paths, explicitFile: extra).places()
        #expect(
            places.map(\.path) == [
                directory.paths.systemFile, directory.paths.systemDropInDirectory, earlier, dropIn, user,
                directory.paths.userDropInDirectory, extra,
            ])
        #expect(places.map(\.exists) == [false, true, true, true, true, false, false])
        #expect(
            places.map(\.layer) == [
                .system, .systemDropIn, .systemDropIn, .systemDropIn, .user, .userDropIn, .commandLine,
            ])
        #expect(places.map(\.isFolder) == [false, true, false, false, false, true, false])
    }
}

extension HonestConfigTests {
    @Test func aLineOfAMultiLineStringThatLooksLikeAHeaderDoesNotMoveTheMistakeToAnotherSection() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "config/hooray/hooray.toml",
            """
            [plugins.reminders]
            note = \"\"\"
            [plugins.swaps]
            \"\"\"
            oops = = 1

            [plugins.swaps]
            night_prep = "20:00"

            """)
        let lenient = try ConfigLoader(paths: directory.paths).loadLeniently(for: nil)
        #expect(lenient.ignored.count == 1)
        #expect(lenient.ignored.map(\.part) == ["the reminders section"])
        #expect(lenient.loaded.root["plugins"]?["reminders"] == nil)
        #expect(lenient.loaded.root["plugins"]?["swaps"]?["night_prep"]?.value == .string("20:00"))
    }
}
