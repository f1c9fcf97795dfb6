import Foundation
import HoorayTOML
import HoorayTesting
import Testing

/// The corpus's valid documents and the shipped configuration, spoiled by random edits from a fixed
/// seed: each is read or refused with places, printed back byte for byte, and never crashes; reading
/// only its values gives the same values and mistakes.
/// `HOORAY_FUZZ_ITERATIONS` runs more of them, `HOORAY_FUZZ_SEED` other ones.
@Suite struct FuzzTests {
    static let iterations = ProcessInfo.processInfo.environment["HOORAY_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 5000
    static let seed = ProcessInfo.processInfo.environment["HOORAY_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x544F_4D4C

    static let seeds: [String] = {
        let corpus = ((try? CorpusFile.listed(for: .v1_1)) ?? []).filter { $0.name.hasPrefix("valid/") }
        return [String(decoding: HostileInputTests.shipped, as: UTF8.self)]
            + corpus.compactMap { String(bytes: $0.bytes, encoding: .utf8) }
    }()

    @Test func spoiledDocumentsAreReadOrRefusedWithPlacesAndPrintedBack() {
        var random = SeededRandomNumberGenerator(seed: Self.seed)
        var refused = 0
        for iteration in 0..<Self.iterations {
            var text = Self.seeds[iteration % 3 == 0 ? 0 : Int.random(in: 0..<Self.seeds.count, using: &random)]
            for _ in 0..<Int.random(in: 1...3, using: &random) { text = TextMutations.mutate(text, using: &random) }
            let version: TOMLVersion = iteration % 2 == 0 ? .v1_1 : .v1_0
            let document = TOMLDocument(parsing: text, version: version)
            if !document.isValid { refused += 1 }
            let length = text.utf8.count
            for diagnostic in document.diagnostics where diagnostic.offset > length || diagnostic.line < 1 {
                Issue.record("iteration \(iteration): \(diagnostic) is outside the text\n\(text.debugDescription)")
            }
            #expect(document.text == text, "iteration \(iteration)")
            let values = TOMLDocument.values(parsing: text, version: version)
            #expect(
                values.root.isSame(as: document.root) && values.diagnostics == document.diagnostics,
                "iteration \(iteration): reading only the values read other values or mistakes")
        }
        #expect(refused > Self.iterations / 4, "the edits should spoil many documents")
    }
}
