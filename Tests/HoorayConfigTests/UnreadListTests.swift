import Foundation
import HoorayKit
import RemindersPlugin
import Testing

@testable import HoorayConfig

/// hoorayd leaves a known, unchanged file of nothing but reminders unread at a start; everything
/// else reads every file.
@Suite struct UnreadListTests {
    /// A loader as hoorayd makes it: with a list cache below `directory`.
    func daemonLoader(_ directory: TemporaryDirectory) -> ConfigLoader {
        var loader = ConfigLoader(paths: directory.paths, plugins: [RemindersPlugin()])
        loader.version = "1.2.3"
        loader.listCacheFile = directory.path + "/cache/hooray/config-lists"
        return loader
    }

    func reminders(_ titles: String...) -> String {
        titles.map { "[[plugins.reminders.reminder]]\ntitle = \"\($0)\"\nat = \"09:00\"\n" }.joined(separator: "\n")
    }

    func titles(_ loaded: LoadedConfiguration) throws -> [String] {
        try loaded.configuration(of: RemindersPlugin()).reminder.map(\.title)
    }

    @Test("Reading everything later gives the configuration as loaded, not the files as edited since")
    func readingEverythingLaterReadsTheFilesAsLoaded() throws {
        let directory = try TemporaryDirectory()
        try directory.write("config/hooray/hooray.toml", "[delivery]\nicon = \"mine\"\n")
        try directory.write("config/hooray/conf.d/50-list.toml", reminders("A", "B"))
        try daemonLoader(directory).load().lists.writeCache()
        let loaded = try daemonLoader(directory).load()
        #expect(loaded.listContinuesUnread(plugin: "reminders"))
        // Both files change after the load: one is being typed, the other was edited without a reload.
        try directory.write("config/hooray/hooray.toml", "[delivery]\nicon = \"")
        try directory.write("config/hooray/conf.d/50-list.toml", reminders("Edited"))
        let everything = try loaded.readingEverything()
        #expect(try titles(everything) == ["A", "B"])
        #expect(everything.core.delivery.icon == "mine")
        #expect(everything.digest == loaded.digest)
    }

    @Test("One changed byte gives a file another digest, and the configuration another digest")
    func oneChangedByteChangesTheDigest() throws {
        let directory = try TemporaryDirectory()
        try directory.write("config/hooray/conf.d/50-list.toml", reminders("Stretch"))
        let before = try ConfigLoader(paths: directory.paths, plugins: [RemindersPlugin()]).load()
        try directory.write("config/hooray/conf.d/50-list.toml", reminders("Stretck"))
        let after = try ConfigLoader(paths: directory.paths, plugins: [RemindersPlugin()]).load()
        #expect(before.lists.fileDigests.count == 1)
        #expect(before.lists.fileDigests[0].count == 32)
        #expect(before.lists.fileDigests != after.lists.fileDigests)
        #expect(before.digest != after.digest)
        let again = try ConfigLoader(paths: directory.paths, plugins: [RemindersPlugin()]).load()
        #expect(again.digest == after.digest)
    }

    @Test("An unchanged file of nothing but reminders is left unread at hoorayd's next load, and read once changed")
    func anUnchangedListFileIsLeftUnreadUntilItChanges() throws {
        let directory = try TemporaryDirectory()
        try directory.write("config/hooray/hooray.toml", "[delivery]\nicon = \"mine\"\n" + reminders("Mine"))
        let list = try directory.write("config/hooray/conf.d/50-list.toml", "# mine\n\n" + reminders("A", "B"))
        try directory.write("config/hooray/conf.d/60-more.toml", reminders("C"))

        let first = try daemonLoader(directory).load()
        #expect(first.lists.unreadPlugins.isEmpty)
        #expect(try titles(first) == ["Mine", "A", "B", "C"])
        try first.lists.writeCache()

        let second = try daemonLoader(directory).load()
        #expect(second.listContinuesUnread(plugin: "reminders"))
        #expect(second.files == first.files, "a file left unread is still one of the configuration's files")
        #expect(second.digest == first.digest)
        #expect(try titles(second) == ["Mine"])
        #expect(second.core.delivery.icon == "mine")
        let everything = try second.readingEverything()
        #expect(try titles(everything) == ["Mine", "A", "B", "C"], "the whole list, in layer order")
        #expect(everything.digest == first.digest)

        // Every other reader reads everything.
        let checked = ConfigLoader(paths: directory.paths, plugins: [RemindersPlugin()])
        #expect(try titles(checked.load()) == ["Mine", "A", "B", "C"])

        try (reminders("A", "B") + "\n# changed\n").write(toFile: list, atomically: true, encoding: .utf8)
        let third = try daemonLoader(directory).load()
        #expect(third.listContinuesUnread(plugin: "reminders"), "the other file is still known")
        #expect(try titles(third) == ["Mine", "A", "B"])
        #expect(third.digest != first.digest)
    }

    @Test("Only a file of nothing but the list, with no error and no warning, is noted")
    func onlyCleanListFilesAreNoted() throws {
        let directory = try TemporaryDirectory()
        try directory.write("config/hooray/conf.d/10-clean.toml", reminders("A"))
        try directory.write("config/hooray/conf.d/20-core.toml", reminders("B") + "\n[delivery]\nicon = \"x\"\n")
        try directory.write(
            "config/hooray/conf.d/30-warned.toml", reminders("C") + "colour = \"red\"\n")
        try directory.write("config/hooray/conf.d/40-section.toml", "[plugins.reminders]\nenabled = true\n")
        let first = try daemonLoader(directory).load()
        #expect(!first.warnings.isEmpty, "the unknown key is warned about")
        #expect(Set(first.lists.cache.entries.keys) == [first.lists.fileDigests[0]])
        try first.lists.writeCache()

        let second = try daemonLoader(directory).load()
        #expect(second.listContinuesUnread(plugin: "reminders"))
        #expect(try titles(second) == ["B", "C"])
        #expect(second.core.delivery.icon == "x")
        #expect(second.warnings.map(\.location) == first.warnings.map(\.location), "the warned file is read again")
    }

    @Test("A missing, corrupt or other version's cache only means that every file is read")
    func aBadCacheMeansEverythingIsRead() throws {
        let directory = try TemporaryDirectory()
        try directory.write("config/hooray/conf.d/50-list.toml", reminders("A", "B"))
        try daemonLoader(directory).load().lists.writeCache()
        let cache = directory.path + "/cache/hooray/config-lists"
        #expect(try daemonLoader(directory).load().listContinuesUnread(plugin: "reminders"))

        let written = try String(contentsOfFile: cache, encoding: .utf8)
        for bad in [
            "", "garbage\n", written.replacingOccurrences(of: "1.2.3", with: "1.2.4"), String(written.dropLast(3)),
        ] {
            try bad.write(toFile: cache, atomically: true, encoding: .utf8)
            let loaded = try daemonLoader(directory).load()
            #expect(!loaded.listContinuesUnread(plugin: "reminders"), "\(bad)")
            #expect(try titles(loaded) == ["A", "B"])
        }
        try FileManager.default.removeItem(atPath: cache)
        let loaded = try daemonLoader(directory).load()
        #expect(try titles(loaded) == ["A", "B"])
        try loaded.lists.writeCache()
        #expect(try String(contentsOfFile: cache, encoding: .utf8) == written, "written again")
    }

    @Test("A file that holds the reminders in another shape has every file read, and merged as always")
    func anotherShapeElsewhereHasEverythingRead() throws {
        let directory = try TemporaryDirectory()
        try directory.write("config/hooray/conf.d/50-list.toml", reminders("A", "B"))
        try daemonLoader(directory).load().lists.writeCache()
        try directory.write("config/hooray/conf.d/60-clear.toml", "[plugins.reminders]\nreminder = []\n")
        let loaded = try daemonLoader(directory).load()
        #expect(!loaded.listContinuesUnread(plugin: "reminders"))
        #expect(try titles(loaded).isEmpty, "the empty list replaces the earlier one")
    }

    @Test("The files kept as loaded are held deflated, and read back whole")
    func theKeptFilesAreHeldDeflated() async throws {
        let directory = try TemporaryDirectory()
        let titles = (0..<2_000).map { "Reminder \($0)" }
        let list = titles.map { "[[plugins.reminders.reminder]]\ntitle = \"\($0)\"\nat = \"09:00\"\n" }
            .joined(separator: "\n")
        try directory.write("config/hooray/conf.d/50-list.toml", list)
        try daemonLoader(directory).load().lists.writeCache()
        let loaded = try daemonLoader(directory).load()
        let kept = try #require(loaded.lists.kept)
        // Deflated on a thread of its own: wait for it, then count.
        let deadline = ContinuousClock.now + .seconds(30)
        while !kept.isSettled, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(kept.isSettled)
        #expect(kept.heldBytes * 5 < list.utf8.count, "\(kept.heldBytes) bytes held for \(list.utf8.count)")

        try directory.write("config/hooray/conf.d/50-list.toml", reminders("Edited"))
        #expect(try self.titles(loaded.readingEverything()) == titles)
    }

    @Test("Bytes zlib cannot make smaller are kept as they are, and any bytes read back whole")
    func keptBytesRoundTrip() async throws {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<4_096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(KeptFiles.deflate(noise) == nil)
        #expect(KeptFiles.deflate([]) == nil)
        let text = Array(String(repeating: "[[plugins.reminders.reminder]]\n", count: 500).utf8)
        let deflated = try #require(KeptFiles.deflate(text))
        #expect(KeptFiles.inflate(deflated, size: text.count) == text)
        #expect(KeptFiles.inflate(deflated, size: text.count + 1) == nil, "a size that is not the original's")
        #expect(KeptFiles.inflate(Array(deflated.dropLast(4)), size: text.count) == nil, "cut short")

        let kept = KeptFiles(["/a.toml": noise, "/b.toml": text])
        let deadline = ContinuousClock.now + .seconds(30)
        while !kept.isSettled, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(kept.heldBytes == noise.count + deflated.count)
        let texts = kept.texts()
        #expect(texts["/a.toml"] == String(decoding: noise, as: UTF8.self))
        #expect(texts["/b.toml"] == String(decoding: text, as: UTF8.self))
    }
}
