import Foundation
import HooraySystemTesting
import Testing

/// po/hooray.pot, the template translators start from, holds every text the desktop app translates.
@Suite(.timeLimit(.minutes(2)))
struct TranslationTemplateTests {
    /// The template without its creation date, which changes at each run.
    static func messages(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("\"POT-Creation-Date:") }.joined(separator: "\n")
    }

    @Test("po/hooray.pot is what scripts/make-pot makes of the app's sources now (run `make pot` when not)")
    func theTemplateIsCurrent() async throws {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-\(UUID().uuidString).pot").path
        defer { try? FileManager.default.removeItem(atPath: made) }
        let run = try await ProcessRunner.run(
            "/usr/bin/python3", arguments: [Documentation.root + "/scripts/make-pot", "--output", made],
            timeout: .seconds(60))
        try #require(run.status.isSuccess, "\(run.standardOutput)\(run.standardError)")
        let committed = try Self.messages(Documentation.root + "/po/hooray.pot")
        #expect(try Self.messages(made) == committed, "po/hooray.pot is out of date: run `make pot` and commit it")
        // The texts of the window are there, plurals included: the template is not empty by mistake.
        for text in ["msgid \"I _Did a Thing\"", "msgid \"%d moment logged\"\nmsgid_plural \"%d moments logged\""] {
            #expect(committed.contains(text), "\(text)")
        }
    }
}
