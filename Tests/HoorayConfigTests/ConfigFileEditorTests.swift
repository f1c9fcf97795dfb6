import Foundation
import HoorayConfig
import HoorayKit
import SwapsPlugin
import Testing

/// `hooray config set`'s editor on real files: what it writes, and the files it refuses to write.
@Suite struct ConfigFileEditorTests {
    func editor(_ directory: TemporaryDirectory) throws -> ConfigFileEditor {
        try ConfigFileEditor(loader: ConfigLoader(paths: directory.paths, plugins: [SwapsPlugin()]))
    }

    @Test func aFileChangedAfterItWasReadIsNotWrittenOver() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("config/hooray/hooray.toml", "[plugins.swaps]\n")
        var editor = try editor(directory)
        editor.beforeWrite = { try? "[plugins.swaps]\n# mine\n".write(toFile: file, atomically: true, encoding: .utf8) }
        let refusal = #expect(throws: ConfigEditRefusal.self) {
            try editor.apply(.set(["plugins", "swaps", "night_prep"], .string("off")))
        }
        #expect(refusal?.kind == .changed)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "[plugins.swaps]\n# mine\n")
    }

    @Test func aLinkedFileIsChangedWhereItIsAndStaysALink() throws {
        let directory = try TemporaryDirectory()
        let target = try directory.write("dotfiles/hooray.toml", "# kept in git\n")
        try FileManager.default.createDirectory(
            atPath: directory.path + "/config/hooray", withIntermediateDirectories: true)
        let link = directory.path + "/config/hooray/hooray.toml"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        _ = try editor(directory).apply(.set(["plugins", "swaps", "night_prep"], .string("off")))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(
            try String(contentsOfFile: target, encoding: .utf8)
                == "# kept in git\n\n[plugins.swaps]\nnight_prep = \"off\"\n")
    }

    @Test func aLinkToAFileNotMadeYetMakesThatFileAndStaysALink() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: directory.path + "/dotfiles", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: directory.path + "/config/hooray", withIntermediateDirectories: true)
        let link = directory.path + "/config/hooray/hooray.toml"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../../dotfiles/hooray.toml")
        _ = try editor(directory).apply(.set(["plugins", "swaps", "night_prep"], .string("off")))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "../../dotfiles/hooray.toml")
        #expect(
            try String(contentsOfFile: directory.path + "/dotfiles/hooray.toml", encoding: .utf8)
                == "[plugins.swaps]\nnight_prep = \"off\"\n")
    }

    @Test func wordsThatLookLikeTOMLAreAStringWhenTheKeyTakesOne() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("config/hooray/hooray.toml", "[delivery]\n")
        let (_, written) = try editor(directory).set(["delivery", "icon"], typed: "true")
        #expect(written == .string("true"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "[delivery]\nicon = \"true\"\n")
    }

    @Test func aKeyALaterFileSetsTooIsNamedAsTheOneThatWins() throws {
        let directory = try TemporaryDirectory()
        try directory.write("config/hooray/hooray.toml", "")
        let dropIn = try directory.write("config/hooray/conf.d/50-mine.toml", "[plugins.swaps]\nnight_prep = \"off\"\n")
        let (outcome, _) = try editor(directory).set(["plugins", "swaps", "night_prep"], typed: "21:30")
        #expect(outcome.overriddenBy == dropIn)
        #expect(outcome.changed)
    }

    @Test func theSystemsFilesAreNeverWritten() throws {
        let directory = try TemporaryDirectory()
        let system = try directory.write("etc/hooray/hooray.toml", "")
        let refusal = #expect(throws: ConfigEditRefusal.self) {
            try ConfigFileEditor(loader: ConfigLoader(paths: directory.paths, explicitFile: system))
        }
        #expect(refusal?.kind == .usage)
    }

    @Test func aNewFileNamedThroughALinkToTheSystemsFolderIsNotWrittenEither() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("etc/hooray/hooray.toml", "")
        let link = directory.path + "/settings"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.path + "/etc/hooray")
        let refusal = #expect(throws: ConfigEditRefusal.self) {
            try ConfigFileEditor(loader: ConfigLoader(paths: directory.paths, explicitFile: link + "/new.toml"))
        }
        #expect(refusal?.kind == .usage)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/etc/hooray/new.toml"))
    }

    @Test func keyPathsAreReadAsTOMLWritesThem() throws {
        #expect(try ConfigKeyText.keys("plugins.swaps.night_prep") == ["plugins", "swaps", "night_prep"])
        #expect(try ConfigKeyText.keys("plugins.\"my plugin\".enabled") == ["plugins", "my plugin", "enabled"])
        #expect(try ConfigKeyText.keys("a . 'b.c'") == ["a", "b.c"])
        // Escapes in double quotes mean what they mean in the file.
        #expect(try ConfigKeyText.keys(#""caf\u00E9".x"#) == ["café", "x"])
        #expect(try ConfigKeyText.keys(#""a\"b".'c\d'"#) == ["a\"b", "c\\d"])
        for bad in ["", ".a", "a.", "a..b", "a b", "\"open", #""bad \q escape""#] {
            #expect(throws: ConfigEditRefusal.self, "\(bad)") { try ConfigKeyText.keys(bad) }
        }
    }
}
