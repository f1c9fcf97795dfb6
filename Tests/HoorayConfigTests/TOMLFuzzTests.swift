import Foundation
import HoorayAI
import HoorayConfig
import HoorayKit
import HoorayTesting
import RemindersPlugin
import Testing
import WinsPlugin

/// Half-typed and damaged configuration files: each is either read or refused with a location,
/// never a crash or a hang.
///
/// The inputs are the shipped `hooray.toml` and the valid toml-test documents, spoiled by a few
/// random edits from a fixed seed, so a failure can be replayed. `HOORAY_FUZZ_ITERATIONS` runs
/// more of them (the default keeps `make test` quick) and `HOORAY_FUZZ_SEED` other ones.
@Suite struct TOMLFuzzTests {
    static let iterations = ProcessInfo.processInfo.environment["HOORAY_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 3000

    /// `HOORAY_FUZZ_SEED`: another sequence of inputs than the one `make test` runs.
    static let seed = ProcessInfo.processInfo.environment["HOORAY_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x486F_6F72_6179

    /// `HOORAY_FUZZ_LAST_INPUT`: where to write each input before it is parsed.
    static let lastInputFile = ProcessInfo.processInfo.environment["HOORAY_FUZZ_LAST_INPUT"].map {
        URL(fileURLWithPath: $0)
    }

    static let seeds: [String] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let shipped =
            (try? String(contentsOfFile: root.appendingPathComponent("Config/hooray.toml").path, encoding: .utf8))
        let corpus = ((try? CorpusFile.all(in: "valid")) ?? []).compactMap {
            try? String(contentsOfFile: $0.path, encoding: .utf8)
        }
        return [shipped ?? "", reminders] + corpus
    }()

    static let reminders = """
        [[plugins.reminders.reminder]]
        title = "Stretch"
        body = '''Stand up and roll your shoulders.'''
        at = "15:00"
        days = "mon-fri"

        [plugins.wins]
        welcome = false
        retry_first = "30s"

        [scheduler]
        catch_up_within = "2h"
        """

    @Test func spoiledDocumentsAreReadOrRefusedWithALocation() {
        var random = SeededRandomNumberGenerator(seed: Self.seed)
        var refused = 0
        for iteration in 0..<Self.iterations {
            let text = Self.spoil(Self.seeds.randomElement(using: &random)!, using: &random)
            // A crash ends the process: the input that caused it is left in this file.
            if let trace = Self.lastInputFile { try? Data(text.utf8).write(to: trace) }
            do {
                _ = try ConfigFileParser.parse(text, file: "fuzz.toml")
            } catch {
                refused += 1
                let placed = error.errors.allSatisfy(\.isPlaced) && !error.errors.isEmpty
                #expect(
                    placed, "iteration \(iteration): refused without a location: \(error)\n\(text.debugDescription)")
            }
        }
        #expect(refused > Self.iterations / 4, "the edits should spoil many documents")
    }

    @Test func spoiledFilesGoThroughTheWholeLoader() throws {
        let directory = try TemporaryDirectory()
        let ai = ExtraSection(name: AIConfiguration.sectionName, as: AIConfiguration.self, default: .defaults)
        let loader = ConfigLoader(
            paths: directory.paths, plugins: [RemindersPlugin(), WinsPlugin()], extraSections: [ai])
        var random = SeededRandomNumberGenerator(seed: Self.seed ^ 0x6C6F_6164)
        let file = directory.path + "/hooray.toml"
        for iteration in 0..<max(1, Self.iterations / 10) {
            let text = Self.spoil(Self.seeds[iteration % 2], using: &random)
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            let report = loader.check(onlyFile: file)
            for diagnostic in report.diagnostics.errors where diagnostic.location == nil {
                Issue.record("iteration \(iteration): an error without a file: \(diagnostic)")
            }
        }
    }

    /// One to three edits, most of them small.
    static func spoil(_ text: String, using random: inout SeededRandomNumberGenerator) -> String {
        var text = text
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            text = TextMutations.mutate(text, using: &random)
        }
        return text
    }
}
